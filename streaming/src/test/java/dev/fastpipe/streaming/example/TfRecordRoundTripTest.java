package dev.fastpipe.streaming.example;

import static org.junit.jupiter.api.Assertions.*;
import dev.fastpipe.streaming.OutputFiles;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.proto.Example;

class TfRecordRoundTripTest {
  @TempDir Path dir;

  @Test
  void writesAndReadsBackTheSameRecords() throws IOException {
    Path file = dir.resolve("ex.tfrecord.gz");
    List<byte[]> written = new ArrayList<>();
    try (TfRecordExampleWriter w = new TfRecordExampleWriter(file)) {
      for (int i = 0; i < 5; i++) {
        int len = ExampleRecord.encodedLength("ACGT", new String[] {"A", "AGGGCGT", "TCGT"}, 3, 5, 6);
        int at = w.claim(len);
        ExampleRecordTest.writeSample(w.buffer(), at, i % 3);
        byte[] copy = new byte[len];
        w.buffer().getBytes(at, copy);
        written.add(copy);
        w.commit();
        at = w.claim(ExampleRecordDescriptor.PARTITION_DONE_LENGTH);
        new ExampleRecordEncoder().wrap(w.buffer(), at).origin(0, i, i).partitionDone(0, 1000 * i);
        w.commit();
      }
      assertFalse(Files.exists(file), "final name appears only at end of stream");
      w.endOfStream();
      assertEquals(5, w.examplesWritten());
      assertEquals(5, w.markersSeen());
    }
    assertTrue(Files.exists(file));
    assertFalse(Files.exists(OutputFiles.temporary(file, ".tfrecord.gz")), "the temporary was renamed");

    List<byte[]> read = new ArrayList<>();
    try (TfRecordExampleReader r = new TfRecordExampleReader(file)) {
      r.forEach((shard, buf, off, len) -> {
        assertEquals(2, shard);
        byte[] b = new byte[len];
        buf.getBytes(off, b);
        read.add(b);
      });
    }
    assertEquals(written.size(), read.size());
    for (int i = 0; i < written.size(); i++) assertArrayEquals(written.get(i), read.get(i));
  }

  @Test
  void summaryFeaturesTravelWithTheExample() throws IOException {
    Path file = dir.resolve("features.tfrecord.gz");
    float[] features = {31, 14, 17, 0, 14 / 31f, 17 / 31f};
    try (TfRecordExampleWriter w = new TfRecordExampleWriter(file)) {
      int len = ExampleRecordDescriptor.encodedLength("G", new String[] {"GA"}, features.length, 3, 5, 6);
      int at = w.claim(len);
      new ExampleRecordEncoder().wrap(w.buffer(), at).origin(0, 0, 0).example(0, 100, 1).site(1, 31)
          .alleles("G", new String[] {"GA"}, new int[] {14, 17}).altSubset(new int[] {0}).floats(features).image(3, 5, 6);
      w.commit();
      w.endOfStream();
    }
    List<float[]> read = new ArrayList<>();
    TrainingExamples.forEach(List.of(file), (p, r) -> {
      assertEquals(1, r.label());
      read.add(r.floats(new float[r.floatCount()]));
    });
    assertEquals(1, read.size());
    assertArrayEquals(features, read.get(0));
  }

  @Test
  void usesDeepVariantFeatureNames() throws IOException {
    UnsafeBuffer buf = new UnsafeBuffer(new byte[4096]);
    ExampleRecordTest.writeSample(buf, 0, 2);
    Example ex = TfRecordExampleWriter.toExample(new ExampleRecord().wrap(buf, 0));
    var f = ex.getFeatures().getFeatureMap();
    assertEquals(List.of(3L, 5L, 6L), f.get("image/shape").getInt64List().getValueList());
    assertEquals(90, f.get("image/encoded").getBytesList().getValue(0).size());
    assertEquals(2L, f.get("label").getInt64List().getValue(0));
    // AltAlleleIndices{indices: [0, 2]} packed: tag 0x0A, length 2, varints 0, 2.
    assertArrayEquals(new byte[] {0x0A, 2, 0, 2},
        f.get("alt_allele_indices/encoded").getBytesList().getValue(0).toByteArray());
  }

  @Test
  void detectsCorruptionByCrc() throws IOException {
    Path file = dir.resolve("ok.tfrecord.gz");
    try (TfRecordExampleWriter w = new TfRecordExampleWriter(file)) {
      int len = ExampleRecord.encodedLength("ACGT", new String[] {"A", "AGGGCGT", "TCGT"}, 3, 5, 6);
      ExampleRecordTest.writeSample(w.buffer(), w.claim(len), 0);
      w.commit();
    }
    byte[] raw;
    try (var in = new GZIPInputStream(Files.newInputStream(file))) {
      raw = in.readAllBytes();
    }
    raw[raw.length - 10] ^= 0x01; // flip one bit inside the payload
    Path bad = dir.resolve("bad.tfrecord.gz");
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(bos)) {
      gz.write(raw);
    }
    Files.write(bad, bos.toByteArray());
    try (TfRecordExampleReader r = new TfRecordExampleReader(bad)) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, r::next);
      assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage()); // shm.TfRecordReader's wording
    }
  }

  @Test
  void discardLeavesNoFile() {
    Path file = dir.resolve("gone.tfrecord.gz");
    TfRecordExampleWriter w = new TfRecordExampleWriter(file);
    w.discard();
    w.close();
    assertFalse(Files.exists(file));
    assertFalse(Files.exists(OutputFiles.temporary(file, ".tfrecord.gz")), "the temporary was deleted");
  }
}
