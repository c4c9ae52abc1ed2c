package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Local haplotype realignment of one partition's reads, as DeepVariant's realigner does it: windows
 * where reads disagree with the reference ({@link WindowSelector}), candidate haplotypes there from
 * a de Bruijn graph ({@link HaplotypeAssembler}; where it gives none but the reference, the reads'
 * own indels, {@link HaplotypeAssembler#readIndels}; where it lost the indel most reads show, that
 * one as well, {@link HaplotypeAssembler#withReadsBestIndel}), each read placed on its best haplotype and
 * projected back onto the reference ({@link ReadAligner}). A read whose best placement scores above
 * its alignment and changes it gets a realigned copy ({@link SAMRecord#clone()} with a new start and
 * CIGAR) in the partition's list; the original, shared with other partitions, is never changed.
 * Windows go left to right, and a read that overlaps several is placed in each from the alignment
 * the ones before left it: a read with an indel from each of two windows a read length apart (each
 * assembled without the other's) takes both. A placement may keep the read's alignment on the far
 * side of an indel or a clipped end outside the window ({@link ReadAligner.KeptSide}); a read an
 * earlier window moved is placed only so, which keeps that window's work (a window that only unclipped
 * the read's ends did no such work: the read stays free). A placement that gives the
 * read its alignment back changes nothing, though it scores above it (a haplotype's own indels cost
 * nothing).
 *
 * <p>Deterministic whatever the partitioning: the caller gives the signal reads over the partition
 * widened by {@link #READ_MARGIN} beyond its pad, so every window a partition read can reach is
 * seen whole, with every read that overlaps it; a window seen only in part is one no partition read
 * reaches, or longer than the cap (it falls back in every partition alike). Windows and realigned
 * reads are counted by the partition holding their first position (a read: its alignment start), so
 * the counts add up over shards.
 */
public final class Realigner {
  /** Windows (at the smallest k, with its flanks) longer than this fall back. */
  public static final int MAX_WINDOW = 300;
  /** Reads whose unclipped span is longer are not realigned (long reads). */
  public static final int MAX_READ_SPAN = 300;
  public static final int MAX_READS_PER_WINDOW = 1000;
  public static final int MAX_PATHS = 32;
  /**
   * Reads fetched beyond a partition's pad on each side, so that any window reaching a read of the
   * partition lies, with its flanks and {@link WindowSelector#MERGE_GAP}, inside the signal range.
   */
  public static final int READ_MARGIN =
      MAX_READ_SPAN + MAX_WINDOW + 2 * HaplotypeAssembler.widest() + WindowSelector.MERGE_GAP;
  /**
   * Reference needed beyond a partition's pad: the signal range and the reads in it, or a window
   * plus a haplotype's flanks.
   */
  public static final int REFERENCE_REACH = Math.max(READ_MARGIN + MAX_READ_SPAN, 3 * MAX_READ_SPAN + MAX_WINDOW);

  /** Caps on one window; a window over any of them keeps its reads' alignments. */
  public record Limits(int maxWindow, int maxReadsPerWindow, int maxPaths) {
    public static final Limits DEFAULT = new Limits(MAX_WINDOW, MAX_READS_PER_WINDOW, MAX_PATHS);

    public Limits {
      if (maxWindow < 1 || maxWindow > MAX_WINDOW) throw new IllegalArgumentException("maxWindow in [1, " + MAX_WINDOW + "]");
      if (maxReadsPerWindow < 1 || maxPaths < 1) throw new IllegalArgumentException("caps must be >= 1");
    }
  }

  private final Limits limits;
  private final WindowSelector selector = new WindowSelector();
  private final HaplotypeAssembler assembler = new HaplotypeAssembler();
  private final List<SAMRecord> windowReads = new ArrayList<>();
  private int[] own = new int[256];
  // Per partition read: unclipped span [uStart, uEnd) and whether it may be realigned.
  private int[] aStart = new int[256];
  private int[] uStart = new int[256];
  private int[] uEnd = new int[256];
  private boolean[] eligible = new boolean[256];
  // Per signal read: aligned span [sStart, sEnd) and first base's unaligned position.
  private int[] sStart = new int[256];
  private int[] sEnd = new int[256];
  private int[] sBase = new int[256];
  private int[] windowBase = new int[256];
  /** Per partition read: whether a window has given it a new alignment. */
  private boolean[] moved = new boolean[256];
  /**
   * Per partition read: whether a window has changed more than its clipped ends (an indel, a
   * mismatch's place): the windows after it then only keep a side of it.
   */
  private boolean[] bound = new boolean[256];
  // Per read and haplotype of the window being aligned: the best placement's score, offset and kept side.
  private int[] placeScore = new int[0];
  private int[] placeOffset = new int[0];
  private ReadAligner.KeptSide[] placeKept = new ReadAligner.KeptSide[0];

  private long windowsRealigned;
  private long windowsFallenBack;
  private long windowsFromReadIndels;
  private long windowsWithReadIndel;
  private long readsRealigned;
  private long nanos;

  public Realigner(Limits limits) {
    this.limits = limits;
  }

  /** Windows assembled into at least one non-reference haplotype, reads aligned to them. */
  public long windowsRealigned() { return windowsRealigned; }
  /**
   * Windows over a cap, or without an acyclic graph at any k and without an indel that two reads
   * show: their reads kept their alignments.
   */
  public long windowsFallenBack() { return windowsFallenBack; }
  /** Of {@link #windowsRealigned}: those whose haplotypes are the reads' own indels ({@link HaplotypeAssembler#readIndels}). */
  public long windowsFromReadIndels() { return windowsFromReadIndels; }
  /**
   * Of {@link #windowsRealigned}: assembled windows whose graph lost the reads' best-supported indel,
   * offered beside the assembled haplotypes ({@link HaplotypeAssembler#withReadsBestIndel}).
   */
  public long windowsWithReadIndel() { return windowsWithReadIndel; }
  /** Reads given a new alignment. */
  public long readsRealigned() { return readsRealigned; }
  /** Time spent in {@link #realign}. */
  public long nanos() { return nanos; }

  /**
   * Realigns {@code reads} (the partition's reads, replaced in place by realigned copies).
   * {@code signal} holds every read overlapping {@code [lo, hi)}, which must cover the partition's
   * reads widened by {@link #READ_MARGIN}; {@code ref[i]} is the base at {@code refStart + i} and
   * covers the partition's reads widened by {@link #REFERENCE_REACH} (or to the contig's ends).
   * {@code [ownStart, ownEnd)} is the partition, for counting.
   */
  public void realign(List<SAMRecord> signal, List<SAMRecord> reads, byte[] ref, int refStart, int lo, int hi,
      int contigLength, int ownStart, int ownEnd) {
    long t0 = System.nanoTime();
    try {
      List<WindowSelector.Window> windows = selector.select(signal, ref, refStart, lo, hi, contigLength);
      if (windows.isEmpty()) return;
      int n = reads.size();
      if (moved.length < n) {
        int c = Math.max(n, moved.length * 2);
        own = new int[c];
        moved = new boolean[c];
        bound = new boolean[c];
      }
      if (uStart.length < n) {
        int c = Math.max(n, uStart.length * 2);
        aStart = new int[c];
        uStart = new int[c];
        uEnd = new int[c];
        eligible = new boolean[c];
      }
      // The reads come sorted by alignment start (as make_examples reads them): a window's reads are
      // then found by binary search instead of a scan of every read, per window.
      boolean readsSorted = true;
      int back = 0;
      int ahead = 0;
      WindowSelector.ReadFacts[] readFacts = selector.factsOf(reads);
      for (int i = 0; i < n; i++) {
        WindowSelector.ReadFacts f = readFacts[i];
        uStart[i] = f.unclippedStart();
        uEnd[i] = f.unclippedEnd();
        eligible[i] = f.eligible();
        aStart[i] = f.start();
        if (i > 0 && aStart[i] < aStart[i - 1]) readsSorted = false;
        back = Math.max(back, aStart[i] - uStart[i]);
        ahead = Math.max(ahead, uEnd[i] - aStart[i]);
      }
      int ns = signal.size();
      if (sStart.length < ns) {
        int c = Math.max(ns, sStart.length * 2);
        sStart = new int[c];
        sEnd = new int[c];
        sBase = new int[c];
        windowBase = new int[c];
      }
      boolean signalSorted = true;
      int signalSpan = 0;
      for (int i = 0; i < ns; i++) {
        WindowSelector.ReadFacts f = selector.factsAt(i);
        sStart[i] = f.start();
        sEnd[i] = f.end();
        sBase[i] = f.firstBase();
        if (i > 0 && sStart[i] < sStart[i - 1]) signalSorted = false;
        signalSpan = Math.max(signalSpan, sEnd[i] - sStart[i]);
      }
      Arrays.fill(own, 0, n, Integer.MIN_VALUE);
      Arrays.fill(moved, 0, n, false);
      Arrays.fill(bound, 0, n, false);
      int widest = HaplotypeAssembler.widest();
      for (WindowSelector.Window w : windows) {
        boolean counts = w.first() >= ownStart && w.first() < ownEnd;
        int from = w.first() - widest;
        int to = w.last() + 1 + widest;
        boolean whole = w.known() && (from >= lo || lo == 0) && (to <= hi || hi >= contigLength);
        if (w.length() + 2 * (HaplotypeAssembler.K_LADDER[0] + HaplotypeAssembler.FLANK) > limits.maxWindow()) {
          if (counts) windowsFallenBack++;
          continue;
        }
        // Partition reads that can reach [from, to) unclipped: aligned start in (from - ahead, to + back).
        int rFirst = readsSorted ? firstAtOrAfter(aStart, n, from - ahead) : 0;
        int rEnd = readsSorted ? firstAtOrAfter(aStart, n, to + back) : n;
        if (!whole || !reaches(rFirst, rEnd, from, to)) continue;
        windowReads.clear();
        int sFirst = signalSorted ? firstAtOrAfter(sStart, ns, from - signalSpan) : 0;
        int sLast = signalSorted ? firstAtOrAfter(sStart, ns, to) : ns;
        for (int i = sFirst; i < sLast; i++) {
          if (sStart[i] < to && sEnd[i] > from) {
            windowBase[windowReads.size()] = sBase[i];
            windowReads.add(signal.get(i));
          }
        }
        HaplotypeAssembler.Result res = assembler.assemble(ref, refStart, w, windowReads, windowBase, limits);
        List<Haplotype> haplotypes = res.haplotypes();
        if (res.status() == HaplotypeAssembler.Status.OVER_CAP) {
          if (counts) windowsFallenBack++;
          continue;
        }
        boolean fromReadIndels = haplotypes.size() < 2;
        if (fromReadIndels) {
          // No graph (a repeat longer than the largest k) or none but the reference: the reads' own indels.
          haplotypes = assembler.readIndels(ref, refStart, w, windowReads);
          if (haplotypes.isEmpty()) {
            if (counts && res.status() != HaplotypeAssembler.Status.ASSEMBLED) windowsFallenBack++;
            continue;
          }
          if (counts) windowsFromReadIndels++;
        }
        if (!fromReadIndels) {
          List<Haplotype> kept = HaplotypeAssembler.withReadsBestIndel(haplotypes, windowReads, ref, refStart);
          if (kept != haplotypes && counts) windowsWithReadIndel++;
          haplotypes = kept;
        }
        if (counts) windowsRealigned++;
        align(reads, rFirst, rEnd, haplotypes, ref, refStart, fromReadIndels);
      }
      for (int i = 0; i < n; i++) {
        int s = reads.get(i).getAlignmentStart() - 1;
        if (moved[i] && s >= ownStart && s < ownEnd) readsRealigned++;
      }
    } finally {
      nanos += System.nanoTime() - t0;
    }
  }

  /** True when one of the partition's reads {@code [first, end)} overlaps {@code [from, to)} (unclipped). */
  private boolean reaches(int first, int end, int from, int to) {
    for (int i = first; i < end; i++) if (uStart[i] < to && uEnd[i] > from) return true;
    return false;
  }

  /** The first index of the sorted {@code values[0, n)} holding at least {@code key} ({@code n} if none). */
  static int firstAtOrAfter(int[] values, int n, int key) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * Places each partition read overlapping the haplotypes' region on its best haplotype, starting
   * from the alignment earlier windows left it with; a placement that scores above that alignment
   * and changes it replaces the read with a realigned copy. Haplotypes of the reads' own indels
   * ({@code readIndels}, {@link HaplotypeAssembler#readIndels}) each hold one indel and none of the
   * reads' others nearby: a read with an indel of another length in their region (a longer
   * insertion a few bases on) would score above its alignment on one, its own gap's cost saved
   * against a few mismatches, and be moved onto an allele it does not carry. They are offered to
   * reads without an indel there, or whose indels there are as long as one of the haplotypes' (the
   * same allele written elsewhere in its repeat, as mappers write insertions near a read's end).
   *
   * <p>A read that fits several haplotypes equally well goes to the one that most reads fit better
   * than any other (then to the first). Two variants further apart than the graph's k give every
   * combination of them as a path: in a compound repeat, where the same sequence is written as a
   * SNP and an insertion in the next repeat or as an insertion and a SNP elsewhere, a read that
   * covers only one of them fits the haplotype of that one alone as well as the true one, and the
   * first in sequence order took it: one allele came out written two ways, its reads split between
   * the ways, and a homozygous pair was called as three hets.
   */
  private void align(List<SAMRecord> reads, int first, int end, List<Haplotype> haps, byte[] ref, int refStart,
      boolean readIndels) {
    Haplotype h0 = haps.get(0);
    int nt = haps.size();
    ReadAligner.Target[] targets = new ReadAligner.Target[nt];
    for (int t = 0; t < nt; t++) targets[t] = new ReadAligner.Target(haps.get(t), ref, refStart);
    int nr = Math.max(0, end - first);
    if (placeScore.length < nr * nt) {
      int c = Math.max(nr * nt, placeScore.length * 2);
      placeScore = new int[c];
      placeOffset = new int[c];
      placeKept = new ReadAligner.KeptSide[c];
    }
    // Each read's best placement on each haplotype (Integer.MIN_VALUE: none, or a read left alone).
    Arrays.fill(placeScore, 0, nr * nt, Integer.MIN_VALUE);
    int[] support = new int[nt];
    for (int i = first; i < end; i++) {
      if (uStart[i] >= h0.regionEnd || uEnd[i] <= h0.regionStart || !eligible[i]) continue;
      SAMRecord r = reads.get(i);
      if (readIndels && ReadAligner.hasOtherGap(r, h0.regionStart, h0.regionEnd, haps)) continue;
      if (own[i] == Integer.MIN_VALUE) own[i] = ReadAligner.score(r, ref, refStart);
      boolean structure = ReadAligner.hasStructure(r);
      int row = (i - first) * nt;
      int top = Integer.MIN_VALUE;
      int topCount = 0;
      int topTarget = -1;
      for (int t = 0; t < nt; t++) {
        ReadAligner.Target target = targets[t];
        int bestScore = Integer.MIN_VALUE;
        int bestOffset = 0;
        ReadAligner.KeptSide bestKept = null;
        // A read an earlier window moved keeps that window's work: only kept-side placements (unless
        // that window only unclipped it: no work of its own to keep).
        if (!bound[i]) {
          int o1 = ReadAligner.startOffset(r, target);
          int s1 = ReadAligner.ungappedScore(r, target, o1);
          if (s1 > bestScore) { bestScore = s1; bestOffset = o1; bestKept = null; }
          int o2 = ReadAligner.endOffset(r, target);
          if (o2 != o1) {
            int s2 = ReadAligner.ungappedScore(r, target, o2);
            if (s2 > bestScore) { bestScore = s2; bestOffset = o2; bestKept = null; }
          }
        }
        if (structure) {
          ReadAligner.KeptSide left = ReadAligner.keepLeft(r, target, ref, refStart);
          if (left != null && left.score() > bestScore) { bestScore = left.score(); bestKept = left; }
          ReadAligner.KeptSide right = ReadAligner.keepRight(r, target, ref, refStart);
          if (right != null && right.score() > bestScore) { bestScore = right.score(); bestKept = right; }
        }
        placeScore[row + t] = bestScore;
        placeOffset[row + t] = bestOffset;
        placeKept[row + t] = bestKept;
        if (bestScore > top) { top = bestScore; topCount = 1; topTarget = t; }
        else if (bestScore == top) topCount++;
      }
      if (top != Integer.MIN_VALUE && topCount == 1) support[topTarget]++;
    }
    for (int i = first; i < end; i++) {
      int row = (i - first) * nt;
      int best = -1;
      for (int t = 0; t < nt; t++) {
        int sc = placeScore[row + t];
        if (sc == Integer.MIN_VALUE) continue;
        if (best < 0 || sc > placeScore[row + best] || (sc == placeScore[row + best] && support[t] > support[best])) best = t;
      }
      if (best < 0 || placeScore[row + best] <= own[i]) continue;
      SAMRecord r = reads.get(i);
      ReadAligner.KeptSide kept = placeKept[row + best];
      ReadAligner.Alignment a = kept != null ? ReadAligner.project(r, targets[best], kept)
          : ReadAligner.project(r, targets[best], placeOffset[row + best]);
      // A placement that gives the read its alignment again changes nothing (a haplotype holding the
      // read's own indel scores it above its alignment, as a haplotype's indels cost nothing).
      if (a == null || (a.start() == r.getAlignmentStart() && a.cigar().equals(r.getCigar()))) continue;
      SAMRecord copy;
      try {
        copy = (SAMRecord) r.clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
      copy.setAlignmentStart(a.start());
      copy.setCigar(a.cigar());
      reads.set(i, copy);
      own[i] = ReadAligner.score(copy, ref, refStart);
      moved[i] = true;
      // A window that only turned clipped bases into aligned ones (a SNP's window placing a clipped
      // end without a gap over an indel 60 bases on) leaves the read free for the windows after.
      bound[i] = bound[i] || !ReadAligner.onlyUnclipped(r, copy);
    }
  }
}
