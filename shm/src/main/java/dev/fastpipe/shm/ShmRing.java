package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/** One mapped ring file: the header of {@link ShmRingDescriptor} plus an Agrona one-to-one ring. */
final class ShmRing {
  final Path path;
  final int shard;
  final UnsafeBuffer header;
  final OneToOneRingBuffer ring;
  private final MappedByteBuffer mapped; // keeps the mapping alive as long as this object lives

  private ShmRing(Path path, MappedByteBuffer mapped, int shard) {
    this.path = path;
    this.mapped = mapped;
    this.header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
    int capacity = header.getInt(CAPACITY_OFFSET);
    this.ring = new OneToOneRingBuffer(new UnsafeBuffer(mapped, HEADER_LENGTH, ringRegionLength(capacity)));
    this.shard = shard;
  }

  /** Creates the file (must not exist), mode 0600, writes the header; the magic goes last. */
  static ShmRing create(Path path, int shard, int capacity) {
    checkCapacity(capacity);
    try (FileChannel ch = FileChannel.open(path,
        java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileLength(capacity));
      UnsafeBuffer h = new UnsafeBuffer(m, 0, HEADER_LENGTH);
      h.putInt(VERSION_OFFSET, VERSION);
      h.putInt(CAPACITY_OFFSET, capacity);
      h.putLong(OWNER_PID_OFFSET, ProcessHandle.current().pid());
      h.putInt(SHARD_OFFSET, shard);
      h.putLongVolatile(MAGIC_OFFSET, MAGIC);
      return new ShmRing(path, m, shard);
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot create ring file: " + e.getMessage(), e);
    }
  }

  /** Maps an existing, initialised ring file. */
  static ShmRing open(Path path) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      if (size < HEADER_LENGTH) throw new IllegalStateException(path + ": not a fastpipe ring (only " + size + " bytes)");
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
      UnsafeBuffer h = new UnsafeBuffer(m, 0, HEADER_LENGTH);
      if (h.getLongVolatile(MAGIC_OFFSET) != MAGIC) throw new IllegalStateException(path + ": not an initialised fastpipe ring (bad magic)");
      if (h.getInt(VERSION_OFFSET) != VERSION) throw new IllegalStateException(path + ": ring layout version " + h.getInt(VERSION_OFFSET) + ", expected " + VERSION);
      int capacity = h.getInt(CAPACITY_OFFSET);
      if (size < fileLength(capacity)) throw new IllegalStateException(path + ": truncated ring file (" + size + " < " + fileLength(capacity) + " bytes)");
      return new ShmRing(path, m, h.getInt(SHARD_OFFSET));
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot open ring file: " + e.getMessage(), e);
    }
  }

  /** The owner pid recorded in a ring file's header, or 0 when the file is too short to say. */
  static long readOwnerPid(Path path) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(OWNER_PID_OFFSET + 8).order(ByteOrder.nativeOrder());
      while (b.hasRemaining() && ch.read(b) > 0) { }
      return b.hasRemaining() ? 0 : b.getLong(OWNER_PID_OFFSET);
    } catch (IOException e) {
      return 0;
    }
  }

  int capacity() { return ring.capacity(); }

  /** Claims the producer slot of this ring for the calling process (CAS 0 or a dead pid -> us). */
  void claimProducer() {
    long me = ProcessHandle.current().pid();
    while (true) {
      long cur = header.getLongVolatile(PRODUCER_PID_OFFSET);
      if (cur == me) return;
      if (cur != 0 && ProcessHandle.of(cur).map(ProcessHandle::isAlive).orElse(false)) {
        throw new IllegalStateException(path + ": shard " + shard + " already has a live producer (pid " + cur + ")");
      }
      if (header.compareAndSetLong(PRODUCER_PID_OFFSET, cur, me)) return;
    }
  }

  boolean endOfStream() { return header.getIntVolatile(END_OF_STREAM_OFFSET) != 0; }

  TransportStats stats() {
    long fill = ring.producerPosition() - ring.consumerPosition();
    return new TransportStats(shard, capacity(), fill,
        Math.max(fill, header.getLongVolatile(MAX_FILL_OFFSET)),
        header.getLongVolatile(RECORDS_COMMITTED_OFFSET), header.getLongVolatile(RECORDS_CONSUMED_OFFSET),
        header.getLongVolatile(PRODUCER_STALL_NS_OFFSET), header.getLongVolatile(CONSUMER_IDLE_NS_OFFSET));
  }
}
