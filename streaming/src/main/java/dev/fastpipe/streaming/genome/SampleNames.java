package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SamReaderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** The sample name of a BAM/CRAM: the SM of its read groups (all must agree). */
public final class SampleNames {
  private SampleNames() {}

  /** The one sample name in the read groups of {@code reads} (CRAM decoded with {@code ref}, may be null). */
  public static String fromReads(Path reads, Path ref) {
    if (!Files.isRegularFile(reads)) throw new InputException(reads + ": reads file not found");
    Set<String> names = new LinkedHashSet<>();
    try {
      SamReaderFactory f = SamReaderFactory.makeDefault();
      if (ref != null) f = f.referenceSequence(ref);
      for (SAMReadGroupRecord rg : f.getFileHeader(reads).getReadGroups()) {
        if (rg.getSample() != null && !rg.getSample().isEmpty()) names.add(rg.getSample());
      }
    } catch (RuntimeException e) {
      throw new InputException(reads + ": cannot read the header: " + e.getMessage());
    }
    if (names.isEmpty()) throw new InputException(reads + ": no read group with a sample name (SM); pass --sample NAME");
    if (names.size() > 1) throw new InputException(reads + ": read groups name several samples " + names + "; pass --sample NAME");
    return names.iterator().next();
  }
}
