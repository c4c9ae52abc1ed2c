package dev.fastpipe.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One spill segment: the records a shard's producer wrote to disk while its ring stayed full
 * ({@link SpillTransport}). Append-only, read once, deleted when drained.
 *
 * <p>Layout (little-endian): a header of {@link #HEADER_LENGTH} bytes (magic {@code FPSPILL1},
 * version, shard, epoch, the shard index of its first record, the owner's pid and start time), then
 * records of {@code int length, int crc32c, long index, byte[length]}; the CRC covers the index and
 * the payload. A reader trusts a record only when all its bytes are there and its CRC matches: a
 * torn tail (a producer killed mid-write) is reported, never delivered.
 */
final class SpillSegment {
  static final long MAGIC = 0x314c4c4950535046L; // "FPSPILL1" little-endian
  static final int VERSION = 1;
  static final int HEADER_LENGTH = 48;
  static final int RECORD_HEADER = 16;

  private SpillSegment() {}

  /** What a read of the next record found. */
  enum Next { RECORD, END, TORN }

  /** Appends records; single-threaded (the shard's producer). */
  static final class Writer implements AutoCloseable {
    private final Path path;
    private final FileChannel ch;
    private final ByteBuffer head = ByteBuffer.allocateDirect(RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long bytes;

    /** Creates {@code path} (must not exist), mode 0600, with its header written. */
    Writer(Path path, int shard, long epoch, long firstIndex) {
      this.path = path;
      try {
        ch = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException(path + ": spill segment already exists (another run with the same id?)", e);
      } catch (IOException e) {
        throw new UncheckedIOException(path + ": cannot create spill segment: " + e.getMessage(), e);
      }
      // Not registered for deletion at this JVM's exit: a producer process that ends its stream and
      // exits before the consumer has opened its last segment would take the records with it. The
      // consumer deletes a segment once it has read it through, the transport's owner deletes the rest
      // on close, and a later run removes those whose writer is provably dead.
      RingOwner me = RingOwner.current();
      ByteBuffer h = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
      h.putLong(MAGIC).putInt(VERSION).putInt(shard).putLong(epoch).putLong(firstIndex).putLong(me.pid()).putLong(me.startTicks());
      write(h.flip());
    }

    /** Appends the remaining bytes of {@code payload} as record {@code index}; returns the segment's length after it. */
    long append(long index, ByteBuffer payload) {
      int length = payload.remaining();
      crc.reset();
      ByteBuffer ix = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, index);
      crc.update(ix);
      crc.update(payload.duplicate());
      head.clear();
      head.putInt(length).putInt((int) crc.getValue()).putLong(index).flip();
      write(head, payload);
      return bytes;
    }

    long bytes() { return bytes; }

    private void write(ByteBuffer... bufs) {
      try {
        long want = 0;
        for (ByteBuffer b : bufs) want += b.remaining();
        for (long done = 0; done < want; ) done += ch.write(bufs);
        bytes += want;
      } catch (IOException e) {
        throw new UncheckedIOException(path + ": cannot write spill segment: " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      closeChannel(ch, path);
    }
  }

  private static void closeChannel(FileChannel ch, Path path) {
    try {
      ch.close();
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot close spill segment: " + e.getMessage(), e);
    }
  }

  /** Reads records in order; single-threaded (the shard's consumer). */
  static final class Reader implements AutoCloseable {
    private final Path path;
    private final FileChannel ch;
    private final ByteBuffer head = ByteBuffer.allocateDirect(RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private final int shard;
    private final long epoch;
    private final long firstIndex;
    private ByteBuffer data = ByteBuffer.allocateDirect(4096);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private long position = HEADER_LENGTH;
    private long index;
    private int length;
    private String problem;

    /** Opens a segment and checks its header; IllegalStateException (one line naming the file) when it is not one. */
    Reader(Path path) {
      this.path = path;
      try {
        ch = FileChannel.open(path, StandardOpenOption.READ);
        ByteBuffer h = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        readAt(h, 0);
        if (h.position() < HEADER_LENGTH || h.getLong(0) != MAGIC) throw new IllegalStateException(path + ": not a fastpipe spill segment");
        if (h.getInt(8) != VERSION) throw new IllegalStateException(path + ": spill segment version " + h.getInt(8) + ", expected " + VERSION);
        shard = h.getInt(12);
        epoch = h.getLong(16);
        firstIndex = h.getLong(24);
        index = firstIndex;
      } catch (IOException e) {
        throw new UncheckedIOException(path + ": cannot open spill segment: " + e.getMessage(), e);
      }
    }

    int shard() { return shard; }
    long epoch() { return epoch; }
    long firstIndex() { return firstIndex; }
    /** Bytes consumed so far (header included): the offset of the next record. */
    long position() { return position; }
    /** Why the last {@link #next} said {@link Next#TORN}. */
    String problem() { return problem; }

    /**
     * Reads the record at {@link #position()} if all of it lies below {@code limit} (the bytes the
     * producer has published; {@code Long.MAX_VALUE}: the file's end). RECORD: it is in
     * {@link #buffer()} and the position has moved past it; END: nothing more below the limit;
     * TORN: bytes are there but do not make a whole, valid record ({@link #problem()}).
     */
    Next next(long limit) {
      try {
        long end = Math.min(limit, ch.size());
        if (end <= position) return Next.END;
        if (end - position < RECORD_HEADER) return torn("a record header cut short at byte " + position);
        head.clear();
        readAt(head, position);
        int len = head.getInt(0);
        int want = head.getInt(4);
        long ix = head.getLong(8);
        if (len < 0 || end - position - RECORD_HEADER < len) return torn("a record of " + len + " bytes cut short at byte " + position);
        if (data.capacity() < len) data = ByteBuffer.allocateDirect(Integer.highestOneBit(len) << 1);
        data.clear().limit(len);
        readAt(data, position + RECORD_HEADER);
        data.flip();
        crc.reset();
        crc.update(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, ix));
        crc.update(data.duplicate());
        if ((int) crc.getValue() != want) return torn("checksum mismatch in the record at byte " + position);
        if (ix != index) return torn("record index " + ix + " where " + index + " was expected, at byte " + position);
        view.wrap(data, 0, len);
        length = len;
        position += RECORD_HEADER + len;
        index++;
        return Next.RECORD;
      } catch (IOException e) {
        throw new UncheckedIOException(path + ": cannot read spill segment: " + e.getMessage(), e);
      }
    }

    private Next torn(String why) {
      problem = path + ": torn spill segment: " + why;
      return Next.TORN;
    }

    /** The record {@link #next} found: valid until the next call. */
    DirectBuffer buffer() { return view; }
    int length() { return length; }

    private void readAt(ByteBuffer b, long at) throws IOException {
      while (b.hasRemaining()) {
        int n = ch.read(b, at);
        if (n < 0) break;
        at += n;
      }
    }

    @Override
    public void close() {
      closeChannel(ch, path);
    }
  }
}
