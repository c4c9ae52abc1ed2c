package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.FileFormat;
import dev.fastpipe.streaming.genome.ReadsIndex;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.SamFiles;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.ValidationStringency;
import htsjdk.samtools.cram.build.CramIO;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens the reference (indexed FASTA, plain or bgzipped with .fai and .gzi) and the reads (BAM,
 * or CRAM decoded against the reference) and checks that they agree: every contig both name must
 * have the same length, and they must share at least one contig.
 *
 * <p>Opened by whoever plans a run ({@link #InputFiles}), every file is also checked against its
 * index: the reads are a complete BAM or CRAM sorted by coordinate whose index
 * ({@link ReadsIndex}) is theirs and places reads somewhere, and the FASTA's .fai and .gzi are its
 * own ({@link ReferenceIndex#verified}). A shard of a planned run opens the same files
 * ({@link #forShard}) without repeating those checks.
 */
public final class InputFiles implements AutoCloseable {
  /** How many contigs of a run have their index probed by reading ({@link ReadsIndex#probe}). */
  static final int MAX_PROBED_CONTIGS = 256;

  public final Path referencePath;
  public final Path readsPath;
  public final ReferenceSequenceFile reference;
  public final SamReader reads;
  public final SAMSequenceDictionary dictionary;
  /** Names of the contigs in the reads' header. */
  public final Set<String> readContigs = new HashSet<>();
  /** The reads' index, checked against them; null for a shard's files. */
  public final ReadsIndex readsIndex;
  /** What is suspicious but not wrong (an index older than its reads), one line each. */
  public final List<String> warnings = new ArrayList<>();

  /** Opens and checks the inputs of a run that is to be planned. */
  public InputFiles(Path referencePath, Path readsPath) {
    this(referencePath, readsPath, true);
  }

  /** Opens the inputs of a shard: the files were checked when its plan was made. */
  public static InputFiles forShard(Path referencePath, Path readsPath) {
    return new InputFiles(referencePath, readsPath, false);
  }

  private InputFiles(Path referencePath, Path readsPath, boolean check) {
    this.referencePath = referencePath;
    this.readsPath = readsPath;
    this.dictionary = check ? ReferenceIndex.verified(referencePath) : ReferenceIndex.dictionary(referencePath);
    boolean cram = readsFormat(readsPath);
    this.reference = ReferenceIndex.open(referencePath);
    SAMFileHeader header;
    try {
      this.reads = SamReaderFactory.makeDefault()
          .referenceSequence(referencePath)
          .validationStringency(ValidationStringency.SILENT)
          .open(readsPath);
      header = reads.getFileHeader();
    } catch (RuntimeException e) {
      throw InputException.reading(readsPath, "cannot read the " + (cram ? "CRAM" : "BAM") + " header", e);
    }
    if (header.getSortOrder() == SAMFileHeader.SortOrder.queryname) {
      throw new InputException(readsPath + ": sorted by read name (@HD SO:queryname), not by coordinate;"
          + " sort it with samtools sort, then index it");
    }
    if (header.getSequenceDictionary().isEmpty()) {
      throw new InputException(readsPath + ": no contigs (@SQ lines) in its header: unaligned reads cannot be called");
    }
    if (header.getSortOrder() != SAMFileHeader.SortOrder.coordinate && SamFiles.findIndex(readsPath) == null) {
      throw new InputException(readsPath + ": not sorted by coordinate (@HD SO:" + header.getSortOrder()
          + ") and not indexed; sort it with samtools sort, then index it");
    }
    if (check) {
      this.readsIndex = ReadsIndex.read(readsPath, header);
      if (readsIndex.placesNoReads()) {
        throw new InputException(readsPath + ": no aligned reads (its index " + readsIndex.path.getFileName()
            + " places none on any contig)");
      }
      if (readsIndex.olderThanReads()) {
        warnings.add(readsIndex.path + " is older than " + readsPath + ": if the reads changed after indexing,"
            + " re-index them with samtools index");
      }
    } else {
      this.readsIndex = null;
      if (!reads.hasIndex()) ReadsIndex.find(readsPath); // says which index is missing
    }
    SAMSequenceDictionary readsDict = header.getSequenceDictionary();
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
   * True for a CRAM, false for a BAM; anything else (no file, an empty, truncated or other kind of
   * file) is an error saying what the file is.
   */
  private static boolean readsFormat(Path reads) {
    if (!Files.exists(reads)) throw new InputException(reads + ": no such reads file");
    if (Files.isDirectory(reads)) throw new InputException(reads + ": is a directory, not a BAM or CRAM file");
    if (!Files.isReadable(reads)) throw new InputException(reads + ": cannot read the reads file (permission denied)");
    if (FileFormat.size(reads) == 0) throw new InputException(reads + ": empty file (0 bytes), not a BAM or CRAM");
    byte[] raw = FileFormat.raw(reads, 0, 4);
    if (Arrays.equals(raw, "CRAM".getBytes(StandardCharsets.US_ASCII))) {
      if (!FileFormat.endsWith(reads, CramIO.ZERO_F_EOF_MARKER) && !FileFormat.endsWith(reads, CramIO.ZERO_B_EOF_MARKER)) {
        throw new InputException(reads + ": truncated: it does not end with the CRAM end-of-file container"
            + " (an interrupted copy, or a file still being written)");
      }
      return true;
    }
    FileFormat.Compression c = FileFormat.compression(reads);
    byte[] head = FileFormat.head(reads, 64);
    if (c == FileFormat.Compression.BGZF && Arrays.equals(Arrays.copyOf(head, 4), new byte[] {'B', 'A', 'M', 1})) {
      if (!FileFormat.hasBgzfEof(reads)) {
        throw new InputException(reads + ": truncated: it does not end with the BGZF end-of-file block"
            + " (an interrupted copy, or a file still being written)");
      }
      return false;
    }
    String text = new String(head, StandardCharsets.US_ASCII);
    if (c == FileFormat.Compression.PLAIN && (text.startsWith("@") || text.split("\n", 2)[0].split("\t").length >= 11)) {
      throw new InputException(reads + ": SAM text, not BAM or CRAM; sort, compress and index it: samtools sort -o OUT.bam "
          + reads + " && samtools index OUT.bam");
    }
    String what = c == FileFormat.Compression.BGZF ? "bgzipped data that is not BAM"
        : c == FileFormat.Compression.GZIP ? "gzipped data"
        : text.startsWith(">") ? "a FASTA file" : "neither BAM nor CRAM";
    throw new InputException(reads + ": not a BAM or CRAM file: " + what + " (it starts with \""
        + FileFormat.printable(head, 16) + "\")");
  }

  /**
   * Reads, through the index, where it says the {@code regions}' contigs (the first
   * {@link #MAX_PROBED_CONTIGS}) hold reads: an index of another file fails here, before any work.
   */
  public void probeReadsIndex(List<Region> regions) {
    if (readsIndex == null) return;
    Set<String> contigs = new LinkedHashSet<>();
    for (Region r : regions) if (contigs.size() < MAX_PROBED_CONTIGS) contigs.add(r.contig());
    for (String c : contigs) readsIndex.probe(reads, reads.getFileHeader().getSequenceIndex(c), referencePath);
  }

  /** A place in {@code regions} where the reads' index says reads start (chr:start-end), or null. */
  String readsWithin(List<Region> regions) {
    if (readsIndex == null) return null;
    for (Region r : regions) {
      String at = readsIndex.readsWithin(reads.getFileHeader().getSequenceIndex(r.contig()), r.start(), r.end());
      if (at != null) return at;
    }
    return null;
  }

  /** Aligned reads on the contigs of {@code regions} per the index; -1 when it does not say (CRAM). */
  long alignedReadsOn(List<Region> regions) {
    if (readsIndex == null) return -1;
    long total = 0;
    for (String name : regions.stream().map(Region::contig).distinct().toList()) {
      long n = readsIndex.alignedOn(reads.getFileHeader().getSequenceIndex(name));
      if (n < 0) return -1;
      total += n;
    }
    return total;
  }

  /**
   * The reads the index counts on the regions' contigs, aligned or not, when every region is a whole
   * contig (a run then reads exactly these); -1 otherwise, or when the index does not count (CRAM).
   */
  long readsOnWholeContigs(List<Region> regions) {
    if (readsIndex == null) return -1;
    long total = 0;
    for (Region r : regions) {
      if (r.start() != 0 || r.end() != dictionary.getSequence(r.contigIndex()).getSequenceLength()) return -1;
      long n = readsIndex.placedOn(reads.getFileHeader().getSequenceIndex(r.contig()));
      if (n < 0) return -1;
      total += n;
    }
    return total;
  }

  /** Uppercased reference bases of [start, end) (0-based), clipped to the contig. */
  public byte[] bases(String contig, int start, int end) {
    byte[] b;
    try {
      b = reference.getSubsequenceAt(contig, start + 1L, end).getBases();
    } catch (RuntimeException e) {
      throw InputException.reading(referencePath, "cannot read " + contig + ":" + (start + 1) + "-" + end, e);
    }
    for (int i = 0; i < b.length; i++) {
      byte x = b[i];
      if (x >= 'a' && x <= 'z') b[i] = (byte) (x - 32);
    }
    return b;
  }

  /** The one-line error for a failure reading the reads around {@code where}. */
  InputException readsProblem(String where, RuntimeException e) {
    return InputException.reading(readsPath, "cannot read the reads at " + where, e);
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
