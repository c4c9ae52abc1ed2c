package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import htsjdk.samtools.SAMException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.variant.utils.SAMSequenceDictionaryExtractor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
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
 *
 * <p>{@link #dictionary} checks what is cheap (the file is a FASTA, plain or bgzipped with its
 * .gzi, and the .fai is well formed); {@link #verified} also checks that the .fai and .gzi describe
 * this FASTA ({@link FastaLayout}), which whoever plans a run does once.
 */
public final class ReferenceIndex {
  private ReferenceIndex() {}

  /** One line of a .fai: where a contig's bases lie in the FASTA and how its lines are laid out. */
  record FaiEntry(String name, long length, long offset, int lineBases, int lineBytes, int line) {}

  /** The dictionary of {@code fasta} from its .fai, checked against its .dict when present. */
  public static SAMSequenceDictionary dictionary(Path fasta) {
    return dictionary(fasta, readFai(fasta));
  }

  /**
   * {@link #dictionary}, after checking that the .fai (and, for a bgzipped FASTA, the .gzi)
   * describe {@code fasta}: every contig's header line and bases are where the .fai puts them, and
   * nothing in the FASTA is left out of it.
   */
  public static SAMSequenceDictionary verified(Path fasta) {
    List<FaiEntry> fai = readFai(fasta);
    SAMSequenceDictionary d = dictionary(fasta, fai);
    FastaLayout.check(fasta, faiPath(fasta), fai);
    return d;
  }

  /** htsjdk's indexed reader of {@code fasta} (after {@link #dictionary} has checked its files). */
  public static ReferenceSequenceFile open(Path fasta) {
    try {
      return ReferenceSequenceFileFactory.getReferenceSequenceFile(fasta, true, true);
    } catch (RuntimeException e) {
      throw InputException.reading(fasta, "cannot open the reference", e);
    }
  }

  static Path faiPath(Path fasta) {
    return fasta.resolveSibling(fasta.getFileName() + ".fai");
  }

  static Path gziPath(Path fasta) {
    return fasta.resolveSibling(fasta.getFileName() + ".gzi");
  }

  private static SAMSequenceDictionary dictionary(Path fasta, List<FaiEntry> fai) {
    SAMSequenceDictionary fromFai = new SAMSequenceDictionary();
    for (FaiEntry e : fai) {
      if (fromFai.getSequence(e.name()) != null) {
        throw new InputException(faiPath(fasta) + ":" + e.line() + ": contig " + e.name() + " is listed twice");
      }
      fromFai.addSequence(new SAMSequenceRecord(e.name(), (int) e.length()));
    }
    Path dict = sequenceDictionary(fasta);
    if (dict != null) requireSame(readDict(dict), dict, fromFai, faiPath(fasta));
    return fromFai;
  }

  /** The .fai of {@code fasta}, after checking that {@code fasta} is a FASTA that an index can serve. */
  private static List<FaiEntry> readFai(Path fasta) {
    if (!Files.exists(fasta)) throw new InputException(fasta + ": no such reference file");
    if (Files.isDirectory(fasta)) throw new InputException(fasta + ": is a directory, not a FASTA file");
    if (!Files.isReadable(fasta)) throw new InputException(fasta + ": cannot read the reference (permission denied)");
    if (FileFormat.size(fasta) == 0) throw new InputException(fasta + ": empty file, not a FASTA");
    FileFormat.Compression c = FileFormat.compression(fasta);
    byte[] head = FileFormat.head(fasta, 64);
    int first = 0;
    while (first < head.length && Character.isWhitespace(head[first])) first++;
    if (first == head.length || head[first] != '>') {
      throw new InputException(fasta + ": not a FASTA file (it starts with \"" + FileFormat.printable(head, 16)
          + "\", not a '>' header line)");
    }
    if (c == FileFormat.Compression.GZIP) {
      throw new InputException(fasta + ": compressed with gzip, not bgzip, so it cannot be read at random;"
          + " recompress it with bgzip, then run samtools faidx on it");
    }
    Path fai = faiPath(fasta); // one that is there but cannot be read is named with the reason, not as missing
    boolean noFai = !Files.exists(fai);
    boolean noGzi = c == FileFormat.Compression.BGZF && !Files.exists(gziPath(fasta));
    if (noFai && noGzi) {
      throw new InputException(fasta + ": bgzipped, with no .fai or .gzi index beside it; run samtools faidx " + fasta);
    }
    Path gzippedGzi = fasta.resolveSibling(fasta.getFileName() + ".gzi.gz");
    if (noGzi && Files.isReadable(gzippedGzi)) { // Debian compresses the files under /usr/share/doc, indexes too
      throw new InputException(fasta + ": bgzipped, but its .gzi index beside it is gzipped (" + gzippedGzi.getFileName()
          + ", as Debian ships documentation); unpack it: gunzip -k " + gzippedGzi + " (or run samtools faidx " + fasta
          + "; copy the FASTA to a writable directory first if this one is not)");
    }
    if (noGzi) {
      throw new InputException(fasta + ": bgzipped, but no .gzi index beside it (" + gziPath(fasta).getFileName()
          + " maps its blocks); run samtools faidx " + fasta + " to write it");
    }
    if (noFai) throw new InputException(fasta + ": no .fai index beside it; run samtools faidx " + fasta);
    if (c == FileFormat.Compression.BGZF) requireReadable(gziPath(fasta), "the .gzi index");
    return parseFai(fai);
  }

  /** {@code file} (which is there) can be read: else an error naming it, {@code what} it is and why not. */
  private static void requireReadable(Path file, String what) {
    try (var in = Files.newInputStream(file)) {
      in.read();
    } catch (IOException e) {
      throw new InputException(file + ": cannot read " + what + " (" + RootCause.of(e, file) + ")", e);
    }
  }

  /** The .dict htsjdk would pick for {@code fasta}, or null when there is none. */
  private static Path sequenceDictionary(Path fasta) {
    for (Path candidate : List.of(ReferenceSequenceFileFactory.getDefaultDictionaryForReferenceSequence(fasta),
        fasta.resolveSibling(fasta.getFileName() + ".dict"))) {
      if (Files.isRegularFile(candidate)) return candidate;
    }
    return null;
  }

  private static List<FaiEntry> parseFai(Path fai) {
    List<String> lines;
    try {
      lines = Files.readAllLines(fai);
    } catch (IOException e) {
      throw new InputException(fai + ": cannot read the FASTA index (" + RootCause.of(e, fai) + ")", e);
    }
    List<FaiEntry> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) continue;
      String[] f = line.split("\t");
      try {
        if (f.length < 5) throw new IllegalArgumentException(f.length + " columns, not the 5 of name, length, offset, line bases, line bytes");
        FaiEntry e = new FaiEntry(f[0], Long.parseLong(f[1].trim()), Long.parseLong(f[2].trim()),
            Integer.parseInt(f[3].trim()), Integer.parseInt(f[4].trim()), i + 1);
        if (e.name().isEmpty()) throw new IllegalArgumentException("no contig name");
        if (e.length() < 0 || e.length() > Integer.MAX_VALUE) throw new IllegalArgumentException("length " + e.length());
        if (e.offset() < 0) throw new IllegalArgumentException("offset " + e.offset());
        if (e.length() > 0 && (e.lineBases() < 1 || e.lineBytes() < e.lineBases())) {
          throw new IllegalArgumentException(e.lineBases() + " bases in lines of " + e.lineBytes() + " bytes");
        }
        out.add(e);
      } catch (IllegalArgumentException e) { // a bad number or layout
        throw new InputException(fai + ":" + (i + 1) + ": not a FASTA index line (" + e.getMessage() + ")");
      }
    }
    if (out.isEmpty()) throw new InputException(fai + ": no contigs");
    return out;
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

  /**
   * The reads' contigs ({@code readsDict}, from their header) fit the reference's: every contig both
   * name has one length, and they share at least one (else they were aligned to another reference).
   */
  public static void requireSameContigs(Path reads, SAMSequenceDictionary readsDict, Path reference,
      SAMSequenceDictionary refDict) {
    int shared = 0;
    for (SAMSequenceRecord r : readsDict.getSequences()) {
      SAMSequenceRecord ref = refDict.getSequence(r.getSequenceName());
      if (ref == null) continue;
      shared++;
      if (ref.getSequenceLength() != r.getSequenceLength()) {
        throw new InputException(reads + " and " + reference + " disagree: contig "
            + r.getSequenceName() + " has length " + r.getSequenceLength() + " in the reads but "
            + ref.getSequenceLength() + " in the reference");
      }
    }
    if (shared == 0) {
      throw new InputException(reads + " and " + reference + " share no contig name (reads: "
          + String.join(",", readsDict.getSequences().stream().limit(3).map(SAMSequenceRecord::getSequenceName).toList())
          + "...; reference: " + refDict.getSequence(0).getSequenceName() + "...)");
    }
  }

  /** Bases read at a time when the reference's checksum of a contig is computed. */
  private static final int MD5_WINDOW = 1 << 20;

  /**
   * Where the reads' header gives the checksum of one of {@code contigs} (its @SQ M5), the
   * reference's bases of that contig have the same: a contig of the same name and length but other
   * bases (another build, a masked copy) would be called silently wrong. The reference's checksum
   * comes from its sequence dictionary when that has one (M5 of its @SQ), else from {@code bases},
   * uppercased as the SAM spec defines M5. Only the contigs to be called are read, and only when the
   * reads give checksums: reads without M5 tags cost nothing.
   */
  public static void requireSameBases(Path reads, SAMSequenceDictionary readsDict, Path reference,
      ReferenceSequenceFile bases, Collection<String> contigs) {
    SAMSequenceDictionary dict = null;
    boolean dictRead = false;
    for (String contig : contigs) {
      SAMSequenceRecord r = readsDict.getSequence(contig);
      String expected = r == null ? null : r.getMd5();
      if (expected == null || expected.isBlank()) continue;
      if (!dictRead) {
        Path dictPath = sequenceDictionary(reference);
        dict = dictPath == null ? null : readDict(dictPath);
        dictRead = true;
      }
      String fromDict = dict == null || dict.getSequence(contig) == null ? null : dict.getSequence(contig).getMd5();
      String actual = fromDict != null ? fromDict : md5(reference, bases, contig, r.getSequenceLength());
      if (!actual.trim().equalsIgnoreCase(expected.trim())) {
        throw new InputException(reads + " and " + reference + " disagree: contig " + contig
            + " has the same length but other bases (M5 " + expected.trim() + " in the reads' header, "
            + actual.trim().toLowerCase() + (fromDict != null ? " in the reference's .dict" : " of the reference's bases")
            + "); call the reads against the reference they were aligned to");
      }
    }
  }

  /** The M5 of {@code contig} ({@code length} bases): the MD5 of its uppercased bases, in lowercase hex. */
  static String md5(Path reference, ReferenceSequenceFile bases, String contig, long length) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (long from = 1; from <= length; from += MD5_WINDOW) {
      long to = Math.min(length, from + MD5_WINDOW - 1);
      byte[] b;
      try {
        b = bases.getSubsequenceAt(contig, from, to).getBases();
      } catch (RuntimeException e) {
        throw InputException.reading(reference, "cannot read " + contig + ":" + from + "-" + to, e);
      }
      htsjdk.samtools.util.StringUtil.toUpperCase(b);
      md5.update(b);
    }
    return HexFormat.of().formatHex(md5.digest());
  }
}
