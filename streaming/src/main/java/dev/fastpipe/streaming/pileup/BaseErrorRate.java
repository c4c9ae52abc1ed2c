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
 */
public final class BaseErrorRate {
  /** Pseudo-count of bases at the promised rate behind every quality's measured rate. */
  public static final double PRIOR_BASES = 20_000;
  private static final int QUALITIES = PileupConstants.BASE_QUALITY_CAP + 1;

  private static final BaseErrorRate PROMISED = promisedRates();

  private final double[] rate;
  private final long bases;
  private final double meanError;

  private BaseErrorRate(double[] rate, long bases, double meanError) {
    this.rate = rate;
    this.bases = bases;
    this.meanError = meanError;
  }

  /** Every quality at its promise: nothing measured (one shared, immutable instance). */
  public static BaseErrorRate promised() {
    return PROMISED;
  }

  private static BaseErrorRate promisedRates() {
    double[] r = new double[QUALITIES];
    for (int q = 0; q < QUALITIES; q++) r[q] = PileupLikelihood.promisedError(q);
    return new BaseErrorRate(r, 0, Double.NaN);
  }

  /**
   * The rates of {@code bases[q]} read bases of quality q (capped: arrays of cap + 1) of which
   * {@code mismatches[q]} differ from the reference.
   */
  public static BaseErrorRate measure(long[] bases, long[] mismatches) {
    if (bases.length != QUALITIES || mismatches.length != QUALITIES) {
      throw new IllegalArgumentException("one count per quality 0.." + (QUALITIES - 1));
    }
    double[] r = new double[QUALITIES];
    long total = 0;
    double wrong = 0;
    for (int q = 0; q < QUALITIES; q++) {
      double promise = PileupLikelihood.promisedError(q);
      r[q] = Math.min(PileupLikelihood.MAX_ERROR,
          Math.max(promise, (mismatches[q] + PRIOR_BASES * promise) / (bases[q] + PRIOR_BASES)));
      total += bases[q];
      wrong += bases[q] * r[q];
    }
    return new BaseErrorRate(r, total, total == 0 ? Double.NaN : wrong / total);
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
   * The share of the measured bases that are wrong, whatever their quality, each quality's bases at
   * its rate ({@link #at}; NaN when nothing was measured): a wrong base's quality is q with odds
   * {@code at(q) / meanError()} against any base's. Taken from the rates, not the raw mismatches, so
   * that the odds stay 1 where every base has one quality, even one that never erred.
   */
  public double meanError() {
    return meanError;
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
    return b + String.format(Locale.ROOT, " per base; fitted to %,d bases", bases);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BaseErrorRate other && bases == other.bases && Arrays.equals(rate, other.rate);
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
