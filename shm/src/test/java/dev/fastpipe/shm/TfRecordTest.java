package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TfRecordTest {
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
}
