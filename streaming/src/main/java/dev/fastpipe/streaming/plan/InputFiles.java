package dev.fastpipe.streaming.plan;

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
import htsjdk.samtools.reference.ReferenceSequenceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens the reference (indexed FASTA, plain or bgzipped with .fai and .gzi) and the reads (BAM,
 * or CRAM decoded against the reference) and checks that they agree: every contig both name must
 * have the same length, and they must share at least one contig; where the reads' header gives a
 * called contig's checksum (@SQ M5), the reference's bases must have it ({@link #requireSameBases}).
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
  /** The reads are a CRAM (else a BAM), as {@link FileFormat#readsFormat} read it once. */
  private final boolean cram;
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
    this.cram = FileFormat.readsFormat(readsPath);
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
      String noneAligned = readsIndex.whyNoAlignedReads();
      if (noneAligned != null) {
        throw new InputException(readsPath + ": no aligned reads (its index " + readsIndex.path.getFileName() + " "
            + noneAligned + ")");
      }
      if (readsIndex.olderThanReads()) {
        warnings.add(readsIndex.path + " is older than " + readsPath + ": if the reads changed after indexing,"
            + " re-index them with samtools index");
      }
    } else {
      this.readsIndex = null;
      if (!reads.hasIndex()) ReadsIndex.find(readsPath); // says which index is missing
    }
    for (SAMSequenceRecord r : header.getSequenceDictionary().getSequences()) readContigs.add(r.getSequenceName());
    ReferenceIndex.requireSameContigs(readsPath, header.getSequenceDictionary(), referencePath, dictionary);
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

  /**
   * The reference's bases of the {@code regions}' contigs are those the reads were aligned to, where
   * the reads' header gives their checksums ({@link ReferenceIndex#requireSameBases}); a shard's
   * files were checked when its plan was made. A CRAM is left out: its decoder checks every slice
   * against the reference's checksum ({@link #probeReadsIndex} names the mismatch), and its header
   * always has them, so the check would read every called contig of every CRAM run.
   */
  public void requireSameBases(List<Region> regions) {
    if (readsIndex == null || cram) return;
    ReferenceIndex.requireSameBases(readsPath, reads.getFileHeader().getSequenceDictionary(), referencePath, reference,
        regions.stream().map(Region::contig).distinct().toList());
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
  public InputException readsProblem(String where, RuntimeException e) {
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
