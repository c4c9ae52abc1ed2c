package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import htsjdk.samtools.SAMRecord;
import java.util.Arrays;
import java.util.List;

/**
 * Which reads become a candidate's image rows: those overlapping its reference span widened by
 * read_overlap_buffer_bp, without a low-quality base at the candidate, in alignment order; above
 * the row limit, a deterministic sample keyed on (seed, read name, mate, position), so the rows do
 * not depend on which task or partition makes the example.
 */
final class PileupRows {
  private final ReadSpans spans;
  private final int minBaseQuality;
  private final int maxRows;
  private final long seed;
  private long[] sortKeys = new long[1024];

  PileupRows(ReadSpans spans, int minBaseQuality, int maxRows, long seed) {
    this.spans = spans;
    this.minBaseQuality = minBaseQuality;
    this.maxRows = maxRows;
    this.seed = seed;
  }

  /** Puts the rows of {@code c} into {@link ReadSpans#rows()}{@code [0, n)} (indices into {@code reads}) and returns n. */
  int select(Candidate c, List<SAMRecord> reads) {
    int from = c.position - PileupConstants.READ_OVERLAP_BUFFER_BP;
    int to = c.position + c.ref.length() + PileupConstants.READ_OVERLAP_BUFFER_BP;
    int covering = spans.covering(from, to);
    int[] rows = spans.rows();
    int n = 0;
    for (int k = 0; k < covering; k++) {
      int i = rows[k];
      if (PileupImageEncoder.qualityOkAt(reads.get(i), c.position, minBaseQuality)) rows[n++] = i;
    }
    if (n <= maxRows) return n;
    if (sortKeys.length < n) sortKeys = new long[n * 2];
    for (int i = 0; i < n; i++) {
      SAMRecord r = reads.get(rows[i]);
      long h = mix(seed ^ mix(r.getReadName().hashCode() * 0x9E3779B97F4A7C15L
          + (r.getReadPairedFlag() && r.getSecondOfPairFlag() ? 1 : 0)) ^ c.position);
      sortKeys[i] = (h & ~0xFFFFFL) | i;
    }
    Arrays.sort(sortKeys, 0, n);
    int[] chosen = new int[maxRows];
    for (int i = 0; i < maxRows; i++) chosen[i] = rows[(int) (sortKeys[i] & 0xFFFFF)];
    Arrays.sort(chosen);
    System.arraycopy(chosen, 0, rows, 0, maxRows);
    return maxRows;
  }

  /** SplitMix64's finaliser. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
