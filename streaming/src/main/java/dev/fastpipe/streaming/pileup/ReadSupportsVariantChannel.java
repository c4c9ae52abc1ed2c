package dev.fastpipe.streaming.pileup;

import static dev.fastpipe.streaming.pileup.PileupConstants.*;

/**
 * read_supports_variant, a read-level value: 254 when the read carries an alt of this example's
 * subset, 152 (alpha 0.6) when it carries the ref, another alt, or nothing; reference rows 152.
 */
public final class ReadSupportsVariantChannel implements PileupChannel {
  public static int supportsAltColor(int supportsAlt) {
    float alpha = supportsAlt == 0 ? ALLELE_UNSUPPORTING_READ_ALPHA
        : supportsAlt == 1 ? ALLELE_SUPPORTING_READ_ALPHA : OTHER_ALLELE_SUPPORTING_READ_ALPHA;
    return (int) (MAX_PIXEL * alpha);
  }

  @Override public String name() { return "read_supports_variant"; }
  @Override public int referenceValue(byte refBase) { return supportsAltColor(0); }
  @Override public int readValue(PileupRead read, byte base, int q, byte refBase) {
    return supportsAltColor(read.supportsAlt);
  }
}
