package dev.fastpipe.shm;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;

/**
 * Writes TFRecord framing, the format of DeepVariant's {@code .tfrecord(.gz)} example files:
 * {@code uint64 length (little-endian), uint32 masked CRC32C of the length bytes, data,
 * uint32 masked CRC32C of the data}. The one implementation of the framing in fastpipe: the disk
 * transport and make_examples' tf.Example files both write through it.
 *
 * <p>A gzipped file ({@link #gzipped}) is what TensorFlow's {@code TFRecordWriter} writes with
 * {@code compression_type="GZIP"}: one gzip stream over the concatenated framed records.
 */
public final class TfRecordWriter implements AutoCloseable {
  private static final int BUFFER = 1 << 16;

  private final OutputStream out;
  private final byte[] head = new byte[12];
  private final byte[] tail = new byte[4];
  private final CRC32C crc = new CRC32C();

  public TfRecordWriter(OutputStream out) { this.out = out; }

  /** A new (or truncated) uncompressed {@code .tfrecord} file. */
  public static TfRecordWriter plain(Path file) throws IOException {
    return new TfRecordWriter(new BufferedOutputStream(Files.newOutputStream(file), BUFFER));
  }

  /**
   * A new (or truncated) {@code .tfrecord.gz} file compressed at {@code level} (0-9, or
   * {@link java.util.zip.Deflater#DEFAULT_COMPRESSION}); complete once {@link #close()} returns.
   */
  public static TfRecordWriter gzipped(Path file, int level) throws IOException {
    OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file), BUFFER) {
      {
        def.setLevel(level);
      }
    };
    // buffered in front of the deflater: the 12- and 4-byte frame parts would each cost a deflate call
    return new TfRecordWriter(new BufferedOutputStream(gzip, BUFFER));
  }

  /** TensorFlow's checksum mask: rotate right by 15 and add a constant. */
  public static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + 0xa282ead8;
  }

  public void write(byte[] data, int off, int len) throws IOException {
    putLongLE(head, 0, len);
    putIntLE(head, 8, maskedCrc(crc, head, 0, 8));
    out.write(head, 0, 12);
    out.write(data, off, len);
    putIntLE(tail, 0, maskedCrc(crc, data, off, len));
    out.write(tail, 0, 4);
  }

  /** The masked CRC32C of {@code b[off, off + len)}, computed with {@code crc} (reset first). */
  static int maskedCrc(CRC32C crc, byte[] b, int off, int len) {
    crc.reset();
    crc.update(b, off, len);
    return mask((int) crc.getValue());
  }

  static void putLongLE(byte[] b, int at, long v) {
    for (int i = 0; i < 8; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  static void putIntLE(byte[] b, int at, int v) {
    for (int i = 0; i < 4; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  /** Flushes and closes the file; for a gzipped file this writes the gzip trailer. */
  @Override
  public void close() throws IOException { out.close(); }
}
