package dev.fastpipe.streaming.makeexamples.realign;

/**
 * A read aligned to a stretch of reference as a short-read mapper's local extension does it (bwa
 * mem's default scores: match 1, mismatch 4, gap open 6 + 1 per base, 5 to clip an end): the read
 * may start and end anywhere in the stretch, and may leave either end soft clipped. Indels are put
 * at their leftmost equivalent place. For tests: it builds the alignments the realigner is given.
 */
final class MapperLikeAligner {
  // bwa mem's match, mismatch and gap scores are the realigner's own.
  static final int MATCH = ReadAligner.MATCH;
  static final int MISMATCH = ReadAligner.MISMATCH;
  static final int GAP_OPEN = ReadAligner.GAP_OPEN;
  static final int GAP_EXTEND = ReadAligner.GAP_EXTEND;
  static final int CLIP = 5;
  private static final int NEG = Integer.MIN_VALUE / 4;

  /** 0-based start of the first aligned base and the CIGAR. */
  record Hit(int start, String cigar) {}

  Hit align(byte[] read, byte[] ref, int from, int to) {
    from = Math.max(0, from);
    to = Math.min(ref.length, to);
    int n = read.length;
    int w = to - from;
    int[][] m = new int[n + 1][w + 1];
    int[][] x = new int[n + 1][w + 1]; // insertion: consumes read bases
    int[][] y = new int[n + 1][w + 1]; // deletion: consumes reference bases
    byte[][] tm = new byte[n + 1][w + 1]; // 0 m, 1 x, 2 y, 3 start
    byte[][] tx = new byte[n + 1][w + 1];
    byte[][] ty = new byte[n + 1][w + 1];
    for (int j = 0; j <= w; j++) { m[0][j] = NEG; x[0][j] = NEG; y[0][j] = NEG; }
    for (int i = 1; i <= n; i++) {
      m[i][0] = NEG; x[i][0] = NEG; y[i][0] = NEG;
      int start = i == 1 ? 0 : -CLIP; // read bases [0, i - 1) clipped
      for (int j = 1; j <= w; j++) {
        int s = read[i - 1] == ref[from + j - 1] ? MATCH : -MISMATCH;
        int best = m[i - 1][j - 1];
        byte t = 0;
        if (x[i - 1][j - 1] > best) { best = x[i - 1][j - 1]; t = 1; }
        if (y[i - 1][j - 1] > best) { best = y[i - 1][j - 1]; t = 2; }
        if (start > best) { best = start; t = 3; }
        m[i][j] = best + s;
        tm[i][j] = t;
        int open = m[i - 1][j] - GAP_OPEN - GAP_EXTEND;
        int ext = x[i - 1][j] - GAP_EXTEND;
        x[i][j] = Math.max(open, ext);
        tx[i][j] = (byte) (ext > open ? 1 : 0);
        open = m[i][j - 1] - GAP_OPEN - GAP_EXTEND;
        ext = y[i][j - 1] - GAP_EXTEND;
        y[i][j] = Math.max(open, ext);
        ty[i][j] = (byte) (ext > open ? 2 : 0);
      }
    }
    // The best end: the rightmost cell of the best score (so gaps, traced from there, go left).
    int bi = -1;
    int bj = -1;
    int bs = NEG;
    for (int i = 1; i <= n; i++) {
      int pen = i == n ? 0 : CLIP;
      for (int j = 1; j <= w; j++) {
        int sc = m[i][j] - pen;
        if (sc > bs || (sc == bs && i == n)) { bs = sc; bi = i; bj = j; }
      }
    }
    StringBuilder ops = new StringBuilder();
    for (int k = n; k > bi; k--) ops.append('S');
    int i = bi;
    int j = bj;
    int state = 0;
    while (true) {
      if (state == 0) {
        ops.append('M');
        byte t = tm[i][j];
        i--;
        j--;
        if (t == 3) break;
        state = t;
      } else if (state == 1) {
        ops.append('I');
        state = tx[i][j];
        i--;
      } else {
        ops.append('D');
        state = ty[i][j];
        j--;
      }
    }
    int start = from + j;
    for (int k = i; k > 0; k--) ops.append('S');
    ops.reverse();
    StringBuilder cigar = new StringBuilder();
    for (int k = 0; k < ops.length(); ) {
      int e = k;
      while (e < ops.length() && ops.charAt(e) == ops.charAt(k)) e++;
      cigar.append(e - k).append(ops.charAt(k));
      k = e;
    }
    return new Hit(start, cigar.toString());
  }
}
