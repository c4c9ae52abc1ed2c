package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Candidate haplotypes of one window from a de Bruijn graph of the reference and the reads' k-mers
 * there. For each k of {@link #K_LADDER}, smallest first, the window is widened by k +
 * {@link #FLANK} on each side (so that the first and last k-mer are reference that the reads
 * carrying a variant share) and the graph built: the reference path, plus every k-mer of the reads
 * whose bases all have quality >= {@link #MIN_KMER_QUALITY}; read edges seen fewer than
 * {@link #MIN_EDGE_SUPPORT} times are pruned. The first k whose reference has no repeated k-mer and
 * whose graph between the first and the last reference k-mer has no cycle gives the haplotypes: every
 * path from one to the other. A window wider than the cap at the smallest k, or with more paths
 * than the cap, or with more reads than the cap, falls back ({@link Status#OVER_CAP}).
 *
 * <p>K-mers are 64-bit rolling hashes in an open-addressing primitive table reused from window to
 * window; a k-mer's edges are four slots, one per next base; nothing is allocated per base.
 */
public final class HaplotypeAssembler {
  static final int[] K_LADDER = {15, 25, 35, 45, 55, 65, 75};
  static final int FLANK = 10;
  static final int MIN_EDGE_SUPPORT = 2;
  static final int MIN_KMER_QUALITY = 10;
  /** Read bases this far beyond the region (by their unaligned offset) still feed the graph: room for indels. */
  static final int READ_SLACK = 40;
  private static final long P = 0x9E3779B97F4A7C15L;

  public enum Status { ASSEMBLED, OVER_CAP, NO_ACYCLIC_GRAPH }

  /** The haplotypes (the reference first, then the others by sequence) or why there are none. */
  public record Result(Status status, List<Haplotype> haplotypes) {}

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
    boolean fitted = false;
    for (int k : K_LADDER) {
      int rs = w.first() - k - FLANK;
      int re = w.last() + 1 + k + FLANK;
      if (rs < refStart || re > refEnd) break;
      if (re - rs > limits.maxWindow()) break;
      fitted = true;
      if (!allBases(ref, rs - refStart, re - refStart)) return new Result(Status.NO_ACYCLIC_GRAPH, List.of());
      List<Haplotype> haps = tryK(ref, refStart, rs, re, k, reads, firstBase, limits.maxPaths());
      if (haps == OVER_PATHS) return new Result(Status.OVER_CAP, List.of());
      if (haps != null) return new Result(Status.ASSEMBLED, haps);
    }
    return new Result(fitted ? Status.NO_ACYCLIC_GRAPH : Status.OVER_CAP, List.of());
  }

  private static final List<Haplotype> OVER_PATHS = new ArrayList<>();

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
    for (int i = 0; i < reads.size(); i++) {
      addRead(reads.get(i), k, pk, rs - READ_SLACK - firstBase[i], re + READ_SLACK - firstBase[i]);
    }
    return paths(ref, refStart, rs, re, k, source, sink, maxPaths);
  }

  /** Adds the k-mers of the read's bases [from, to). */
  private void addRead(SAMRecord r, int k, long pk, int from, int to) {
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
      if (prev >= 0) edge(prev, node, b, false);
      prev = node;
    }
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
    if (nodes == nodeLast.length) nodeLast = Arrays.copyOf(nodeLast, nodes * 2);
    nodeLast[nodes] = last;
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
