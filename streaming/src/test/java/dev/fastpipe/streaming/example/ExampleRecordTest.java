package dev.fastpipe.streaming.example;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.inference.ImageShape;
import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ExampleRecordTest {

  static int writeSample(org.agrona.MutableDirectBuffer buf, int at, int label) {
    String ref = "ACGT";
    String[] alts = {"A", "AGGGCGT", "TCGT"};
    int len = ExampleRecord.encodedLength(ref, alts, 3, 5, 6);
    int img = new ExampleRecordEncoder().wrap(buf, at).origin(2, 99L, 17L).example(7, 123456, label).site(6, 33)
        .alleles(ref, alts, new int[] {20, 5, 4, 3}).altSubset(new int[] {0, 2}).image(3, 5, 6);
    for (int i = 0; i < 3 * 5 * 6; i++) buf.putByte(img + i, (byte) (i * 3));
    return len;
  }

  @Test
  void roundTripsEveryField() {
    UnsafeBuffer buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
    int len = writeSample(buf, 64, 1);
    ExampleRecord r = new ExampleRecord().wrap(buf, 64);
    assertEquals(ExampleRecordDescriptor.KIND_EXAMPLE, r.kind());
    assertEquals(len, r.length());
    assertEquals(7, r.contigIndex());
    assertEquals(123456, r.position());
    assertEquals(2, r.shard());
    assertEquals(99L, r.sequence());
    assertEquals(17L, r.partition());
    assertEquals(1, r.label());
    assertEquals("ACGT", r.ref());
    assertArrayEquals(new String[] {"A", "AGGGCGT", "TCGT"}, r.alts());
    assertArrayEquals(new int[] {0, 2}, r.altSubset());
    assertEquals(6, r.examplesAtSite());
    assertEquals(33, r.depth());
    assertArrayEquals(new int[] {20, 5, 4, 3}, r.alleleDepths());
    assertEquals(3, r.height());
    assertEquals(5, r.width());
    assertEquals(6, r.channels());
    assertEquals(new ImageShape(3, 5, 6), r.shape());
    assertTrue(r.hasShape(new ImageShape(3, 5, 6)));
    assertFalse(r.hasShape(new ImageShape(3, 5, 7)));
    assertEquals(90, r.imageLength());
    assertEquals(0, r.imageOffset() % 8, "image is 8-byte aligned");
    assertEquals(len, r.imageOffset() - 64 + r.imageLength());
    assertEquals((4 * 6 + 2) * 3 & 0xFF, r.pixel(0, 4, 2));
  }

  @Test
  void smallCallRoundTripsWithoutAnImage() {
    UnsafeBuffer buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1024, 64));
    String[] alts = {"GTT"};
    int len = ExampleRecordDescriptor.smallCallLength("G", alts);
    ExampleRecordEncoder encoder = new ExampleRecordEncoder();
    assertEquals(len, encoder.wrap(buf, 64).origin(1, 77L, 12L).smallCall(3, 5000, 31)
        .alleles("G", alts, new int[] {14, 16}).probabilities(new float[] {0.001f, 0.998f, 0.001f}));
    ExampleRecord r = new ExampleRecord().wrap(buf, 64);
    assertEquals(ExampleRecordDescriptor.KIND_SMALL_CALL, r.kind());
    assertTrue(r.isSmallCall());
    assertFalse(r.isExample());
    assertEquals(len, r.length());
    assertEquals(0, len % 8, "the next record stays aligned");
    assertEquals(3, r.contigIndex());
    assertEquals(5000, r.position());
    assertEquals(1, r.shard());
    assertEquals(77L, r.sequence());
    assertEquals(12L, r.partition());
    assertEquals(-1, r.label());
    assertEquals("G", r.ref());
    assertArrayEquals(alts, r.alts());
    assertArrayEquals(new int[] {0}, r.altSubset());
    assertEquals(1, r.examplesAtSite());
    assertEquals(31, r.depth());
    assertArrayEquals(new int[] {14, 16}, r.alleleDepths());
    assertEquals(0, r.imageLength());
    assertEquals(64 + len, r.imageOffset(), "the empty image sits at the record's end");
    assertEquals(3, r.floatCount());
    assertArrayEquals(new float[] {0.001f, 0.998f, 0.001f}, r.floats(new float[3]));
    assertEquals(0.998f, r.floatAt(1));
    assertTrue(r.toString().startsWith("SMALL_CALL{"), r.toString());
    assertThrows(IllegalArgumentException.class, () -> encoder.wrap(buf, 0).origin(0, 0, 0).smallCall(0, 0, 1)
        .alleles("A", new String[] {"C", "G"}, new int[] {0, 1, 0}).probabilities(new float[3]),
        "multi-allelic sites go to the CNN");
  }

  @Test
  void exampleWithSummaryFeaturesKeepsItsImageAligned() {
    UnsafeBuffer buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
    float[] features = {30, 14, 16, 0, 0.46f};
    String[] alts = {"T"};
    int len = ExampleRecordDescriptor.encodedLength("C", alts, features.length, 3, 5, 6);
    int img = new ExampleRecordEncoder().wrap(buf, 0).origin(0, 0, 0).example(0, 5, 1).site(1, 30)
        .alleles("C", alts, new int[] {14, 16}).altSubset(new int[] {0}).floats(features).image(3, 5, 6);
    ExampleRecord r = new ExampleRecord().wrap(buf, 0);
    assertEquals(len, r.length());
    assertEquals(img, r.imageOffset());
    assertEquals(0, img % 8);
    assertEquals(5, r.floatCount());
    assertArrayEquals(features, r.floats(new float[5]));
    assertEquals("C", r.ref());
    assertArrayEquals(alts, r.alts());
    assertEquals(82, ExampleRecordDescriptor.floatsOffset("C", alts), "header 64, AD 8, ref 4 + 1, alt 4 + 1");
    assertEquals(104, img, "82 + 5 floats x 4 = 102, aligned to 8");
  }

  @Test
  void singleAltSubsetAndPartitionMarker() {
    UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
    ExampleRecordEncoder encoder = new ExampleRecordEncoder();
    encoder.wrap(buf, 0).origin(0, 0, 0).example(0, 5, -1).site(1, 10)
        .alleles("C", new String[] {"T"}, new int[] {6, 4}).altSubset(new int[] {0}).image(100, 221, 6);
    ExampleRecord r = new ExampleRecord().wrap(buf, 0);
    assertArrayEquals(new int[] {0}, r.altSubset());
    assertEquals(-1, r.label());
    assertEquals(ExampleRecordDescriptor.imageOffset("C", new String[] {"T"}) + 100 * 221 * 6, r.length());

    encoder.wrap(buf, 512).origin(1, 42, 9).partitionDone(3, 2000);
    r.wrap(buf, 512);
    assertTrue(r.isPartitionDone());
    assertEquals(ExampleRecordDescriptor.PARTITION_DONE_LENGTH, r.length());
    assertEquals(3, r.contigIndex());
    assertEquals(2000, r.position());
    assertEquals(9, r.partition());
    assertEquals(42, r.sequence());
    assertEquals(-1, r.label());
  }
}
