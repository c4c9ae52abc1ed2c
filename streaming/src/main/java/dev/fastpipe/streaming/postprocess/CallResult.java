package dev.fastpipe.streaming.postprocess;

import java.util.Arrays;
import java.util.List;

/**
 * The classifier's verdict on one example: the site it came from, the alt-allele subset it
 * showed, and the probabilities of hom-ref, het and hom-alt for that subset.
 *
 * @param contigIndex index of the contig in the reference's sequence dictionary
 * @param position 0-based start of the reference allele
 * @param ref reference allele
 * @param alts every alt allele of the site (the same list for all examples of a site)
 * @param altSubset indices into {@code alts} (1 or 2, ascending) this example scored
 * @param probabilities {p(hom-ref), p(het), p(hom-alt)} for the subset
 * @param examplesAtSite how many examples the site has (1 for bi-allelic; n + n(n-1)/2 otherwise)
 * @param depth read depth at the site (DP)
 * @param alleleDepths reads supporting ref then each alt (AD), length 1 + alts.size(), may be empty
 * @param pileupLikelihoods log10 likelihoods of the site's genotypes in VCF order ({0/0, 0/1, 1/1} at a
 *     bi-allelic site) from its pileup ({@code pileup.PileupLikelihood}: bi-allelic SNP and indel
 *     examples; at a multi-allelic site, the last of its single-alt examples; at a site of SNP and
 *     indel alts, its SNP alts' examples, every genotype with an indel allele NaN, unmeasured), or null
 * @param slipsBeyondEnvelope an example of a site with an indel allele (multi-allelic sites too) whose
 *     repeat after the anchor the sample's reads slip in more often than the GQ map's samples did
 *     ({@code pileup.IndelErrorRate#beyondEnvelope})
 * @param sampleWithinEnvelope the sample's reads slip within that envelope in every repeat class
 *     ({@code pileup.IndelErrorRate#withinEnvelope}), which picks the indel pileup's weight
 *     ({@link AlleleCountLikelihood.Weight#withinEnvelope}); false where unknown (the weight elsewhere)
 * @param sampleQualitiesOverpromise the sample's good bases err at several times their qualities'
 *     promise ({@code pileup.BaseErrorRate#qualitiesOverpromise}), which picks the SNP pileup's weight
 *     ({@link AlleleCountLikelihood.Weight#overpromise}); false where unknown
 */
public record CallResult(
    int contigIndex,
    int position,
    String ref,
    List<String> alts,
    int[] altSubset,
    float[] probabilities,
    int examplesAtSite,
    int depth,
    int[] alleleDepths,
    float[] pileupLikelihoods,
    boolean slipsBeyondEnvelope,
    boolean sampleWithinEnvelope,
    boolean sampleQualitiesOverpromise) {

  /** A result of a sample whose qualities are not known to overpromise ({@link #sampleQualitiesOverpromise} false). */
  public CallResult(int contigIndex, int position, String ref, List<String> alts, int[] altSubset, float[] probabilities,
      int examplesAtSite, int depth, int[] alleleDepths, float[] pileupLikelihoods, boolean slipsBeyondEnvelope,
      boolean sampleWithinEnvelope) {
    this(contigIndex, position, ref, alts, altSubset, probabilities, examplesAtSite, depth, alleleDepths,
        pileupLikelihoods, slipsBeyondEnvelope, sampleWithinEnvelope, false);
  }

  /** A result of a sample not known to slip within the envelope ({@link #sampleWithinEnvelope} false). */
  public CallResult(int contigIndex, int position, String ref, List<String> alts, int[] altSubset, float[] probabilities,
      int examplesAtSite, int depth, int[] alleleDepths, float[] pileupLikelihoods, boolean slipsBeyondEnvelope) {
    this(contigIndex, position, ref, alts, altSubset, probabilities, examplesAtSite, depth, alleleDepths,
        pileupLikelihoods, slipsBeyondEnvelope, false);
  }

  /** A result whose reads slip no more than the envelope's ({@link #slipsBeyondEnvelope} false). */
  public CallResult(int contigIndex, int position, String ref, List<String> alts, int[] altSubset, float[] probabilities,
      int examplesAtSite, int depth, int[] alleleDepths, float[] pileupLikelihoods) {
    this(contigIndex, position, ref, alts, altSubset, probabilities, examplesAtSite, depth, alleleDepths,
        pileupLikelihoods, false);
  }

  /** A result without pileup likelihoods (small-model calls, multi-allelic examples, MNPs). */
  public CallResult(int contigIndex, int position, String ref, List<String> alts, int[] altSubset, float[] probabilities,
      int examplesAtSite, int depth, int[] alleleDepths) {
    this(contigIndex, position, ref, alts, altSubset, probabilities, examplesAtSite, depth, alleleDepths, null);
  }

  public CallResult {
    if (alts.isEmpty()) throw new IllegalArgumentException("a call needs at least one alt allele");
    if (altSubset.length < 1 || altSubset.length > 2) {
      throw new IllegalArgumentException("alt subset must have 1 or 2 indices: " + Arrays.toString(altSubset));
    }
    for (int i : altSubset) {
      if (i < 0 || i >= alts.size()) throw new IllegalArgumentException("alt subset index " + i + " out of " + alts);
    }
    if (probabilities.length != 3) throw new IllegalArgumentException("need 3 probabilities");
    if (pileupLikelihoods != null && pileupLikelihoods.length != genotypes(alts.size())) {
      throw new IllegalArgumentException("need " + genotypes(alts.size()) + " pileup likelihoods (one per genotype of "
          + (alts.size() + 1) + " alleles), got " + pileupLikelihoods.length);
    }
  }

  /** The diploid genotypes of a site with {@code alts} alt alleles: (n + 1)(n + 2) / 2. */
  public static int genotypes(int alts) {
    return (alts + 1) * (alts + 2) / 2;
  }

  /** The key shared by all examples of one site. */
  public SiteKey site() {
    return new SiteKey(contigIndex, position, ref, alts);
  }

  /** A site: contig, 0-based position, ref and the full alt list; orders by contig, position, ref, alts. */
  public record SiteKey(int contigIndex, int position, String ref, List<String> alts) implements Comparable<SiteKey> {
    @Override
    public int compareTo(SiteKey o) {
      int c = Integer.compare(contigIndex, o.contigIndex);
      if (c == 0) c = Integer.compare(position, o.position);
      if (c == 0) c = ref.compareTo(o.ref);
      if (c == 0) c = String.join(",", alts).compareTo(String.join(",", o.alts));
      return c;
    }
  }
}
