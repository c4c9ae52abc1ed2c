package dev.fastpipe.cli;

import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SamReaderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** The sample name of a BAM/CRAM: the SM of its read groups (all must agree). */
final class SampleNames {
  private SampleNames() {}

  static String fromReads(Path reads, Path ref) {
    if (!Files.isRegularFile(reads)) throw new UserError(reads + ": reads file not found");
    Set<String> names = new LinkedHashSet<>();
    try {
      SamReaderFactory f = SamReaderFactory.makeDefault();
      if (ref != null) f = f.referenceSequence(ref);
      for (SAMReadGroupRecord rg : f.getFileHeader(reads).getReadGroups()) {
        if (rg.getSample() != null && !rg.getSample().isEmpty()) names.add(rg.getSample());
      }
    } catch (RuntimeException e) {
      throw new UserError(reads + ": cannot read the header: " + e.getMessage());
    }
    if (names.isEmpty()) throw new UserError(reads + ": no read group with a sample name (SM); pass --sample NAME");
    if (names.size() > 1) throw new UserError(reads + ": read groups name several samples " + names + "; pass --sample NAME");
    return names.iterator().next();
  }
}
