package dev.fastpipe.shm;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * Writes TFRecord framing, the format of DeepVariant's {@code .tfrecord(.gz)} example files:
 * {@code uint64 length (little-endian), uint32 masked CRC32C of the length bytes, data,
 * uint32 masked CRC32C of the data}.
 */
public final class TfRecordWriter implements AutoCloseable {
  private final OutputStream out;
  private final byte[] head = new byte[12];
  private final byte[] tail = new byte[4];
  private final CRC32C crc = new CRC32C();

  public TfRecordWriter(OutputStream out) { this.out = out; }

  /** TensorFlow's checksum mask: rotate right by 15 and add a constant. */
  public static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + 0xa282ead8;
  }

  public void write(byte[] data, int off, int len) throws IOException {
    putLongLE(head, 0, len);
    crc.reset();
    crc.update(head, 0, 8);
    putIntLE(head, 8, mask((int) crc.getValue()));
    out.write(head, 0, 12);
    out.write(data, off, len);
    crc.reset();
    crc.update(data, off, len);
    putIntLE(tail, 0, mask((int) crc.getValue()));
    out.write(tail, 0, 4);
  }

  static void putLongLE(byte[] b, int at, long v) {
    for (int i = 0; i < 8; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  static void putIntLE(byte[] b, int at, int v) {
    for (int i = 0; i < 4; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  @Override
  public void close() throws IOException { out.close(); }
}
