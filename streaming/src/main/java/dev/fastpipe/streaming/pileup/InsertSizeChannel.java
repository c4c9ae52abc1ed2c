package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** insert_size (optional 7th): 254 * min(|TLEN|, 1000) / 1000; reference rows 254. */
public final class InsertSizeChannel implements PileupChannel {
  public static int fragmentColor(int tlen) {
    float f = Math.abs(tlen);
    if (f > MAX_FRAGMENT_LENGTH) f = MAX_FRAGMENT_LENGTH;
    return (int) (MAX_PIXEL * (f / MAX_FRAGMENT_LENGTH));
  }

  @Override public String name() { return "insert_size"; }
  @Override public int referenceValue(byte refBase) { return (int) MAX_PIXEL; }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) {
    return fragmentColor(read.fragmentLength);
  }
}
