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
 * <p>K-mers are 64-bit rolling hashes in open-addressing primitive tables reused from window to
 * window; nothing is allocated per base.
 */
public final class HaplotypeAssembler {
  static final int[] K_LADDER = {15, 25, 35, 45, 55, 65, 75};
  static final int FLANK = 10;
  static final int MIN_EDGE_SUPPORT = 2;
  static final int MIN_KMER_QUALITY = 10;
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
  // Edges: open addressing on (from, to).
  private long[] edgeKey = new long[1 << 12];
  private int[] edgeStamp = new int[1 << 12];
  private int[] edgeId = new int[1 << 12];
  private int[] edgeFrom = new int[1 << 10];
  private int[] edgeTo = new int[1 << 10];
  private int[] edgeCount = new int[1 << 10];
  private boolean[] edgeRef = new boolean[1 << 10];
  private int edges;
  private int stamp;
  // Pruned graph: successors in CSR form, reachability, topological order.
  private int[] outStart = new int[1 << 10];
  private int[] outList = new int[1 << 10];
  private int[] inDegree = new int[1 << 10];
  private boolean[] fromSource = new boolean[1 << 10];
  private boolean[] toSink = new boolean[1 << 10];
  private int[] queue = new int[1 << 10];
  private long[] paths = new long[1 << 10];
  private int[] stackNode = new int[1 << 10];
  private int[] stackEdge = new int[1 << 10];

  /**
   * Assembles window {@code w}. {@code ref[i]} is the base at {@code refStart + i};
   * {@code reads} are the reads overlapping the window widened by {@link #widest()}.
   */
  public Result assemble(byte[] ref, int refStart, WindowSelector.Window w, List<SAMRecord> reads, Realigner.Limits limits) {
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
      List<Haplotype> haps = tryK(ref, refStart, rs, re, k, reads, limits.maxPaths());
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
  private List<Haplotype> tryK(byte[] ref, int refStart, int rs, int re, int k, List<SAMRecord> reads, int maxPaths) {
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
      int node = node(h, WindowSelector.upper(ref[i - refStart]));
      if (nodes == before) return null; // repeated k-mer in the reference
      if (prev >= 0) edge(prev, node, true);
      else source = node;
      prev = node;
    }
    int sink = prev;
    for (SAMRecord r : reads) addRead(r, k, pk);
    return paths(ref, refStart, rs, re, k, source, sink, maxPaths);
  }

  private void addRead(SAMRecord r, int k, long pk) {
    byte[] bases = r.getReadBases();
    byte[] quals = r.getBaseQualities();
    int run = 0;
    long h = 0;
    int prev = -1;
    for (int i = 0; i < bases.length; i++) {
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
      if (prev >= 0) edge(prev, node, false);
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
      Arrays.fill(edgeStamp, 0);
    }
    nodes = 0;
    edges = 0;
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

  private void edge(int from, int to, boolean isRef) {
    if (2 * (edges + 1) > edgeKey.length) growEdges();
    long key = ((long) from << 32) | to;
    int mask = edgeKey.length - 1;
    int s = (int) (mix(key) & mask);
    while (edgeStamp[s] == stamp) {
      if (edgeKey[s] == key) {
        int e = edgeId[s];
        edgeCount[e]++;
        edgeRef[e] |= isRef;
        return;
      }
      s = (s + 1) & mask;
    }
    edgeStamp[s] = stamp;
    edgeKey[s] = key;
    if (edges == edgeFrom.length) {
      int n = edges * 2;
      edgeFrom = Arrays.copyOf(edgeFrom, n);
      edgeTo = Arrays.copyOf(edgeTo, n);
      edgeCount = Arrays.copyOf(edgeCount, n);
      edgeRef = Arrays.copyOf(edgeRef, n);
    }
    edgeFrom[edges] = from;
    edgeTo[edges] = to;
    edgeCount[edges] = isRef ? 0 : 1;
    edgeRef[edges] = isRef;
    edgeId[s] = edges++;
  }

  private void growEdges() {
    long[] k = edgeKey;
    int[] st = edgeStamp;
    int[] id = edgeId;
    edgeKey = new long[k.length * 2];
    edgeStamp = new int[k.length * 2];
    edgeId = new int[k.length * 2];
    int mask = edgeKey.length - 1;
    for (int i = 0; i < k.length; i++) {
      if (st[i] != stamp) continue;
      int s = (int) (mix(k[i]) & mask);
      while (edgeStamp[s] == stamp) s = (s + 1) & mask;
      edgeStamp[s] = stamp;
      edgeKey[s] = k[i];
      edgeId[s] = id[i];
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
    return z ^ (z >>> 33);
  }

  private boolean kept(int e) {
    return edgeRef[e] || edgeCount[e] >= MIN_EDGE_SUPPORT;
  }

  /** Every source-to-sink path of the pruned graph; null on a cycle; OVER_PATHS above the cap. */
  private List<Haplotype> paths(byte[] ref, int refStart, int rs, int re, int k, int source, int sink, int maxPaths) {
    int n = nodes;
    if (outStart.length < n + 1) {
      int c = Math.max(n + 1, outStart.length * 2);
      outStart = new int[c];
      inDegree = new int[c];
      fromSource = new boolean[c];
      toSink = new boolean[c];
      queue = new int[c];
      paths = new long[c];
      stackNode = new int[c];
      stackEdge = new int[c];
    }
    // Successor lists of kept edges, in edge order (deterministic: edges are numbered as first seen).
    Arrays.fill(outStart, 0, n + 1, 0);
    int kept = 0;
    for (int e = 0; e < edges; e++) if (kept(e)) { outStart[edgeFrom[e] + 1]++; kept++; }
    for (int i = 0; i < n; i++) outStart[i + 1] += outStart[i];
    if (outList.length < kept) outList = new int[Math.max(kept, outList.length * 2)];
    int[] fill = inDegree; // reused as a cursor here
    System.arraycopy(outStart, 0, fill, 0, n);
    for (int e = 0; e < edges; e++) if (kept(e)) outList[fill[edgeFrom[e]]++] = edgeTo[e];
    // Forward reachability from the source.
    Arrays.fill(fromSource, 0, n, false);
    int qh = 0;
    int qt = 0;
    queue[qt++] = source;
    fromSource[source] = true;
    while (qh < qt) {
      int v = queue[qh++];
      for (int i = outStart[v]; i < outStart[v + 1]; i++) {
        int u = outList[i];
        if (!fromSource[u]) { fromSource[u] = true; queue[qt++] = u; }
      }
    }
    if (!fromSource[sink]) return null;
    // Backward reachability to the sink, over the nodes the source reaches (fixpoint over edges).
    Arrays.fill(toSink, 0, n, false);
    toSink[sink] = true;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int j = qt - 1; j >= 0; j--) {
        int v = queue[j];
        if (toSink[v]) continue;
        for (int i = outStart[v]; i < outStart[v + 1]; i++) {
          if (toSink[outList[i]]) { toSink[v] = true; changed = true; break; }
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
      for (int i = outStart[v]; i < outStart[v + 1]; i++) if (toSink[outList[i]]) inDegree[outList[i]]++;
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
      for (int i = outStart[v]; i < outStart[v + 1]; i++) {
        int u = outList[i];
        if (!toSink[u]) continue;
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
    stackEdge[0] = outStart[source];
    while (depth >= 0) {
      int v = stackNode[depth];
      if (v == sink) {
        out.add(aligner.align(Arrays.copyOf(seq, k + depth), ref, refStart, rs, re));
        depth--;
        continue;
      }
      int i = stackEdge[depth]++;
      if (i >= outStart[v + 1]) { depth--; continue; }
      int u = outList[i];
      if (!toSink[u]) continue;
      seq[k + depth] = nodeLast[u];
      depth++;
      stackNode[depth] = u;
      stackEdge[depth] = outStart[u];
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
