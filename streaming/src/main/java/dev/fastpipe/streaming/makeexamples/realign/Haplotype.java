package dev.fastpipe.streaming.makeexamples.realign;

import java.util.Arrays;

/**
 * A candidate haplotype of one window {@code [regionStart, regionEnd)} and its alignment to the
 * reference there: {@link #refOf}{@code [j]} is the 0-based reference position of base j, or -1 for
 * a base the haplotype inserts. Both ends are reference bases (the assembly anchors them).
 */
public final class Haplotype {
  public final byte[] bases;
  public final int[] refOf;
  public final int regionStart;
  public final int regionEnd;

  Haplotype(byte[] bases, int[] refOf, int regionStart, int regionEnd) {
    this.bases = bases;
    this.refOf = refOf;
    this.regionStart = regionStart;
    this.regionEnd = regionEnd;
  }

  /** True when the haplotype is the reference itself. */
  public boolean isReference() {
    if (bases.length != regionEnd - regionStart) return false;
    for (int j = 0; j < bases.length; j++) if (refOf[j] != regionStart + j) return false;
    return true;
  }

  /**
   * Global alignment with affine gaps (Gotoh) of haplotypes to the reference, in a band around the
   * diagonal wide enough for their length difference. One instance reuses its matrices.
   */
  static final class Aligner {
    static final int MATCH = 1;
    static final int MISMATCH = 4;
    static final int GAP_OPEN = 6;
    static final int GAP_EXTEND = 1;
    /** Band slack beyond the length difference of haplotype and reference. */
    static final int BAND = 24;
    private static final int NEG = Integer.MIN_VALUE / 4;

    private int[] m = new int[0];
    private int[] x = new int[0]; // gap consuming haplotype bases: insertion
    private int[] y = new int[0]; // gap consuming reference bases: deletion
    private byte[] tm = new byte[0];
    private byte[] tx = new byte[0];
    private byte[] ty = new byte[0];

    /**
     * Aligns {@code hap} to {@code ref[rs - refStart, re - refStart)}: the common suffix matches base
     * for base, the rest by dynamic programming, indels left-aligned.
     */
    Haplotype align(byte[] hap, byte[] ref, int refStart, int rs, int re) {
      int n = hap.length;
      int w = re - rs;
      int r0 = rs - refStart;
      int[] refOf = new int[n];
      // Only the common suffix is trimmed: it puts the last indel at its repeat's left end, and the
      // traceback, preferring the diagonal from the right, puts the others at theirs (left-aligned,
      // as the allele counter and the aligners write them). A common prefix would right-align them.
      int limit = Math.min(n, w);
      int s = 0;
      while (s < limit && hap[n - 1 - s] == ref[r0 + w - 1 - s]) s++;
      int p = 0;
      for (int j = 0; j < p; j++) refOf[j] = rs + j;
      for (int j = 0; j < s; j++) refOf[n - 1 - j] = re - 1 - j;
      int hn = n - p - s;
      int rw = w - p - s;
      if (hn == 0 || rw == 0) {
        for (int j = p; j < n - s; j++) refOf[j] = -1; // a pure insertion (or deletion: nothing to set)
      } else {
        core(hap, p, hn, ref, r0 + p, rw, refOf, rs + p);
      }
      return new Haplotype(hap, refOf, rs, re);
    }

    /** Gotoh over {@code hap[h0, h0 + n)} and {@code ref[r0, r0 + w)}; writes {@code refOf[h0 + i]}. */
    private void core(byte[] hap, int h0, int n, byte[] ref, int r0, int w, int[] refOf, int refPos0) {
      int cols = w + 1;
      int cells = (n + 1) * cols;
      if (m.length < cells) {
        int c = Math.max(cells, m.length * 2);
        m = new int[c]; x = new int[c]; y = new int[c];
        tm = new byte[c]; tx = new byte[c]; ty = new byte[c];
      }
      int diff = n - w;
      int dlo = Math.max(0, diff) + BAND; // j >= i - dlo
      int dhi = Math.max(0, -diff) + BAND; // j <= i + dhi
      Arrays.fill(m, 0, cols, NEG);
      Arrays.fill(x, 0, cols, NEG);
      m[0] = 0;
      y[0] = NEG;
      for (int j = 1; j < cols; j++) y[j] = -(GAP_OPEN + GAP_EXTEND * j);
      int prevHi = Math.min(w, dhi);
      if (prevHi + 1 < cols) { m[prevHi + 1] = NEG; x[prevHi + 1] = NEG; y[prevHi + 1] = NEG; }
      for (int i = 1; i <= n; i++) {
        int row = i * cols;
        int up = row - cols;
        m[row] = NEG;
        y[row] = NEG;
        x[row] = i <= dlo ? -(GAP_OPEN + GAP_EXTEND * i) : NEG;
        tx[row] = 1;
        int jlo = Math.max(1, i - dlo);
        int jhi = Math.min(w, i + dhi);
        if (jlo - 1 >= 1) { m[row + jlo - 1] = NEG; x[row + jlo - 1] = NEG; y[row + jlo - 1] = NEG; }
        byte hb = hap[h0 + i - 1];
        for (int j = jlo; j <= jhi; j++) {
          int c = row + j;
          int d = up + j - 1;
          int best = m[d];
          byte from = 0;
          if (x[d] > best) { best = x[d]; from = 1; }
          if (y[d] > best) { best = y[d]; from = 2; }
          m[c] = best + (hb == ref[r0 + j - 1] ? MATCH : -MISMATCH);
          tm[c] = from;
          int u = up + j;
          best = m[u] - GAP_OPEN - GAP_EXTEND;
          from = 0;
          if (x[u] - GAP_EXTEND > best) { best = x[u] - GAP_EXTEND; from = 1; }
          if (y[u] - GAP_OPEN - GAP_EXTEND > best) { best = y[u] - GAP_OPEN - GAP_EXTEND; from = 2; }
          x[c] = best;
          tx[c] = from;
          int l = c - 1;
          best = m[l] - GAP_OPEN - GAP_EXTEND;
          from = 0;
          if (y[l] - GAP_EXTEND > best) { best = y[l] - GAP_EXTEND; from = 2; }
          if (x[l] - GAP_OPEN - GAP_EXTEND > best) { best = x[l] - GAP_OPEN - GAP_EXTEND; from = 1; }
          y[c] = best;
          ty[c] = from;
        }
        if (jhi + 1 < cols) { m[row + jhi + 1] = NEG; x[row + jhi + 1] = NEG; y[row + jhi + 1] = NEG; }
      }
      int i = n;
      int j = w;
      int end = n * cols + w;
      int state = 0;
      if (x[end] > m[end]) state = 1;
      if (y[end] > Math.max(m[end], x[end])) state = 2;
      while (i > 0 || j > 0) {
        int c = i * cols + j;
        if (i == 0) { j--; continue; } // leading deletion
        if (j == 0) { refOf[h0 + --i] = -1; continue; } // leading insertion
        if (state == 0) {
          int from = tm[c];
          refOf[h0 + i - 1] = refPos0 + j - 1;
          i--;
          j--;
          state = from;
        } else if (state == 1) {
          int from = tx[c];
          refOf[h0 + i - 1] = -1;
          i--;
          state = from;
        } else {
          int from = ty[c];
          j--;
          state = from;
        }
      }
    }
  }
}
