package dev.fastpipe.streaming.simulate;

import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import java.util.ArrayList;
import java.util.List;

/**
 * One of the sample's two chromosome copies: the reference with this copy's alleles applied, and
 * for every haplotype base the reference offset it came from (-1 for inserted bases). That map
 * is what aligns a simulated read by construction: {@link #align} turns a haplotype window into
 * the reference start and CIGAR an ideal aligner would report.
 */
final class Haplotype {

  /** A read's placement on the reference: 0-based start of its first aligned base and CIGAR. */
  record Alignment(int referenceStart, Cigar cigar) {}

  final byte[] bases;
  final int[] referenceOffset;

  private Haplotype(byte[] bases, int[] referenceOffset) {
    this.bases = bases;
    this.referenceOffset = referenceOffset;
  }

  /** Applies the alleles that haplotype {@code h} carries; variants must be sorted and disjoint. */
  static Haplotype build(byte[] reference, List<TruthVariant> sortedVariants, int h) {
    return build(reference, 0, reference.length, sortedVariants, h);
  }

  /**
   * This haplotype over reference offsets [from, to) only: the alleles of the variants that lie
   * wholly inside, the reference elsewhere ({@link #referenceOffset} stays absolute). The caller
   * chooses bounds that cut no variant, so that the slice is the same as the whole haplotype there.
   */
  static Haplotype build(byte[] reference, int from, int to, List<TruthVariant> sortedVariants, int h) {
    int capacity = to - from + 16;
    for (TruthVariant v : sortedVariants) {
      if (v.start() >= from && v.end() <= to && v.haplotypeAlleles()[h] != 0) capacity += v.allele(h).length();
    }
    byte[] seq = new byte[capacity];
    int[] map = new int[capacity];
    int n = 0;
    int r = from; // next reference offset to copy
    for (TruthVariant v : sortedVariants) {
      if (v.start() < from || v.end() > to || v.haplotypeAlleles()[h] == 0) continue;
      while (r < v.start()) {
        seq[n] = reference[r];
        map[n++] = r++;
      }
      String ref = v.ref();
      String alt = v.allele(h);
      if (ref.length() == alt.length()) { // SNP (or MNP): base for base
        for (int i = 0; i < ref.length(); i++) {
          seq[n] = (byte) alt.charAt(i);
          map[n++] = v.start() + i;
        }
      } else {
        // anchor(s) first, then the inserted bases or the skipped deleted bases
        int anchor = Math.min(ref.length(), alt.length());
        for (int i = 0; i < anchor; i++) {
          seq[n] = (byte) alt.charAt(i);
          map[n++] = v.start() + i;
        }
        for (int i = anchor; i < alt.length(); i++) {
          seq[n] = (byte) alt.charAt(i);
          map[n++] = -1;
        }
      }
      r = v.end();
    }
    while (r < to) {
      seq[n] = reference[r];
      map[n++] = r++;
    }
    return new Haplotype(java.util.Arrays.copyOf(seq, n), java.util.Arrays.copyOf(map, n));
  }

  /**
   * The first haplotype offset whose reference offset is at least {@code ref} (never an inserted
   * base: bases inserted after reference base ref - 1 come before it); length() if none.
   */
  int indexOfReference(int ref) {
    int lo = 0;
    int hi = bases.length;
    while (lo < hi) { // reference offsets rise along the haplotype, -1 (inserted) aside
      int mid = (lo + hi) >>> 1;
      int at = mid;
      while (at < hi && referenceOffset[at] < 0) at++;
      if (at < hi && referenceOffset[at] < ref) lo = at + 1;
      else hi = mid;
    }
    while (lo < bases.length && referenceOffset[lo] < 0) lo++;
    return lo;
  }

  int length() {
    return bases.length;
  }

  /**
   * The alignment of haplotype bases [from, to): M for bases from the reference, I for inserted
   * bases inside the read, D where reference bases were skipped, S for inserted bases at either
   * end of the read (a read starting or ending inside an insertion has no anchor there).
   */
  Alignment align(int from, int to) {
    int first = from;
    while (first < to && referenceOffset[first] < 0) first++;
    int last = to - 1;
    while (last >= first && referenceOffset[last] < 0) last--;
    if (first > last) throw new IllegalStateException("read lies entirely inside an insertion");
    List<CigarElement> ops = new ArrayList<>();
    if (first > from) ops.add(new CigarElement(first - from, CigarOperator.S));
    CigarOperator op = null;
    int len = 0;
    int prevRef = -1;
    for (int i = first; i <= last; i++) {
      int ro = referenceOffset[i];
      CigarOperator next;
      if (ro < 0) {
        next = CigarOperator.I;
      } else {
        if (prevRef >= 0 && ro != prevRef + 1) {
          if (op != null) ops.add(new CigarElement(len, op));
          ops.add(new CigarElement(ro - prevRef - 1, CigarOperator.D));
          op = null;
          len = 0;
        }
        prevRef = ro;
        next = CigarOperator.M;
      }
      if (next != op) {
        if (op != null) ops.add(new CigarElement(len, op));
        op = next;
        len = 0;
      }
      len++;
    }
    ops.add(new CigarElement(len, op));
    if (last < to - 1) ops.add(new CigarElement(to - 1 - last, CigarOperator.S));
    return new Alignment(referenceOffset[first], new Cigar(ops));
  }
}
