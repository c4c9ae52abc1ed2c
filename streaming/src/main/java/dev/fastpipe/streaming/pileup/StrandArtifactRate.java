package dev.fastpipe.streaming.pileup;

import java.util.List;

/**
 * How often the sample's hom-ref sites show a strand artifact (one strand's reads with the same
 * wrong base while the other strand's are clean), as a share of sites: the prior p_a of
 * {@link PileupLikelihood}'s artifact term, measured on the run's own reads rather than assumed.
 * Real Illumina reads carry such errors at some sequence contexts (about 2e-3 of sites show one at
 * 10 % of the depth or more in {@code na12878_tiny}); most simulators write none, and there an
 * assumed rate only costs the one-strand hets that low coverage makes.
 *
 * <p>The fit is the maximum a posteriori estimate of a four-part mixture over the sampled pileup
 * columns, by expectation maximisation: hom-ref, hom-ref with a strand artifact, het and hom-alt,
 * each column's likelihood under each exactly as {@link PileupLikelihood.ReadEvidence} computes it
 * for the caller. Only columns where two reads or more show the same non-reference base carry
 * evidence ({@link #estimate}'s {@code evidence}); the others count as hom-ref sites, since a lone
 * wrong base is as well explained by its quality as by an artifact and would otherwise let the
 * qualities' miscalibration pass for artifacts. The rate's prior is a Beta with mean
 * {@link #DEFAULT} worth {@link #PRIOR_COLUMNS} columns, so that a small sample (a few kb of
 * reads) keeps close to it and a large one speaks for itself.
 */
public record StrandArtifactRate(double rate, long columns, double artifacts) {

  /** The rate when nothing was measured, and the prior's mean: a tenth of a het's prior (1.1e-3). */
  public static final double DEFAULT = 1.1e-4;
  /** The prior's weight, in columns. */
  static final double PRIOR_COLUMNS = 2_000;
  /** The het and hom-alt shares the fit starts from (then fits). */
  static final double HET_START = 1e-3;
  static final double HOM_ALT_START = 5e-4;
  static final int MAX_ROUNDS = 200;
  /** The fit stops when the rate moves by less than this share of itself in a round. */
  static final double TOLERANCE = 1e-4;

  public StrandArtifactRate {
    if (!(rate > 0 && rate < 1)) throw new IllegalArgumentException("strand artifact rate " + rate + " is not in (0, 1)");
    if (columns < 0 || artifacts < 0) throw new IllegalArgumentException("negative columns or artifacts");
  }

  /** Nothing measured: {@link #DEFAULT}. */
  public static StrandArtifactRate assumed() {
    return new StrandArtifactRate(DEFAULT, 0, 0);
  }

  /**
   * The rate fitted to {@code columns} sampled pileup columns, of which {@code evidence} are those
   * with two reads or more showing the same non-reference base (each with its reads of that base and
   * of the reference); the rest are taken as hom-ref.
   */
  public static StrandArtifactRate estimate(List<PileupLikelihood.ReadEvidence> evidence, long columns) {
    if (evidence.size() > columns) throw new IllegalArgumentException(evidence.size() + " evidence columns of " + columns);
    int n = evidence.size();
    double[] homRef = new double[n];
    double[] artifact = new double[n];
    double[] het = new double[n];
    double[] homAlt = new double[n];
    for (int i = 0; i < n; i++) {
      PileupLikelihood.ReadEvidence e = evidence.get(i);
      homRef[i] = e.homRef();
      artifact[i] = e.artifact();
      het[i] = e.het();
      homAlt[i] = e.homAlt();
    }
    double rate = DEFAULT;
    double hetShare = HET_START;
    double homAltShare = HOM_ALT_START;
    double artifacts = 0;
    double total = columns + PRIOR_COLUMNS;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      double refShare = Math.max(1e-9, 1 - rate - hetShare - homAltShare);
      double lr = Math.log10(refShare);
      double la = Math.log10(rate);
      double lh = Math.log10(hetShare);
      double lv = Math.log10(homAltShare);
      double sumArtifact = 0;
      double sumHet = 0;
      double sumHomAlt = 0;
      for (int i = 0; i < n; i++) {
        double r = lr + homRef[i];
        double a = la + artifact[i];
        double h = lh + het[i];
        double v = lv + homAlt[i];
        double max = Math.max(Math.max(r, a), Math.max(h, v));
        double pr = Math.pow(10, r - max);
        double pa = Math.pow(10, a - max);
        double ph = Math.pow(10, h - max);
        double pv = Math.pow(10, v - max);
        double sum = pr + pa + ph + pv;
        sumArtifact += pa / sum;
        sumHet += ph / sum;
        sumHomAlt += pv / sum;
      }
      artifacts = sumArtifact;
      double next = (sumArtifact + DEFAULT * PRIOR_COLUMNS) / total;
      hetShare = Math.max(1e-9, sumHet / Math.max(1, columns));
      homAltShare = Math.max(1e-9, sumHomAlt / Math.max(1, columns));
      boolean settled = Math.abs(next - rate) < TOLERANCE * rate;
      rate = next;
      if (settled) break;
    }
    return new StrandArtifactRate(rate, columns, artifacts);
  }

  /** One line for the log and the VCF header: the rate and what it was measured on. */
  public String describe() {
    if (columns == 0) return String.format("%.2g per site (assumed: no reads sampled)", rate);
    return String.format("%.2g per site (fitted to %,d pileup columns, %.1f artifacts among them)", rate, columns,
        artifacts);
  }
}
