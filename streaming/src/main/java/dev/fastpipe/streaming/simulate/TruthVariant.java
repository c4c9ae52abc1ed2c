package dev.fastpipe.streaming.simulate;

import java.util.List;

/**
 * One known variant of the synthetic sample, as it appears in truth.vcf.gz: {@code start} is the
 * 0-based reference offset of REF's first base (VCF POS - 1); indels carry their anchor base
 * first and sit at their left-most (left-normalised) position. {@code haplotypeAlleles[h]} is the
 * allele index (0 = REF, 1.. = ALT) carried by haplotype h, so {0,1} is a phased het, {1,1}
 * hom-alt, {1,2} a multi-allelic het.
 */
public record TruthVariant(int start, String ref, List<String> alts, int[] haplotypeAlleles) {

  public int vcfPosition() {
    return start + 1;
  }

  /** The allele on haplotype h as a string (REF when that haplotype carries the reference). */
  public String allele(int haplotype) {
    int a = haplotypeAlleles[haplotype];
    return a == 0 ? ref : alts.get(a - 1);
  }

  public boolean isSnp() {
    return ref.length() == 1 && alts.stream().allMatch(a -> a.length() == 1);
  }

  /** Reference offsets this record's REF covers: [start, start + ref.length()). */
  public int end() {
    return start + ref.length();
  }

  /**
   * True when this indel cannot be moved one base to the left and still spell the same
   * haplotype, and it carries no redundant bases: the form bcftools norm and most callers emit.
   */
  public boolean isLeftNormalised(byte[] reference) {
    for (String alt : alts) {
      if (ref.length() == alt.length()) {
        if (ref.length() != 1) return false;
        continue;
      }
      // minimal: exactly one shared (anchor) base, on the left
      if (Math.min(ref.length(), alt.length()) != 1 || ref.charAt(0) != alt.charAt(0)) return false;
      String longer = ref.length() > alt.length() ? ref : alt;
      // shift left possible iff the last base of the longer allele equals the anchor base
      if (start == 0) continue;
      if (longer.charAt(longer.length() - 1) == longer.charAt(0)) return false;
    }
    return true;
  }

  /** "0|1"-style genotype. */
  public String genotype() {
    return haplotypeAlleles[0] + "|" + haplotypeAlleles[1];
  }
}
