package dev.fastpipe.streaming.example;

import static org.junit.jupiter.api.Assertions.*;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The encoder flyweight writes the very bytes the static encoders it replaced wrote: the expected
 * records below were captured from those (ExampleRecord.encodeExample, encodeSmallCall,
 * encodePartitionDone, encodeRefBlock) before they were deleted, in a buffer full of 0x5A so that
 * every byte a record has is known to be written; records over 400 bytes by their SHA-256. Each
 * record also reads back field by field through {@link ExampleRecord}.
 */
class ExampleRecordEncoderTest {
  static final int AT = 64;
  static final String LONG_REF = "ACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTA";

  final ExampleRecordEncoder e = new ExampleRecordEncoder(); // one for every record, as a producer has
  final UnsafeBuffer b = new UnsafeBuffer(new byte[400_000]);
  final ExampleRecord r = new ExampleRecord();

  /** 127 alts (the most a record takes) of 1 to 9 bases. */
  static String[] maxAlts() {
    String[] alts = new String[ExampleRecordDescriptor.MAX_ALTS];
    for (int i = 0; i < alts.length; i++) alts[i] = "TGCATGCAT".substring(0, 1 + i % 9);
    return alts;
  }

  static int[] maxDepths() {
    int[] ad = new int[1 + ExampleRecordDescriptor.MAX_ALTS];
    for (int i = 0; i < ad.length; i++) ad[i] = i * 1000 + 7;
    return ad;
  }

  /** 255 floats (the most a record takes). */
  static float[] maxFloats() {
    float[] f = new float[ExampleRecordDescriptor.MAX_FLOATS];
    for (int i = 0; i < f.length; i++) f[i] = i * 0.5f - 3.25f;
    return f;
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /** A fresh buffer state: every byte 0x5A, so a byte the encoder leaves out shows. */
  UnsafeBuffer dirty() {
    b.setMemory(0, b.capacity(), (byte) 0x5A);
    return b;
  }

  /** The caller's part: an image of {@code n} bytes at {@code img}; returns the record's length. */
  int image(int img, int n) {
    for (int i = 0; i < n; i++) b.putByte(img + i, (byte) (i * 3 + 1));
    return img + n - AT;
  }

  void assertBytes(String expected, int length) throws Exception {
    byte[] got = new byte[length];
    b.getBytes(AT, got);
    if (expected.startsWith("sha256:")) {
      assertEquals(expected.substring(7), sha256(got));
    } else {
      assertEquals(expected, HexFormat.of().formatHex(got));
    }
  }

  @Test
  void multiAllelicExampleWithSevenChannels() throws Exception {
    dirty();
    int img = e.wrap(b, AT).origin(2, 99L, 17L).example(7, 123456, 1).site(6, 33)
        .alleles("ACGT", new String[] {"A", "AGGGCGT", "TCGT"}, new int[] {20, 5, 4, 3}).altSubset(new int[] {0, 2})
        .image(3, 5, 7);
    int len = image(img, 3 * 5 * 7);
    assertEquals(217, len);
    assertEquals(ExampleRecordDescriptor.encodedLength("ACGT", new String[] {"A", "AGGGCGT", "TCGT"}, 3, 5, 7), len);
    assertBytes("01000000d90000000700000040e201000200000001000000630000000000000011000000000000000600000021000000" +
        "030005000703020000020000700000001400000005000000040000000300000004000000414347540100000041070000" +
        "004147474743475404000000544347540104070a0d101316191c1f2225282b2e3134373a3d404346494c4f5255585b5e" +
        "6164676a6d707376797c7f8285888b8e9194979a9da0a3a6a9acafb2b5b8bbbec1c4c7cacdd0d3d6d9dcdfe2e5e8ebee" +
        "f1f4f7fafd000306090c0f1215181b1e2124272a2d30333639", len);
    // This record with 6 channels reads back field by field in ExampleRecordTest (its sample, written by this encoder).
    r.wrap(b, AT);
    assertEquals(7, r.channels());
    assertEquals(img, r.imageOffset());
    assertEquals(0, img % 8, "the image is 8-byte aligned");
    assertEquals((byte) (104 * 3 + 1) & 0xFF, r.pixel(2, 4, 6));
  }

  @Test
  void exampleWithSummaryFeatures() throws Exception {
    dirty();
    float[] features = {30, 14, 16, 0, 0.46f};
    int img = e.wrap(b, AT).origin(0, 0, 0).example(0, 5, -1).site(1, 30)
        .alleles("C", new String[] {"T"}, new int[] {14, 16}).altSubset(new int[] {0})
        .floats(features).image(2, 3, 6);
    int len = image(img, 36);
    assertBytes("010000008c000000000000000500000000000000ffffffff00000000000000000000000000000000010000001e000000" +
        "020003000601010500ff0000680000000e00000010000000010000004301000000540000f04100006041000080410000" +
        "00001f85eb3e00000104070a0d101316191c1f2225282b2e3134373a3d404346494c4f5255585b5e6164676a", len);
    r.wrap(b, AT);
    assertEquals(ExampleRecordDescriptor.encodedLength("C", new String[] {"T"}, 5, 2, 3, 6), r.length());
    assertEquals(-1, r.label());
    assertArrayEquals(new int[] {0}, r.altSubset());
    assertArrayEquals(features, r.floats(new float[5]));
    assertEquals(AT + 104, img, "82 + 5 floats x 4 = 102, aligned to 8");
  }

  @Test
  void exampleWithoutAltsAndWithAnEmptyAlt() throws Exception {
    dirty();
    int img = e.wrap(b, AT).origin(3, 4L, 5L).example(1, 10, 0).site(1, 9)
        .alleles("A", new String[] {}, new int[] {9}).altSubset(new int[] {0}).image(1, 1, 7);
    int len = image(img, 7);
    assertBytes("0100000057000000010000000a0000000300000000000000040000000000000005000000000000000100000009000000" +
        "010001000700010000ff000050000000090000000100000041000000000000000104070a0d1013", len);
    r.wrap(b, AT);
    assertEquals(0, r.altCount());
    assertArrayEquals(new String[] {}, r.alts());
    assertArrayEquals(new int[] {9}, r.alleleDepths());
    assertEquals("A", r.ref());
    assertEquals(0, r.label());

    dirty();
    img = e.wrap(b, AT).origin(3, 6L, 5L).example(1, 11, 0).site(2, 6)
        .alleles("AT", new String[] {"", "T"}, new int[] {1, 2, 3}).altSubset(new int[] {1}).image(1, 2, 7);
    len = image(img, 14);
    assertBytes("010000006e000000010000000b0000000300000000000000060000000000000005000000000000000200000006000000" +
        "010002000702010001ff0000600000000100000002000000030000000200000041540000000001000000540000000000" +
        "0104070a0d101316191c1f222528", len);
    r.wrap(b, AT);
    assertArrayEquals(new String[] {"", "T"}, r.alts());
    assertArrayEquals(new int[] {1, 2, 3}, r.alleleDepths());
    assertArrayEquals(new int[] {1}, r.altSubset());
    assertEquals(2, r.examplesAtSite());
    assertEquals(14, r.imageLength());
  }

  @Test
  void exampleOfTheLargestSizes() throws Exception {
    dirty();
    String[] alts = maxAlts();
    int[] ad = maxDepths();
    float[] floats = maxFloats();
    int img = e.wrap(b, AT).origin(65535, Long.MAX_VALUE, Long.MAX_VALUE - 1)
        .example(Integer.MAX_VALUE, Integer.MAX_VALUE, 2).site(8001, Integer.MAX_VALUE)
        .alleles(LONG_REF, alts, ad).altSubset(new int[] {125, 126}).floats(floats).image(100, 221, 7);
    int len = image(img, 100 * 221 * 7);
    assertEquals(157492, len);
    assertEquals(ExampleRecordDescriptor.encodedLength(LONG_REF, alts, 255, 100, 221, 7), len);
    assertBytes("sha256:7a5b73c3079b7f72d511aa9264f8a1520b2f756e694a04e0eb08c93924c6e47f", len);
    r.wrap(b, AT);
    assertEquals(Integer.MAX_VALUE, r.contigIndex());
    assertEquals(Integer.MAX_VALUE, r.position());
    assertEquals(65535, r.shard());
    assertEquals(Long.MAX_VALUE, r.sequence());
    assertEquals(Long.MAX_VALUE - 1, r.partition());
    assertEquals(2, r.label());
    assertEquals(8001, r.examplesAtSite());
    assertEquals(Integer.MAX_VALUE, r.depth());
    assertEquals(LONG_REF, r.ref());
    assertEquals(127, r.altCount());
    assertArrayEquals(alts, r.alts());
    assertArrayEquals(ad, r.alleleDepths());
    assertArrayEquals(new int[] {125, 126}, r.altSubset());
    assertEquals(255, r.floatCount());
    assertArrayEquals(floats, r.floats(new float[255]));
    assertEquals(100, r.height());
    assertEquals(221, r.width());
    assertEquals(7, r.channels());
    assertEquals(0, r.imageOffset() % 8);
  }

  @Test
  void smallCalls() throws Exception {
    dirty();
    int len = e.wrap(b, AT).origin(1, 77L, 12L).smallCall(3, 5000, 31)
        .alleles("G", new String[] {"GTT"}, new int[] {14, 16}).probabilities(new float[] {0.001f, 0.998f, 0.001f});
    assertEquals(ExampleRecordDescriptor.smallCallLength("G", new String[] {"GTT"}), len);
    assertBytes("0400000060000000030000008813000001000000ffffffff4d000000000000000c00000000000000010000001f000000" +
        "000000000001010300ff0000600000000e000000100000000100000047030000004754546f12833aee7c7f3f6f12833a", len);
    // Its fields read back in ExampleRecordTest.smallCallRoundTripsWithoutAnImage.

    dirty();
    len = e.wrap(b, AT).origin(0, 1L, 0L).smallCall(0, 77, 8)
        .alleles("GATTACAGATTAC", new String[] {"G"}, new int[] {3, 5}).probabilities(new float[] {0.25f, 0.5f, 0.25f});
    assertEquals(0, len % 8, "the next record stays aligned");
    assertBytes("0400000070000000000000004d00000000000000ffffffff010000000000000000000000000000000100000008000000" +
        "000000000001010300ff00007000000003000000050000000d0000004741545441434147415454414301000000470000" +
        "803e0000003f0000803e000000000000", len);
    assertEquals("GATTACAGATTAC", r.wrap(b, AT).ref());
  }

  @Test
  void partitionDoneMarker() throws Exception {
    dirty();
    e.wrap(b, AT).origin(1, 42, 9).partitionDone(3, 2000);
    assertBytes("020000004000000003000000d007000001000000ffffffff2a0000000000000009000000000000000000000000000000" +
        "00000000000000000000000000000000", ExampleRecordDescriptor.PARTITION_DONE_LENGTH);
    r.wrap(b, AT);
    assertTrue(r.isPartitionDone());
    assertEquals(ExampleRecordDescriptor.PARTITION_DONE_LENGTH, r.length());
    assertEquals(3, r.contigIndex());
    assertEquals(2000, r.position());
    assertEquals(1, r.shard());
    assertEquals(42, r.sequence());
    assertEquals(9, r.partition());
    assertEquals(-1, r.label());
  }

  @Test
  void refBlocks() throws Exception {
    dirty();
    e.wrap(b, AT).origin(1, 5L, 3L).refBlock(2, 100, 250).blockQuality(37, 12, new int[] {0, 40, 90})
        .blockBin(35, true, false, (byte) 'A');
    assertBytes("0300000040000000020000006400000001000000fa00000005000000000000000300000000000000250000000c000000" +
        "00000000280000005a00000023014100", ExampleRecordDescriptor.REF_BLOCK_LENGTH);
    r.wrap(b, AT);
    assertTrue(r.isRefBlock());
    assertEquals(ExampleRecordDescriptor.REF_BLOCK_LENGTH, r.length());
    assertEquals(2, r.contigIndex());
    assertEquals(100, r.position());
    assertEquals(250, r.blockEnd());
    assertEquals(1, r.shard());
    assertEquals(5L, r.sequence());
    assertEquals(3L, r.partition());
    assertEquals(37, r.blockMinGq());
    assertEquals(12, r.blockMinDp());
    assertEquals(40, r.blockPl(1));
    assertEquals(90, r.blockPl(2));
    assertEquals(35, r.blockGqBin());
    assertTrue(r.blockCalled());
    assertFalse(r.blockHaploid());
    assertEquals('A', r.blockRefBase());

    dirty();
    e.wrap(b, AT).origin(0, 6L, 4L).refBlock(0, 7, 8).blockQuality(0, 0, new int[] {0, 3, 0})
        .blockBin(255, false, true, (byte) 'N');
    assertBytes("030000004000000000000000070000000000000008000000060000000000000004000000000000000000000000000000" +
        "000000000300000000000000ff024e00", ExampleRecordDescriptor.REF_BLOCK_LENGTH);
    r.wrap(b, AT);
    assertEquals(255, r.blockGqBin());
    assertFalse(r.blockCalled());
    assertTrue(r.blockHaploid());
    assertEquals('N', r.blockRefBase());
  }

  @Test
  void oneEncoderWritesRecordsOfEveryKindInARow() {
    dirty();
    int small = e.wrap(b, AT).origin(0, 0, 0).smallCall(0, 20, 4).alleles("G", new String[] {"T"}, new int[] {1, 3})
        .probabilities(new float[3]);
    int at = AT + small;
    int img = e.wrap(b, at).origin(0, 1, 0).example(0, 30, -1).site(1, 5)
        .alleles("A", new String[] {"C"}, new int[] {2, 3}).altSubset(new int[] {0}).image(1, 1, 7);
    int marker = ExampleRecordDescriptor.align(img + 7);
    e.wrap(b, marker).origin(0, 2, 0).partitionDone(0, 1000);
    assertEquals(3, r.wrap(b, AT).floatCount());
    r.wrap(b, at);
    assertTrue(r.isExample());
    assertEquals(30, r.position());
    assertEquals(0, r.floatCount(), "the small call's floats do not carry over to the next record");
    assertEquals(img + 7 - at, r.length());
    assertTrue(r.wrap(b, marker).isPartitionDone());
    assertEquals(2, r.sequence());
  }

  @Test
  void refusesWhatTheFormatCannotHoldAndPartsOutOfPlace() {
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).origin(0, 0, 0).smallCall(0, 0, 1)
        .alleles("A", new String[] {"C", "G"}, new int[] {0, 1, 0}).probabilities(new float[3]),
        "multi-allelic sites go to the CNN");
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).example(0, 0, -1).altSubset(new int[] {0, 1, 2}));
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).example(0, 0, -1)
        .alleles("A", new String[] {"C"}, new int[] {1}), "one depth per allele");
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).example(0, 0, -1)
        .alleles("A", new String[128], new int[129]));
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).example(0, 0, -1)
        .alleles("A", new String[] {"C"}, new int[2]).floats(new float[256]));
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).refBlock(0, 5, 5));
    assertThrows(IllegalArgumentException.class, () -> e.wrap(b, 0).origin(0, 0, 0).refBlock(0, 5, 6)
        .blockQuality(0, 0, new int[3]).blockBin(256, true, false, (byte) 'A'));
    IllegalStateException missing = assertThrows(IllegalStateException.class, () -> e.wrap(b, 0).example(0, 0, -1)
        .alleles("A", new String[] {"C"}, new int[2]).image(1, 1, 1));
    assertEquals("EXAMPLE record incomplete: origin, site, altSubset not put", missing.getMessage());
    assertThrows(IllegalStateException.class, () -> e.wrap(b, 0).example(0, 0, -1).floats(new float[1]),
        "floats before the alleles");
    assertThrows(IllegalStateException.class, () -> e.wrap(b, 0).origin(0, 0, 0).refBlock(0, 1, 2).site(1, 1),
        "an example's part in a block");
    assertThrows(IllegalStateException.class, () -> e.wrap(b, 0).partitionDone(0, 1), "no origin");
  }
  @Test
  void matePairsFollowTheFloatsAndReadBackAsEachRowsMate() {
    dirty();
    float[] floats = {1.5f, -2f};
    int[] rows = {0, 7, 3, 254, 99, 99};
    int img = e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).floats(floats)
        .matePairs(rows, 2).image(4, 3, 6);
    int len = image(img, 4 * 3 * 6);
    assertEquals(ExampleRecordDescriptor.encodedLength("A", new String[] {"C"}, 2, 2, 4, 3, 6), len);
    r.wrap(b, AT);
    assertEquals(len, r.length());
    assertEquals(img, r.imageOffset());
    assertEquals(0, (r.imageOffset()) % ExampleRecordDescriptor.ALIGNMENT);
    assertEquals(2, r.matePairCount(), "the third pair in the array is not the record's");
    assertEquals(7, r.mateRow(0, 1));
    assertEquals(254, r.mateRow(1, 1));
    assertArrayEquals(floats, r.floats(new float[2]));
    int[] mate = r.mateOfRows(255, null);
    assertEquals(7, mate[0]);
    assertEquals(0, mate[7]);
    assertEquals(254, mate[3]);
    assertEquals(3, mate[254]);
    assertEquals(-1, mate[1]);
    assertEquals(-1, mate[99]);
    int[] fewer = r.mateOfRows(200, new int[300]);
    assertEquals(-1, fewer[3], "a pair with a row past the image's rows is left out");
    assertEquals(7, fewer[0]);
    assertEquals(1, r.pixel(0, 0, 0), "the image is where the record says");
  }

  @Test
  void aRecordWithoutMatePairsHasNone() {
    dirty();
    int img = e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).matePairs(new int[0], 0)
        .image(2, 3, 6);
    image(img, 36);
    r.wrap(b, AT);
    assertEquals(0, r.matePairCount());
    assertNull(r.mateOfRows(2, null));
    assertEquals(0, r.floatCount());
    dirty();
    img = e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).image(2, 3, 6);
    image(img, 36);
    assertEquals(0, r.wrap(b, AT).matePairCount(), "a record that never put mate pairs, in a dirty buffer");
  }

  @Test
  void cyclesFollowTheMatePairsAndReadBackPerRow() {
    dirty();
    byte[] cycles = {0, 125, (byte) 250, (byte) 255, 7};
    int img = e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).matePairs(new int[] {0, 2}, 1)
        .cycles(cycles, 4).image(9, 3, 6);
    int len = image(img, 9 * 3 * 6);
    assertEquals(ExampleRecordDescriptor.encodedLength("A", new String[] {"C"}, 0, 1, 4, 9, 3, 6), len);
    r.wrap(b, AT);
    assertEquals(len, r.length());
    assertEquals(1, r.matePairCount());
    assertEquals(2, r.mateRow(0, 1));
    assertEquals(4, r.cycleCount(), "the fifth in the array is not the record's");
    byte[] back = r.cycles(6, null);
    assertArrayEquals(new byte[] {0, 125, (byte) 250, (byte) 255, (byte) 255, (byte) 255}, back, "rows past the record's: none");
    byte[] into = new byte[8];
    assertSame(into, r.cycles(2, into), "into a reused array");
    assertEquals(125, into[1]);
    assertEquals(1, r.pixel(0, 0, 0), "the image is where the record says");
    dirty();
    img = e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).image(2, 3, 6);
    image(img, 36);
    assertEquals(0, r.wrap(b, AT).cycleCount(), "a record that never put cycles, in a dirty buffer");
    assertNull(r.cycles(2, null));
    e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).cycles(cycles, 2);
    assertThrows(IllegalStateException.class, () -> e.matePairs(new int[] {1, 2}, 1), "mate pairs after the cycles");
    assertThrows(IllegalStateException.class, () -> e.cycles(cycles, 2), "cycles twice");
    e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0});
    assertThrows(IllegalArgumentException.class, () -> e.cycles(new byte[300], 256), "more rows than a byte counts");
  }

  @Test
  void matePairsOutOfOrderOrOutOfRangeAreRefused() {
    e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0}).matePairs(new int[] {1, 2}, 1);
    assertThrows(IllegalStateException.class, () -> e.floats(new float[] {1f}));
    assertThrows(IllegalStateException.class, () -> e.matePairs(new int[] {1, 2}, 1));
    e.wrap(b, AT).origin(0, 1L, 2L).example(0, 500, -1).site(1, 20)
        .alleles("A", new String[] {"C"}, new int[] {18, 2}).altSubset(new int[] {0});
    assertThrows(IllegalArgumentException.class, () -> e.matePairs(new int[] {1, 255}, 1));
  }
}
