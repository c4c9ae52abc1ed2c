package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/** mapping_quality: 254 * min(mq, 60) / 60; reference rows: quality 60 against cap 40 (254). */
public final class MappingQualityChannel implements PileupChannel {
  @Override public String name() { return "mapping_quality"; }
  @Override public int referenceValue(byte refBase) { return scaleColor(REFERENCE_BASE_QUALITY, BASE_QUALITY_CAP); }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) {
    return scaleColor(read.mappingQuality, MAPPING_QUALITY_CAP);
  }
}
