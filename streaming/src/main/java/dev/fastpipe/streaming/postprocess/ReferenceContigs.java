package dev.fastpipe.streaming.postprocess;

import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.variant.utils.SAMSequenceDictionaryExtractor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The contigs of a FASTA reference, read from its sequence dictionary (.dict) or index (.fai). */
public final class ReferenceContigs {
  private ReferenceContigs() {}

  /**
   * The dictionary of {@code ref}: {@code REF.dict} / {@code REF-minus-extension.dict} when
   * present, else {@code REF.fai}. Throws IllegalArgumentException naming the file otherwise.
   */
  public static SAMSequenceDictionary load(Path ref) {
    if (!Files.isRegularFile(ref)) throw new IllegalArgumentException(ref + ": reference not found");
    Path dict = ReferenceSequenceFileFactory.getDefaultDictionaryForReferenceSequence(ref);
    if (dict != null && Files.isRegularFile(dict)) {
      return SAMSequenceDictionaryExtractor.extractDictionary(dict);
    }
    Path fai = ref.resolveSibling(ref.getFileName() + ".fai");
    if (!Files.isRegularFile(fai)) {
      throw new IllegalArgumentException(ref + ": no .fai or .dict index (run samtools faidx " + ref + ")");
    }
    List<SAMSequenceRecord> records = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(fai)) {
        if (line.isBlank()) continue;
        String[] f = line.split("\t");
        if (f.length < 2) throw new IllegalArgumentException(fai + ": malformed line: " + line);
        records.add(new SAMSequenceRecord(f[0], Integer.parseInt(f[1])));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(fai + ": " + e.getMessage(), e);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(fai + ": malformed length: " + e.getMessage());
    }
    if (records.isEmpty()) throw new IllegalArgumentException(fai + ": no contigs");
    return new SAMSequenceDictionary(records);
  }
}
