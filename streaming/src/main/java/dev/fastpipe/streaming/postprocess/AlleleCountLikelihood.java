package dev.fastpipe.streaming.postprocess;

import java.util.Locale;

/**
 * A second opinion from the read counts, stacked on the network's genotype probabilities at a
 * bi-allelic site: p'(g) is proportional to p(g) * L(g)^w, where L is the binomial likelihood of the
 * site's allele depths (r reference and a alternate reads) under genotype g with a per-read error
 * rate e: L(0/0) = e^a (1-e)^r, L(0/1) = 0.5^(r+a), L(1/1) = max(L(0/1), e^r (1-e)^a). The
 * counts thus move probability between hom-ref and the variant genotypes, and towards hom-alt, never
 * from hom-alt to het: reference counts include reads that do not really support the reference.
 *
 * <p>Why: where the reads are few (10-20x), the network leaves hets with 4-5 alternate reads out
 * of 15-19 at p(hom-ref) ~ p(het) and so calls them RefCall, while the counts alone make a het
 * thousands of times likelier than a run of errors; at 30x and more the same counts carry little
 * weight against a confident network. The weight {@code w} (0: off) and {@code e} are fitted per
 * type (SNP, indel) on validation samples outside the evaluation band (the model recipe's
 * {@code fit_counts.sh}), and stored with the GQ calibration, which is fitted on calls made with
 * them. Multi-allelic sites, sites without allele depths and haploid calls are left as the network
 * scored them.
 */
public record AlleleCountLikelihood(Weight snp, Weight indel) {
  /** One type's weight and per-read error rate. */
  public record Weight(double weight, double error) {
    public Weight {
      if (!(weight >= 0 && weight <= 1)) throw new IllegalArgumentException("weight " + weight + " must be in 0..1");
      if (!(error > 0 && error < 0.5)) throw new IllegalArgumentException("error rate " + error + " must be in (0, 0.5)");
    }

    boolean off() {
      return weight == 0;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s:%s", weight, error);
    }
  }

  private static final Weight OFF = new Weight(0, 0.01);
  /** The network's probabilities as they are. */
  public static final AlleleCountLikelihood NONE = new AlleleCountLikelihood(OFF, OFF);

  public boolean isNone() {
    return snp.off() && indel.off();
  }

  /**
   * Parses {@code snp=W:E,indel=W:E} (either part may be left out: that type stays off) or
   * {@code none}; an {@link IllegalArgumentException} says what is wrong.
   */
  public static AlleleCountLikelihood parse(String spec) {
    if (spec == null || spec.isBlank()) throw new IllegalArgumentException("empty; expected snp=W:E,indel=W:E or none");
    if (spec.trim().equals("none")) return NONE;
    Weight s = OFF;
    Weight i = OFF;
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=", 2);
      String[] we = kv.length == 2 ? kv[1].split(":", 2) : new String[0];
      if (we.length != 2) throw new IllegalArgumentException("'" + part + "': expected snp=W:E or indel=W:E");
      Weight w;
      try {
        w = new Weight(Double.parseDouble(we[0]), Double.parseDouble(we[1]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + part + "': W and E must be numbers");
      }
      switch (kv[0].trim()) {
        case "snp" -> s = w;
        case "indel" -> i = w;
        default -> throw new IllegalArgumentException("'" + kv[0] + "': the types are snp and indel");
      }
    }
    return new AlleleCountLikelihood(s, i);
  }

  /** The form {@link #parse} reads. */
  public String spec() {
    return isNone() ? "none" : "snp=" + snp + ",indel=" + indel;
  }

  /**
   * The probabilities {00, 01, 11} of a bi-allelic site of this type with {@code refReads} and
   * {@code altReads}, re-weighted by the counts' likelihood and normalised; {@code probs} itself
   * when the type is off or the site has no reads.
   */
  public double[] apply(boolean isSnp, double[] probs, int refReads, int altReads) {
    Weight w = isSnp ? snp : indel;
    if (w.off() || probs.length != 3 || refReads < 0 || altReads < 0 || refReads + altReads == 0) return probs;
    double le = Math.log(w.error());
    double lc = Math.log1p(-w.error());
    double het = (refReads + altReads) * Math.log(0.5);
    // The counts never favour 0/1 over 1/1: reads that do not span an indel, or that an aligner
    // left unaligned across it, count as reference reads, so a hom-alt indel can show 10 of 33.
    double[] logL = {altReads * le + refReads * lc, het, Math.max(het, refReads * le + altReads * lc)};
    double[] logP = new double[3];
    double max = Double.NEGATIVE_INFINITY;
    for (int g = 0; g < 3; g++) {
      logP[g] = probs[g] > 0 ? Math.log(probs[g]) + w.weight() * logL[g] : Double.NEGATIVE_INFINITY;
      max = Math.max(max, logP[g]);
    }
    if (max == Double.NEGATIVE_INFINITY) return probs;
    double[] out = new double[3];
    double sum = 0;
    for (int g = 0; g < 3; g++) {
      out[g] = Math.exp(logP[g] - max);
      sum += out[g];
    }
    for (int g = 0; g < 3; g++) out[g] /= sum;
    return out;
  }
}
