package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Aligns reads to haplotypes and projects the alignment back onto the reference. A haplotype is
 * extended on each side with {@link #FLANK} reference bases (a {@link Target}), the read is placed on
 * it without gaps at the offsets its own alignment suggests (its first or last base where the
 * reference alignment put it, carried through the haplotype's indels), and the best placement is
 * scored like the read's alignment to the reference: +{@link #MATCH} per matching base,
 * -{@link #MISMATCH} per mismatch (-1 below base quality 10), -({@link #GAP_OPEN} +
 * {@link #GAP_EXTEND} x length) per insertion or deletion, 0 for a base off the target (clipped).
 * Projection composes the read-to-haplotype placement with the haplotype-to-reference alignment:
 * a haplotype base on the reference is M, one the haplotype inserts is I (S before the first and
 * after the last M), a reference base the haplotype skips is D; hard clips stay as they were.
 */
public final class ReadAligner {
  static final int MATCH = 1;
  static final int MISMATCH = 4;
  static final int LOW_QUALITY_MISMATCH = 1;
  static final int GAP_OPEN = 6;
  static final int GAP_EXTEND = 1;
  /** Reference bases added on each side of a haplotype: the longest read span realigned. */
  static final int FLANK = Realigner.MAX_READ_SPAN;

  private ReadAligner() {}

  /** A haplotype extended by reference on both sides, with each base's reference position (-1: inserted). */
  public static final class Target {
    final byte[] bases;
    final int[] refOf;
    /** Reference position of {@code bases[0]} (a flank base). */
    final int start;
    final int leftLength;
    final Haplotype haplotype;
    /** For each reference position of the haplotype's region, the target index of it or of the next kept base. */
    private final int[] indexOfRegion;

    Target(Haplotype h, byte[] ref, int refStart) {
      this.haplotype = h;
      int left = Math.min(FLANK, h.regionStart - refStart);
      int right = Math.min(FLANK, refStart + ref.length - h.regionEnd);
      int n = left + h.bases.length + right;
      bases = new byte[n];
      refOf = new int[n];
      start = h.regionStart - left;
      leftLength = left;
      for (int i = 0; i < left; i++) {
        bases[i] = WindowSelector.upper(ref[start + i - refStart]);
        refOf[i] = start + i;
      }
      System.arraycopy(h.bases, 0, bases, left, h.bases.length);
      System.arraycopy(h.refOf, 0, refOf, left, h.bases.length);
      int after = left + h.bases.length;
      for (int i = 0; i < right; i++) {
        bases[after + i] = WindowSelector.upper(ref[h.regionEnd + i - refStart]);
        refOf[after + i] = h.regionEnd + i;
      }
      int w = h.regionEnd - h.regionStart;
      indexOfRegion = new int[w + 1];
      java.util.Arrays.fill(indexOfRegion, -1);
      indexOfRegion[w] = left + h.bases.length;
      for (int j = 0; j < h.bases.length; j++) {
        int p = h.refOf[j];
        if (p >= 0 && indexOfRegion[p - h.regionStart] < 0) indexOfRegion[p - h.regionStart] = left + j;
      }
      for (int p = w - 1; p >= 0; p--) if (indexOfRegion[p] < 0) indexOfRegion[p] = indexOfRegion[p + 1];
    }

    /** The target index where reference position {@code pos} lies (or the next base kept there). */
    int indexOf(int pos) {
      Haplotype h = haplotype;
      if (pos < h.regionStart) return pos - start;
      if (pos >= h.regionEnd) return leftLength + h.bases.length + (pos - h.regionEnd);
      return indexOfRegion[pos - h.regionStart];
    }
  }

  /** True when the read can be realigned: mapped, bases present, no N or P, unclipped span within the cap. */
  static boolean eligible(SAMRecord r) {
    if (r.getReadUnmappedFlag() || r.getReadLength() == 0) return false;
    for (CigarElement el : r.getCigar().getCigarElements()) {
      if (el.getOperator() == CigarOperator.N || el.getOperator() == CigarOperator.P) return false;
    }
    return r.getUnclippedEnd() - r.getUnclippedStart() + 1 <= Realigner.MAX_READ_SPAN;
  }

  private static int mismatch(byte[] quals, int i) {
    return i < quals.length && quals[i] < 10 ? LOW_QUALITY_MISMATCH : MISMATCH;
  }

  /** The score of the read's own alignment to the reference. */
  static int score(SAMRecord r, byte[] ref, int refStart) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int refPos = r.getAlignmentStart() - 1;
    int readPos = 0;
    int score = 0;
    for (CigarElement el : r.getCigar().getCigarElements()) {
      int len = el.getLength();
      switch (el.getOperator()) {
        case M, EQ, X -> {
          for (int k = 0; k < len; k++) {
            int ri = refPos + k - refStart;
            if (ri < 0 || ri >= ref.length) continue;
            byte b = WindowSelector.upper(bases[readPos + k]);
            if (b == 'N') continue;
            score += b == WindowSelector.upper(ref[ri]) ? MATCH : -mismatch(quals, readPos + k);
          }
          refPos += len;
          readPos += len;
        }
        case I -> {
          score -= GAP_OPEN + GAP_EXTEND * len;
          readPos += len;
        }
        case D -> {
          score -= GAP_OPEN + GAP_EXTEND * len;
          refPos += len;
        }
        case S -> readPos += len;
        case N -> refPos += len;
        default -> { }
      }
    }
    return score;
  }

  /** The score of the read placed without gaps with its first base at target index {@code offset}. */
  static int ungappedScore(SAMRecord r, Target t, int offset) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int from = Math.max(0, -offset);
    int to = Math.min(bases.length, t.bases.length - offset);
    int score = 0;
    for (int i = from; i < to; i++) {
      byte b = WindowSelector.upper(bases[i]);
      if (b == 'N') continue;
      score += b == t.bases[offset + i] ? MATCH : -mismatch(quals, i);
    }
    return score;
  }

  /** The offsets to try: the read's first or last base placed where its reference alignment puts it. */
  static int startOffset(SAMRecord r, Target t) {
    return t.indexOf(r.getUnclippedStart() - 1 + leadingHardClip(r));
  }

  static int endOffset(SAMRecord r, Target t) {
    return t.indexOf(r.getUnclippedEnd() - 1 - trailingHardClip(r)) - (r.getReadLength() - 1);
  }

  private static int leadingHardClip(SAMRecord r) {
    CigarElement first = r.getCigar().getFirstCigarElement();
    return first != null && first.getOperator() == CigarOperator.H ? first.getLength() : 0;
  }

  private static int trailingHardClip(SAMRecord r) {
    CigarElement last = r.getCigar().getLastCigarElement();
    return last != null && last.getOperator() == CigarOperator.H ? last.getLength() : 0;
  }

  /** A projected alignment: 1-based start and CIGAR. */
  public record Alignment(int start, Cigar cigar) {}

  /**
   * The reference alignment of the read placed at target index {@code offset}; null when no base
   * lands on the reference.
   */
  public static Alignment project(SAMRecord r, Target t, int offset) {
    int n = r.getReadLength();
    List<CigarElement> out = new ArrayList<>();
    int hl = leadingHardClip(r);
    if (hl > 0) out.add(new CigarElement(hl, CigarOperator.H));
    // Bases before the first on-reference base are soft clipped; so are those after the last.
    int first = -1;
    int last = -1;
    for (int i = 0; i < n; i++) {
      int e = offset + i;
      if (e >= 0 && e < t.bases.length && t.refOf[e] >= 0) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) return null;
    if (first > 0) out.add(new CigarElement(first, CigarOperator.S));
    int prevRef = -1;
    CigarOperator op = null;
    int len = 0;
    for (int i = first; i <= last; i++) {
      int refPos = t.refOf[offset + i];
      CigarOperator now = refPos >= 0 ? CigarOperator.M : CigarOperator.I;
      if (refPos >= 0 && prevRef >= 0 && refPos > prevRef + 1) {
        if (len > 0) out.add(new CigarElement(len, op));
        out.add(new CigarElement(refPos - prevRef - 1, CigarOperator.D));
        op = null;
        len = 0;
      }
      if (now != op) {
        if (len > 0) out.add(new CigarElement(len, op));
        op = now;
        len = 0;
      }
      len++;
      if (refPos >= 0) prevRef = refPos;
    }
    out.add(new CigarElement(len, op));
    if (last < n - 1) out.add(new CigarElement(n - 1 - last, CigarOperator.S));
    int tl = trailingHardClip(r);
    if (tl > 0) out.add(new CigarElement(tl, CigarOperator.H));
    return new Alignment(t.refOf[offset + first] + 1, new Cigar(out));
  }
}
