package dev.fastpipe.streaming.postprocess;

import java.util.List;
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
 * them. A multi-allelic site's pileup likelihoods weigh in alike ({@link #applyMultiAllelic}); other
 * multi-allelic sites (SNP and indel alts mixed) and sites without allele depths are left as the
 * network scored them.
 */
public record AlleleCountLikelihood(Weight snp, Weight indel) {
  /**
   * One type's weight and per-read error rate; or, with {@code pileup}, the weight of the example's
   * pileup likelihoods ({@code pileup.PileupLikelihood}: every read's own error rate from its base
   * and mapping quality at SNPs, only the reads that span an indel's repeat at indels), where
   * {@code error} is not used. {@code withinEnvelope} is the weight in a sample whose reads slip
   * within the GQ map's envelope in every repeat class ({@code pileup.IndelErrorRate#withinEnvelope}),
   * {@code weight} elsewhere: at indels the pileup's likelihood earned more weight in such samples
   * (0.85 against 0.5: validation 196 to 181 indel errors, development 228 to 224 in its 150 BAMs
   * without stutter) and less in samples with PCR stutter (881 to 962 in its 100 with it).
   * {@code overpromise} (NaN: none, the weights above) is the weight in a sample whose good bases err
   * at several times their qualities' promise ({@code pileup.BaseErrorRate#qualitiesOverpromise}),
   * which comes first: the network reads the qualities as promised, the SNP pileup at the measured
   * rates (MODEL.md, "The SNP pileup's weight where the qualities overpromise").
   */
  public record Weight(double weight, double error, boolean pileup, double withinEnvelope, double overpromise) {
    public Weight {
      if (!(weight >= 0 && weight <= 1)) throw new IllegalArgumentException("weight " + weight + " must be in 0..1");
      if (!(withinEnvelope >= 0 && withinEnvelope <= 1)) {
        throw new IllegalArgumentException("weight within the envelope " + withinEnvelope + " must be in 0..1");
      }
      if (!Double.isNaN(overpromise) && !(overpromise >= 0 && overpromise <= 1)) {
        throw new IllegalArgumentException("weight where the qualities overpromise " + overpromise + " must be in 0..1");
      }
      if (!(error > 0 && error < 0.5)) throw new IllegalArgumentException("error rate " + error + " must be in (0, 0.5)");
    }

    /** No weight of its own where the qualities overpromise. */
    public Weight(double weight, double error, boolean pileup, double withinEnvelope) {
      this(weight, error, pileup, withinEnvelope, Double.NaN);
    }

    /** One weight everywhere. */
    public Weight(double weight, double error, boolean pileup) {
      this(weight, error, pileup, weight);
    }

    /** The read counts' binomial likelihood at error rate {@code error}. */
    public Weight(double weight, double error) {
      this(weight, error, false);
    }

    /** The pileup's likelihoods, weighted {@code weight}. */
    public static Weight ofPileup(double weight) {
      return ofPileup(weight, weight);
    }

    /** The pileup's likelihoods, weighted {@code withinEnvelope} in samples within the envelope, else {@code weight}. */
    public static Weight ofPileup(double weight, double withinEnvelope) {
      return new Weight(weight, PILEUP_ERROR_PLACEHOLDER, true, withinEnvelope);
    }

    /** As {@link #ofPileup(double, double)}, and {@code overpromise} (NaN: none) where the qualities overpromise. */
    public static Weight ofPileup(double weight, double withinEnvelope, double overpromise) {
      return new Weight(weight, PILEUP_ERROR_PLACEHOLDER, true, withinEnvelope, overpromise);
    }

    /** The weight for a sample that slips within the envelope ({@code sampleWithinEnvelope}) or not. */
    public double weight(boolean sampleWithinEnvelope) {
      return sampleWithinEnvelope ? withinEnvelope : weight;
    }

    /**
     * The weight for a sample whose qualities overpromise ({@code qualitiesOverpromise}) or not and
     * that slips within the envelope or not: {@link #overpromise} first, where there is one.
     */
    public double weight(boolean sampleWithinEnvelope, boolean qualitiesOverpromise) {
      return qualitiesOverpromise && hasOverpromise() ? overpromise : weight(sampleWithinEnvelope);
    }

    /** Whether the type has a weight of its own for samples whose qualities overpromise. */
    public boolean hasOverpromise() {
      return !Double.isNaN(overpromise);
    }

    boolean off() {
      return weight == 0 && withinEnvelope == 0 && (!hasOverpromise() || overpromise == 0);
    }

    @Override
    public String toString() {
      if (!pileup) return String.format(Locale.ROOT, "%s:%s", weight, error);
      if (hasOverpromise()) return String.format(Locale.ROOT, "%s:pileup:%s:%s", weight, withinEnvelope, overpromise);
      return withinEnvelope == weight ? String.format(Locale.ROOT, "%s:pileup", weight)
          : String.format(Locale.ROOT, "%s:pileup:%s", weight, withinEnvelope);
    }
  }

  /** The error a pileup weight carries and never uses (a valid one, so that the record's check holds). */
  private static final double PILEUP_ERROR_PLACEHOLDER = 0.01;

  private static final Weight OFF = new Weight(0, 0.01);
  /** The network's probabilities as they are. */
  public static final AlleleCountLikelihood NONE = new AlleleCountLikelihood(OFF, OFF);

  public boolean isNone() {
    return snp.off() && indel.off();
  }

  /**
   * Parses {@code snp=W:E,indel=W:E} (either part may be left out: that type stays off),
   * {@code snp=W:pileup} or {@code indel=W:pileup} (the pileup's per-read likelihoods; {@code
   * W:pileup:V} weighs them V in samples within the envelope, {@link Weight#withinEnvelope}; {@code
   * W:pileup:V:Q} Q in samples whose qualities overpromise, {@link Weight#overpromise}) or {@code
   * none}; an {@link IllegalArgumentException} says what is wrong.
   */
  public static AlleleCountLikelihood parse(String spec) {
    if (spec == null || spec.isBlank()) throw new IllegalArgumentException("empty; expected snp=W:E,indel=W:E or none");
    if (spec.trim().equals("none")) return NONE;
    Weight s = OFF;
    Weight i = OFF;
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=", 2);
      String[] we = kv.length == 2 ? kv[1].split(":", 4) : new String[0];
      boolean pileup = we.length >= 2 && we[1].trim().equals("pileup");
      if (we.length < 2 || we.length > (pileup ? 4 : 2)) {
        throw new IllegalArgumentException(
            "'" + part + "': expected snp=W:E, snp=W:pileup, snp=W:pileup:V or snp=W:pileup:V:Q (indel alike)");
      }
      Weight w;
      try {
        double weight = Double.parseDouble(we[0]);
        w = pileup ? Weight.ofPileup(weight, we.length >= 3 ? Double.parseDouble(we[2]) : weight,
                we.length == 4 ? Double.parseDouble(we[3]) : Double.NaN)
            : new Weight(weight, Double.parseDouble(we[1]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + part + "': W, E, V and Q must be numbers");
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
    return apply(isSnp, probs, refReads, altReads, null);
  }

  /**
   * As {@link #apply(boolean, double[], int, int)}; where the type's weight is a pileup one, the
   * site's {@code pileupLikelihoods} (log10 {0/0, 0/1, 1/1}) are the likelihood instead of the
   * counts, and a site without them is left as the network scored it. At SNPs the pileup's posterior
   * (with bcftools' prior) is pooled with the network ({@link #pool}); at indels the pileup's
   * likelihood is stacked as the counts are, p(g) * L(g)^w (each form was the better of the two on
   * the validation samples for its type: MODEL.md).
   */
  public double[] apply(boolean isSnp, double[] probs, int refReads, int altReads, float[] pileupLikelihoods) {
    return apply(isSnp, probs, refReads, altReads, pileupLikelihoods, false);
  }

  /**
   * As {@link #apply(boolean, double[], int, int, float[])}, at the type's weight for a sample whose
   * reads slip within the envelope or not ({@code sampleWithinEnvelope}, {@link Weight#weight(boolean)}).
   */
  public double[] apply(boolean isSnp, double[] probs, int refReads, int altReads, float[] pileupLikelihoods,
      boolean sampleWithinEnvelope) {
    return apply(isSnp, probs, refReads, altReads, pileupLikelihoods, sampleWithinEnvelope, false);
  }

  /**
   * As {@link #apply(boolean, double[], int, int, float[], boolean)}, at the weight {@link
   * Weight#weight(boolean, boolean)} gives a sample whose qualities overpromise ({@code
   * qualitiesOverpromise}) or not.
   */
  public double[] apply(boolean isSnp, double[] probs, int refReads, int altReads, float[] pileupLikelihoods,
      boolean sampleWithinEnvelope, boolean qualitiesOverpromise) {
    Weight w = isSnp ? snp : indel;
    if (w.off() || probs.length != 3) return probs;
    double weight = w.weight(sampleWithinEnvelope, qualitiesOverpromise);
    if (w.pileup()) {
      if (pileupLikelihoods == null || pileupLikelihoods.length != 3) return probs;
      if (isSnp) return pool(probs, weight, pileupLikelihoods);
      // At indels the pileup's likelihood takes the read counts' place in the same stacking.
      return combine(probs, 1, weight, naturalLog(pileupLikelihoods));
    }
    if (refReads < 0 || altReads < 0 || refReads + altReads == 0) return probs;
    double le = Math.log(w.error());
    double lc = Math.log1p(-w.error());
    double het = (refReads + altReads) * Math.log(0.5);
    // The counts never favour 0/1 over 1/1: reads that do not span an indel, or that an aligner
    // left unaligned across it, count as reference reads, so a hom-alt indel can show 10 of 33.
    double[] logL = {altReads * le + refReads * lc, het, Math.max(het, refReads * le + altReads * lc)};
    return combine(probs, 1, weight, logL);
  }

  /**
   * The probabilities of a multi-allelic site's genotypes (VCF order, three alleles or more) weighed
   * with its pileup likelihoods ({@code pileup.PileupLikelihood.SiteAlleles}) as a bi-allelic site's
   * of the type are: at SNPs pooled with the prior ({@link #multiAllelicPrior}), p(g)^(1 - w) *
   * (prior(g) L(g))^w; at indels stacked, p(g) * (prior(g) L(g))^w, where the prior is 1 but for a
   * genotype of two alts of one length ({@link #sameLengthAltsPrior}). {@code probs} itself where the
   * type's weight is not a pileup one, or the likelihoods do not match the genotypes.
   */
  public double[] applyMultiAllelic(String ref, List<String> alts, double[] probs, float[] pileupLikelihoods) {
    return applyMultiAllelic(ref, alts, probs, pileupLikelihoods, false);
  }

  /** As {@link #applyMultiAllelic(String, List, double[], float[])}, at the weight {@link Weight#weight(boolean)} gives. */
  public double[] applyMultiAllelic(String ref, List<String> alts, double[] probs, float[] pileupLikelihoods,
      boolean sampleWithinEnvelope) {
    return applyMultiAllelic(ref, alts, probs, pileupLikelihoods, sampleWithinEnvelope, false);
  }

  /** As {@link #applyMultiAllelic(String, List, double[], float[], boolean)}, at {@link Weight#weight(boolean, boolean)}'s weight. */
  public double[] applyMultiAllelic(String ref, List<String> alts, double[] probs, float[] pileupLikelihoods,
      boolean sampleWithinEnvelope, boolean qualitiesOverpromise) {
    boolean isSnp = true;
    for (String a : alts) if (a.length() != ref.length()) isSnp = false;
    Weight w = isSnp ? snp : indel;
    if (w.off() || !w.pileup() || pileupLikelihoods == null || pileupLikelihoods.length != probs.length) {
      return probs;
    }
    double[] logL = naturalLog(pileupLikelihoods);
    double[] prior = isSnp ? multiAllelicPrior(probs.length) : sameLengthAltsPrior(alts);
    for (int g = 0; g < logL.length; g++) logL[g] += Math.log(prior[g]);
    double weight = w.weight(sampleWithinEnvelope, qualitiesOverpromise);
    return combine(probs, isSnp ? 1 - weight : 1, weight, logL);
  }

  /**
   * The prior of a multi-allelic indel site's genotypes (VCF order): 1, but the het's prior
   * ({@link #PRIOR}) for a genotype of two different alts of one length. Alts of two lengths are an
   * STR's alleles, common as 1/2; two insertions of one length differ by a base, a second mutation
   * (or a sequencing error in the inserted bases: 2 reads of 20 with CTG beside 18 with CTA made a
   * hom-alt insertion 1/2 in blind9).
   */
  static double[] sameLengthAltsPrior(List<String> alts) {
    int alleles = alts.size() + 1;
    double[] prior = new double[alleles * (alleles + 1) / 2];
    java.util.Arrays.fill(prior, 1.0);
    for (int b = 2; b < alleles; b++) {
      for (int a = 1; a < b; a++) {
        if (alts.get(a - 1).length() == alts.get(b - 1).length()) prior[b * (b + 1) / 2 + a] = PRIOR[1];
      }
    }
    return prior;
  }

  /**
   * The prior of a multi-allelic SNP site's genotypes (VCF order), {@link #PRIOR}'s spread over the
   * alts: 0/0 as at a bi-allelic site, each 0/k the het's share, each k/k the hom-alt's share, and a
   * genotype of two different alts, which takes two mutations at one base, the het's share squared.
   * A second alt base seen in two reads of fifteen (sequencing errors at 1 %) then stays an error
   * beside a hom-alt, where the likelihood alone makes the site 1/2.
   */
  static double[] multiAllelicPrior(int genotypes) {
    int alleles = (int) Math.round((Math.sqrt(8.0 * genotypes + 1) - 1) / 2);
    int alts = alleles - 1;
    double[] prior = new double[genotypes];
    for (int b = 0; b < alleles; b++) {
      for (int a = 0; a <= b; a++) {
        double p;
        if (b == 0) p = PRIOR[0];
        else if (a == 0) p = PRIOR[1] / alts;
        else if (a == b) p = PRIOR[2] / alts;
        else p = PRIOR[1] * PRIOR[1] / (alts * (alts - 1) / 2.0);
        prior[b * (b + 1) / 2 + a] = p;
      }
    }
    return prior;
  }

  /**
   * The prior of the pileup's posterior: a site's genotype before its reads are seen, bcftools'
   * default (-P 1.1e-3: a het at 1.1e-3 of sites, a hom-alt at half that).
   */
  static final double[] PRIOR = {1 - 1.5 * 1.1e-3, 1.1e-3, 0.55e-3};

  /**
   * The network's probabilities and the pileup's posterior (PRIOR times the pileup likelihoods, as a
   * bcftools-like caller would weigh the reads) pooled log-linearly: p'(g) proportional to
   * p(g)^(1 - w) * (prior(g) L(g))^w. Each opinion keeps what the other lacks: where the reads'
   * qualities make two alt reads of seven a thousand times likelier a het than errors (clean reads),
   * the pileup's posterior says het and moves the call; where the reads err often (one base in a
   * hundred), the same two reads are about as likely errors, the posterior stays near even, and
   * the network's doubt stands.
   */
  static double[] pool(double[] probs, double weight, float[] log10Likelihoods) {
    double[] logPosterior = naturalLog(log10Likelihoods);
    for (int g = 0; g < 3; g++) logPosterior[g] = Math.log(PRIOR[g]) + logPosterior[g];
    return combine(probs, 1 - weight, weight, logPosterior);
  }

  /** log10 likelihoods as natural logarithms. */
  private static double[] naturalLog(float[] log10) {
    double ln10 = Math.log(10);
    double[] ln = new double[log10.length];
    for (int g = 0; g < ln.length; g++) ln[g] = log10[g] * ln10;
    return ln;
  }

  /**
   * p(g)^networkExponent * exp(logL(g))^weight, normalised, from the natural-log {@code logL};
   * {@code probs} when every genotype has probability 0. The stacking of the read counts and of the
   * indel pileup is networkExponent 1; the SNP pileup's pooling is 1 - weight.
   */
  private static double[] combine(double[] probs, double networkExponent, double weight, double[] logL) {
    int genotypes = probs.length;
    double[] logP = new double[genotypes];
    double max = Double.NEGATIVE_INFINITY;
    for (int g = 0; g < genotypes; g++) {
      logP[g] = probs[g] > 0 ? networkExponent * Math.log(probs[g]) + weight * logL[g] : Double.NEGATIVE_INFINITY;
      max = Math.max(max, logP[g]);
    }
    if (max == Double.NEGATIVE_INFINITY) return probs;
    double[] out = new double[genotypes];
    double sum = 0;
    for (int g = 0; g < genotypes; g++) {
      out[g] = Math.exp(logP[g] - max);
      sum += out[g];
    }
    for (int g = 0; g < genotypes; g++) out[g] /= sum;
    return out;
  }
}
