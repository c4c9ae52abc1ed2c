package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/** One mapped ring file: the header of {@link ShmRingDescriptor} plus an Agrona one-to-one ring. */
final class ShmRing {
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20).asReadOnlyBuffer();

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

  /**
   * Creates the file (must not exist), mode 0600, complete before it has its name: header and
   * zeros through the last byte are written under {@link #creatingPath}, which is then linked to
   * {@code path} (link(2) never replaces a file, so two creators of one name cannot both win).
   * Every page is written before anything maps the file: on a tmpfs that fills up, the write fails
   * here with ENOSPC instead of a later store into the mapping being a SIGBUS.
   */
  static ShmRing create(Path path, int shard, int capacity) {
    checkCapacity(capacity);
    Path temp = creatingPath(path);
    FileChannel ch;
    try {
      ch = FileChannel.open(temp,
          java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      throw new IllegalStateException(temp + ": already exists (another run with the same id?)", e);
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot create ring file: " + e.getMessage(), e);
    }
    ShmFiles.register(temp);
    boolean linked = false;
    boolean ok = false;
    try (ch) {
      writeFully(ch, ByteBuffer.wrap(header(shard, capacity)), 0);
      for (long at = HEADER_LENGTH, end = fileLength(capacity); at < end; at += ZEROS.capacity()) {
        writeFully(ch, ZEROS.duplicate().limit((int) Math.min(ZEROS.capacity(), end - at)), at);
      }
      ShmFiles.register(path);
      try {
        Files.createLink(path, temp);
      } catch (FileAlreadyExistsException e) {
        ShmFiles.forget(path); // someone else's file: not ours to delete
        throw new IllegalStateException(path + ": already exists (another run with the same id?)", e);
      }
      linked = true;
      ShmRing ring = new ShmRing(path, ch.map(FileChannel.MapMode.READ_WRITE, 0, fileLength(capacity)), shard);
      ok = true;
      return ring;
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot create ring file: " + e.getMessage(), e);
    } finally {
      ShmFiles.delete(temp);
      if (linked && !ok) ShmFiles.delete(path);
    }
  }

  /** Where {@link #create} writes a ring before it has its name: {@code .fastpipe-<runId>-<shard>.creating}. */
  static Path creatingPath(Path ring) {
    return ring.resolveSibling("." + ring.getFileName() + ".creating");
  }

  private static byte[] header(int shard, int capacity) {
    byte[] bytes = new byte[HEADER_LENGTH];
    UnsafeBuffer h = new UnsafeBuffer(bytes); // native order, as the mapping is read
    RingOwner me = RingOwner.current();
    h.putLong(MAGIC_OFFSET, MAGIC);
    h.putInt(VERSION_OFFSET, VERSION);
    h.putInt(CAPACITY_OFFSET, capacity);
    h.putLong(OWNER_PID_OFFSET, me.pid());
    h.putLong(OWNER_START_OFFSET, me.startTicks());
    h.putLong(OWNER_PID_NS_OFFSET, me.pidNamespace());
    h.putInt(SHARD_OFFSET, shard);
    return bytes;
  }

  private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    while (b.hasRemaining()) at += ch.write(b, at);
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

  /** The owner pid recorded in a ring file's header, or 0 when none is. */
  static long readOwnerPid(Path path) {
    return readOwner(path).pid();
  }

  /**
   * The owner recorded in a ring file's header (or in a {@link #creatingPath} file); pid 0 when
   * none is: the file is shorter than the owner fields or lacks the magic.
   */
  static RingOwner readOwner(Path path) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(OWNER_PID_NS_OFFSET + 8).order(ByteOrder.nativeOrder());
      while (b.hasRemaining() && ch.read(b) > 0) { }
      if (b.position() < OWNER_PID_OFFSET + 8 || b.getLong(MAGIC_OFFSET) != MAGIC) return new RingOwner(0, 0, 0);
      return new RingOwner(b.getLong(OWNER_PID_OFFSET), b.hasRemaining() ? 0 : b.getLong(OWNER_START_OFFSET),
          b.hasRemaining() ? 0 : b.getLong(OWNER_PID_NS_OFFSET));
    } catch (IOException e) {
      return new RingOwner(0, 0, 0);
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

  long heartbeat() { return header.getLongVolatile(PRODUCER_HEARTBEAT_OFFSET); }

  TransportStats stats() {
    long fill = ring.producerPosition() - ring.consumerPosition();
    return new TransportStats(shard, capacity(), fill,
        Math.max(fill, header.getLongVolatile(MAX_FILL_OFFSET)),
        header.getLongVolatile(RECORDS_COMMITTED_OFFSET), header.getLongVolatile(RECORDS_CONSUMED_OFFSET),
        header.getLongVolatile(PRODUCER_STALL_NS_OFFSET), header.getLongVolatile(CONSUMER_IDLE_NS_OFFSET),
        header.getLongVolatile(PRODUCER_STALL_CPU_NS_OFFSET));
  }
}
