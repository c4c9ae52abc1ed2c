package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** How each CIGAR operation is drawn, on a hand-built reference, with a small 5+3 x 21 image. */
class PileupImageEncoderTest {
  static final int H = 8;
  static final int W = 21;
  final TestGenome g = new TestGenome("chrT", 400, 7);
  final PileupImageEncoder enc = new PileupImageEncoder(PileupImageEncoder.defaultChannels(6), H, W);
  final UnsafeBuffer buf = new UnsafeBuffer(new byte[H * W * 6 + 64]);
  final int center = 200;
  final int windowStart = center - W / 2;

  int px(int row, int col, int ch) {
    return buf.getByte(8 + (row * W + col) * 6 + ch) & 0xFF;
  }

  void draw(SAMRecord... reads) {
    int[] support = new int[reads.length];
    buf.setMemory(0, buf.capacity(), (byte) 0x77);
    enc.encode(buf, 8, g.ref, 0, windowStart, reads, support, reads.length);
  }

  static int base(char b) {
    return ReadBaseChannel.baseColor((byte) b);
  }

  @Test
  void referenceRowsAndEmptyRows() {
    draw();
    for (int row = 0; row < 5; row++) {
      for (int col = 0; col < W; col++) {
        assertEquals(base((char) g.ref[windowStart + col]), px(row, col, 0));
        assertEquals(254, px(row, col, 1));
        assertEquals(254, px(row, col, 2));
        assertEquals(70, px(row, col, 3));
        assertEquals(152, px(row, col, 4));
        assertEquals(50, px(row, col, 5));
      }
    }
    for (int row = 5; row < H; row++) for (int col = 0; col < W; col++) for (int ch = 0; ch < 6; ch++) {
      assertEquals(0, px(row, col, ch), "rows without reads are zero");
    }
  }

  @Test
  void matchAndMismatchBases() {
    String seq = TestGenome.mutate(g.refString(190, 230), 10, g.ref[200] == 'A' ? 'C' : 'A');
    SAMRecord r = g.read(190, "40M", seq);
    r.setReadNegativeStrandFlag(true);
    r.getBaseQualities()[11] = 20;
    draw(r);
    int col = 200 - windowStart; // 10
    assertEquals(base(seq.charAt(10)), px(5, col, 0));
    assertEquals(254, px(5, col, 5), "mismatch");
    assertEquals(50, px(5, col + 1, 5), "match");
    assertEquals(190, px(5, col, 1)); // q30: 30 * 254 / 40 = 190.5
    assertEquals(127, px(5, col + 1, 1)); // q20
    assertEquals(254, px(5, col, 2)); // MAPQ 60
    assertEquals(240, px(5, col, 3)); // reverse
    assertEquals(152, px(5, col, 4));
  }

  @Test
  void readHangingOffTheWindowIsClipped() {
    SAMRecord left = g.refRead(150, 55); // covers 150..204: columns 0..14
    SAMRecord right = g.refRead(205, 100); // covers 205..: columns 15..20
    draw(left, right);
    assertEquals(base((char) g.ref[windowStart]), px(5, 0, 0));
    assertEquals(base((char) g.ref[204]), px(5, 204 - windowStart, 0));
    assertEquals(0, px(5, 205 - windowStart, 0), "left read ends at 204");
    assertEquals(0, px(6, 204 - windowStart, 0), "right read starts at 205");
    assertEquals(base((char) g.ref[windowStart + W - 1]), px(6, W - 1, 0));
  }

  @Test
  void insertionDrawsTheAnchorStar() {
    // 10M 3I 20M starting at 195: anchor is ref 204.
    String seq = g.refString(195, 205) + "GGG" + g.refString(205, 225);
    SAMRecord r = g.read(195, "10M3I20M", seq);
    r.getBaseQualities()[10] = 12; // first inserted base
    draw(r);
    int anchor = 204 - windowStart;
    assertEquals(0, px(5, anchor, 0), "'*' has no base colour");
    assertEquals(254, px(5, anchor, 5), "'*' differs from ref");
    assertEquals(76, px(5, anchor, 1), "quality of the first inserted base: 12 * 254 / 40");
    assertEquals(base((char) g.ref[205]), px(5, anchor + 1, 0), "bases after the insertion resume in place");
    assertEquals(base((char) g.ref[203]), px(5, anchor - 1, 0));
  }

  @Test
  void deletionDrawsTheAnchorStarAndLeavesAGap() {
    // 10M 4D 20M from 192: anchor 201, deleted 202..205, resumes at 206.
    String seq = g.refString(192, 202) + g.refString(206, 226);
    SAMRecord r = g.read(192, "10M4D20M", seq);
    draw(r);
    int anchor = 201 - windowStart;
    assertEquals(0, px(5, anchor, 0));
    assertEquals(254, px(5, anchor, 5));
    for (int p = 202; p <= 205; p++) assertEquals(0, px(5, p - windowStart, 0), "deleted bases are empty");
    assertEquals(base((char) g.ref[206]), px(5, 206 - windowStart, 0));
  }

  @Test
  void softClipsHardClipsAndSkipsDrawNothing() {
    // 5H 5S 10M 4N 10M 5S: aligned 195..204, skip 205..208, aligned 209..218.
    String seq = "TTTTT" + g.refString(195, 205) + g.refString(209, 219) + "TTTTT";
    SAMRecord r = g.read(195, "5H5S10M4N10M5S", seq);
    draw(r);
    assertEquals(0, px(5, 194 - windowStart, 0), "soft clip not drawn before the read");
    assertEquals(base((char) g.ref[195]), px(5, 195 - windowStart, 0));
    assertEquals(base((char) g.ref[204]), px(5, 204 - windowStart, 0), "no anchor star for N");
    for (int p = 205; p <= 208; p++) assertEquals(0, px(5, p - windowStart, 0));
    assertEquals(base((char) g.ref[209]), px(5, 209 - windowStart, 0));
    assertEquals(base((char) g.ref[210]), px(5, 210 - windowStart, 0));
  }

  @Test
  void explicitMatchAndMismatchOps() {
    String seq = g.refString(195, 200) + (g.ref[200] == 'A' ? "C" : "A") + g.refString(201, 206);
    SAMRecord r = g.read(195, "5=1X5=", seq);
    draw(r);
    assertEquals(254, px(5, 200 - windowStart, 5));
    assertEquals(50, px(5, 199 - windowStart, 5));
  }

  @Test
  void indelsAtTheWindowEdge() {
    // Deletion whose anchor is the last column; insertion whose anchor is just left of column 0.
    int last = windowStart + W - 1;
    SAMRecord del = g.read(last - 9, "10M3D10M", g.refString(last - 9, last + 1) + g.refString(last + 4, last + 14));
    SAMRecord ins = g.read(windowStart - 10, "10M2I10M",
        g.refString(windowStart - 10, windowStart) + "AC" + g.refString(windowStart, windowStart + 10));
    draw(del, ins);
    assertEquals(0, px(5, W - 1, 0), "deletion anchor at the last column is drawn as '*'");
    assertEquals(254, px(5, W - 1, 5));
    assertEquals(base((char) g.ref[windowStart]), px(6, 0, 0), "anchor outside the window: nothing at column 0 but the base");
  }

  @Test
  void readsAtTheContigStartAndEnd() {
    TestGenome small = new TestGenome("chrS", 30, 3);
    PileupImageEncoder e = new PileupImageEncoder(PileupImageEncoder.defaultChannels(6), H, W);
    SAMRecord first = small.read(0, "5S10M", "GGGGG" + small.refString(0, 10));
    SAMRecord last = small.refRead(20, 10);
    // Window centred at 5: columns -5..15; the part before 0 is off the contig.
    e.encode(buf, 8, small.ref, 0, -5, new SAMRecord[] {first, last}, new int[2], 2);
    assertEquals(0, px(0, 0, 0), "reference row off the contig is N");
    assertEquals(0, px(5, 4, 0), "soft clip hanging off the contig start is not drawn");
    assertEquals(ReadBaseChannel.baseColor(small.ref[0]), px(5, 5, 0));
    SAMRecord[] rows = {last};
    e.encode(buf, 8, small.ref, 0, 15, rows, new int[1], 1);
    assertEquals(ReadBaseChannel.baseColor(small.ref[29]), px(5, 14, 0));
    assertEquals(0, px(5, 15, 0), "nothing past the contig end");
  }

  @Test
  void moreReadsThanRowsKeepsTheFirstRows() {
    SAMRecord[] reads = new SAMRecord[10];
    for (int i = 0; i < 10; i++) reads[i] = g.refRead(190 + i, 30);
    draw(reads);
    assertEquals(base((char) g.ref[192]), px(7, 192 - windowStart, 0), "third read in the last row");
    assertEquals(0, px(7, 191 - windowStart, 0));
  }

  @Test
  void lowQualityBaseAtTheCandidateExcludesTheRead() {
    SAMRecord r = g.refRead(190, 20);
    r.getBaseQualities()[10] = 5;
    assertFalse(PileupImageEncoder.qualityOkAt(r, 200, 10));
    assertTrue(PileupImageEncoder.qualityOkAt(r, 201, 10));
    SAMRecord d = g.read(190, "10M2D10M", g.refString(190, 200) + g.refString(202, 212));
    d.getBaseQualities()[9] = 3;
    assertFalse(PileupImageEncoder.qualityOkAt(d, 199, 10), "the deletion anchor uses the base before it");
  }

  @Test
  void anInsertionsAnchorIsJudgedByTheInsertedBases() {
    SAMRecord i = g.read(190, "10M2I10M", g.refString(190, 200) + "AC" + g.refString(200, 210));
    i.getBaseQualities()[9] = 7;
    assertTrue(PileupImageEncoder.qualityOkAt(i, 199, 10), "a Q7 anchor before inserted bases of Q30 shows the insertion");
    i.getBaseQualities()[10] = 4;
    i.getBaseQualities()[11] = 5;
    assertFalse(PileupImageEncoder.qualityOkAt(i, 199, 10), "inserted bases of Q4 and Q5");
    i.getBaseQualities()[9] = 30;
    assertFalse(PileupImageEncoder.qualityOkAt(i, 199, 10), "a good anchor does not save a poor insertion");
    assertTrue(PileupImageEncoder.qualityOkAt(i, 198, 10));
  }
}
