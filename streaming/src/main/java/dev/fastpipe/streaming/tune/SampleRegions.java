package dev.fastpipe.streaming.tune;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import htsjdk.samtools.BAMFileSpan;
import htsjdk.samtools.BAMIndex;
import htsjdk.samtools.Chunk;
import htsjdk.samtools.SamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A representative sample of the regions a user will call: a few pieces, together about
 * {@code sampleBases} long, placed where the reads are. The reads' index tells where they are
 * without reading them: the regions are cut into windows and each window weighs the bytes of the
 * reads file the index gives for it ({@link BAMIndex#getSpanOverlapping}); the pieces sit at evenly
 * spaced quantiles of that weight (the middle of the first k-th, of the second, ...), so a sample
 * of a 30x genome with an empty half holds reads, and a deep region is sampled as often as its
 * share of the reads says. Regions no longer than the sample are taken whole.
 */
public final class SampleRegions {
  /** BAI's finest bin: windows are a multiple of it. */
  static final int MIN_WINDOW = 16_384;
  /** At most this many index look-ups. */
  static final int MAX_WINDOWS = 200_000;

  private SampleRegions() {}

  /** A window of a region and the bytes of reads the index gives for it. */
  record Window(Region region, int start, int end, double weight) {}

  /**
   * The sample: at most {@code pieces} pieces of {@code sampleBases / pieces} each, merged where they
   * touch; {@code regions} themselves when they are no longer than {@code sampleBases}.
   */
  public static List<Region> choose(SamReader reads, List<Region> regions, long sampleBases, int pieces) {
    if (sampleBases < 1 || pieces < 1) throw new IllegalArgumentException("sample size and pieces must be >= 1");
    long total = regions.stream().mapToLong(Region::length).sum();
    if (total <= sampleBases) return regions;
    BAMIndex index = null;
    try {
      if (reads.hasIndex()) index = reads.indexing().getIndex();
    } catch (RuntimeException e) {
      index = null; // no usable index (e.g. CRAM without one htsjdk reads as BAI): windows weigh their length
    }
    List<Window> windows = windows(regions, total, index);
    return place(windows, sampleBases, pieces);
  }

  /** The regions cut into windows, each weighed by the index (or by its length without one). */
  static List<Window> windows(List<Region> regions, long total, BAMIndex index) {
    long size = Math.max(MIN_WINDOW, (total / MAX_WINDOWS + MIN_WINDOW - 1) / MIN_WINDOW * MIN_WINDOW);
    List<Window> windows = new ArrayList<>();
    for (Region r : regions) {
      for (long s = r.start(); s < r.end(); s += size) {
        int e = (int) Math.min(r.end(), s + size);
        double w = index == null ? e - s : indexedBytes(index, r.contigIndex(), (int) s, e);
        windows.add(new Window(r, (int) s, e, w));
      }
    }
    return windows;
  }

  /**
   * The bytes of the reads file holding reads that overlap 0-based {@code [start, end)}: per chunk
   * the compressed distance between its ends, or, inside one compressed block, a third of the
   * uncompressed one (BAM compresses about 3:1).
   */
  static double indexedBytes(BAMIndex index, int ref, int start, int end) {
    BAMFileSpan span = index.getSpanOverlapping(ref, start + 1, end);
    if (span == null) return 0;
    double bytes = 0;
    for (Chunk c : span.getChunks()) {
      long blocks = (c.getChunkEnd() >>> 16) - (c.getChunkStart() >>> 16);
      bytes += blocks > 0 ? blocks : Math.max(0, (c.getChunkEnd() & 0xffff) - (c.getChunkStart() & 0xffff)) / 3.0;
    }
    return bytes;
  }

  /** Pieces centred on the windows at the quantiles (k + 0.5) / pieces of the cumulative weight. */
  static List<Region> place(List<Window> windows, long sampleBases, int pieces) {
    double totalWeight = windows.stream().mapToDouble(Window::weight).sum();
    if (totalWeight <= 0) {
      throw new InputException("the reads' index places no reads in the regions to tune on; give --regions or --bed where the reads are");
    }
    long pieceLength = Math.max(1, sampleBases / pieces);
    List<Region> chosen = new ArrayList<>();
    double cumulative = 0;
    int k = 0;
    for (Window w : windows) {
      cumulative += w.weight();
      while (k < pieces && cumulative >= (k + 0.5) / pieces * totalWeight) {
        chosen.add(piece(w, pieceLength));
        k++;
      }
    }
    return Regions.merge(chosen);
  }

  /** {@code length} bases centred on the window, moved to lie inside its region (clipped if the region is shorter). */
  private static Region piece(Window w, long length) {
    Region r = w.region();
    long centre = (w.start() + (long) w.end()) / 2;
    long start = Math.max(r.start(), centre - length / 2);
    long end = Math.min(r.end(), start + length);
    start = Math.max(r.start(), end - length);
    return new Region(r.contigIndex(), r.contig(), (int) start, (int) end);
  }

  /** The regions as BED lines (0-based, half-open). */
  public static String bed(List<Region> regions) {
    StringBuilder b = new StringBuilder();
    for (Region r : regions) b.append(String.format(Locale.ROOT, "%s\t%d\t%d%n", r.contig(), r.start(), r.end()));
    return b.toString();
  }
}
