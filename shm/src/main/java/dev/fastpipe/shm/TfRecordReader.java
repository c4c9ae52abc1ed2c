package dev.fastpipe.shm;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/** Reads TFRecord framing (see {@link TfRecordWriter}), verifying both checksums of every record. */
public final class TfRecordReader implements AutoCloseable {
  private static final int BUFFER = 1 << 16;

  private final InputStream in;
  private final String name;
  private final byte[] head = new byte[12];
  private final byte[] tail = new byte[4];
  private final CRC32C crc = new CRC32C();
  private byte[] data = new byte[4096];
  private long records;

  /** @param name the file name used in error messages */
  public TfRecordReader(InputStream in, String name) {
    this.in = in;
    this.name = name;
  }

  /** An uncompressed {@code .tfrecord} file. */
  public static TfRecordReader plain(Path file) throws IOException {
    return new TfRecordReader(new BufferedInputStream(Files.newInputStream(file), BUFFER), file.toString());
  }

  /**
   * A gzipped {@code .tfrecord.gz} file: one gzip stream, or several gzip members one after the
   * other (as {@code cat a.tfrecord.gz b.tfrecord.gz} makes), read as one run of records.
   * Throws {@link java.util.zip.ZipException} when the file does not start as gzip.
   */
  public static TfRecordReader gzipped(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    try {
      return new TfRecordReader(new BufferedInputStream(new GZIPInputStream(raw, BUFFER), BUFFER), file.toString());
    } catch (IOException e) {
      raw.close();
      throw e;
    }
  }

  /** Reads the next record into {@link #data()}; returns its length, or -1 at a clean end of file. */
  public int next() throws IOException {
    int first = in.read(head, 0, 12);
    if (first < 0) return -1;
    readFully(head, first, 12 - first);
    long len = getLongLE(head, 0);
    if (TfRecordWriter.maskedCrc(crc, head, 0, 8) != getIntLE(head, 8)) throw corrupt("length checksum mismatch");
    if (len < 0 || len > Integer.MAX_VALUE - 8) throw corrupt("record length " + len + " out of range");
    if (data.length < len) data = new byte[(int) Math.max(len, data.length * 2L)];
    readFully(data, 0, (int) len);
    readFully(tail, 0, 4);
    if (TfRecordWriter.maskedCrc(crc, data, 0, (int) len) != getIntLE(tail, 0)) throw corrupt("data checksum mismatch");
    records++;
    return (int) len;
  }

  /** The last record's bytes (valid until the next call). */
  public byte[] data() { return data; }

  private IOException corrupt(String what) {
    return new IOException(name + ": corrupt TFRecord " + (records + 1) + ": " + what);
  }

  private void readFully(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      int n = in.read(b, off, len);
      if (n < 0) throw new EOFException(name + ": truncated TFRecord " + (records + 1));
      off += n;
      len -= n;
    }
  }

  static long getLongLE(byte[] b, int at) {
    long v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | (b[at + i] & 0xff);
    return v;
  }

  static int getIntLE(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }

  @Override
  public void close() throws IOException { in.close(); }
}
