package dev.fastpipe.streaming.example;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * TFRecord framing: {@code uint64 length, uint32 masked_crc32c(length), data,
 * uint32 masked_crc32c(data)}, all little-endian; the mask is TensorFlow's
 * {@code ((crc >>> 15) | (crc << 17)) + 0xa282ead8}.
 */
public final class TfRecordFraming {
  private static final int MASK_DELTA = 0xa282ead8;

  private final CRC32C crc = new CRC32C();
  private final byte[] header = new byte[12];
  private final byte[] footer = new byte[4];

  public int maskedCrc(byte[] b, int off, int len) {
    crc.reset();
    crc.update(b, off, len);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + MASK_DELTA;
  }

  public void write(OutputStream out, byte[] data, int off, int len) throws IOException {
    putLong(header, 0, len);
    putInt(header, 8, maskedCrc(header, 0, 8));
    out.write(header);
    out.write(data, off, len);
    putInt(footer, 0, maskedCrc(data, off, len));
    out.write(footer);
  }

  /**
   * Reads the next record's payload into a buffer (grown when needed) and returns it with its
   * length in {@code lengthOut[0]}; null at a clean end of stream. Throws on a bad CRC or a
   * truncated record, naming {@code source}.
   */
  public byte[] read(InputStream in, byte[] into, int[] lengthOut, String source) throws IOException {
    int first = in.read();
    if (first < 0) return null;
    header[0] = (byte) first;
    readFully(in, header, 1, 11, source);
    long len = getLong(header, 0);
    if (getInt(header, 8) != maskedCrc(header, 0, 8)) {
      throw new IOException(source + ": TFRecord length CRC mismatch (corrupt file)");
    }
    if (len < 0 || len > Integer.MAX_VALUE - 16) {
      throw new IOException(source + ": TFRecord length " + len + " out of range");
    }
    int n = (int) len;
    if (into == null || into.length < n) into = new byte[Math.max(n, into == null ? 0 : into.length * 2)];
    readFully(in, into, 0, n, source);
    readFully(in, footer, 0, 4, source);
    if (getInt(footer, 0) != maskedCrc(into, 0, n)) {
      throw new IOException(source + ": TFRecord data CRC mismatch (corrupt file)");
    }
    lengthOut[0] = n;
    return into;
  }

  private static void readFully(InputStream in, byte[] b, int off, int len, String source)
      throws IOException {
    while (len > 0) {
      int r = in.read(b, off, len);
      if (r < 0) throw new EOFException(source + ": truncated TFRecord");
      off += r;
      len -= r;
    }
  }

  static void putLong(byte[] b, int at, long v) {
    for (int i = 0; i < 8; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  static void putInt(byte[] b, int at, int v) {
    for (int i = 0; i < 4; i++) b[at + i] = (byte) (v >>> (8 * i));
  }

  static long getLong(byte[] b, int at) {
    long v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | (b[at + i] & 0xFF);
    return v;
  }

  static int getInt(byte[] b, int at) {
    int v = 0;
    for (int i = 3; i >= 0; i--) v = (v << 8) | (b[at + i] & 0xFF);
    return v;
  }
}
