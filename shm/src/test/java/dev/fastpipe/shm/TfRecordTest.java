package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TfRecordTest {
  @TempDir Path dir;

  @Test
  void framingIsLengthMaskedCrcDataMaskedCrc() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] data = "pileup".getBytes(StandardCharsets.US_ASCII);
    try (TfRecordWriter w = new TfRecordWriter(out)) {
      w.write(data, 0, data.length);
      w.write(new byte[0], 0, 0);
    }
    byte[] f = out.toByteArray();
    assertEquals(2 * 16 + data.length, f.length);
    assertEquals(data.length, TfRecordReader.getLongLE(f, 0));
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(data);
    assertEquals(TfRecordWriter.mask((int) crc.getValue()), TfRecordReader.getIntLE(f, 12 + data.length));
    // TensorFlow's mask of CRC32C("") = 0 is the constant itself.
    assertEquals(0xa282ead8, TfRecordWriter.mask(0));

    TfRecordReader r = new TfRecordReader(new ByteArrayInputStream(f), "x.tfrecord");
    assertEquals(data.length, r.next());
    assertEquals("pileup", new String(r.data(), 0, data.length, StandardCharsets.US_ASCII));
    assertEquals(0, r.next());
    assertEquals(-1, r.next());

    f[14] ^= 1;
    TfRecordReader bad = new TfRecordReader(new ByteArrayInputStream(f), "x.tfrecord");
    IOException e = assertThrows(IOException.class, bad::next);
    assertEquals("x.tfrecord: corrupt TFRecord 1: data checksum mismatch", e.getMessage());
  }

  @Test
  void anEmptyRecordCarriesTensorFlowsMaskedCrcOfNothing() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TfRecordWriter w = new TfRecordWriter(out)) {
      w.write(new byte[0], 0, 0);
    }
    // TensorFlow's crc32c("") masked is 0xa282ead8 rotated from 0: mask(0) = 0xa282ead8.
    assertEquals(0xa282ead8, TfRecordReader.getIntLE(out.toByteArray(), 12));
  }

  private static List<String> write(TfRecordWriter w, String... records) throws IOException {
    try (w) {
      for (String r : records) w.write(r.getBytes(StandardCharsets.US_ASCII), 0, r.length());
    }
    return List.of(records);
  }

  private static List<String> readAll(TfRecordReader r) throws IOException {
    List<String> out = new ArrayList<>();
    try (r) {
      for (int n; (n = r.next()) >= 0; ) out.add(new String(r.data(), 0, n, StandardCharsets.US_ASCII));
    }
    return out;
  }

  @Test
  void plainFilesRoundTrip() throws IOException {
    Path file = dir.resolve("x.tfrecord");
    List<String> written = write(TfRecordWriter.plain(file), "a", "", "ccc");
    assertEquals(written, readAll(TfRecordReader.plain(file)));
    assertEquals(3 * 16 + 4, Files.size(file));
  }

  @Test
  void aGzippedFileIsOneGzipStreamOfTheFramedRecords() throws IOException, DataFormatException {
    Path gz = dir.resolve("x.tfrecord.gz");
    Path plain = dir.resolve("x.tfrecord");
    List<String> written = write(TfRecordWriter.gzipped(gz, 1), "first", "second");
    write(TfRecordWriter.plain(plain), "first", "second");
    assertEquals(written, readAll(TfRecordReader.gzipped(gz)));
    byte[] bytes = Files.readAllBytes(gz);
    try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
      assertArrayEquals(Files.readAllBytes(plain), in.readAllBytes(), "gunzip gives the plain TFRecord");
    }
    // one member: a 10-byte header, one deflate stream, an 8-byte trailer, nothing after it
    Inflater inflater = new Inflater(true);
    inflater.setInput(bytes, 10, bytes.length - 10);
    byte[] sink = new byte[1024];
    while (!inflater.finished()) {
      if (inflater.inflate(sink) == 0 && inflater.needsInput()) fail("the deflate stream is truncated");
    }
    assertEquals(8, inflater.getRemaining());
    inflater.end();
  }

  @Test
  void concatenatedGzipMembersReadAsOneRunOfRecords() throws IOException {
    Path a = dir.resolve("a.tfrecord.gz");
    Path b = dir.resolve("b.tfrecord.gz");
    write(TfRecordWriter.gzipped(a, Deflater.DEFAULT_COMPRESSION), "a1", "a2");
    write(TfRecordWriter.gzipped(b, 9), "b1");
    Path both = dir.resolve("ab.tfrecord.gz"); // cat a.tfrecord.gz b.tfrecord.gz
    Files.write(both, Files.readAllBytes(a));
    Files.write(both, Files.readAllBytes(b), java.nio.file.StandardOpenOption.APPEND);
    assertEquals(List.of("a1", "a2", "b1"), readAll(TfRecordReader.gzipped(both)));
  }

  @Test
  void aPlainFileIsNotReadAsGzipped() throws IOException {
    Path plain = dir.resolve("plain.tfrecord.gz");
    write(TfRecordWriter.plain(plain), "x");
    assertThrows(ZipException.class, () -> TfRecordReader.gzipped(plain));
  }
}
