package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.variant.utils.SAMSequenceDictionaryExtractor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The contig dictionary (names, lengths, order) of a FASTA reference, the one place that reads it.
 *
 * <p>A contig's index is its position in the dictionary, and that index travels in every example
 * and call from make_examples to postprocess, so both must read the same order from the same file.
 * The source is the FASTA index {@code REF.fai}, the order make_examples has always used (and the
 * index htsjdk's indexed reader needs anyway). A sequence dictionary, when there is one where
 * htsjdk looks for it ({@code REF-minus-extension.dict}, else {@code REF.dict}), must agree with
 * the .fai in names, order and lengths: a reader that preferred it would number the contigs
 * differently, so a disagreement is an error naming both files, never a silent choice.
 */
public final class ReferenceIndex {
  private ReferenceIndex() {}

  /** The dictionary of {@code fasta} from its .fai, checked against its .dict when present. */
  public static SAMSequenceDictionary dictionary(Path fasta) {
    if (!Files.isReadable(fasta)) throw new InputException(fasta + ": cannot read the reference");
    Path fai = fasta.resolveSibling(fasta.getFileName() + ".fai");
    if (!Files.isReadable(fai)) {
      throw new InputException(fasta + ": no .fai index beside it; run samtools faidx " + fasta);
    }
    SAMSequenceDictionary fromFai = readFai(fai);
    Path dict = sequenceDictionary(fasta);
    if (dict != null) requireSame(readDict(dict), dict, fromFai, fai);
    return fromFai;
  }

  /** The .dict htsjdk would pick for {@code fasta}, or null when there is none. */
  private static Path sequenceDictionary(Path fasta) {
    for (Path candidate : List.of(ReferenceSequenceFileFactory.getDefaultDictionaryForReferenceSequence(fasta),
        fasta.resolveSibling(fasta.getFileName() + ".dict"))) {
      if (Files.isRegularFile(candidate)) return candidate;
    }
    return null;
  }

  private static SAMSequenceDictionary readFai(Path fai) {
    List<String> lines;
    try {
      lines = Files.readAllLines(fai);
    } catch (IOException e) {
      throw new InputException(fai + ": cannot read the FASTA index (" + e.getMessage() + ")", e);
    }
    SAMSequenceDictionary d = new SAMSequenceDictionary();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) continue;
      String[] f = line.split("\t");
      try {
        if (f.length < 2) throw new IllegalArgumentException("fewer than 2 columns");
        d.addSequence(new SAMSequenceRecord(f[0], Integer.parseInt(f[1].trim())));
      } catch (IllegalArgumentException e) { // a bad length, or a contig named twice
        throw new InputException(fai + ":" + (i + 1) + ": not a FASTA index line (" + e.getMessage() + ")");
      }
    }
    if (d.isEmpty()) throw new InputException(fai + ": no contigs");
    return d;
  }

  private static SAMSequenceDictionary readDict(Path dict) {
    try {
      return SAMSequenceDictionaryExtractor.extractDictionary(dict);
    } catch (SAMException | IllegalArgumentException e) {
      throw new InputException(dict + ": not a sequence dictionary (" + e.getMessage() + ")", e);
    }
  }

  private static void requireSame(SAMSequenceDictionary dict, Path dictPath, SAMSequenceDictionary fai, Path faiPath) {
    int n = Math.max(dict.size(), fai.size());
    for (int i = 0; i < n; i++) {
      SAMSequenceRecord a = i < dict.size() ? dict.getSequence(i) : null;
      SAMSequenceRecord b = i < fai.size() ? fai.getSequence(i) : null;
      if (a != null && b != null && a.getSequenceName().equals(b.getSequenceName())
          && a.getSequenceLength() == b.getSequenceLength()) {
        continue;
      }
      throw new InputException(dictPath + " and " + faiPath + " disagree: contig #" + (i + 1) + " is "
          + describe(a) + " in the .dict but " + describe(b) + " in the .fai");
    }
  }

  private static String describe(SAMSequenceRecord r) {
    return r == null ? "absent" : r.getSequenceName() + " (length " + r.getSequenceLength() + ")";
  }
}
