package dev.fastpipe.streaming.pileup;

import java.util.Arrays;
import java.util.Locale;

/**
 * How often a sample's bases of each reported quality (0..{@link PileupConstants#BASE_QUALITY_CAP})
 * are wrong, measured on its first reads ({@code makeexamples.ReadErrorSample}), never below what the
 * quality promises (10^(-q/10)): the error a SNP's pileup likelihood gives a base of that quality
 * ({@link PileupLikelihood#readError(BaseErrorRate, int, int, double)}), before the window's own
 * excess ({@link PileupLikelihood#errorFactor}). A sequencer or simulator whose Q40 bases err at
 * 0.2 % (Mason 2's Illumina model) gets 0.2 % for them, not 0.01 %; one whose qualities keep their
 * promise keeps them. Each quality's rate is (mismatches + {@link #PRIOR_BASES} x promise) /
 * (bases + {@link #PRIOR_BASES}), so a quality with few bases stays near its promise.
 *
 * <p>It also holds which base a wrong base shows ({@link #wrongShare}), per reference base and
 * strand: a simulator or a chemistry may turn an A into a C on forward reads nine times in ten
 * (wgsim does) and into a T on reverse ones, so that two random errors agree on their base far more
 * often on one strand than a third each would make them. Each share is (that substitution's count +
 * {@link #PRIOR_SUBSTITUTIONS} / 3) / (the reference base's and strand's wrong bases +
 * {@link #PRIOR_SUBSTITUTIONS}): a third each where little was measured.
 *
 * <p>And how a quality's error changes along the read ({@link #at(int, int)}): per fifth of the read
 * in the order it was sequenced ({@link #CYCLE_BINS}), the rate of that quality's bases there
 * against the quality's mean. dwgsim's and Mason's bases of one quality err three to five times as
 * often in the last fifth of a read as in its first (ART's carry most of it in their qualities);
 * instruments whose qualities were not recalibrated do the same. Each fifth's share is (its mismatches
 * + {@link #PRIOR_CYCLE_ERRORS}) / (the mismatches the quality's measured rate gives its bases +
 * {@link #PRIOR_CYCLE_ERRORS}), so a fifth with few errors keeps the quality's rate; a base whose
 * place is not known gets {@link #at(int)}.
 *
 * <p>And how far the sample's good bases break their qualities' promise ({@link #promiseExcess}):
 * the network reads a base's quality as promised, the pileup likelihood at its measured rate, so
 * where the two part ({@link #qualitiesOverpromise}) the pileup is given more weight at SNPs
 * ({@code postprocess.AlleleCountLikelihood.Weight#overpromise}).
 */
public final class BaseErrorRate {
  /** Pseudo-count of bases at the promised rate behind every quality's measured rate. */
  public static final double PRIOR_BASES = 20_000;
  /** Pseudo-count of wrong bases at a quality's rate behind each part of the read's rate ({@link #at(int, int)}). */
  public static final double PRIOR_CYCLE_ERRORS = 20;
  /** Pseudo-count of wrong bases, a third showing each other base, behind every reference base's and strand's shares. */
  public static final double PRIOR_SUBSTITUTIONS = 300;
  /** Substitution counts: reference base (A, C, G, T as 0..3) x strand (forward 0, reverse 1) x the base shown. */
  private static final int SUBSTITUTIONS = 4 * 2 * 4;
  private static final int QUALITIES = PileupConstants.BASE_QUALITY_CAP + 1;
  /** Parts of a read, in the order its bases were sequenced, whose errors are measured apart. */
  public static final int CYCLE_BINS = 5;
  /** A base's place in its read ({@link #cycle}) runs from 0 (the first base sequenced) to this (the last). */
  public static final int LAST_CYCLE = 250;
  /** The place of a base not known: its quality's rate ({@link #at(int)}). */
  public static final int NO_CYCLE = 255;

  private static final BaseErrorRate PROMISED = promisedRates();

  /** The lowest quality whose bases {@link #promiseExcess} pools: the good bases, most of a modern run's. */
  public static final int GOOD_QUALITY = 30;

  /**
   * The excess over their promise ({@link #promiseExcess}) from which a sample's good bases
   * overpromise ({@link #qualitiesOverpromise}). Pooled, Mason 2's Illumina model errs at 12-13 times
   * the promise (6-22 times at Q30-40); the development and validation runs' ART and wgsim samples at
   * 1.0-1.8 times, dwgsim's at 1.2-2.3, real HiSeq X reads (na12878_tiny) at 2.0: a threshold between
   * them, not fitted.
   */
  public static final double OVERPROMISE = 3.0;

  private final double[] rate;
  private final long bases;
  private final double meanError;
  /** Per {@link #substitution} index, the share of a wrong base that shows that base (0 where it is the reference's). */
  private final double[] share;
  /** Per quality q and part of the read b, at [q * CYCLE_BINS + b]: that part's rate over the quality's. */
  private final double[] alongRead;
  /** The quality with the most bases measured, whose rate along the read the log shows. */
  private final int commonest;
  /** The good bases' measured errors over their promised ones ({@link #promiseExcess}). */
  private final double promiseExcess;

  private BaseErrorRate(double[] rate, long bases, double meanError, double[] share, double[] alongRead, int commonest,
      double promiseExcess) {
    this.rate = rate;
    this.bases = bases;
    this.meanError = meanError;
    this.share = share;
    this.alongRead = alongRead;
    this.commonest = commonest;
    this.promiseExcess = promiseExcess;
  }

  /** Every quality at its promise: nothing measured (one shared, immutable instance). */
  public static BaseErrorRate promised() {
    return PROMISED;
  }

  private static BaseErrorRate promisedRates() {
    double[] r = new double[QUALITIES];
    for (int q = 0; q < QUALITIES; q++) r[q] = PileupLikelihood.promisedError(q);
    return new BaseErrorRate(r, 0, Double.NaN, shares(new long[SUBSTITUTIONS]), even(), 0, 1.0);
  }

  private static double[] even() {
    double[] f = new double[QUALITIES * CYCLE_BINS];
    Arrays.fill(f, 1.0);
    return f;
  }

  /**
   * The place of the base at {@code index} (0-based, as the record stores its bases) of a read of
   * {@code length} bases, in the order they were sequenced (a reverse-strand read's last base stored
   * was its first), from 0 to {@link #LAST_CYCLE}.
   */
  public static int cycle(int index, int length, boolean reverse) {
    if (length <= 1) return 0;
    int sequenced = reverse ? length - 1 - index : index;
    return (int) Math.round((double) LAST_CYCLE * Math.max(0, Math.min(sequenced, length - 1)) / (length - 1));
  }

  /** The part of the read ({@code 0..CYCLE_BINS - 1}) of a base at place {@code cycle} (0..{@link #LAST_CYCLE}). */
  public static int cycleBin(int cycle) {
    return Math.min(CYCLE_BINS - 1, cycle * CYCLE_BINS / (LAST_CYCLE + 1));
  }

  /** The index of quality {@code q}'s count in part {@code bin} of the read, in the arrays {@link #measure(long[], long[], long[], long[], long[])} takes. */
  public static int alongRead(int q, int bin) {
    return q * CYCLE_BINS + bin;
  }

  /** The index of the count of reference base {@code ref} read as {@code shown} on the {@code reverse} strand or not (bases 0..3). */
  public static int substitution(int ref, boolean reverse, int shown) {
    return ref * 8 + (reverse ? 4 : 0) + shown;
  }

  /** Counts {@link #measure(long[], long[], long[])} takes: one per {@link #substitution} index. */
  public static int substitutions() {
    return SUBSTITUTIONS;
  }

  private static double[] shares(long[] counts) {
    if (counts.length != SUBSTITUTIONS) throw new IllegalArgumentException("one substitution count per reference base, strand and base shown: " + SUBSTITUTIONS);
    double[] share = new double[SUBSTITUTIONS];
    for (int ref = 0; ref < 4; ref++) {
      for (int s = 0; s < 2; s++) {
        long wrong = 0;
        for (int b = 0; b < 4; b++) if (b != ref) wrong += counts[substitution(ref, s == 1, b)];
        for (int b = 0; b < 4; b++) {
          if (b == ref) continue;
          int i = substitution(ref, s == 1, b);
          share[i] = (counts[i] + PRIOR_SUBSTITUTIONS / 3) / (wrong + PRIOR_SUBSTITUTIONS);
        }
      }
    }
    return share;
  }

  /**
   * The rates of {@code bases[q]} read bases of quality q (capped: arrays of cap + 1) of which
   * {@code mismatches[q]} differ from the reference.
   */
  public static BaseErrorRate measure(long[] bases, long[] mismatches) {
    return measure(bases, mismatches, new long[SUBSTITUTIONS]);
  }

  /**
   * As {@link #measure(long[], long[])}, with {@code substitutions[}{@link #substitution}{@code (ref,
   * reverse, shown)]} the wrong bases counted per reference base, strand and base shown.
   */
  public static BaseErrorRate measure(long[] bases, long[] mismatches, long[] substitutions) {
    return measure(bases, mismatches, substitutions, null, null);
  }

  /**
   * As {@link #measure(long[], long[], long[])}, with {@code binBases[}{@link #alongRead}{@code (q, b)]}
   * the bases of quality q in part b of their reads and {@code binMismatches} theirs that differ from
   * the reference (null: every part of a read errs alike).
   */
  public static BaseErrorRate measure(long[] bases, long[] mismatches, long[] substitutions, long[] binBases,
      long[] binMismatches) {
    if (bases.length != QUALITIES || mismatches.length != QUALITIES) {
      throw new IllegalArgumentException("one count per quality 0.." + (QUALITIES - 1));
    }
    double[] r = new double[QUALITIES];
    long total = 0;
    double wrong = 0;
    double goodWrong = 0; // the good bases' errors at their rates, and at their promises
    double goodPromised = 0;
    int commonest = 0;
    for (int q = 0; q < QUALITIES; q++) {
      if (bases[q] > bases[commonest]) commonest = q;
      double promise = PileupLikelihood.promisedError(q);
      r[q] = Math.min(PileupLikelihood.MAX_ERROR,
          Math.max(promise, (mismatches[q] + PRIOR_BASES * promise) / (bases[q] + PRIOR_BASES)));
      total += bases[q];
      wrong += bases[q] * r[q];
      if (q >= GOOD_QUALITY) {
        goodWrong += bases[q] * r[q];
        goodPromised += bases[q] * promise;
      }
    }
    return new BaseErrorRate(r, total, total == 0 ? Double.NaN : wrong / total, shares(substitutions),
        binBases == null ? even() : alongRead(bases, mismatches, binBases, binMismatches), commonest,
        goodPromised == 0 ? 1.0 : goodWrong / goodPromised);
  }

  /**
   * Each part's rate over its quality's: (its mismatches + {@link #PRIOR_CYCLE_ERRORS}) / (the
   * mismatches its bases would have at the quality's measured rate + {@link #PRIOR_CYCLE_ERRORS}), so
   * that a quality with few errors (or none: a clean sample's) keeps its rate all along the read.
   */
  private static double[] alongRead(long[] bases, long[] mismatches, long[] binBases, long[] binMismatches) {
    if (binBases.length != QUALITIES * CYCLE_BINS || binMismatches.length != QUALITIES * CYCLE_BINS) {
      throw new IllegalArgumentException("one count per quality 0.." + (QUALITIES - 1) + " and part of the read 0.." + (CYCLE_BINS - 1));
    }
    double[] f = new double[QUALITIES * CYCLE_BINS];
    for (int q = 0; q < QUALITIES; q++) {
      double measured = bases[q] == 0 ? 0 : (double) mismatches[q] / bases[q];
      for (int b = 0; b < CYCLE_BINS; b++) {
        int i = alongRead(q, b);
        f[i] = (binMismatches[i] + PRIOR_CYCLE_ERRORS) / (binBases[i] * measured + PRIOR_CYCLE_ERRORS);
      }
    }
    return f;
  }

  /** Counts per quality of {@link #measure}: cap + 1. */
  public static int qualities() {
    return QUALITIES;
  }

  /** The error rate of a base of quality {@code q} (capped at the image's cap). */
  public double at(int q) {
    return rate[Math.max(0, Math.min(q, QUALITIES - 1))];
  }

  /**
   * The error rate of a base of quality {@code q} at place {@code cycle} of its read ({@link #cycle};
   * {@link #NO_CYCLE}: not known): its quality's rate ({@link #at(int)}) times that part of the
   * read's measured excess or shortfall.
   */
  public double at(int q, int cycle) {
    if (cycle == NO_CYCLE) return at(q);
    int qq = Math.max(0, Math.min(q, QUALITIES - 1));
    return Math.min(PileupLikelihood.MAX_ERROR, rate[qq] * alongRead[alongRead(qq, cycleBin(Math.max(0, Math.min(cycle, LAST_CYCLE))))]);
  }

  /**
   * The share of the measured bases that are wrong, whatever their quality, each quality's bases at
   * its rate ({@link #at}; NaN when nothing was measured): a wrong base's quality is q with odds
   * {@code at(q) / meanError()} against any base's. Taken from the rates, not the raw mismatches, so
   * that the odds stay 1 where every base has one quality, even one that never erred.
   */
  public double meanError() {
    return meanError;
  }

  /**
   * The share of the wrong bases of reference base {@code ref} on the {@code reverse} strand or not
   * that show {@code shown} (bases 0..3, in the reference's orientation; a third where nothing was
   * measured): a SNP's wrong read shows its other allele at e times this, not e / 3.
   */
  public double wrongShare(int ref, boolean reverse, int shown) {
    if (ref == shown) throw new IllegalArgumentException("a wrong base is not the reference's " + ref);
    return share[substitution(ref, reverse, shown)];
  }

  /**
   * The errors of the sample's bases of quality {@value #GOOD_QUALITY} and above at their measured
   * rates ({@link #at(int)}) over the errors their qualities promise, pooled over those bases: 1 where
   * the qualities keep their promise or no such base was measured (the rates never fall below it).
   */
  public double promiseExcess() {
    return promiseExcess;
  }

  /** Whether the sample's good bases err at {@value #OVERPROMISE} times their promise or more ({@link #promiseExcess}). */
  public boolean qualitiesOverpromise() {
    return promiseExcess >= OVERPROMISE;
  }

  /** Bases measured (0: the qualities' promises). */
  public long bases() {
    return bases;
  }

  /** For the log: the rate at Q20, Q30, Q35 and Q40 against what each promises. */
  public String describe() {
    if (bases == 0) return "as the qualities promise (no reads sampled)";
    StringBuilder b = new StringBuilder();
    for (int q : new int[] {20, 30, 35, 40}) {
      if (b.length() > 0) b.append(", ");
      b.append(String.format(Locale.ROOT, "Q%d %.2g (%.1fx)", q, at(q), at(q) / PileupLikelihood.promisedError(q)));
    }
    int top = 0;
    for (int i = 1; i < SUBSTITUTIONS; i++) if (share[i] > share[top]) top = i;
    String bases4 = "ACGT";
    return b + String.format(Locale.ROOT, " per base, the likeliest substitution %c>%c on %s reads at %.2f of their errors;"
        + " along the read at Q%d, %s of its rate; Q%d and above at %.1fx their promise%s; fitted to %,d bases",
        bases4.charAt(top / 8), bases4.charAt(top % 4), (top & 4) != 0 ? "reverse" : "forward", share[top], commonest,
        alongReadOf(commonest), GOOD_QUALITY, promiseExcess, qualitiesOverpromise() ? " (they overpromise)" : "", bases);
  }

  /** Quality q's rate in each part of the read over its mean, as "0.9/1.0/1.0/1.1/1.4x". */
  private String alongReadOf(int q) {
    StringBuilder b = new StringBuilder();
    for (int bin = 0; bin < CYCLE_BINS; bin++) {
      b.append(bin == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.1f", alongRead[alongRead(q, bin)]));
    }
    return b.append('x').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BaseErrorRate other && bases == other.bases && Arrays.equals(rate, other.rate)
        && Arrays.equals(share, other.share) && Arrays.equals(alongRead, other.alongRead)
        && promiseExcess == other.promiseExcess;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(rate) * 31 + Long.hashCode(bases);
  }

  @Override
  public String toString() {
    return "BaseErrorRate[" + describe() + "]";
  }
}
