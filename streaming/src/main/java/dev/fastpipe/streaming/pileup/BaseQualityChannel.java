package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** base_quality: min(q, 40) * 254 / 40; reference rows use quality 60 (so 254). */
public final class BaseQualityChannel implements PileupChannel {
  @Override public String name() { return "base_quality"; }
  @Override public int referenceValue(byte refBase) { return qualityColor(REFERENCE_BASE_QUALITY, BASE_QUALITY_CAP); }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) { return qualityColor(q, BASE_QUALITY_CAP); }
}
