package dev.fastpipe.streaming.makeexamples;

import htsjdk.samtools.SAMRecord;
import java.util.Arrays;
import java.util.List;

/**
 * The alignment spans of one partition's reads (0-based start, exclusive end), their longest span
 * and their order by start, so that the reads over a range are found by a binary search instead of
 * a scan over every read of the partition (which was a fifth of make_examples' CPU). The realigner
 * may move a read's start, so the list need not be sorted by start; the index always is.
 */
final class ReadSpans {
  private int[] starts = new int[1024];
  private int[] ends = new int[1024];
  /** (start << 32 | index) of every read, sorted: the reads by start even where the list is not. */
  private long[] byStart = new long[1024];
  private int size;
  private int longestSpan;
  private boolean startsSorted;
  private int[] rows = new int[1024];

  /** Indexes {@code reads} (replacing the last partition's). */
  void index(List<SAMRecord> reads) {
    int n = reads.size();
    if (starts.length < n) {
      starts = new int[n * 2];
      ends = new int[n * 2];
      byStart = new long[n * 2];
    }
    if (rows.length < n) rows = new int[n * 2];
    size = n;
    longestSpan = 0;
    startsSorted = true;
    for (int i = 0; i < n; i++) {
      SAMRecord r = reads.get(i);
      starts[i] = r.getAlignmentStart() - 1;
      ends[i] = r.getAlignmentEnd();
      longestSpan = Math.max(longestSpan, ends[i] - starts[i]);
      if (i > 0 && starts[i] < starts[i - 1]) startsSorted = false;
      byStart[i] = ((long) Math.max(0, starts[i]) << 32) | i;
    }
    if (!startsSorted) Arrays.sort(byStart, 0, n);
  }

  /** True when read {@code i}'s alignment overlaps [from, to] (0-based, inclusive end). */
  boolean touches(int i, int from, int to) {
    return ends[i] > from && starts[i] < to + 1;
  }

  /**
   * Puts into {@link #rows()}{@code [0, n)} the indices of the reads whose alignment overlaps
   * [from, to), in list order, and returns n.
   */
  int covering(int from, int to) {
    int n = 0;
    for (int k = firstStartingAtOrAfter(from - longestSpan); k < size; k++) {
      int i = (int) byStart[k];
      if (starts[i] >= to) break;
      if (ends[i] > from) rows[n++] = i;
    }
    if (!startsSorted) Arrays.sort(rows, 0, n); // back to list order
    return n;
  }

  /** The buffer {@link #covering} fills (callers may reorder or shorten its first n entries). */
  int[] rows() {
    return rows;
  }

  /** The first position in {@link #byStart} whose read starts at or after {@code pos}. */
  private int firstStartingAtOrAfter(int pos) {
    long key = (long) Math.max(0, pos) << 32;
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (byStart[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
}
