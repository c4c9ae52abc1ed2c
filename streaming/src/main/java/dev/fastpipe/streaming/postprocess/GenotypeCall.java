package dev.fastpipe.streaming.postprocess;

import java.util.List;

/**
 * One site's final call: alleles after pruning and simplification, the genotype and its
 * qualities, ready for VCF.
 *
 * @param contigIndex index in the reference dictionary
 * @param position 0-based
 * @param ref reference allele (possibly shortened by suffix trimming)
 * @param alts retained alt alleles
 * @param genotype two allele indices (0 = ref), or {-1,-1} for a no-call; in a haploid region one
 *     ({-1} for a no-call)
 * @param genotypeProbabilities per genotype in VCF order (00, 01, 11, 02, 12, 22, ...); in a haploid
 *     region one per allele
 * @param qual phred probability of a non-ref genotype (DeepVariant's QUAL)
 * @param gq phred confidence in the called genotype
 * @param pl phred-scaled likelihoods, 0 for the most likely genotype (as many as the probabilities)
 * @param filter PASS, RefCall or LowQual
 * @param depth DP
 * @param alleleDepths AD: ref then each retained alt (empty when unknown)
 */
public record GenotypeCall(
    int contigIndex,
    int position,
    String ref,
    List<String> alts,
    int[] genotype,
    double[] genotypeProbabilities,
    double qual,
    int gq,
    int[] pl,
    String filter,
    int depth,
    int[] alleleDepths) {

  public static final String PASS = "PASS";
  public static final String REF_CALL = "RefCall";
  public static final String LOW_QUAL = "LowQual";

  /** Whether the call has one allele (a haploid region). */
  public boolean haploid() {
    return genotype.length == 1;
  }

  /** Fraction of reads supporting each retained alt (AD[alt]/DP); empty without AD or depth. */
  public double[] variantAlleleFractions() {
    if (alleleDepths.length != alts.size() + 1 || depth <= 0) return new double[0];
    double[] vaf = new double[alts.size()];
    for (int i = 0; i < vaf.length; i++) vaf[i] = alleleDepths[i + 1] / (double) depth;
    return vaf;
  }
}
