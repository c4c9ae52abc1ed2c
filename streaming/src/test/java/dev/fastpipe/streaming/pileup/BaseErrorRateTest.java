package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sample's error rate per base quality: measured, pulled to the promise where bases are few, never below it. */
class BaseErrorRateTest {
  static long[] counts(int q, long n) {
    long[] c = new long[BaseErrorRate.qualities()];
    c[q] = n;
    return c;
  }

  /** Quality q's bases, {@code perPart} in each fifth of their reads, {@code wrong[b]} of them wrong in fifth b. */
  static BaseErrorRate alongTheRead(int q, long perPart, long[] wrong) {
    long[] binBases = new long[BaseErrorRate.qualities() * BaseErrorRate.CYCLE_BINS];
    long[] binWrong = new long[binBases.length];
    long total = 0;
    for (int b = 0; b < BaseErrorRate.CYCLE_BINS; b++) {
      binBases[BaseErrorRate.alongRead(q, b)] = perPart;
      binWrong[BaseErrorRate.alongRead(q, b)] = wrong[b];
      total += wrong[b];
    }
    return BaseErrorRate.measure(counts(q, perPart * BaseErrorRate.CYCLE_BINS), counts(q, total),
        new long[BaseErrorRate.substitutions()], binBases, binWrong);
  }

  @Test
  void nothingMeasuredIsWhatEachQualityPromises() {
    BaseErrorRate r = BaseErrorRate.promised();
    for (int q = 0; q < BaseErrorRate.qualities(); q++) assertEquals(Math.pow(10, -q / 10.0), r.at(q), 1e-12);
    assertEquals(0, r.bases());
    assertTrue(r.describe().contains("no reads sampled"), r.describe());
  }

  @Test
  void aQualityWithManyBasesTakesItsMeasuredRateAndOneWithFewStaysNearItsPromise() {
    // 10 million Q40 bases with 20,000 wrong: 0.2 %, twenty times the promise.
    BaseErrorRate many = BaseErrorRate.measure(counts(40, 10_000_000), counts(40, 20_000));
    assertEquals((20_000 + BaseErrorRate.PRIOR_BASES * 1e-4) / (10_000_000 + BaseErrorRate.PRIOR_BASES), many.at(40), 1e-12);
    // 1,000 Q40 bases with 10 wrong (1 %): the prior's 20,000 bases at 1e-4 hold it near 5.7e-4.
    BaseErrorRate few = BaseErrorRate.measure(counts(40, 1_000), counts(40, 10));
    assertEquals((10 + 2.0) / 21_000, few.at(40), 1e-12);
    assertTrue(many.describe().contains("Q40 0.0020 (20.0x)"), many.describe());
  }

  /**
   * The good bases' excess over their promise, pooled over Q30 and above: Mason's Illumina model (Q40
   * at 0.22 %, Q30 at 0.7 %) overpromises; a sample whose Q30 bases err at twice their promise and
   * whose Q40 bases keep it (dwgsim's) does not, nor one whose only bad bases are below Q30.
   */
  @Test
  void theGoodBasesOverpromiseWhereTheyErrAtThreeTimesTheirPromiseOrMore() {
    assertEquals(1.0, BaseErrorRate.promised().promiseExcess());
    assertFalse(BaseErrorRate.promised().qualitiesOverpromise());
    long[] bases = new long[BaseErrorRate.qualities()];
    long[] wrong = new long[bases.length];
    bases[30] = 2_000_000;
    wrong[30] = 14_000; // 0.7 %, 7x
    bases[40] = 8_000_000;
    wrong[40] = 17_600; // 0.22 %, 22x
    BaseErrorRate mason = BaseErrorRate.measure(bases, wrong);
    double expected = (bases[30] * mason.at(30) + bases[40] * mason.at(40)) / (bases[30] * 1e-3 + bases[40] * 1e-4);
    assertEquals(expected, mason.promiseExcess(), 1e-9);
    assertTrue(mason.promiseExcess() > 10, "pooled " + mason.promiseExcess());
    assertTrue(mason.qualitiesOverpromise());
    assertTrue(mason.describe().contains("Q30 and above at " + String.format(java.util.Locale.ROOT, "%.1f", expected)
        + "x their promise (they overpromise)"), mason.describe());
    wrong[30] = 4_000; // 0.2 %, 2x
    wrong[40] = 800; // at its promise
    BaseErrorRate dwgsim = BaseErrorRate.measure(bases, wrong);
    assertTrue(dwgsim.promiseExcess() > 1.05 && dwgsim.promiseExcess() < BaseErrorRate.OVERPROMISE, "pooled " + dwgsim.promiseExcess());
    assertFalse(dwgsim.qualitiesOverpromise());
    assertFalse(dwgsim.describe().contains("overpromise"), dwgsim.describe());
    BaseErrorRate lowOnly = BaseErrorRate.measure(counts(20, 10_000_000), counts(20, 500_000)); // Q20 at 5 %
    assertEquals(1.0, lowOnly.promiseExcess(), "no base of Q30 or above measured");
    BaseErrorRate atThree = BaseErrorRate.measure(counts(40, 1_000_000_000), counts(40, 300_000));
    assertEquals(3.0, atThree.promiseExcess(), 0.01);
  }

  @Test
  void aRateIsNeverLoweredBelowThePromiseNorRaisedAboveThreeInFour() {
    BaseErrorRate clean = BaseErrorRate.measure(counts(30, 10_000_000), counts(30, 0));
    assertEquals(1e-3, clean.at(30), 1e-12, "Q30 bases that never err keep Q30's 0.1 %");
    BaseErrorRate noise = BaseErrorRate.measure(counts(2, 10_000_000), counts(2, 9_900_000));
    assertEquals(PileupLikelihood.MAX_ERROR, noise.at(2), 1e-12);
    assertEquals(noise.at(BaseErrorRate.qualities() - 1), noise.at(99), "qualities above the cap read at the cap");
  }

  @Test
  void aQualitysRateAlongTheReadIsItsRateTimesEachFifthsShareOfItsErrors() {
    // Q30 bases, a million in each fifth of their reads, wrong 500 / 1,000 / 1,000 / 1,000 / 4,000
    // times: the last fifth errs at 2.6 times the quality's 0.15 %, the first at a third of it.
    BaseErrorRate r = alongTheRead(30, 1_000_000, new long[] {500, 1_000, 1_000, 1_000, 4_000});
    double mean = (7_500 + BaseErrorRate.PRIOR_BASES * 1e-3) / (5_000_000 + BaseErrorRate.PRIOR_BASES);
    assertEquals(mean, r.at(30), 1e-12);
    // the last fifth: 4,000 errors where the quality's 0.15 % gives its million bases 1,500, each with the prior's 20
    double last = mean * (4_000 + BaseErrorRate.PRIOR_CYCLE_ERRORS) / (1_500 + BaseErrorRate.PRIOR_CYCLE_ERRORS);
    assertEquals(last, r.at(30, BaseErrorRate.LAST_CYCLE), 1e-12, "the last fifth at its share of the errors");
    assertEquals(last, r.at(30, 201), 1e-12, "201 of 250 is in the last fifth");
    assertTrue(r.at(30, 0) < 0.6e-3 && r.at(30, 0) > 0.5e-3, "the first fifth near 0.05 %: " + r.at(30, 0));
    assertEquals(r.at(30), r.at(30, BaseErrorRate.NO_CYCLE), 0, "a base whose place is not known: the quality's rate");
    assertEquals(r.at(20), r.at(20, 0), 1e-15, "a quality measured nowhere along the read keeps its rate everywhere");
    BaseErrorRate flawless = alongTheRead(30, 1_000_000, new long[BaseErrorRate.CYCLE_BINS]);
    for (int c : new int[] {0, 125, 250}) assertEquals(flawless.at(30), flawless.at(30, c), 0, "no error anywhere: one rate all along");
    assertTrue(r.describe().contains("along the read at Q30, 0.3/0.7/0.7/0.7/2.6x"), r.describe());
    assertEquals(BaseErrorRate.promised().at(30), BaseErrorRate.promised().at(30, 240), 0, "nothing measured: the promise everywhere");
    assertThrows(IllegalArgumentException.class, () -> BaseErrorRate.measure(counts(30, 1), counts(30, 0),
        new long[BaseErrorRate.substitutions()], new long[3], new long[3]));
  }

  @Test
  void aBasesPlaceRunsInTheOrderTheReadWasSequenced() {
    assertEquals(0, BaseErrorRate.cycle(0, 150, false));
    assertEquals(BaseErrorRate.LAST_CYCLE, BaseErrorRate.cycle(149, 150, false));
    assertEquals(BaseErrorRate.LAST_CYCLE, BaseErrorRate.cycle(0, 150, true), "a reverse read's first stored base was sequenced last");
    assertEquals(0, BaseErrorRate.cycle(149, 150, true));
    assertEquals(125, BaseErrorRate.cycle(50, 101, false));
    assertEquals(0, BaseErrorRate.cycleBin(0));
    assertEquals(0, BaseErrorRate.cycleBin(50));
    assertEquals(1, BaseErrorRate.cycleBin(51));
    assertEquals(BaseErrorRate.CYCLE_BINS - 1, BaseErrorRate.cycleBin(BaseErrorRate.LAST_CYCLE));
  }

  @Test
  void oneCountPerQualityIsRequired() {
    assertThrows(IllegalArgumentException.class, () -> BaseErrorRate.measure(new long[3], new long[3]));
  }

  @Test
  void theMeanErrorIsTheShareOfTheMeasuredBasesThatAreWrongAtTheirQualitiesRates() {
    long[] bases = counts(30, 1_000_000);
    long[] wrong = counts(30, 1_000);
    bases[10] = 100_000;
    wrong[10] = 10_000;
    BaseErrorRate r = BaseErrorRate.measure(bases, wrong);
    assertEquals((1_000_000 * r.at(30) + 100_000 * r.at(10)) / 1_100_000, r.meanError(), 1e-12);
    assertEquals(0.01, r.meanError(), 1e-4, "11,000 of 1.1 million bases wrong");
    BaseErrorRate flawless = BaseErrorRate.measure(counts(30, 1_000_000), counts(30, 0));
    assertEquals(flawless.at(30), flawless.meanError(), 1e-15, "one quality that never erred: a wrong base has it, odds 1");
    assertTrue(Double.isNaN(BaseErrorRate.promised().meanError()), "nothing measured: no mean");
  }

  @Test
  void aWrongBaseShowsEachOtherBaseAsOftenAsTheSamplesErrorsDidPerReferenceBaseAndStrand() {
    long[] substitutions = new long[BaseErrorRate.substitutions()];
    // A on forward reads: 900 read as C, 60 as G, 40 as T; A on reverse reads: 3 read as T, nothing else
    substitutions[BaseErrorRate.substitution(0, false, 1)] = 900;
    substitutions[BaseErrorRate.substitution(0, false, 2)] = 60;
    substitutions[BaseErrorRate.substitution(0, false, 3)] = 40;
    substitutions[BaseErrorRate.substitution(0, true, 3)] = 3;
    BaseErrorRate r = BaseErrorRate.measure(counts(30, 1_000_000), counts(30, 1_003), substitutions);
    double prior = BaseErrorRate.PRIOR_SUBSTITUTIONS;
    assertEquals((900 + prior / 3) / (1_000 + prior), r.wrongShare(0, false, 1), 1e-12);
    assertEquals((40 + prior / 3) / (1_000 + prior), r.wrongShare(0, false, 3), 1e-12);
    assertEquals((3 + prior / 3) / (3 + prior), r.wrongShare(0, true, 3), 1e-12, "3 errors: the prior's third holds");
    assertEquals(1.0 / 3, r.wrongShare(2, true, 1), 1e-12, "G on reverse reads never erred: a third each");
    for (int ref = 0; ref < 4; ref++) {
      for (boolean reverse : new boolean[] {false, true}) {
        double sum = 0;
        for (int b = 0; b < 4; b++) if (b != ref) sum += r.wrongShare(ref, reverse, b);
        assertEquals(1, sum, 1e-12, "the shares of base " + ref + " sum to 1");
      }
    }
    assertTrue(r.describe().contains("A>C on forward reads at 0.77"), r.describe());
    assertEquals(1.0 / 3, BaseErrorRate.promised().wrongShare(3, false, 0), 1e-12, "nothing measured: a third each");
    assertEquals(1.0 / 3, BaseErrorRate.measure(counts(30, 10), counts(30, 1)).wrongShare(1, true, 0), 1e-12,
        "no substitutions given: a third each");
    assertThrows(IllegalArgumentException.class, () -> r.wrongShare(2, false, 2));
    assertThrows(IllegalArgumentException.class, () -> BaseErrorRate.measure(counts(30, 10), counts(30, 1), new long[4]));
  }
}
