package dev.fastpipe.streaming.makeexamples;

import java.util.List;

/**
 * Indel alleles that are alignment shadows of a stronger one: an indel allele is no candidate when
 * an indel allele of the same length change, at the same position or at most {@code reach} bases
 * away, has at least {@code ratio} times its reads. In a repeat, a few reads of a real insertion
 * or deletion carry a sequencing error in or beside the event and are aligned with the event
 * written differently (TATATA inserted one base on instead of ATATAT, TGCA beside TGAA); counted
 * apart, such a shadow has two reads against ten or twenty of its source, and the network calls a
 * fair share of them het. A real second allele of a diploid site has about as many reads as its
 * neighbour, so a ratio of three keeps it.
 *
 * <p>The decision reads raw counts only (every candidate near the allele as counted, shadows
 * included), so it does not depend on where partitions fall as long as the caller passes the
 * candidates of the strips beyond the partition's edges.
 */
final class ShadowAlleles {
  /** How far from an allele its source may lie, in bases. */
  static final int REACH = 10;

  private ShadowAlleles() {}

  /**
   * Each of {@code candidates} (sorted by position) less its shadow alleles, at its index; null
   * where nothing is left. {@code beyond} holds the candidates just outside the partition, within
   * {@code reach} of its edges; they are looked at, never returned.
   *
   * @param ratio the source's reads over the shadow's; 0 keeps every allele
   */
  static Candidate[] drop(List<Candidate> candidates, List<Candidate> beyond, int ratio, int reach) {
    Candidate[] out = candidates.toArray(new Candidate[0]);
    if (ratio <= 0) return out;
    for (int i = 0; i < out.length; i++) {
      Candidate c = candidates.get(i);
      boolean[] shadow = null;
      for (int a = 0; a < c.alts.length; a++) {
        int change = lengthChange(c, a);
        if (change == 0) continue;
        if (hasSource(c, a, change, candidates, ratio, reach) || hasSource(c, a, change, beyond, ratio, reach)) {
          if (shadow == null) shadow = new boolean[c.alts.length];
          shadow[a] = true;
        }
      }
      if (shadow != null) out[i] = without(c, shadow);
    }
    return out;
  }

  /** Whether a candidate at a position in [from, to) has an indel allele. */
  static boolean indelNear(List<Candidate> candidates, int from, int to) {
    for (Candidate c : candidates) {
      if (c.position < from || c.position >= to) continue;
      for (int a = 0; a < c.alts.length; a++) if (lengthChange(c, a) != 0) return true;
    }
    return false;
  }

  /** The rule itself: an allele of {@code reads} reads is a shadow of one of the same length change with {@code sourceReads}. */
  static boolean isShadow(int reads, int sourceReads, int ratio) {
    return ratio > 0 && sourceReads >= (long) ratio * reads;
  }

  /** Whether some other indel allele of {@code change} within {@code reach} has {@code ratio} times allele a's reads. */
  private static boolean hasSource(Candidate c, int a, int change, List<Candidate> near, int ratio, int reach) {
    for (Candidate d : near) {
      if (Math.abs(d.position - c.position) > reach) continue;
      for (int b = 0; b < d.alts.length; b++) {
        if (d == c && b == a) continue;
        if (lengthChange(d, b) == change && isShadow(c.alleleDepths[a + 1], d.alleleDepths[b + 1], ratio)) return true;
      }
    }
    return false;
  }

  /** Bases allele a adds (positive) or removes (negative); 0 for a SNP. */
  static int lengthChange(Candidate c, int a) {
    return c.minimalAlt[a].length() - c.minimalRef[a].length();
  }

  /**
   * {@code c} without the alleles marked in {@code drop}, its ref cut to the longest deletion left
   * (every alt loses the same reference tail) and its alts in canonical order again; null if none is left.
   */
  static Candidate without(Candidate c, boolean[] drop) {
    int n = 0;
    int refLength = 1;
    for (int a = 0; a < c.alts.length; a++) {
      if (drop[a]) continue;
      n++;
      refLength = Math.max(refLength, c.minimalRef[a].length());
    }
    if (n == 0) return null;
    int cut = c.ref.length() - refLength;
    String[] alts = new String[n];
    String[] minRef = new String[n];
    String[] minAlt = new String[n];
    int[] altDepths = new int[n];
    int[][] support = new int[n][];
    for (int a = 0, k = 0; a < c.alts.length; a++) {
      if (drop[a]) continue;
      alts[k] = c.alts[a].substring(0, c.alts[a].length() - cut);
      minRef[k] = c.minimalRef[a];
      minAlt[k] = c.minimalAlt[a];
      altDepths[k] = c.alleleDepths[a + 1];
      support[k++] = c.supportingReads[a];
    }
    return Candidate.inCanonicalOrder(c.contigIndex, c.contig, c.position, c.ref.substring(0, refLength), alts, minRef,
        minAlt, c.alleleDepths[0], altDepths, c.depth, support);
  }
}
