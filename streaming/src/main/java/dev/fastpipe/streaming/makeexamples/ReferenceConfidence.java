package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;

/**
 * The confidence that a position is homozygous reference, from its read counts alone, as
 * DeepVariant computes it for gVCF blocks ({@code variant_caller.py}, after GATK's reference
 * model): with n reads at the position, r of them showing the reference base and a per-read
 * error rate e,
 *
 * <pre>
 *   log10 p(0/0)     = r log10(1 - e) + (n - r) log10(e)
 *   log10 p(0/<*>)   = -n log10(2)
 *   log10 p(<*>/<*>) = r log10(e) + (n - r) log10(1 - e)
 * </pre>
 *
 * normalised to sum to one. GQ is floor(-10 log10(1 - p(0/0))), at most {@link #MAX_GQ}; PL is
 * -10 log10 of each genotype's probability relative to the best, rounded. A position is called
 * 0/0 only if it has reads and 0/0 is its most likely genotype; otherwise it is ./. (DeepVariant
 * un-calls sites whose likelihoods contradict hom-ref). Positions merge into one gVCF block
 * while their GQ stays in one bin ({@link #bin}).
 *
 * <p>A haploid confidence ({@link #haploid}) is the same model with the one genotype that mixes
 * the two alleles left out, as DeepVariant's postprocess does for its calls in haploid regions:
 * p(0) and p(<*>) are p(0/0) and p(<*>/<*>) normalised to sum to one, GQ is
 * floor(-10 log10(1 - p(0))), and the PLs are those of 0 and <*> (the third is 0, unused).
 *
 * <p>Counts up to {@link #TABLE_DEPTH} are looked up in a table built once; deeper positions
 * are computed. Immutable and thread-safe.
 */
public final class ReferenceConfidence {
  /** DeepVariant's --p_error default. */
  public static final double DEFAULT_P_ERROR = 0.001;
  /** DeepVariant's max_gq for gVCF records ({@link ExampleSettings.Gvcf#MAX_GQ}). */
  public static final int MAX_GQ = ExampleSettings.Gvcf.MAX_GQ;
  /** DeepVariant's --gvcf_gq_binsize default ({@link ExampleSettings.Gvcf#DEFAULT_GQ_BIN_SIZE}). */
  public static final int DEFAULT_GQ_BIN_SIZE = ExampleSettings.Gvcf.DEFAULT_GQ_BIN_SIZE;
  static final int TABLE_DEPTH = 255;

  private static final double LOG10_2 = Math.log10(2);

  private final double log10Error;
  private final double log10Correct;
  private final int binSize;
  private final boolean haploid;
  private final double pError;
  /** Per (n, r), n <= TABLE_DEPTH: packed {@link #evaluate} result and the three PLs. */
  private final int[] packed;
  private final int[] pls;

  public ReferenceConfidence(int binSize) {
    this(binSize, DEFAULT_P_ERROR);
  }

  public ReferenceConfidence(int binSize, double pError) {
    this(binSize, pError, false);
  }

  private ReferenceConfidence(int binSize, double pError, boolean haploid) {
    this.haploid = haploid;
    this.pError = pError;
    if (binSize < 1) throw new IllegalArgumentException("GQ bin size must be >= 1, got " + binSize);
    if (!(pError > 0 && pError < 0.5)) throw new IllegalArgumentException("p_error must be in (0, 0.5), got " + pError);
    this.binSize = binSize;
    this.log10Error = Math.log10(pError);
    this.log10Correct = Math.log1p(-pError) / Math.log(10);
    int entries = index(TABLE_DEPTH, TABLE_DEPTH) + 1;
    packed = new int[entries];
    pls = new int[3 * entries];
    int[] pl = new int[3];
    for (int n = 0; n <= TABLE_DEPTH; n++) {
      for (int r = 0; r <= n; r++) {
        int i = index(n, r);
        packed[i] = compute(r, n, pl);
        System.arraycopy(pl, 0, pls, 3 * i, 3);
      }
    }
  }

  /** The confidence of positions with one copy (no 0/<*> genotype), with this one's bins and error rate. */
  public ReferenceConfidence haploid() {
    return haploid ? this : new ReferenceConfidence(binSize, pError, true);
  }

  /** Whether this is a {@link #haploid} confidence. */
  public boolean isHaploid() {
    return haploid;
  }

  private static int index(int n, int r) {
    return n * (n + 1) / 2 + r;
  }

  /**
   * The confidence for {@code refReads} of {@code depth} reads: {@link #gq}, {@link #bin} and
   * {@link #called} packed in one int ({@link #pl} gives the likelihoods).
   */
  public int evaluate(int refReads, int depth) {
    check(refReads, depth);
    return depth <= TABLE_DEPTH ? packed[index(depth, refReads)] : compute(refReads, depth, new int[3]);
  }

  /** The PLs of 0/0, 0/<*>, <*>/<*> for {@code refReads} of {@code depth} reads, into {@code pl}. */
  public void pl(int refReads, int depth, int[] pl) {
    check(refReads, depth);
    if (depth <= TABLE_DEPTH) {
      System.arraycopy(pls, 3 * index(depth, refReads), pl, 0, 3);
    } else {
      compute(refReads, depth, pl);
    }
  }

  /** {@link #evaluate} and {@link #pl} in one call. */
  public int evaluate(int refReads, int depth, int[] pl) {
    pl(refReads, depth, pl);
    return evaluate(refReads, depth);
  }

  private static void check(int refReads, int depth) {
    if (refReads < 0 || refReads > depth) {
      throw new IllegalArgumentException("reference reads " + refReads + " outside [0, " + depth + "]");
    }
  }

  /** GQ of a packed result. */
  public static int gq(int packed) {
    return packed & 0xFF;
  }

  /** GQ bin (the block merge key) of a packed result. */
  public static int bin(int packed) {
    return (packed >>> 8) & 0xFF;
  }

  /** Whether a packed result calls 0/0. */
  public static boolean called(int packed) {
    return (packed >>> 16) != 0;
  }

  /** A packed result for a position that cannot be called (no reads, or a reference base other than A, C, G, T). */
  public static int uncallable(int[] pl) {
    pl[0] = pl[1] = pl[2] = 0;
    return 0;
  }

  /** DeepVariant's GQ quantisation: 0 stays 0, else the lowest GQ of its bin: 1, 1 + size, 1 + 2 size, ... */
  public int quantize(int gq) {
    return gq < 1 ? 0 : (gq - 1) / binSize * binSize + 1;
  }

  private int compute(int r, int n, int[] pl) {
    if (n == 0) return uncallable(pl);
    int alt = n - r;
    double[] l = haploid
        ? new double[] {r * log10Correct + alt * log10Error, r * log10Error + alt * log10Correct}
        : new double[] {r * log10Correct + alt * log10Error, -n * LOG10_2, r * log10Error + alt * log10Correct};
    double max = Double.NEGATIVE_INFINITY;
    for (double x : l) max = Math.max(max, x);
    double sum = 0;
    for (double x : l) sum += Math.pow(10, x - max);
    double lse = max + Math.log10(sum);
    double ref = l[0] - lse; // log10 p(0/0) (haploid: p(0)), normalised
    double pWrong = -Math.expm1(ref * Math.log(10)); // 1 - p(0/0)
    double phred = pWrong <= 0 ? MAX_GQ : -10 * Math.log10(pWrong);
    int gq = (int) Math.floor(Math.min(phred, MAX_GQ));
    pl[2] = 0;
    for (int g = 0; g < l.length; g++) pl[g] = (int) Math.round(-10 * (l[g] - max));
    boolean called = true;
    for (double x : l) called &= l[0] >= x;
    return gq | quantize(gq) << 8 | (called ? 1 : 0) << 16;
  }
}
