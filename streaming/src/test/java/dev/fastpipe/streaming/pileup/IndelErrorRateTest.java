package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IndelErrorRateTest {
  static final int CLASSES = IndelErrorRate.CLASSES;

  @Test
  void repeatLengthsAndUnitsFallIntoTheirClasses() {
    assertEquals(0, IndelErrorRate.classOf(0, 0));
    assertEquals(0, IndelErrorRate.classOf(3, 1));
    assertEquals(0, IndelErrorRate.classOf(2, 1));
    assertEquals(1, IndelErrorRate.classOf(4, 1));
    assertEquals(2, IndelErrorRate.classOf(11, 1));
    assertEquals(3, IndelErrorRate.classOf(12, 1));
    assertEquals(4, IndelErrorRate.classOf(20, 1));
    assertEquals(4, IndelErrorRate.classOf(500, 1));
    assertEquals(5, IndelErrorRate.classOf(4, 2), "ACAC: a dinucleotide STR of 4-7 bases");
    assertEquals(6, IndelErrorRate.classOf(10, 2), "(AT)5");
    assertEquals(8, IndelErrorRate.classOf(30, 2));
    assertEquals(10, IndelErrorRate.classOf(9, 3), "(ATG)3: a longer unit's class, not (AT)5's");
    assertEquals(11, IndelErrorRate.classOf(15, 3));
    assertEquals(12, IndelErrorRate.classOf(40, 4));
    assertEquals(13, CLASSES);
    assertEquals("repeat 0-3 bp", IndelErrorRate.label(0));
    assertEquals("homopolymer 12-19 bp", IndelErrorRate.label(3));
    assertEquals("dinucleotide STR 8-11 bp", IndelErrorRate.label(6));
    assertEquals("STR 4-7 bp", IndelErrorRate.label(9));
    assertEquals("STR 20+ bp", IndelErrorRate.label(12));
  }

  /**
   * PCR stutter (the v3 recipe's: a unit gained or lost in 15 % of the fragments that span a
   * homopolymer of 8 bases or more or a repeat of 4 units or more) slips a dinucleotide repeat of
   * 10 bases but not a trinucleotide one of 9: in classes of their own, the first fits the stutter
   * and is beyond the envelope, the second is not; one class for both would average them.
   */
  /**
   * A homopolymer class whose sampled errors slip 1,000 times by one unit, 4 times by two and once by
   * three: a two-unit slip weighs (4 + 1 + 2) / (1,000 + 20) of a one-unit slip (the slips of two
   * units or more and the prior's 20 slips, a tenth of them of two units or more), a three-unit one
   * (1 + 0.2) / 1,020. A class without errors keeps the prior: 0.1, 0.01 and 0.001. An indel that is
   * no whole number of the repeat's units, one unit, or outside any repeat keeps its class's rate.
   */
  @Test
  void aSlipOfSeveralUnitsWeighsItsShareOfTheSamplesSlips() {
    int homopolymer = IndelErrorRate.classOf(10, 1);
    long[][] slips = new long[CLASSES][IndelErrorRate.MAX_UNITS + 1];
    slips[homopolymer][1] = 1_000;
    slips[homopolymer][2] = 4;
    slips[homopolymer][3] = 1;
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[homopolymer] = 500_000;
    columns[homopolymer] = 25_000;
    IndelErrorRate r = IndelErrorRate.estimate(List.of(), reads, columns, slips);
    assertEquals(7.0 / 1020, r.unitShare(10, 1, 2), 1e-12);
    assertEquals(1.2 / 1020, r.unitShare(10, 1, 3), 1e-12);
    assertEquals(0.02 / 1020, r.unitShare(10, 1, 4), 1e-12);
    assertEquals(0.02 / 1020, r.unitShare(10, 1, 9), 1e-12, "four units or more");
    assertEquals(1, r.unitShare(10, 1, 1), "one unit: the class's rate");
    assertEquals(0.1, r.unitShare(10, 2, 4), 1e-12, "no slips sampled: the prior");
    assertEquals(0.01, r.unitShare(10, 2, 6), 1e-12);
    assertEquals(1, r.unitShare(10, 2, 3), "three bases of a two-base unit: no slip of it");
    assertEquals(1, r.unitShare(0, 0, 2), "no repeat");
    double rate = r.rates()[homopolymer];
    assertEquals(Math.max(IndelErrorRate.MIN_REFERENCE_READ_RATE, rate * 7.0 / 1020), r.ofReferenceReads(10, 1, 2), 1e-15);
    assertEquals(r.unitShares()[homopolymer][2], r.atLocus(4).unitShare(10, 1, 2), "every locus alike");
    assertEquals(1, IndelErrorRate.assumed().unitShare(10, 1, 2), "nothing measured: as likely as one unit");
  }

  @Test
  void dinucleotideStutterIsNotAveragedWithLongerUnitsAndLiesBeyondTheEnvelope() {
    int di = IndelErrorRate.classOf(10, 2);
    int tri = IndelErrorRate.classOf(9, 3);
    List<IndelErrorRate.Column> evidence = new ArrayList<>();
    for (int i = 0; i < 400; i++) evidence.add(new IndelErrorRate.Column(di, 20, 2)); // 7.5 % a read, one direction
    for (int i = 0; i < 20; i++) evidence.add(new IndelErrorRate.Column(tri, 20, 1));
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[di] = 10_000;
    columns[di] = 500;
    reads[tri] = 100_000;
    columns[tri] = 5_000;
    IndelErrorRate r = IndelErrorRate.estimate(evidence, reads, columns);
    assertTrue(r.rates()[di] > 0.05, r.describe());
    assertTrue(r.rates()[tri] < 0.001, r.describe());
    assertTrue(r.beyondEnvelope(10, 2), "(AT)5 slips beyond the envelope: " + r.describe());
    assertFalse(r.beyondEnvelope(9, 3), "(ATG)3 does not: " + r.describe());
    assertFalse(r.beyondEnvelope(10, 1), "nor a homopolymer with nothing measured: " + r.describe());
    assertTrue(r.describe().contains("dinucleotide STR 8-11 bp"), r.describe());
    assertFalse(IndelErrorRate.assumed().beyondEnvelope(10, 2), "the floor is inside the envelope");
    // The sample as a whole: beyond where one class is, and the log names that class alone.
    assertFalse(r.withinEnvelope(), r.describe());
    assertTrue(r.describe().endsWith("beyond the GQ map's envelope (0.005): dinucleotide STR 8-11 bp"), r.describe());
    assertTrue(IndelErrorRate.assumed().withinEnvelope());
    double[] atTheEnvelope = new double[CLASSES];
    java.util.Arrays.fill(atTheEnvelope, IndelErrorRate.ENVELOPE);
    IndelErrorRate edge = new IndelErrorRate(atTheEnvelope, new long[CLASSES], new double[CLASSES]);
    assertTrue(edge.withinEnvelope(), "a class at the envelope is inside it");
    atTheEnvelope[CLASSES - 1] = 2 * IndelErrorRate.ENVELOPE;
    assertFalse(new IndelErrorRate(atTheEnvelope, new long[CLASSES], new double[CLASSES]).withinEnvelope(), "one class beyond");
  }

  @Test
  void nothingMeasuredIsTheFloorEverywhere() {
    IndelErrorRate r = IndelErrorRate.assumed();
    for (int tract : new int[] {0, 5, 9, 15, 40}) {
      for (int unit = 1; unit <= 4; unit++) assertEquals(IndelErrorRate.FLOOR, r.at(tract, unit));
      assertEquals(IndelErrorRate.FLOOR, r.ofReferenceReads(tract, 1), "the prior's mean where nothing was fitted");
    }
    double[] tiny = new double[CLASSES];
    java.util.Arrays.fill(tiny, 1e-9);
    IndelErrorRate clean = new IndelErrorRate(tiny, new long[CLASSES], new double[CLASSES]);
    assertEquals(IndelErrorRate.MIN_REFERENCE_READ_RATE, clean.ofReferenceReads(0, 0), "never below a mapping error");
    assertTrue(r.describe().contains("assumed"), r.describe());
  }

  /**
   * Class 0: 1,000,000 reads in 33,000 columns, 50 with one read of 30 showing an indel (errors) and
   * 20 with 15 of 30 (hets); class 3: 100,000 reads in 5,000 columns, 500 with 3 of 20 reads showing
   * one (stutter). The hets are not errors; the stutter is.
   */
  @Test
  void errorsAreTheMixturesHomRefShareAndHetsAreNot() {
    List<IndelErrorRate.Column> evidence = new ArrayList<>();
    for (int i = 0; i < 50; i++) evidence.add(new IndelErrorRate.Column(0, 30, 1));
    for (int i = 0; i < 20; i++) evidence.add(new IndelErrorRate.Column(0, 30, 15));
    for (int i = 0; i < 500; i++) evidence.add(new IndelErrorRate.Column(3, 20, 3));
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[0] = 1_000_000;
    columns[0] = 33_000;
    reads[3] = 100_000;
    columns[3] = 5_000;
    IndelErrorRate r = IndelErrorRate.estimate(evidence, reads, columns);
    double prior = IndelErrorRate.FLOOR * IndelErrorRate.PRIOR_READS; // the prior's errors, in its 2,000 reads
    // class 0: (50 errors + the prior's) / (1,000,000 - 600 het reads + 2,000), about 5e-5
    assertEquals((50 + prior) / (1_000_000 - 600 + 2_000), r.rates()[0], 2e-6, r.describe());
    assertEquals(50, r.errors()[0], 0.5, "the hets are no errors: " + r.describe());
    assertEquals(IndelErrorRate.FLOOR, r.at(2, 1), "below the floor, the floor");
    assertEquals(r.rates()[0], r.ofReferenceReads(2, 1), 1e-15, "reads of the reference: the fitted rate, no floor");
    // class 3: (1,500 + the prior's) / (100,000 + 2,000), about 0.015
    assertEquals((1500 + prior) / 102_000, r.rates()[3], 5e-4, r.describe());
    assertEquals(r.rates()[3], r.at(15, 1));
    assertEquals(IndelErrorRate.FLOOR, r.at(15, 2), "an STR of the same length is a class of its own");
    // classes without reads keep the prior's mean, the floor
    assertEquals(IndelErrorRate.FLOOR, r.rates()[4], 1e-12);
    assertTrue(r.describe().contains("1,100,000 read columns"), r.describe());
  }

  /**
   * Dinucleotide STRs of 8-11 bases, 500 anchor columns of 20 reads: 100 loci that stutter (three
   * reads of 20 one unit off) and 400 where no read shows an indel. The class's rate, 0.025 a read,
   * is their mean; its loci spread, one in five at four or eight times it. Where 300 loci show one read of
   * 20 each and the rest none (the same mean, spread no more than chance spreads it), the fit puts its loci at their class's rate. Homopolymers
   * and longer units, with no columns, keep no spread.
   */
  @Test
  void lociThatSlipUnevenlyFitASpreadAroundTheirClasssRateAndEvenOnesNone() {
    int di = IndelErrorRate.classOf(10, 2);
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[di] = 10_000;
    columns[di] = 500;
    List<IndelErrorRate.Column> uneven = new ArrayList<>();
    for (int i = 0; i < 100; i++) uneven.add(new IndelErrorRate.Column(di, 20, 3));
    IndelErrorRate spread = IndelErrorRate.estimate(uneven, reads, columns);
    double[] w = spread.locusWeights(10, 2);
    assertEquals(1, java.util.Arrays.stream(w).sum(), 1e-9);
    assertTrue(w[2] + w[3] > 0.15, "one locus in five at 4-8x its class's rate: " + spread.describe());
    assertTrue(w[0] > 0.6, "most at it: " + spread.describe());
    assertTrue(spread.describe().contains("dinucleotide STRs 0."), spread.describe());

    List<IndelErrorRate.Column> even = new ArrayList<>();
    for (int i = 0; i < 300; i++) even.add(new IndelErrorRate.Column(di, 20, 1));
    IndelErrorRate alike = IndelErrorRate.estimate(even, reads, columns);
    assertEquals(spread.rates()[di], alike.rates()[di], 0.002, "the same mean rate");
    assertTrue(alike.locusWeights(10, 2)[0] > 0.95, "loci alike: no spread: " + alike.describe());

    for (IndelErrorRate r : new IndelErrorRate[] {spread, alike, IndelErrorRate.assumed()}) {
      assertEquals(1, r.locusWeights(10, 1)[0], 1e-9, "homopolymers: nothing measured, no spread");
      assertEquals(1, r.locusWeights(9, 3)[0], 1e-9, "longer units: nothing measured, no spread");
      assertEquals(1, r.locusWeights(2, 1)[0], 1e-9, "no repeat: no spread");
    }
    // a locus's rates: its class's times the multiple, at most MAX_LOCUS_RATE
    IndelErrorRate eightfold = spread.atLocus(8);
    assertEquals(Math.min(IndelErrorRate.MAX_LOCUS_RATE, 8 * spread.rates()[di]), eightfold.rates()[di], 1e-12);
    assertEquals(8 * spread.rates()[0], eightfold.rates()[0], 1e-12);
  }

  @Test
  void aSampleWhoseLociSlipAlikeFitsNoSpreadAtLowDepthToo() {
    // 10x: 20,000 dinucleotide anchors of ten reads, 30 of them with one slipped read, three hets:
    // every locus at one rate. The fit must settle at no spread, however little each column says.
    int di = IndelErrorRate.classOf(10, 2);
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[di] = 200_000;
    columns[di] = 20_000;
    List<IndelErrorRate.Column> evidence = new ArrayList<>();
    for (int i = 0; i < 30; i++) evidence.add(new IndelErrorRate.Column(di, 10, 1));
    for (int i = 0; i < 3; i++) evidence.add(new IndelErrorRate.Column(di, 10, 5));
    IndelErrorRate r = IndelErrorRate.estimate(evidence, reads, columns);
    assertTrue(r.locusWeights(10, 2)[0] > 0.99, "loci alike at 10x: no spread: " + r.describe());
  }

  @Test
  void moreEvidenceThanSampledIsRejected() {
    long[] reads = new long[CLASSES];
    long[] columns = new long[CLASSES];
    reads[0] = 10;
    columns[0] = 1;
    List<IndelErrorRate.Column> evidence = List.of(new IndelErrorRate.Column(0, 30, 2));
    assertThrows(IllegalArgumentException.class, () -> IndelErrorRate.estimate(evidence, reads, columns));
    assertThrows(IllegalArgumentException.class, () -> new IndelErrorRate.Column(0, 3, 4));
  }
}
