package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** base_differs_from_ref: 50 (alpha 0.2) when the drawn base equals the ref base, else 254. */
public final class BaseDiffersFromRefChannel implements PileupChannel {
  public static int matchesRefColor(boolean matches) {
    return (int) (MAX_PIXEL * (matches ? REFERENCE_MATCHING_READ_ALPHA : REFERENCE_MISMATCHING_READ_ALPHA));
  }

  @Override public String name() { return "base_differs_from_ref"; }
  @Override public int referenceValue(byte refBase) { return matchesRefColor(true); }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) {
    return matchesRefColor(base == refBase);
  }
}
