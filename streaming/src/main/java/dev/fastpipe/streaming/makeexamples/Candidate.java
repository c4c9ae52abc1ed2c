package dev.fastpipe.streaming.makeexamples;

import java.util.Arrays;

/**
 * A candidate site: all alt alleles seen at one position, sharing one ref allele (the longest
 * deleted span), as a VCF record would write them. Each alt also keeps its own minimal,
 * left-aligned form ({@link #minimalRef}, {@link #minimalAlt}) for the candidates VCF and for
 * matching against the truth.
 */
public final class Candidate {
  public final int contigIndex;
  public final String contig;
  /** 0-based position of the first ref base. */
  public final int position;
  public final String ref;
  public final String[] alts;
  public final String[] minimalRef;
  public final String[] minimalAlt;
  /** Ref support, then one per alt. */
  public final int[] alleleDepths;
  public final int depth;
  /** For each alt, the indices (into the partition's read list) of the reads carrying it. */
  public final int[][] supportingReads;

  public Candidate(int contigIndex, String contig, int position, String ref, String[] alts,
      String[] minimalRef, String[] minimalAlt, int[] alleleDepths, int depth, int[][] supportingReads) {
    this.contigIndex = contigIndex;
    this.contig = contig;
    this.position = position;
    this.ref = ref;
    this.alts = alts;
    this.minimalRef = minimalRef;
    this.minimalAlt = minimalAlt;
    this.alleleDepths = alleleDepths;
    this.depth = depth;
    this.supportingReads = supportingReads;
  }

  /**
   * A candidate whose alts (with their minimal forms, reads and supporting reads, index for index)
   * are put in the canonical order, by the alt string, so that it does not depend on the order the
   * reads came in.
   */
  static Candidate inCanonicalOrder(int contigIndex, String contig, int position, String ref, String[] alts,
      String[] minimalRef, String[] minimalAlt, int refDepth, int[] altDepths, int depth, int[][] supportingReads) {
    int n = alts.length;
    Integer[] order = new Integer[n];
    for (int a = 0; a < n; a++) order[a] = a;
    Arrays.sort(order, (x, y) -> alts[x].compareTo(alts[y]));
    String[] sAlts = new String[n];
    String[] sMinRef = new String[n];
    String[] sMinAlt = new String[n];
    int[] ad = new int[n + 1];
    int[][] support = new int[n][];
    ad[0] = refDepth;
    for (int k = 0; k < n; k++) {
      int a = order[k];
      sAlts[k] = alts[a];
      sMinRef[k] = minimalRef[a];
      sMinAlt[k] = minimalAlt[a];
      ad[k + 1] = altDepths[a];
      support[k] = supportingReads[a];
    }
    return new Candidate(contigIndex, contig, position, ref, sAlts, sMinRef, sMinAlt, ad, depth, support);
  }

  /**
   * DeepVariant's alt-allele subsets (ADD_HET_ALT_IMAGES): each alt alone, then every pair.
   */
  public int[][] altSubsets() {
    int n = alts.length;
    int[][] out = new int[n + n * (n - 1) / 2][];
    int k = 0;
    for (int i = 0; i < n; i++) out[k++] = new int[] {i};
    for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) out[k++] = new int[] {i, j};
    return out;
  }

  public boolean isSnp(int alt) {
    return minimalRef[alt].length() == 1 && minimalAlt[alt].length() == 1;
  }

  @Override
  public String toString() {
    return contig + ":" + (position + 1) + " " + ref + ">" + String.join(",", alts);
  }
}
