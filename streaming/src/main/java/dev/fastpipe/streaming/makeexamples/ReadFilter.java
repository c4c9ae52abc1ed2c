package dev.fastpipe.streaming.makeexamples;

import htsjdk.samtools.SAMRecord;

/** DeepVariant's read requirements: which reads count at all (configurable through the options). */
public final class ReadFilter {
  private final MakeExamplesOptions o;

  public ReadFilter(MakeExamplesOptions options) {
    this.o = options;
  }

  public boolean accept(SAMRecord r) {
    if (r.getReadUnmappedFlag()) return false;
    if (!o.keepSecondary && r.isSecondaryAlignment()) return false;
    if (!o.keepSupplementary && r.getSupplementaryAlignmentFlag()) return false;
    if (!o.keepQcFail && r.getReadFailsVendorQualityCheckFlag()) return false;
    if (!o.keepDuplicates && r.getDuplicateReadFlag()) return false;
    if (r.getMappingQuality() < o.minMappingQuality) return false;
    return r.getCigarLength() > 0 && r.getReadLength() > 0;
  }
}
