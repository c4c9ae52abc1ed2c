package dev.fastpipe.streaming.pileup;

/** Read-level facts the channels need for the row being drawn; one mutable instance, reused. */
public final class PileupRead {
  public int mappingQuality;
  public boolean reverseStrand;
  /** 0 = ref or nothing, 1 = an alt of this example's subset, 2 = another alt at the site. */
  public int supportsAlt;
  /** The template length (SAM TLEN), sign ignored by the insert-size channel. */
  public int fragmentLength;

  public PileupRead set(int mappingQuality, boolean reverseStrand, int supportsAlt, int fragmentLength) {
    this.mappingQuality = mappingQuality;
    this.reverseStrand = reverseStrand;
    this.supportsAlt = supportsAlt;
    this.fragmentLength = fragmentLength;
    return this;
  }
}
