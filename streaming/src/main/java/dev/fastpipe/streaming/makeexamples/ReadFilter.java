package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.genome.SampleNames;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecord;
import java.util.Set;

/**
 * DeepVariant's read requirements: which reads count at all (configurable through the options).
 * With {@link ExampleSettings.Inputs#sample} set on reads of several samples, only the reads of that
 * sample's read groups count ({@link SampleNames#readGroupsOf}).
 */
public final class ReadFilter {
  private final ExampleSettings.ReadFilters o;
  /** The read groups whose reads count; null: all reads. */
  private final Set<String> readGroups;

  /** {@code sample}: the sample whose reads count, null: every read's. */
  public ReadFilter(ExampleSettings.ReadFilters filters, String sample, SAMFileHeader header) {
    this.o = filters;
    this.readGroups = SampleNames.readGroupsOf(header, sample);
  }

  public boolean accept(SAMRecord r) {
    if (r.getReadUnmappedFlag()) return false;
    if (readGroups != null && !readGroups.contains(r.getStringAttribute("RG"))) return false;
    if (!o.keepSecondary() && r.isSecondaryAlignment()) return false;
    if (!o.keepSupplementary() && r.getSupplementaryAlignmentFlag()) return false;
    if (!o.keepQcFail() && r.getReadFailsVendorQualityCheckFlag()) return false;
    if (!o.keepDuplicates() && r.getDuplicateReadFlag()) return false;
    if (r.getMappingQuality() < o.minMappingQuality()) return false;
    return r.getCigarLength() > 0 && r.getReadLength() > 0;
  }
}
