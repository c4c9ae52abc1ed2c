package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Candidate haplotypes of one window from a de Bruijn graph of the reference and the reads' k-mers
 * there. For each k of {@link #K_LADDER}, smallest first, the window is widened by k +
 * {@link #FLANK} on each side (so that the first and last k-mer are reference that the reads
 * carrying a variant share), and further while reads disagree with the reference inside that first
 * or last k-mer (a SNP next to the window), and the graph built: the reference path, plus every
 * k-mer of the reads whose bases all have quality >= {@link #MIN_KMER_QUALITY} (a read's edges over
 * a lower base count where such k-mers made both ends); read edges seen fewer than
 * {@link #MIN_EDGE_SUPPORT} times are pruned. The first k whose reference has no repeated k-mer,
 * whose reads pass no k-mer twice (a tandem repeat longer than k) and whose graph between the first
 * and the last reference k-mer has no cycle gives the haplotypes: every path from one to the other.
 * A window wider than the cap at the smallest k, or with more paths than the cap, or with more
 * reads than the cap, falls back ({@link Status#OVER_CAP}).
 *
 * <p>K-mers are 64-bit rolling hashes in an open-addressing primitive table reused from window to
 * window; a k-mer's edges are four slots, one per next base; nothing is allocated per base.
 */
public final class HaplotypeAssembler {
  /**
   * The k tried, smallest first: odd steps, so that the smallest k past a tandem repeat (a unit's
   * multiple plus one for dinucleotides, the run's length for homopolymers) is reached within a
   * base, and the read k-mers stay as short as the repeat allows (a haplotype's edges need reads
   * that cover k + 1 bases).
   */
  static final int[] K_LADDER = ladder(15, 75, 2);
  static final int FLANK = 10;
  static final int MIN_EDGE_SUPPORT = 2;
  static final int MIN_KMER_QUALITY = 10;
  /** Read bases this far beyond the region (by their unaligned offset) still feed the graph: room for indels. */
  static final int READ_SLACK = 40;
  private static final long P = 0x9E3779B97F4A7C15L;

  public enum Status { ASSEMBLED, OVER_CAP, NO_ACYCLIC_GRAPH }

  /** The haplotypes (the reference first, then the others by sequence) or why there are none. */
  public record Result(Status status, List<Haplotype> haplotypes) {}

  private static int[] ladder(int from, int to, int step) {
    int[] out = new int[(to - from) / step + 1];
    for (int i = 0; i < out.length; i++) out[i] = from + i * step;
    return out;
  }

  /** The reference span a window is widened to for the largest k: reads overlapping it feed the graph. */
  static int widest() {
    return K_LADDER[K_LADDER.length - 1] + FLANK;
  }

  private final Haplotype.Aligner aligner = new Haplotype.Aligner();

  // Nodes: open addressing on the k-mer hash; a slot is live when its stamp is the current one.
  private long[] nodeKey = new long[1 << 12];
  private int[] nodeStamp = new int[1 << 12];
  private int[] nodeId = new int[1 << 12];
  private byte[] nodeLast = new byte[1 << 10];
  /** The last read (by {@link #readSerial}) that passed through each node. */
  private long[] nodeRead = new long[1 << 10];
  private long readSerial;
  private int nodes;
  // Edges: a k-mer has at most four successors, one per next base: slot 4 * node + base.
  private int[] outTo = new int[1 << 12];
  private int[] outCount = new int[1 << 12];
  private boolean[] outRef = new boolean[1 << 12];
  private int stamp;
  // Pruned graph: reachability, in-degrees, path counts, search stacks.
  private int[] inDegree = new int[1 << 10];
  private boolean[] fromSource = new boolean[1 << 10];
  private boolean[] toSink = new boolean[1 << 10];
  private int[] queue = new int[1 << 10];
  private long[] paths = new long[1 << 10];
  private int[] stackNode = new int[1 << 10];
  private int[] stackEdge = new int[1 << 10];

  /**
   * Assembles window {@code w}. {@code ref[i]} is the base at {@code refStart + i};
   * {@code reads} are the reads overlapping the window widened by {@link #widest()};
   * {@code firstBase[i]} is where read i's first base would lie on the reference without indels
   * (its alignment start less its leading soft clip): only its bases within {@link #READ_SLACK} of
   * the region feed the graph.
   */
  public Result assemble(byte[] ref, int refStart, WindowSelector.Window w, List<SAMRecord> reads, int[] firstBase,
      Realigner.Limits limits) {
    if (reads.size() > limits.maxReadsPerWindow()) return new Result(Status.OVER_CAP, List.of());
    int refEnd = refStart + ref.length;
    int lo = Math.max(refStart, w.first() - widest());
    int hi = Math.min(refEnd, w.last() + 1 + widest());
    countDisagreements(ref, refStart, reads, lo, hi);
    boolean fitted = false;
    for (int k : K_LADDER) {
      int rs = w.first() - k - FLANK;
      int re = w.last() + 1 + k + FLANK;
      if (rs < refStart || re > refEnd) break;
      rs = clearStart(rs, k);
      re = clearEnd(re, k);
      if (re - rs > limits.maxWindow()) break;
      fitted = true;
      if (!allBases(ref, rs - refStart, re - refStart)) return new Result(Status.NO_ACYCLIC_GRAPH, List.of());
      List<Haplotype> haps = tryK(ref, refStart, rs, re, k, reads, firstBase, limits.maxPaths());
      if (haps == OVER_PATHS) return new Result(Status.OVER_CAP, List.of());
      if (haps != null) return new Result(Status.ASSEMBLED, writtenAsTheReads(haps, reads, ref, refStart));
    }
    return new Result(fitted ? Status.NO_ACYCLIC_GRAPH : Status.OVER_CAP, List.of());
  }

  /** The most indels {@link #readIndels} makes haplotypes of (the best supported). */
  static final int MAX_READ_INDELS = 4;

  /**
   * Haplotypes of window {@code w} made of the reads' own indels, where the graph gives none but
   * the reference ({@link Status#NO_ACYCLIC_GRAPH}, or a graph whose other paths were pruned): the
   * reference, then the reference with each insertion or deletion that at least
   * {@link #MIN_EDGE_SUPPORT} reads' alignments put at the window's positions (from half a
   * {@link #FLANK} before it to the base after it; the region reaches a flank before them and
   * {@link #widest()} past them, room for a deletion's length), the
   * best supported {@link #MAX_READ_INDELS}, each left-aligned. Where a tandem repeat is longer than
   * the largest k, or sequencing errors in the few reads that cross a long repeat whole leave no
   * k-mer path, the reads that carry the indel still name it; the reads that an aligner left
   * without it (an ungapped alignment with mismatches past the repeat) are then placed on it as on
   * an assembled haplotype. Empty when the region has no such indel or a base other than ACGT.
   */
  List<Haplotype> readIndels(byte[] ref, int refStart, WindowSelector.Window w, List<SAMRecord> reads) {
    int rs = w.first() - FLANK;
    int re = w.last() + 1 + widest();
    if (rs < refStart || re > refStart + ref.length || !allBases(ref, rs - refStart, re - refStart)) return List.of();
    List<ReadEvents.Event> indels = new ArrayList<>();
    for (ReadEvents.Event e : ReadEvents.observed(reads, ref, refStart, rs, re, MIN_EDGE_SUPPORT)) {
      if (e.kind() != ReadEvents.Kind.SNP && e.pos() >= w.first() - FLANK / 2 && e.pos() <= w.last() + 1) indels.add(e);
    }
    if (indels.isEmpty()) return List.of();
    indels.sort(Comparator.comparingInt(ReadEvents.Event::support).reversed().thenComparing(ReadEvents.Event::key));
    Haplotype reference = referenceOf(ref, refStart, rs, re);
    List<Haplotype> out = new ArrayList<>();
    out.add(reference);
    Set<String> seen = new HashSet<>();
    for (ReadEvents.Event e : indels) {
      if (out.size() > MAX_READ_INDELS) break;
      Haplotype h = withIndel(reference, e, ref, refStart);
      if (!seen.add(new String(h.bases, StandardCharsets.ISO_8859_1))) continue; // one allele, written twice
      out.add(h);
    }
    if (out.size() < 2) return List.of();
    out.subList(1, out.size()).sort((a, b) -> Arrays.compare(a.bases, b.bases));
    return out;
  }

  /** The reference itself as the haplotype of {@code [rs, re)}. */
  static Haplotype referenceOf(byte[] ref, int refStart, int rs, int re) {
    int n = re - rs;
    byte[] bases = new byte[n];
    int[] refOf = new int[n];
    for (int i = 0; i < n; i++) {
      bases[i] = WindowSelector.upper(ref[rs + i - refStart]);
      refOf[i] = rs + i;
    }
    return new Haplotype(bases, refOf, rs, re);
  }

  /**
   * The reference haplotype {@code reference} with the insertion or deletion {@code e} (strictly
   * inside its region, as {@link ReadEvents#observed} gives them), left-aligned.
   */
  static Haplotype withIndel(Haplotype reference, ReadEvents.Event e, byte[] ref, int refStart) {
    int rs = reference.regionStart;
    int re = reference.regionEnd;
    byte[] refBases = reference.bases;
    int[] refOf = reference.refOf;
    int n = refBases.length;
    int cut = e.pos() - rs;
    boolean insertion = e.kind() == ReadEvents.Kind.INSERTION;
    int m = insertion ? n + e.length() : n - e.length();
    byte[] bases = new byte[m];
    int[] of = new int[m];
    System.arraycopy(refBases, 0, bases, 0, cut);
    System.arraycopy(refOf, 0, of, 0, cut);
    if (insertion) {
      System.arraycopy(e.bases(), 0, bases, cut, e.length());
      Arrays.fill(of, cut, cut + e.length(), -1);
      System.arraycopy(refBases, cut, bases, cut + e.length(), n - cut);
      System.arraycopy(refOf, cut, of, cut + e.length(), n - cut);
    } else {
      System.arraycopy(refBases, cut + e.length(), bases, cut, n - cut - e.length());
      System.arraycopy(refOf, cut + e.length(), of, cut, n - cut - e.length());
    }
    return new Haplotype(bases, leftAligned(bases, of, rs, re, ref, refStart), rs, re);
  }

  /**
   * The assembled haplotypes {@code haps} (the reference first) of a window, with one more where the
   * graph lost the reads' best-supported indel: the indel that the most {@code reads}' alignments
   * show inside the haplotypes' region (at least {@link #MIN_EDGE_SUPPORT}), when no assembled
   * haplotype carries it and more reads show it than any event an assembled haplotype carries
   * (each event counted, left-aligned, as the reads' alignments show it). The graph makes a k-mer
   * only of read bases of quality {@value #MIN_KMER_QUALITY} or more; where low-quality bases are
   * frequent (old instruments' reads at their ends), no read may be clean over every k-mer of a
   * well-supported allele's path, while one clean read of an error copy of it (the same deletion a
   * base over, a base changed beside it) and the low-quality bases of two more that agree with it
   * make the only path: every read was then placed on the copy. The added haplotype is the
   * reference with that indel ({@link #withIndel}); the reads choose among all of them as among
   * assembled ones. Otherwise {@code haps} itself.
   */
  static List<Haplotype> withReadsBestIndel(List<Haplotype> haps, List<SAMRecord> reads, byte[] ref, int refStart) {
    if (haps.size() < 2) return haps;
    // The region's reference (the graph's first haplotype may be a SNP's: isReference reads only the alignment).
    Haplotype reference = referenceOf(ref, refStart, haps.get(0).regionStart, haps.get(0).regionEnd);
    Map<String, Integer> support = new HashMap<>();
    Haplotype best = null;
    String bestKey = null;
    int bestSupport = 0;
    for (ReadEvents.Event e : ReadEvents.observed(reads, ref, refStart, reference.regionStart, reference.regionEnd,
        MIN_EDGE_SUPPORT)) {
      String key;
      Haplotype h = null;
      if (e.kind() == ReadEvents.Kind.SNP) {
        key = e.key();
      } else {
        h = withIndel(reference, e, ref, refStart);
        key = String.join(";", eventKeys(h, ref, refStart));
      }
      int n = support.merge(key, e.support(), Integer::sum);
      if (h != null && (n > bestSupport || n == bestSupport && key.compareTo(bestKey) < 0)) {
        best = h;
        bestKey = key;
        bestSupport = n;
      }
    }
    if (best == null) return haps;
    int strongest = 0;
    for (Haplotype h : haps) {
      if (Arrays.equals(h.bases, reference.bases)) continue;
      if (Arrays.equals(h.bases, best.bases)) return haps;
      List<String> keys = eventKeys(h, ref, refStart);
      if (keys.contains(bestKey)) return haps;
      for (String k : keys) strongest = Math.max(strongest, support.getOrDefault(k, 0));
    }
    if (bestSupport <= strongest) return haps;
    List<Haplotype> out = new ArrayList<>(haps);
    out.add(best);
    out.subList(1, out.size()).sort((a, b) -> Arrays.compare(a.bases, b.bases));
    return out;
  }

  /**
   * The events of haplotype {@code h} against the reference, in {@link ReadEvents.Event#key()}'s
   * form, by position: a base it changes, bases it inserts before a reference base, a run of
   * reference bases it leaves out.
   */
  static List<String> eventKeys(Haplotype h, byte[] ref, int refStart) {
    List<String> keys = new ArrayList<>();
    int prev = h.regionStart - 1;
    int j = 0;
    while (j < h.bases.length) {
      if (h.refOf[j] < 0) {
        int from = j;
        while (j < h.bases.length && h.refOf[j] < 0) j++;
        int before = j < h.bases.length ? h.refOf[j] : h.regionEnd;
        byte[] ins = Arrays.copyOfRange(h.bases, from, j);
        keys.add(new ReadEvents.Event(ReadEvents.Kind.INSERTION, before, ins, ins.length, 0).key());
        continue;
      }
      int p = h.refOf[j];
      if (p > prev + 1) keys.add(new ReadEvents.Event(ReadEvents.Kind.DELETION, prev + 1, new byte[0], p - prev - 1, 0).key());
      if (h.bases[j] != base(ref, refStart, p)) {
        keys.add(new ReadEvents.Event(ReadEvents.Kind.SNP, p, new byte[] {h.bases[j]}, 1, 0).key());
      }
      prev = p;
      j++;
    }
    return keys;
  }

  /**
   * Each haplotype written as the reads' own aligner wrote it: as a combination of the events
   * (mismatches, insertions, deletions) that at least {@link #MIN_EDGE_SUPPORT} reads show inside
   * its region, where one spells it base for base; of several, the one whose least supported event
   * has the most reads, then the one with fewer events. One sequence has several equivalent
   * alignments (an insertion at the start of a G run and a G-to-A change 33 bases on, or the
   * two-base insertion "GA" there); the affine scoring takes the one with fewer events, while the
   * mapper or simulator that wrote the reads may have chosen the other. Realignment is to change
   * which reads support an allele, not how the allele is written, so the candidates of a realigned
   * window stay those of the alignments it was given. Without such a combination the haplotype
   * keeps the dynamic programming's alignment.
   */
  static List<Haplotype> writtenAsTheReads(List<Haplotype> haps, List<SAMRecord> reads, byte[] ref, int refStart) {
    List<Haplotype> out = new ArrayList<>(haps.size());
    List<ReadEvents.Event> events = null;
    for (Haplotype h : haps) {
      if (h.isReference()) { out.add(h); continue; }
      if (events == null) events = ReadEvents.observed(reads, ref, refStart, h.regionStart, h.regionEnd, MIN_EDGE_SUPPORT);
      int[] refOf = ReadEvents.spell(h.bases, events, ref, refStart, h.regionStart, h.regionEnd);
      if (refOf == null || Arrays.equals(refOf, h.refOf)) { out.add(h); continue; }
      out.add(new Haplotype(h.bases, leftAligned(h.bases, refOf, h.regionStart, h.regionEnd, ref, refStart),
          h.regionStart, h.regionEnd));
    }
    return out;
  }

  /**
   * {@code refOf} with every insertion and deletion moved to the left end of its repeat (as the
   * dynamic programming and the allele counter write them: a read that starts inside a repeat then
   * does not count as spanning an indel it cannot place), keeping the region's first base a match.
   * A gap moves one column left while the base before it matches the reference both before and
   * after the move.
   */
  static int[] leftAligned(byte[] hap, int[] refOf, int rs, int re, byte[] ref, int refStart) {
    // Columns of the alignment: hap index (or -1) against reference position (or -1).
    int n = hap.length;
    int[] ch = new int[n + (re - rs)];
    int[] cr = new int[ch.length];
    int c = 0;
    int nextRef = rs;
    for (int j = 0; j < n; j++) {
      if (refOf[j] < 0) { ch[c] = j; cr[c++] = -1; continue; }
      while (nextRef < refOf[j]) { ch[c] = -1; cr[c++] = nextRef++; }
      ch[c] = j; cr[c++] = nextRef++;
    }
    while (nextRef < re) { ch[c] = -1; cr[c++] = nextRef++; }
    boolean moved = true;
    while (moved) {
      moved = false;
      for (int c0 = 1; c0 < c; c0++) {
        boolean ins = cr[c0] < 0;
        boolean del = ch[c0] < 0;
        if (!ins && !del || ch[c0 - 1] < 0 || cr[c0 - 1] < 0 || c0 < 2) continue;
        int c1 = c0;
        while (c1 < c && (ins ? cr[c1] < 0 && ch[c1] >= 0 : ch[c1] < 0 && cr[c1] >= 0)) c1++;
        // Column c0-1 is a match pair (h, r); the gap spans [c0, c1).
        int h = ch[c0 - 1];
        int r = cr[c0 - 1];
        if (ins) {
          int last = ch[c1 - 1]; // the inserted base that would pair with r
          if (hap[h] != base(ref, refStart, r) || hap[last] != base(ref, refStart, r)) continue;
          for (int t = c0 - 1, j = h; t < c1 - 1; t++, j++) { ch[t] = j; cr[t] = -1; }
          ch[c1 - 1] = last; cr[c1 - 1] = r;
        } else {
          int last = cr[c1 - 1]; // the deleted reference position that would pair with h
          if (hap[h] != base(ref, refStart, r) || hap[h] != base(ref, refStart, last)) continue;
          for (int t = c0 - 1, p = r; t < c1 - 1; t++, p++) { ch[t] = -1; cr[t] = p; }
          ch[c1 - 1] = h; cr[c1 - 1] = last;
        }
        moved = true;
      }
    }
    int[] out = new int[n];
    for (int t = 0; t < c; t++) if (ch[t] >= 0) out[ch[t]] = cr[t];
    return out;
  }

  private static byte base(byte[] ref, int refStart, int pos) {
    return WindowSelector.upper(ref[pos - refStart]);
  }

  private static final List<Haplotype> OVER_PATHS = new ArrayList<>();

  /**
   * A haplotype's path reaches the sink only if the last reference k-mer is on it: a variant inside
   * that k-mer (or the first) cuts its haplotype out of the graph. The window covers the positions
   * where reads disagree with their alignment (indels, clips, mismatch clusters), not a SNP next to
   * them (a SNP 4 bp past an (AC)n repeat whose indel anchors the window 40 bp earlier), so the
   * region's ends move past every position where {@link #MIN_EDGE_SUPPORT} reads disagree with the
   * reference (with {@link #FLANK} more where it fits), within the span the reads were given for.
   */
  private int clearStart(int rs, int k) {
    int lo = disagreeingFrom;
    while (true) {
      int p = -1;
      for (int i = rs; i < rs + k; i++) if (disagreeing[i - lo] >= MIN_EDGE_SUPPORT) { p = i; break; }
      int next = Math.max(p - k - FLANK, lo); // the flank as well where the reads reach
      if (p < 0 || next > p - k) return rs;
      rs = next;
    }
  }

  private int clearEnd(int re, int k) {
    int lo = disagreeingFrom;
    int hi = disagreeingTo;
    while (true) {
      int p = -1;
      for (int i = re - 1; i >= re - k; i--) if (disagreeing[i - lo] >= MIN_EDGE_SUPPORT) { p = i; break; }
      int next = Math.min(p + 1 + k + FLANK, hi);
      if (p < 0 || next < p + 1 + k) return re;
      re = next;
    }
  }

  private int[] disagreeing = new int[1 << 9];
  private int disagreeingFrom;
  private int disagreeingTo;

  /**
   * For each reference position of {@code [lo, hi)}, the reads that disagree with the reference
   * there: a mismatch of quality >= {@link WindowSelector#MIN_MISMATCH_QUALITY}, an insertion after
   * it, a deletion or a soft clip starting there.
   */
  private void countDisagreements(byte[] ref, int refStart, List<SAMRecord> reads, int lo, int hi) {
    int n = Math.max(0, hi - lo);
    if (disagreeing.length < n) disagreeing = new int[Math.max(n, disagreeing.length * 2)];
    Arrays.fill(disagreeing, 0, n, 0);
    disagreeingFrom = lo;
    disagreeingTo = hi;
    for (SAMRecord r : reads) {
      byte[] bases = r.getReadBases();
      byte[] quals = r.getBaseQualities();
      int refPos = r.getAlignmentStart() - 1;
      int readPos = 0;
      for (CigarElement el : r.getCigar().getCigarElements()) {
        int len = el.getLength();
        switch (el.getOperator()) {
          case M, EQ, X -> {
            int from = Math.max(refPos, lo);
            int to = Math.min(refPos + len, hi);
            for (int p = from; p < to; p++) {
              int i = readPos + p - refPos;
              if (i >= bases.length) break;
              byte b = WindowSelector.upper(bases[i]);
              if (b != WindowSelector.upper(ref[p - refStart]) && WindowSelector.isBase(b)
                  && i < quals.length && quals[i] >= WindowSelector.MIN_MISMATCH_QUALITY) {
                disagreeing[p - lo]++;
              }
            }
            refPos += len;
            readPos += len;
          }
          case I, S -> {
            int p = refPos - (el.getOperator() == CigarOperator.I ? 1 : 0);
            if (p >= lo && p < hi) disagreeing[p - lo]++;
            readPos += len;
          }
          case D -> {
            if (refPos >= lo && refPos < hi) disagreeing[refPos - lo]++;
            refPos += len;
          }
          case N -> refPos += len;
          default -> { }
        }
      }
    }
  }

  private static boolean allBases(byte[] ref, int from, int to) {
    for (int i = from; i < to; i++) if (!WindowSelector.isBase(WindowSelector.upper(ref[i]))) return false;
    return true;
  }

  /** The haplotypes at this k; null when the graph has a cycle; {@link #OVER_PATHS} over the cap. */
  private List<Haplotype> tryK(byte[] ref, int refStart, int rs, int re, int k, List<SAMRecord> reads, int[] firstBase,
      int maxPaths) {
    newGraph();
    long pk = 1;
    for (int i = 0; i < k; i++) pk *= P;
    // The reference path; a repeated reference k-mer makes this k unusable.
    int prev = -1;
    long h = 0;
    int source = -1;
    for (int i = rs; i < re; i++) {
      h = h * P + code(ref[i - refStart]);
      if (i - rs >= k) h -= code(ref[i - k - refStart]) * pk;
      if (i - rs < k - 1) continue;
      int before = nodes;
      byte base = WindowSelector.upper(ref[i - refStart]);
      int node = node(h, base);
      if (nodes == before) return null; // repeated k-mer in the reference
      if (prev >= 0) edge(prev, node, base, true);
      else source = node;
      prev = node;
    }
    int sink = prev;
    int repeating = 0; // reads with a repeated k-mer
    for (int i = 0; i < reads.size(); i++) {
      if (addRead(reads.get(i), k, pk, rs - READ_SLACK - firstBase[i], re + READ_SLACK - firstBase[i])) repeating++;
    }
    // A read that passes through one k-mer twice carries a tandem repeat longer than k: its
    // haplotype's path is a cycle at this k, even where pruning the weaker edges of a low-coverage
    // haplotype would hide the cycle and leave a graph without that haplotype.
    if (repeating > 0) return null;
    for (int i = 0; i < reads.size(); i++) {
      confirmLowQuality(reads.get(i), k, pk, rs - READ_SLACK - firstBase[i], re + READ_SLACK - firstBase[i]);
    }
    return paths(ref, refStart, rs, re, k, source, sink, maxPaths);
  }

  /** Adds the k-mers of the read's bases [from, to); true when one of them occurs twice in it. */
  private boolean addRead(SAMRecord r, int k, long pk, int from, int to) {
    readSerial++;
    boolean repeats = false;
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int run = 0;
    long h = 0;
    int prev = -1;
    to = Math.min(to, bases.length);
    for (int i = Math.max(0, from); i < to; i++) {
      byte b = WindowSelector.upper(bases[i]);
      boolean good = WindowSelector.isBase(b) && (i >= quals.length || quals[i] >= MIN_KMER_QUALITY);
      if (!good) {
        run = 0;
        h = 0;
        prev = -1;
        continue;
      }
      h = h * P + code(b);
      if (run >= k) h -= code(WindowSelector.upper(bases[i - k])) * pk;
      run++;
      if (run < k) continue;
      int node = node(h, b);
      if (nodeRead[node] == readSerial) repeats = true;
      nodeRead[node] = readSerial;
      if (prev >= 0) edge(prev, node, b, false);
      prev = node;
    }
    return repeats;
  }

  /**
   * Adds the read's support to the edges its k + 1-mers with a base below {@link #MIN_KMER_QUALITY}
   * follow (those {@link #addRead} left out), where both k-mers are already in the graph: a
   * low-quality base that agrees with what other reads read there with high quality is evidence
   * like any other. Without it a haplotype is lost wherever its reads have a low-quality base, and
   * the longer the k a repeat needs, the fewer reads have none over the k + 1 bases of an edge (a
   * low-coverage STR allele had one read left on some edges, none on others). Such bases make no
   * node, so an error there does not enter the graph.
   */
  private void confirmLowQuality(SAMRecord r, int k, long pk, int from, int to) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    to = Math.min(to, bases.length);
    from = Math.max(0, from);
    int firstLow = -1;
    int finalLow = -1;
    for (int i = from; i < to && i < quals.length; i++) {
      if (quals[i] >= MIN_KMER_QUALITY) continue;
      if (firstLow < 0) firstLow = i;
      finalLow = i;
    }
    if (firstLow < 0) return;
    // Only the edges over a low base: those ending in [firstLow, finalLow + k].
    from = Math.max(from, firstLow - k);
    to = Math.min(to, finalLow + k + 1);
    int run = 0;
    long h = 0;
    int prev = -1;
    int lastLow = Integer.MIN_VALUE;
    for (int i = from; i < to; i++) {
      byte b = WindowSelector.upper(bases[i]);
      if (!WindowSelector.isBase(b)) {
        run = 0;
        h = 0;
        prev = -1;
        continue;
      }
      if (i < quals.length && quals[i] < MIN_KMER_QUALITY) lastLow = i;
      h = h * P + code(b);
      if (run >= k) h -= code(WindowSelector.upper(bases[i - k])) * pk;
      run++;
      if (run < k) continue;
      int node = find(h);
      if (prev >= 0 && node >= 0 && lastLow >= i - k) edge(prev, node, b, false);
      prev = node;
    }
  }

  /** The node of a k-mer, or -1 when the graph has none. */
  private int find(long key) {
    int mask = nodeKey.length - 1;
    int s = (int) (mix(key) & mask);
    while (nodeStamp[s] == stamp) {
      if (nodeKey[s] == key) return nodeId[s];
      s = (s + 1) & mask;
    }
    return -1;
  }

  private static long code(byte b) {
    return switch (b) {
      case 'A', 'a' -> 1;
      case 'C', 'c' -> 2;
      case 'G', 'g' -> 3;
      case 'T', 't' -> 4;
      default -> 5;
    };
  }

  private void newGraph() {
    stamp++;
    if (stamp == Integer.MAX_VALUE) {
      stamp = 1;
      Arrays.fill(nodeStamp, 0);
    }
    nodes = 0;
  }

  private int node(long key, byte last) {
    if (2 * (nodes + 1) > nodeKey.length) growNodes();
    int mask = nodeKey.length - 1;
    int s = (int) (mix(key) & mask);
    while (nodeStamp[s] == stamp) {
      if (nodeKey[s] == key) return nodeId[s];
      s = (s + 1) & mask;
    }
    nodeStamp[s] = stamp;
    nodeKey[s] = key;
    if (nodes == nodeLast.length) {
      nodeLast = Arrays.copyOf(nodeLast, nodes * 2);
      nodeRead = Arrays.copyOf(nodeRead, nodes * 2);
    }
    nodeLast[nodes] = last;
    nodeRead[nodes] = 0;
    if (4 * nodes + 4 > outTo.length) {
      outTo = Arrays.copyOf(outTo, outTo.length * 2);
      outCount = Arrays.copyOf(outCount, outTo.length);
      outRef = Arrays.copyOf(outRef, outTo.length);
    }
    for (int b = 4 * nodes; b < 4 * nodes + 4; b++) {
      outTo[b] = -1;
      outCount[b] = 0;
      outRef[b] = false;
    }
    nodeId[s] = nodes;
    return nodes++;
  }

  private void growNodes() {
    long[] k = nodeKey;
    int[] st = nodeStamp;
    int[] id = nodeId;
    nodeKey = new long[k.length * 2];
    nodeStamp = new int[k.length * 2];
    nodeId = new int[k.length * 2];
    int mask = nodeKey.length - 1;
    for (int i = 0; i < k.length; i++) {
      if (st[i] != stamp) continue;
      int s = (int) (mix(k[i]) & mask);
      while (nodeStamp[s] == stamp) s = (s + 1) & mask;
      nodeStamp[s] = stamp;
      nodeKey[s] = k[i];
      nodeId[s] = id[i];
    }
  }

  private void edge(int from, int to, byte base, boolean isRef) {
    int slot = 4 * from + slotOf(base);
    // A hash collision could give one slot two successors: keep the first (deterministic).
    if (outTo[slot] < 0) outTo[slot] = to;
    else if (outTo[slot] != to) return;
    if (isRef) outRef[slot] = true;
    else outCount[slot]++;
  }

  private static int slotOf(byte base) {
    return switch (base) {
      case 'A' -> 0;
      case 'C' -> 1;
      case 'G' -> 2;
      default -> 3;
    };
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
    return z ^ (z >>> 33);
  }

  /** The successor in slot {@code slot} after pruning, or -1. */
  private int next(int slot) {
    int to = outTo[slot];
    return to >= 0 && (outRef[slot] || outCount[slot] >= MIN_EDGE_SUPPORT) ? to : -1;
  }

  /** Every source-to-sink path of the pruned graph; null on a cycle; OVER_PATHS above the cap. */
  private List<Haplotype> paths(byte[] ref, int refStart, int rs, int re, int k, int source, int sink, int maxPaths) {
    int n = nodes;
    if (inDegree.length < n + 1) {
      int c = Math.max(n + 1, inDegree.length * 2);
      inDegree = new int[c];
      fromSource = new boolean[c];
      toSink = new boolean[c];
      queue = new int[c];
      paths = new long[c];
      stackNode = new int[c];
      stackEdge = new int[c];
    }
    // Forward reachability from the source.
    Arrays.fill(fromSource, 0, n, false);
    int qh = 0;
    int qt = 0;
    queue[qt++] = source;
    fromSource[source] = true;
    while (qh < qt) {
      int v = queue[qh++];
      for (int slot = 4 * v; slot < 4 * v + 4; slot++) {
        int u = next(slot);
        if (u >= 0 && !fromSource[u]) { fromSource[u] = true; queue[qt++] = u; }
      }
    }
    if (!fromSource[sink]) return null;
    // Backward reachability to the sink, over the nodes the source reaches (fixpoint).
    Arrays.fill(toSink, 0, n, false);
    toSink[sink] = true;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int j = qt - 1; j >= 0; j--) {
        int v = queue[j];
        if (toSink[v]) continue;
        for (int slot = 4 * v; slot < 4 * v + 4; slot++) {
          int u = next(slot);
          if (u >= 0 && toSink[u]) { toSink[v] = true; changed = true; break; }
        }
      }
    }
    // Kahn's order over the live nodes (on both); a node left over means a cycle.
    Arrays.fill(inDegree, 0, n, 0);
    int live = 0;
    for (int j = 0; j < qt; j++) {
      int v = queue[j];
      if (!toSink[v]) continue;
      live++;
      for (int slot = 4 * v; slot < 4 * v + 4; slot++) {
        int u = next(slot);
        if (u >= 0 && toSink[u]) inDegree[u]++;
      }
    }
    int[] order = stackEdge; // reused: topological order
    int oh = 0;
    int ot = 0;
    if (inDegree[source] != 0) return null;
    order[ot++] = source;
    Arrays.fill(paths, 0, n, 0);
    paths[source] = 1;
    while (oh < ot) {
      int v = order[oh++];
      for (int slot = 4 * v; slot < 4 * v + 4; slot++) {
        int u = next(slot);
        if (u < 0 || !toSink[u]) continue;
        paths[u] = Math.min((long) maxPaths + 1, paths[u] + paths[v]);
        if (--inDegree[u] == 0) order[ot++] = u;
      }
    }
    if (ot != live) return null; // a cycle
    if (paths[sink] > maxPaths) return OVER_PATHS;
    // Enumerate the paths by depth-first search.
    List<Haplotype> out = new ArrayList<>();
    byte[] seq = new byte[n + k];
    for (int i = 0; i < k; i++) seq[i] = WindowSelector.upper(ref[rs - refStart + i]);
    int depth = 0;
    stackNode[0] = source;
    stackEdge[0] = 4 * source;
    while (depth >= 0) {
      int v = stackNode[depth];
      if (v == sink) {
        out.add(aligner.align(Arrays.copyOf(seq, k + depth), ref, refStart, rs, re));
        depth--;
        continue;
      }
      int slot = stackEdge[depth]++;
      if (slot >= 4 * v + 4) { depth--; continue; }
      int u = next(slot);
      if (u < 0 || !toSink[u]) continue;
      seq[k + depth] = nodeLast[u];
      depth++;
      stackNode[depth] = u;
      stackEdge[depth] = 4 * u;
    }
    out.sort((a, b) -> {
      boolean ra = a.isReference();
      boolean rb = b.isReference();
      if (ra != rb) return ra ? -1 : 1;
      return Arrays.compare(a.bases, b.bases);
    });
    return out;
  }
}
