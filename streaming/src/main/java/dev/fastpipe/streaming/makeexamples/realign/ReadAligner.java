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
    Cigar cigar = r.getCigar();
    for (int i = 0, n = cigar.numCigarElements(); i < n; i++) {
      CigarOperator op = cigar.getCigarElement(i).getOperator();
      if (op == CigarOperator.N || op == CigarOperator.P) return false;
    }
    return unclippedEnd(r) - unclippedStart(r) + 1 <= Realigner.MAX_READ_SPAN;
  }

  /**
   * {@link SAMRecord#getUnclippedStart}: the alignment start less the leading soft and hard clips
   * (1-based). Read by index: htsjdk's version wraps and iterates the CIGAR's list at each call,
   * garbage that every read of every partition made several times over.
   */
  static int unclippedStart(SAMRecord r) {
    Cigar cigar = r.getCigar();
    int pos = r.getAlignmentStart();
    for (int i = 0, n = cigar.numCigarElements(); i < n; i++) {
      CigarElement el = cigar.getCigarElement(i);
      if (el.getOperator() != CigarOperator.S && el.getOperator() != CigarOperator.H) break;
      pos -= el.getLength();
    }
    return pos;
  }

  /** {@link SAMRecord#getUnclippedEnd}: the alignment end plus the trailing soft and hard clips (1-based). */
  static int unclippedEnd(SAMRecord r) {
    Cigar cigar = r.getCigar();
    int pos = r.getAlignmentEnd();
    for (int i = cigar.numCigarElements() - 1; i >= 0; i--) {
      CigarElement el = cigar.getCigarElement(i);
      if (el.getOperator() != CigarOperator.S && el.getOperator() != CigarOperator.H) break;
      pos += el.getLength();
    }
    return pos;
  }

  private static int mismatch(byte[] quals, int i) {
    return i < quals.length && quals[i] < 10 ? LOW_QUALITY_MISMATCH : MISMATCH;
  }

  /** The score of the read's own alignment to the reference. */
  static int score(SAMRecord r, byte[] ref, int refStart) {
    return opsScore(r, ref, refStart, 0, r.getCigar().numCigarElements());
  }

  /** The score of the read placed without gaps with its first base at target index {@code offset}. */
  static int ungappedScore(SAMRecord r, Target t, int offset) {
    return rangeScore(r, t, offset, 0, r.getReadLength());
  }

  /** The offsets to try: the read's first or last base placed where its reference alignment puts it. */
  static int startOffset(SAMRecord r, Target t) {
    return t.indexOf(unclippedStart(r) - 1 + leadingHardClip(r));
  }

  static int endOffset(SAMRecord r, Target t) {
    return t.indexOf(unclippedEnd(r) - 1 - trailingHardClip(r)) - (r.getReadLength() - 1);
  }

  private static int leadingHardClip(SAMRecord r) {
    CigarElement first = r.getCigar().getFirstCigarElement();
    return first != null && first.getOperator() == CigarOperator.H ? first.getLength() : 0;
  }

  private static int trailingHardClip(SAMRecord r) {
    CigarElement last = r.getCigar().getLastCigarElement();
    return last != null && last.getOperator() == CigarOperator.H ? last.getLength() : 0;
  }

  /**
   * Where a read's alignment has an insertion, a deletion or a soft-clipped end outside the
   * haplotype's region, an ungapped placement fits the read on one side of it only, or undoes it: a
   * read that also carries a nearby event the window did not assemble (two windows a read length
   * apart, each with its own haplotypes) fits neither way. A kept-side placement keeps the read's
   * CIGAR operations up to and including its last indel (or its leading clip) left of the region
   * ({@link #keepLeft}), or from its first indel (or its trailing clip) right of the region on
   * ({@link #keepRight}), and places the rest of the read without gaps from the base next to it,
   * whose reference position lies on the target's reference flank. It scores the kept operations as
   * {@link #score} does and the placed bases as {@link #ungappedScore} does.
   *
   * @param op the index in the read's CIGAR of the operation the kept side ends (left) or starts (right) with
   * @param split the first read base after the kept side (left), or the first of it (right)
   * @param offset the target index of read base 0 for the placed bases
   * @param score the placement's score
   */
  public record KeptSide(boolean left, int op, int split, int offset, int score) {}

  /** The kept-left placement of {@code r} on {@code t}, or null when the read has no indel or clip left of the region. */
  static KeptSide keepLeft(SAMRecord r, Target t, byte[] ref, int refStart) {
    List<CigarElement> cigar = r.getCigar().getCigarElements();
    int refPos = r.getAlignmentStart() - 1;
    int readPos = 0;
    int op = -1;
    int split = 0;
    int next = 0;
    for (int e = 0; e < cigar.size(); e++) {
      CigarElement el = cigar.get(e);
      CigarOperator o = el.getOperator();
      if (o.consumesReferenceBases()) refPos += el.getLength();
      if (o.consumesReadBases()) readPos += el.getLength();
      boolean nextM = e + 1 < cigar.size() && isM(cigar.get(e + 1).getOperator());
      boolean indel = (o == CigarOperator.I || o == CigarOperator.D) && e > 0 && isM(cigar.get(e - 1).getOperator());
      boolean leadingClip = o == CigarOperator.S && (e == 0 || cigar.get(e - 1).getOperator() == CigarOperator.H);
      if ((indel || leadingClip) && nextM) {
        if (refPos >= t.haplotype.regionStart) break; // the base after it is in the region or beyond
        op = e;
        split = readPos;
        next = refPos;
      }
    }
    if (op < 0) return null;
    int offset = t.indexOf(next) - split;
    int score = opsScore(r, ref, refStart, 0, op + 1) + rangeScore(r, t, offset, split, r.getReadLength());
    return new KeptSide(true, op, split, offset, score);
  }

  /** The kept-right placement of {@code r} on {@code t}, or null when the read has no indel or clip right of the region. */
  static KeptSide keepRight(SAMRecord r, Target t, byte[] ref, int refStart) {
    List<CigarElement> cigar = r.getCigar().getCigarElements();
    int refPos = r.getAlignmentStart() - 1;
    int readPos = 0;
    for (int e = 0; e < cigar.size(); e++) {
      CigarElement el = cigar.get(e);
      CigarOperator o = el.getOperator();
      boolean prevM = e > 0 && isM(cigar.get(e - 1).getOperator());
      boolean indel = (o == CigarOperator.I || o == CigarOperator.D) && e + 1 < cigar.size()
          && isM(cigar.get(e + 1).getOperator());
      boolean trailingClip = o == CigarOperator.S && (e + 1 == cigar.size() || cigar.get(e + 1).getOperator() == CigarOperator.H);
      if ((indel || trailingClip) && prevM && refPos - 1 >= t.haplotype.regionEnd) {
        int offset = t.indexOf(refPos - 1) - (readPos - 1);
        int score = rangeScore(r, t, offset, 0, readPos) + opsScore(r, ref, refStart, e, cigar.size());
        return new KeptSide(false, e, readPos, offset, score);
      }
      if (o.consumesReferenceBases()) refPos += el.getLength();
      if (o.consumesReadBases()) readPos += el.getLength();
    }
    return null;
  }

  /** True when the read's alignment has an insertion, a deletion or a soft clip (what a kept side may keep). */
  static boolean hasStructure(SAMRecord r) {
    for (CigarElement el : r.getCigar().getCigarElements()) {
      CigarOperator o = el.getOperator();
      if (o == CigarOperator.I || o == CigarOperator.D || o == CigarOperator.S) return true;
    }
    return false;
  }

  /**
   * True when the read's alignment has an insertion or a deletion starting in
   * {@code [regionStart, regionEnd)} whose length changes the sequence by an amount that no haplotype
   * of {@code haps} changes its region by (a haplotype of one insertion of 8 bases: +8).
   */
  static boolean hasOtherGap(SAMRecord r, int regionStart, int regionEnd, List<Haplotype> haps) {
    int refPos = r.getAlignmentStart() - 1;
    for (CigarElement el : r.getCigar().getCigarElements()) {
      CigarOperator o = el.getOperator();
      if ((o == CigarOperator.I || o == CigarOperator.D) && refPos >= regionStart && refPos < regionEnd) {
        int change = o == CigarOperator.I ? el.getLength() : -el.getLength();
        boolean held = false;
        for (Haplotype h : haps) held |= h.bases.length - (h.regionEnd - h.regionStart) == change;
        if (!held) return true;
      }
      if (o.consumesReferenceBases()) refPos += el.getLength();
    }
    return false;
  }

  private static boolean isM(CigarOperator o) {
    return o == CigarOperator.M || o == CigarOperator.EQ || o == CigarOperator.X;
  }

  /** {@link #score} of the read's own CIGAR operations {@code [fromOp, toOp)}. */
  static int opsScore(SAMRecord r, byte[] ref, int refStart, int fromOp, int toOp) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int refPos = r.getAlignmentStart() - 1;
    int readPos = 0;
    int score = 0;
    List<CigarElement> cigar = r.getCigar().getCigarElements();
    for (int e = 0; e < toOp; e++) {
      CigarElement el = cigar.get(e);
      int len = el.getLength();
      CigarOperator o = el.getOperator();
      if (e >= fromOp) {
        if (isM(o)) {
          for (int k = 0; k < len; k++) {
            int ri = refPos + k - refStart;
            if (ri < 0 || ri >= ref.length) continue;
            byte b = WindowSelector.upper(bases[readPos + k]);
            if (b == 'N') continue;
            score += b == WindowSelector.upper(ref[ri]) ? MATCH : -mismatch(quals, readPos + k);
          }
        } else if (o == CigarOperator.I || o == CigarOperator.D) {
          score -= GAP_OPEN + GAP_EXTEND * len;
        }
      }
      if (o.consumesReferenceBases()) refPos += len;
      if (o.consumesReadBases()) readPos += len;
    }
    return score;
  }

  /** {@link #ungappedScore} of read bases {@code [from, to)} only. */
  static int rangeScore(SAMRecord r, Target t, int offset, int from, int to) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int lo = Math.max(from, -offset);
    int hi = Math.min(to, t.bases.length - offset);
    int score = 0;
    for (int i = lo; i < hi; i++) {
      byte b = WindowSelector.upper(bases[i]);
      if (b == 'N') continue;
      score += b == t.bases[offset + i] ? MATCH : -mismatch(quals, i);
    }
    return score;
  }

  /**
   * The reference alignment of a kept-side placement: the read's own operations on the kept side,
   * the placed bases projected as {@link #project} does; null when no placed base lands on the
   * reference next to the kept side.
   */
  public static Alignment project(SAMRecord r, Target t, KeptSide k) {
    List<CigarElement> own = r.getCigar().getCigarElements();
    List<CigarElement> out = new ArrayList<>();
    int start;
    if (k.left()) {
      out.addAll(own.subList(0, k.op() + 1));
      List<CigarElement> placed = new ArrayList<>();
      if (placedOps(r, t, k.offset(), k.split(), r.getReadLength(), placed) < 0) return null;
      if (placed.get(0).getOperator() != CigarOperator.M) return null;
      out.addAll(placed);
      int tl = trailingHardClip(r);
      if (tl > 0) out.add(new CigarElement(tl, CigarOperator.H));
      start = r.getAlignmentStart();
    } else {
      int hl = leadingHardClip(r);
      if (hl > 0) out.add(new CigarElement(hl, CigarOperator.H));
      List<CigarElement> placed = new ArrayList<>();
      int first = placedOps(r, t, k.offset(), 0, k.split(), placed);
      if (first < 0 || placed.get(placed.size() - 1).getOperator() != CigarOperator.M) return null;
      out.addAll(placed);
      out.addAll(own.subList(k.op(), own.size()));
      start = first + 1;
    }
    return new Alignment(start, new Cigar(merged(out)));
  }

  /**
   * Appends to {@code out} the operations of read bases {@code [from, to)} placed at target index
   * {@code offset + i}: M on the reference, I where the haplotype inserts, D where it skips, S for
   * bases off the reference at either end. Returns the reference position (0-based) of the first
   * base on the reference, or -1 when none is.
   */
  private static int placedOps(SAMRecord r, Target t, int offset, int from, int to, List<CigarElement> out) {
    int first = -1;
    int last = -1;
    for (int i = from; i < to; i++) {
      int e = offset + i;
      if (e >= 0 && e < t.bases.length && t.refOf[e] >= 0) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) return -1;
    if (first > from) out.add(new CigarElement(first - from, CigarOperator.S));
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
    if (last < to - 1) out.add(new CigarElement(to - 1 - last, CigarOperator.S));
    return t.refOf[offset + first];
  }

  /**
   * True when {@code after}'s alignment is {@code before}'s with some of its soft-clipped end bases
   * aligned (the first or last M longer by as many bases, the start earlier by the leading ones) and
   * nothing else changed.
   */
  static boolean onlyUnclipped(SAMRecord before, SAMRecord after) {
    List<CigarElement> a = core(before.getCigar().getCigarElements());
    List<CigarElement> b = core(after.getCigar().getCigarElements());
    if (a.size() != b.size() || a.isEmpty()) return false;
    int headA = clip(before.getCigar().getCigarElements(), true);
    int headB = clip(after.getCigar().getCigarElements(), true);
    int tailA = clip(before.getCigar().getCigarElements(), false);
    int tailB = clip(after.getCigar().getCigarElements(), false);
    int head = headA - headB;
    int tail = tailA - tailB;
    if (head < 0 || tail < 0 || head + tail == 0) return false;
    if (after.getAlignmentStart() != before.getAlignmentStart() - head) return false;
    int last = a.size() - 1;
    for (int k = 0; k <= last; k++) {
      CigarElement x = a.get(k);
      CigarElement y = b.get(k);
      if (x.getOperator() != y.getOperator()) return false;
      int grown = (k == 0 ? head : 0) + (k == last ? tail : 0);
      if (grown > 0 && !isM(x.getOperator())) return false;
      if (y.getLength() != x.getLength() + grown) return false;
    }
    return true;
  }

  /** The operations between the clips (hard and soft) at both ends. */
  private static List<CigarElement> core(List<CigarElement> ops) {
    int from = 0;
    int to = ops.size();
    while (from < to && isClip(ops.get(from).getOperator())) from++;
    while (to > from && isClip(ops.get(to - 1).getOperator())) to--;
    return ops.subList(from, to);
  }

  private static boolean isClip(CigarOperator o) {
    return o == CigarOperator.S || o == CigarOperator.H;
  }

  /** The soft-clipped bases at the read's start ({@code head}) or end. */
  private static int clip(List<CigarElement> ops, boolean head) {
    int n = 0;
    for (int k = 0; k < ops.size(); k++) {
      CigarElement e = ops.get(head ? k : ops.size() - 1 - k);
      if (e.getOperator() == CigarOperator.S) n += e.getLength();
      else if (e.getOperator() != CigarOperator.H) break;
    }
    return n;
  }

  /** Adjacent operations of one kind joined. */
  private static List<CigarElement> merged(List<CigarElement> ops) {
    List<CigarElement> out = new ArrayList<>(ops.size());
    for (CigarElement el : ops) {
      int n = out.size();
      if (n > 0 && out.get(n - 1).getOperator() == el.getOperator()) {
        out.set(n - 1, new CigarElement(out.get(n - 1).getLength() + el.getLength(), el.getOperator()));
      } else {
        out.add(el);
      }
    }
    return out;
  }

  /** A projected alignment: 1-based start and CIGAR. */
  public record Alignment(int start, Cigar cigar) {}

  /**
   * The reference alignment of the read placed at target index {@code offset}; null when no base
   * lands on the reference.
   */
  public static Alignment project(SAMRecord r, Target t, int offset) {
    List<CigarElement> out = new ArrayList<>();
    int hl = leadingHardClip(r);
    if (hl > 0) out.add(new CigarElement(hl, CigarOperator.H));
    int first = placedOps(r, t, offset, 0, r.getReadLength(), out);
    if (first < 0) return null;
    int tl = trailingHardClip(r);
    if (tl > 0) out.add(new CigarElement(tl, CigarOperator.H));
    return new Alignment(first + 1, new Cigar(out));
  }

}
