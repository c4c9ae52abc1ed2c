package dev.fastpipe.shm;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Layout of one shard's ring file {@code /dev/shm/fastpipe-<runId>-<shard>}: a 4 KiB header,
 * then an Agrona {@link org.agrona.concurrent.ringbuffer.OneToOneRingBuffer} (capacity bytes of
 * records followed by Agrona's own trailer of positions). Any process may read any field at any
 * time. The file only appears under its name complete: the creator writes it in full (header, then
 * zeros through the last byte, so the tmpfs pages exist before anything maps them) under
 * {@code .fastpipe-<runId>-<shard>.creating}, then links it into place; a file under the ring's
 * name always names its owner. Writers:
 * <ul>
 *   <li>magic, version, capacity, owner pid, owner start time, owner pid namespace, shard: the
 *       creator (consumer side), once, before the file has its name ({@link RingOwner} says why
 *       the pid alone does not identify a process);
 *   <li>producer pid: any process that attaches a producer, by compare-and-set from 0 or from a
 *       dead process's pid, so two processes racing for one shard cannot both win;
 *   <li>end of stream, producer stall, records committed, max fill, heartbeat, progress: the
 *       producer alone, with volatile or ordered stores (stall CPU: the producer thread's CPU
 *       time during its stalls, published as each stall ends). Stall time is published while the producer
 *       waits, not only when the wait ends, so live metrics see a long stall as it happens; progress
 *       is a count the producer's user chooses ({@link ExampleProducer#progress}: examples made). The heartbeat counts up on every claim and commit
 *       and all the time a producer waits on a full ring (waiting for a slow consumer is healthy),
 *       so a producer that stops without dying (SIGSTOP, a hang) is seen by its counter standing;
 *   <li>records consumed: the consumer, with ordered stores; consumer idle nanoseconds: the idle
 *       time the {@link ConsumerLoop} of every consumer that polls the ring measured (reported to it
 *       through {@link ExampleConsumer#idled}), added with an atomic add, so no addition is lost.
 * </ul>
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  0
 *  |                        Magic "FPSHMRG1"                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+  8
 *  |                        Layout version                         |
 *  +---------------------------------------------------------------+ 12
 *  |                  Ring capacity (power of two)                 |
 *  +---------------------------------------------------------------+ 16
 *  |             Owner pid (creator, the consumer side)            |
 *  |                                                               |
 *  +---------------------------------------------------------------+ 24
 *  |        Producer pid (0 until a producer attaches, CAS)        |
 *  |                                                               |
 *  +---------------------------------------------------------------+ 32
 *  |                            Shard                              |
 *  +---------------------------------------------------------------+ 36
 *  |                           Reserved                            |
 *  +---------------------------------------------------------------+ 40
 *  |   Owner start time (/proc/PID/stat starttime, 0 = unknown)    |
 *  |                                                               |
 *  +---------------------------------------------------------------+ 48
 *  |     Owner pid namespace (inode of /proc/PID/ns/pid, 0 = ?)    |
 *  |                                                               |
 *  +---------------------------------------------------------------+ 56
 *  |                     Reserved to byte 64                      ...
 *  +---------------------------------------------------------------+ 64
 *  |        End of stream (0/1, producer, after its last commit)   |
 *  +---------------------------------------------------------------+ 68
 *  |                     Reserved to byte 128                     ...
 *  +---------------------------------------------------------------+ 128  producer's line
 *  |                  Producer stall nanoseconds                   |
 *  +---------------------------------------------------------------+ 136
 *  |                      Records committed                        |
 *  +---------------------------------------------------------------+ 144
 *  |                    Max fill level (bytes)                     |
 *  +---------------------------------------------------------------+ 152
 *  |               Producer heartbeat (counts up)                  |
 *  +---------------------------------------------------------------+ 160
 *  |            Producer progress (units the user counts)          |
 *  +---------------------------------------------------------------+ 168
 *  |      Producer stall CPU nanoseconds (its thread, at each end)  |
 *  +---------------------------------------------------------------+ 176
 *  |                     Reserved to byte 192                     ...
 *  +---------------------------------------------------------------+ 192  consumer's line
 *  |                   Consumer idle nanoseconds                   |
 *  +---------------------------------------------------------------+ 200
 *  |                       Records consumed                        |
 *  +---------------------------------------------------------------+ 208
 *  |                    Reserved to byte 4096                     ...
 *  +---------------------------------------------------------------+ 4096
 *  |            Agrona ring: capacity + TRAILER_LENGTH bytes      ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ShmRingDescriptor {
  /** "FPSHMRG1" little-endian. */
  public static final long MAGIC = 0x3147524D48535046L;
  /**
   * 3: producer stall CPU. 2: owner start time and pid namespace, producer
   * heartbeat; files appear complete.
   */
  public static final int VERSION = 3;

  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 8;
  public static final int CAPACITY_OFFSET = 12;
  public static final int OWNER_PID_OFFSET = 16;
  public static final int PRODUCER_PID_OFFSET = 24;
  public static final int SHARD_OFFSET = 32;
  public static final int OWNER_START_OFFSET = 40;
  public static final int OWNER_PID_NS_OFFSET = 48;
  public static final int END_OF_STREAM_OFFSET = 64;
  public static final int PRODUCER_STALL_NS_OFFSET = 128;
  public static final int RECORDS_COMMITTED_OFFSET = 136;
  public static final int MAX_FILL_OFFSET = 144;
  public static final int PRODUCER_HEARTBEAT_OFFSET = 152;
  public static final int PRODUCER_PROGRESS_OFFSET = 160;
  public static final int PRODUCER_STALL_CPU_NS_OFFSET = 168;
  public static final int CONSUMER_IDLE_NS_OFFSET = 192;
  public static final int RECORDS_CONSUMED_OFFSET = 200;
  public static final int HEADER_LENGTH = 4096;

  private ShmRingDescriptor() {}

  /** The whole file's length for a ring of {@code capacity} bytes. */
  public static long fileLength(int capacity) {
    return (long) HEADER_LENGTH + capacity + RingBufferDescriptor.TRAILER_LENGTH;
  }

  /** Length of the Agrona ring region (records + trailer). */
  public static int ringRegionLength(int capacity) {
    return capacity + RingBufferDescriptor.TRAILER_LENGTH;
  }

  /** Throws unless {@code capacity} is a power of two Agrona accepts. */
  public static void checkCapacity(int capacity) {
    if (!BitUtil.isPowerOfTwo(capacity)) {
      throw new IllegalArgumentException(
          "--ring-size must be a power of two for the shm ring, got " + capacity
              + " (try " + BitUtil.findNextPositivePowerOfTwo(capacity) + ")");
    }
  }
}
