package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** strand: forward 70, reverse 240; reference rows count as forward. */
public final class StrandChannel implements PileupChannel {
  @Override public String name() { return "strand"; }
  @Override public int referenceValue(byte refBase) { return POSITIVE_STRAND_COLOR; }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) {
    return read.reverseStrand ? NEGATIVE_STRAND_COLOR : POSITIVE_STRAND_COLOR;
  }
}
