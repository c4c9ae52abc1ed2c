package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReferenceConfidenceTest {
  private final ReferenceConfidence rc = new ReferenceConfidence(5);
  private final int[] pl = new int[3];

  @Test
  void oneErrorInTenReadsIsCalledWithLowConfidence() {
    // By hand, e = 0.001: log10 p(0/0) = 9 log10(0.999) - 3 = -3.0039, p(0/<*>) = -10 log10(2) = -3.0103,
    // p(<*>/<*>) = -27 + log10(0.999) = -27.0004; normalised p(0/0) = 0.5037, so GQ = floor(3.04) = 3.
    int r = rc.evaluate(9, 10, pl);
    assertEquals(3, ReferenceConfidence.gq(r));
    assertEquals(1, ReferenceConfidence.bin(r));
    assertTrue(ReferenceConfidence.called(r));
    assertArrayEquals(new int[] {0, 0, 240}, pl);
  }

  @Test
  void allReferenceReadsReachTheCap() {
    int r = rc.evaluate(30, 30, pl);
    assertEquals(ReferenceConfidence.MAX_GQ, ReferenceConfidence.gq(r));
    assertEquals(46, ReferenceConfidence.bin(r));
    assertTrue(ReferenceConfidence.called(r));
    assertEquals(0, pl[0]);
    assertEquals(90, pl[1]); // 30 log10(2) = 9.03 -> 90
    assertTrue(pl[2] > 800);
  }

  @Test
  void noReadsOrMostlyOtherReadsAreNotCalled() {
    int none = rc.evaluate(0, 0, pl);
    assertFalse(ReferenceConfidence.called(none));
    assertEquals(0, ReferenceConfidence.gq(none));
    assertArrayEquals(new int[] {0, 0, 0}, pl);
    int alt = rc.evaluate(1, 12, pl);
    assertFalse(ReferenceConfidence.called(alt), "hom-alt is more likely than hom-ref");
    assertEquals(0, ReferenceConfidence.gq(alt));
    assertTrue(pl[0] > 0);
  }

  @Test
  void gqBinsAreDeepVariants() {
    assertEquals(0, rc.quantize(0));
    assertEquals(1, rc.quantize(1));
    assertEquals(1, rc.quantize(5));
    assertEquals(6, rc.quantize(6));
    assertEquals(46, rc.quantize(50));
    ReferenceConfidence single = new ReferenceConfidence(1);
    for (int gq = 0; gq <= 50; gq++) assertEquals(gq, single.quantize(gq));
  }

  @Test
  void deepPositionsAreComputedLikeTableOnes() {
    // The table covers depths up to 255; beyond, values are computed: both must follow one curve.
    int[] a = new int[3];
    int[] b = new int[3];
    int tabled = rc.evaluate(250, 255, a);
    int computed = rc.evaluate(251, 256, b);
    assertEquals(ReferenceConfidence.called(tabled), ReferenceConfidence.called(computed));
    int deep = rc.evaluate(1000, 1000, b);
    assertEquals(ReferenceConfidence.MAX_GQ, ReferenceConfidence.gq(deep));
    assertEquals(3006, b[1]); // -10 (-1000 log10(2) - 1000 log10(0.999)) = 3010.3 - 4.3 -> 3006
    assertThrows(IllegalArgumentException.class, () -> rc.evaluate(5, 4, pl));
  }

  @Test
  void haploidConfidenceLeavesTheMixedGenotypeOut() {
    ReferenceConfidence one = rc.haploid();
    assertTrue(one.isHaploid());
    assertFalse(rc.isHaploid());
    // The same 9 of 10 reads: without 0/<*>, log10 p(0) - log10 p(<*>) = -3.0039 + 27.0004 = 23.9965, so
    // 1 - p(0) = 10^-24: GQ at the cap, where two copies give 3; PLs of 0 and <*>, the third unused.
    int r = one.evaluate(9, 10, pl);
    assertEquals(ReferenceConfidence.MAX_GQ, ReferenceConfidence.gq(r));
    assertTrue(ReferenceConfidence.called(r));
    assertArrayEquals(new int[] {0, 240, 0}, pl);
    // one read: p(0) = 0.999 -> GQ floor(30.0) = 29 (rounding below 30)
    int single = one.evaluate(1, 1, pl);
    assertEquals(29, ReferenceConfidence.gq(single));
    assertArrayEquals(new int[] {0, 30, 0}, pl);
    // half the reads against the reference: a tie, called (ties go to the reference) at GQ 3
    int tie = one.evaluate(5, 10, pl);
    assertEquals(3, ReferenceConfidence.gq(tie));
    assertTrue(ReferenceConfidence.called(tie));
    assertFalse(ReferenceConfidence.called(one.evaluate(4, 10, pl)));
  }
}
