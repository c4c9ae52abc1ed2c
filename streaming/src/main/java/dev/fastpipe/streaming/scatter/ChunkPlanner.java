package dev.fastpipe.streaming.scatter;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a genome's regions into N chunks that cost about the same to call: the cost of a stretch
 * is the bytes of reads the reads' index places there ({@link #addBytes}, summed over samples),
 * so that deep, shallow and empty stretches weigh what they cost, not what they measure.
 *
 * <p>Cut rules, in order:
 * <ol>
 *   <li>A cut falls between two regions (two contigs, or two intervals of a BED) or, inside a
 *       region, on a multiple of {@link #GRID} bases (contig coordinates); chunks hold at least one
 *       base, so N is at most {@link #maxChunks} (else an error saying so).
 *   <li>Clean cuts are preferred: between regions, or where no read starts in the index window
 *       before the cut and the cut lies at least {@link #CLEAR} bases into it (no read of up to
 *       1 kb then overlaps the cut: an N gap, a stretch without coverage). The clean cut whose
 *       cumulative bytes are nearest the balanced target wins when it is within
 *       {@link #CLEAN_TOLERANCE} of a chunk's share; else the grid point nearest the balanced
 *       target.
 * </ol>
 *
 * <p>Why any grid point is safe, clean or not: {@code call} owns a candidate by the partition
 * holding its (left-aligned) position and reads the reads overlapping that partition widened by an
 * image's half width plus a margin on each side, whatever the partition's bounds; so each position
 * is called by exactly one chunk, from the same reads as in one whole run (the identity the
 * workflow's tests check, with variants next to cuts). Clean cuts only spare decoding the reads
 * near a cut twice.
 *
 * <p>Work is done on segments: the regions cut where the index's 16 kb windows begin, each with
 * its bytes; within a segment bytes are taken to be spread evenly.
 */
public final class ChunkPlanner {
  /** Cuts inside a region fall on multiples of this many bases. */
  public static final int GRID = 1000;
  /** A clean cut lies this far into an index window in which no read starts. */
  public static final int CLEAR = 1000;
  /** A clean cut is taken when its cumulative bytes are within this fraction of a chunk's share of the target. */
  public static final double CLEAN_TOLERANCE = 0.05;
  /** Segments follow windows of 2^14 = 16 kb, BAI's finest bins. */
  static final int SEGMENT_SHIFT = 14;

  /** Estimated bytes of reads in [start, end) of contig {@code contigIndex} (the reference's numbering). */
  @FunctionalInterface
  public interface Bytes {
    double in(int contigIndex, long start, long end);
  }

  /** Chunk {@code number} (1-based): its intervals in reference order, their bases and estimated bytes. */
  public record Chunk(int number, List<Region> intervals, long bases, double bytes) {}

  private final List<Region> regions;
  /** Genome offset of each region's start: the regions laid end to end. */
  private final long[] regionOffset;
  private final long total;
  private final int[] segRegion;
  private final int[] segStart;
  private final int[] segEnd;
  private final long[] segOffset;
  private final double[] segBytes;

  /** Plans over {@code regions} (merged and sorted here); at least one base. */
  public ChunkPlanner(List<Region> regions) {
    this.regions = List.copyOf(Regions.merge(regions));
    if (this.regions.isEmpty()) throw new InputException("no region to split: the regions are empty");
    regionOffset = new long[this.regions.size()];
    long at = 0;
    int n = 0;
    for (int i = 0; i < this.regions.size(); i++) {
      Region r = this.regions.get(i);
      regionOffset[i] = at;
      at += r.length();
      n += (int) (((r.end() - 1L) >> SEGMENT_SHIFT) - (r.start() >> SEGMENT_SHIFT) + 1);
    }
    total = at;
    segRegion = new int[n];
    segStart = new int[n];
    segEnd = new int[n];
    segOffset = new long[n];
    segBytes = new double[n];
    int j = 0;
    for (int i = 0; i < this.regions.size(); i++) {
      Region r = this.regions.get(i);
      for (int s = r.start(); s < r.end(); j++) {
        int e = (int) Math.min(r.end(), ((long) (s >> SEGMENT_SHIFT) + 1) << SEGMENT_SHIFT);
        segRegion[j] = i;
        segStart[j] = s;
        segEnd[j] = e;
        segOffset[j] = regionOffset[i] + s - r.start();
        s = e;
      }
    }
  }

  /** The merged regions planned over. */
  public List<Region> regions() {
    return regions;
  }

  /** Adds one sample's bytes to every segment. */
  public void addBytes(Bytes bytes) {
    for (int j = 0; j < segBytes.length; j++) {
      double b = bytes.in(regions.get(segRegion[j]).contigIndex(), segStart[j], segEnd[j]);
      if (b > 0) segBytes[j] += b;
    }
  }

  /** Bases in all regions. */
  public long bases() {
    return total;
  }

  /** The most chunks the regions can be cut into: one more than the places a cut may fall. */
  public long maxChunks() {
    long cuts = regions.size() - 1L;
    for (Region r : regions) cuts += Math.max(0, (r.end() - 1L) / GRID - r.start() / GRID);
    return cuts + 1;
  }

  /** Fails with a one-line error unless the regions can be cut into {@code n} chunks ({@link #maxChunks}). */
  public void checkChunks(int n) {
    if (n < 1) throw new InputException("--chunks must be at least 1, got " + n);
    long max = maxChunks();
    if (n > max) {
      throw new InputException("--chunks " + n + ": the regions (" + total + " bp in " + regions.size() + " interval"
          + (regions.size() == 1 ? "" : "s") + ") can be cut into at most " + max + " chunks (a cut falls between"
          + " intervals or on a multiple of " + GRID + " bp)");
    }
  }

  /** The regions cut into {@code n} chunks by the rules above. */
  public List<Chunk> cut(int n) {
    checkChunks(n);
    double bytes = 0;
    for (double b : segBytes) bytes += b;
    boolean byBases = bytes == 0; // no reads at all: balance bases
    double[] weight = new double[segBytes.length];
    for (int j = 0; j < weight.length; j++) weight[j] = byBases ? segEnd[j] - segStart[j] : segBytes[j];
    double[] cum = new double[weight.length + 1];
    for (int j = 0; j < weight.length; j++) cum[j + 1] = cum[j] + weight[j];
    double sum = cum[weight.length];

    long[] cuts = new long[n + 1];
    cuts[n] = total;
    for (int k = 1; k < n; k++) cuts[k] = chooseCut(k * sum / n, sum / n * CLEAN_TOLERANCE, weight, cum);
    for (int k = 1; k < n; k++) if (cuts[k] <= cuts[k - 1]) cuts[k] = nextAllowed(cuts[k - 1]);
    for (int k = n - 1; k >= 1; k--) if (cuts[k] >= cuts[k + 1]) cuts[k] = previousAllowed(cuts[k + 1]);
    for (int k = 1; k <= n; k++) {
      if (cuts[k] <= cuts[k - 1]) throw new IllegalStateException("empty chunk " + k + " in " + Arrays.toString(cuts));
    }

    double[] cumBytes = new double[segBytes.length + 1];
    for (int j = 0; j < segBytes.length; j++) cumBytes[j + 1] = cumBytes[j] + segBytes[j];
    List<Chunk> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(new Chunk(k + 1, intervals(cuts[k], cuts[k + 1]), cuts[k + 1] - cuts[k],
          valueAt(cuts[k + 1], segBytes, cumBytes) - valueAt(cuts[k], segBytes, cumBytes)));
    }
    return out;
  }

  /**
   * The cut for cumulative weight {@code target}: the clean cut nearest to it in weight when one is
   * within {@code tolerance}, else the allowed place nearest to where the weight reaches it.
   */
  private long chooseCut(double target, double tolerance, double[] weight, double[] cum) {
    int j = segmentReaching(target, cum);
    double within = weight[j] > 0 ? (target - cum[j]) / weight[j] : 0;
    long balanced = nearestAllowed(segRegion[j], segStart[j] + Math.round(within * (segEnd[j] - segStart[j])));
    long best = -1;
    double bestMiss = Double.MAX_VALUE;
    long bestDistance = Long.MAX_VALUE;
    int from = j;
    while (from > 0 && cum[from] >= target - tolerance) from--;
    for (int s = from; s < weight.length && cum[s] <= target + tolerance; s++) {
      for (long c : cleanCutsIn(s)) {
        double miss = Math.abs(valueAt(c, weight, cum) - target);
        long distance = Math.abs(c - balanced);
        if (miss > tolerance || c <= 0 || c >= total) continue;
        if (miss < bestMiss || (miss == bestMiss && distance < bestDistance)) {
          best = c;
          bestMiss = miss;
          bestDistance = distance;
        }
      }
    }
    return best >= 0 ? best : balanced;
  }

  /** The first segment at whose end the cumulative weight reaches {@code target}. */
  private static int segmentReaching(double target, double[] cum) {
    int lo = 0;
    int hi = cum.length - 2;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cum[mid + 1] >= target) hi = mid; else lo = mid + 1;
    }
    return lo;
  }

  /** The prefix sum {@code cum} of per-segment {@code values} at genome offset {@code g}, interpolated inside a segment. */
  private double valueAt(long g, double[] values, double[] cum) {
    if (g >= total) return cum[values.length];
    int s = Arrays.binarySearch(segOffset, g);
    if (s >= 0) return cum[s];
    s = -s - 2;
    return cum[s] + values[s] * (g - segOffset[s]) / (segEnd[s] - segStart[s]);
  }

  /**
   * Clean cuts in segment {@code s} (genome offsets): its start when it starts a region (other than
   * the first), and, when the reads' index places no read in it, the grid points in it that lie
   * {@link #CLEAR} bases or more past the start of its index window.
   */
  private List<Long> cleanCutsIn(int s) {
    List<Long> out = new ArrayList<>(2);
    Region r = regions.get(segRegion[s]);
    if (segStart[s] == r.start() && segRegion[s] > 0) out.add(segOffset[s]);
    if (segBytes[s] == 0) {
      long window = (long) (segStart[s] >> SEGMENT_SHIFT) << SEGMENT_SHIFT;
      long first = Math.max(segStart[s] + 1L, window + CLEAR);
      for (long x = (first + GRID - 1) / GRID * GRID; x <= segEnd[s] && x < r.end(); x += GRID) {
        out.add(segOffset[s] + x - segStart[s]);
      }
    }
    return out;
  }

  /**
   * The place a cut may fall nearest to 0-based {@code position} of region {@code i}: a multiple of
   * {@link #GRID} inside it, or its start or end when that is a boundary between regions; 0 when the
   * region offers none (the fix-up then moves it).
   */
  private long nearestAllowed(int i, long position) {
    Region r = regions.get(i);
    List<Long> options = new ArrayList<>(4);
    long down = position / GRID * GRID;
    long up = down + GRID;
    if (down > r.start() && down < r.end()) options.add(down);
    if (up > r.start() && up < r.end()) options.add(up);
    if (i > 0) options.add((long) r.start());
    if (i + 1 < regions.size()) options.add((long) r.end());
    long best = -1;
    for (long o : options) if (best < 0 || Math.abs(o - position) < Math.abs(best - position)) best = o;
    return best < 0 ? 0 : regionOffset[i] + best - r.start();
  }

  /** The region holding genome offset {@code g} (0 <= g < total). */
  private int regionAt(long g) {
    int i = Arrays.binarySearch(regionOffset, g);
    return i >= 0 ? i : -i - 2;
  }

  /** The smallest place a cut may fall after genome offset {@code g}; {@link #total} when none. */
  private long nextAllowed(long g) {
    if (g >= total) return total;
    int i = regionAt(g);
    Region r = regions.get(i);
    long x = (r.start() + g - regionOffset[i]) / GRID * GRID + GRID;
    if (x < r.end()) return regionOffset[i] + x - r.start();
    return i + 1 < regions.size() ? regionOffset[i + 1] : total;
  }

  /** The largest place a cut may fall before genome offset {@code g}; 0 when none. */
  private long previousAllowed(long g) {
    if (g <= 0) return 0;
    int i = regionAt(g - 1);
    Region r = regions.get(i);
    long x = (r.start() + g - 1 - regionOffset[i]) / GRID * GRID;
    if (x > r.start()) return regionOffset[i] + x - r.start();
    return i > 0 ? regionOffset[i] : 0;
  }

  /** The regions' pieces between genome offsets {@code from} and {@code to}. */
  private List<Region> intervals(long from, long to) {
    List<Region> out = new ArrayList<>();
    for (int i = regionAt(from); i < regions.size() && regionOffset[i] < to; i++) {
      Region r = regions.get(i);
      int s = (int) (r.start() + Math.max(0, from - regionOffset[i]));
      int e = (int) (r.start() + Math.min(r.length(), to - regionOffset[i]));
      if (e > s) out.add(new Region(r.contigIndex(), r.contig(), s, e));
    }
    return out;
  }
}
