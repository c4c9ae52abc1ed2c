package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.ValidationStringency;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Opens the reference (indexed FASTA, plain or bgzipped with .fai and .gzi) and the reads (BAM,
 * or CRAM decoded against the reference) and checks that they agree: every contig both name must
 * have the same length, and they must share at least one contig.
 */
public final class InputFiles implements AutoCloseable {
  public final Path referencePath;
  public final Path readsPath;
  public final ReferenceSequenceFile reference;
  public final SamReader reads;
  public final SAMSequenceDictionary dictionary;
  /** Names of the contigs in the reads' header. */
  public final Set<String> readContigs = new HashSet<>();

  public InputFiles(Path referencePath, Path readsPath) {
    this.referencePath = referencePath;
    this.readsPath = readsPath;
    this.dictionary = ReferenceIndex.dictionary(referencePath);
    this.reference = ReferenceSequenceFileFactory.getReferenceSequenceFile(referencePath, true, true);
    if (!Files.isReadable(readsPath)) throw new InputException(readsPath + ": cannot read the reads file");
    try {
      this.reads = SamReaderFactory.makeDefault()
          .referenceSequence(referencePath)
          .validationStringency(ValidationStringency.SILENT)
          .open(readsPath);
    } catch (RuntimeException e) {
      throw new InputException(readsPath + ": not a readable BAM/CRAM (" + e.getMessage() + ")");
    }
    if (!reads.hasIndex()) {
      throw new InputException(readsPath + ": no index (.bai/.crai) found; index it with samtools index");
    }
    SAMSequenceDictionary readsDict = reads.getFileHeader().getSequenceDictionary();
    int shared = 0;
    for (SAMSequenceRecord r : readsDict.getSequences()) {
      readContigs.add(r.getSequenceName());
      SAMSequenceRecord ref = dictionary.getSequence(r.getSequenceName());
      if (ref == null) continue;
      shared++;
      if (ref.getSequenceLength() != r.getSequenceLength()) {
        throw new InputException(readsPath + " and " + referencePath + " disagree: contig "
            + r.getSequenceName() + " has length " + r.getSequenceLength() + " in the reads but "
            + ref.getSequenceLength() + " in the reference");
      }
    }
    if (shared == 0) {
      throw new InputException(readsPath + " and " + referencePath + " share no contig name (reads: "
          + String.join(",", readContigs.stream().limit(3).toList()) + "...; reference: "
          + dictionary.getSequence(0).getSequenceName() + "...)");
    }
  }

  /**
   * The reference's contig dictionary, {@link ReferenceIndex#dictionary}: contig index = position in
   * it. Here for callers that check the reference before opening the inputs.
   */
  public static SAMSequenceDictionary referenceDictionary(Path referencePath) {
    return ReferenceIndex.dictionary(referencePath);
  }

  /** Uppercased reference bases of [start, end) (0-based), clipped to the contig. */
  public byte[] bases(String contig, int start, int end) {
    byte[] b = reference.getSubsequenceAt(contig, start + 1L, end).getBases();
    for (int i = 0; i < b.length; i++) {
      byte x = b[i];
      if (x >= 'a' && x <= 'z') b[i] = (byte) (x - 32);
    }
    return b;
  }

  @Override
  public void close() {
    try {
      reads.close();
      reference.close();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
