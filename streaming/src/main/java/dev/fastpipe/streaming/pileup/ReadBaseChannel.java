package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** read_base: A 250, G 180, T 100, C 30, anything else (N, the indel anchor '*') 0. */
public final class ReadBaseChannel implements PileupChannel {
  public static int baseColor(byte base) {
    switch (base) {
      case 'A': return BASE_COLOR_OFFSET_A_AND_G + BASE_COLOR_STRIDE * 3;
      case 'G': return BASE_COLOR_OFFSET_A_AND_G + BASE_COLOR_STRIDE * 2;
      case 'T': return BASE_COLOR_OFFSET_T_AND_C + BASE_COLOR_STRIDE;
      case 'C': return BASE_COLOR_OFFSET_T_AND_C;
      default: return 0;
    }
  }

  @Override public String name() { return "read_base"; }
  @Override public int referenceValue(byte refBase) { return baseColor(refBase); }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) { return baseColor(base); }
}
