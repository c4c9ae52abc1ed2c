package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads that cannot be used are one-line errors naming the file before any work; damage found while
 * reading is one too, naming the file and the root cause.
 */
class InputFilesTest {
  @TempDir static Path dir;
  static TestGenome g;
  static Path fasta;
  static Path bam;

  @BeforeAll
  static void files() throws IOException {
    g = TestGenome.tiled("chrT", 12_000, 3, 0, 4);
    fasta = g.writeFasta(dir);
    bam = g.writeBam(dir, "reads.bam");
  }

  static String fault(Path reads) {
    return assertThrows(InputException.class, () -> new InputFiles(fasta, reads).close()).getMessage();
  }

  static ExampleSettings options(Path reads) {
    return ExampleSettings.builder().reference(fasta).reads(reads).build();
  }

  /** A copy of the reads and their index under {@code name}. */
  static Path copy(String name) throws IOException {
    Path to = dir.resolve(name);
    Files.copy(bam, to, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(dir.resolve("reads.bai"), Path.of(to + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    return to;
  }

  @Test
  void whatIsNotACompleteBamOrCramIsNamed() throws IOException {
    Path missing = dir.resolve("missing.bam");
    assertEquals(missing + ": no such reads file", fault(missing));
    assertEquals(dir + ": is a directory, not a BAM or CRAM file", fault(dir));
    Path empty = Files.createFile(dir.resolve("empty.bam"));
    assertEquals(empty + ": empty file (0 bytes), not a BAM or CRAM", fault(empty));
    Path truncated = copy("truncated.bam");
    byte[] b = Files.readAllBytes(truncated);
    Files.write(truncated, Arrays.copyOf(b, b.length - 100));
    assertEquals(truncated + ": truncated: it does not end with the BGZF end-of-file block (an interrupted copy,"
        + " or a file still being written)", fault(truncated));
    Path sam = Files.writeString(dir.resolve("reads.sam"), "@HD\tVN:1.6\tSO:coordinate\n");
    assertTrue(fault(sam).startsWith(sam + ": SAM text, not BAM or CRAM; sort, compress and index it"), fault(sam));
    assertEquals(fasta + ": not a BAM or CRAM file: a FASTA file (it starts with \">chrT\\x0a" + g.refString(0, 10) + "\")",
        fault(fasta));
    Path vcf = dir.resolve("calls.vcf.gz");
    try (var out = new htsjdk.samtools.util.BlockCompressedOutputStream(vcf.toFile())) {
      out.write("##fileformat=VCFv4.2\n".getBytes());
    }
    assertTrue(fault(vcf).startsWith(vcf + ": not a BAM or CRAM file: bgzipped data that is not BAM"), fault(vcf));
  }

  @Test
  void readsNotSortedByCoordinateAreNamed() throws IOException {
    SAMFileHeader byName = g.header.clone();
    byName.setSortOrder(SAMFileHeader.SortOrder.queryname);
    Path named = dir.resolve("byname.bam");
    try (var w = new SAMFileWriterFactory().makeBAMWriter(byName, false, named)) {
      for (SAMRecord r : g.reads) w.addAlignment(r);
    }
    Files.copy(dir.resolve("reads.bai"), Path.of(named + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    assertEquals(named + ": sorted by read name (@HD SO:queryname), not by coordinate; sort it with samtools sort,"
        + " then index it", fault(named));
    SAMFileHeader unsorted = g.header.clone();
    unsorted.setSortOrder(SAMFileHeader.SortOrder.unsorted);
    Path plain = dir.resolve("unsorted.bam");
    try (var w = new SAMFileWriterFactory().makeBAMWriter(unsorted, false, plain)) {
      for (SAMRecord r : g.reads) w.addAlignment(r);
    }
    assertEquals(plain + ": not sorted by coordinate (@HD SO:unsorted) and not indexed; sort it with samtools sort,"
        + " then index it", fault(plain));
  }

  @Test
  void aBamWithoutReadsIsNamed() {
    Path reads = new TestGenome("chrT", 12_000, 3).writeBam(dir, "noreads.bam");
    assertEquals(reads + ": no aligned reads (its index noreads.bai places none on any contig)", fault(reads));
  }

  /** Reads placed on a contig (beside their mates) but every one flagged unmapped: nothing to call, as with none. */
  @Test
  void aBamWhoseReadsAreAllFlaggedUnmappedIsNamed() {
    TestGenome placed = TestGenome.tiled("chrT", 12_000, 3, 0, 40);
    for (SAMRecord r : placed.reads) {
      r.setReadUnmappedFlag(true);
      r.setMappingQuality(0);
    }
    Path reads = placed.writeBam(dir, "unmapped.bam");
    assertEquals(reads + ": no aligned reads (its index unmapped.bai places " + placed.reads.size()
        + " on contigs, every one flagged unmapped)", fault(reads));
  }

  @Test
  void anIndexOlderThanItsReadsIsAWarning() throws IOException {
    Path reads = copy("stale.bam");
    Files.setLastModifiedTime(Path.of(reads + ".bai"), FileTime.fromMillis(Files.getLastModifiedTime(reads).toMillis() - 60_000));
    try (InputFiles in = new InputFiles(fasta, reads)) {
      assertEquals(List.of(reads + ".bai is older than " + reads + ": if the reads changed after indexing,"
          + " re-index them with samtools index"), in.warnings);
    }
  }

  @Test
  void aCramOfAnotherReferenceIsNamed() throws IOException {
    Path cram = dir.resolve("reads.cram");
    List<SAMRecord> sorted = g.reads.stream().sorted(Comparator.comparingInt(SAMRecord::getAlignmentStart)).toList();
    try (var w = new SAMFileWriterFactory().makeCRAMWriter(g.header, true, cram, fasta)) {
      for (SAMRecord r : sorted) w.addAlignment(r);
    }
    try (var in = new htsjdk.samtools.seekablestream.SeekablePathStream(cram);
        var out = Files.newOutputStream(Path.of(cram + ".crai"))) {
      htsjdk.samtools.CRAMCRAIIndexer.writeIndex(in, out);
    }
    Path otherDir = Files.createDirectories(dir.resolve("other"));
    Path other = new TestGenome("chrT", 12_000, 99).writeFasta(otherDir); // same name and length, other bases
    String m = assertThrows(InputException.class, () -> RunPlan.forTasks(options(cram), new InputFiles(other, cram)))
        .getMessage();
    assertTrue(m.startsWith(cram + " was not encoded against " + other + ": The MD5 for the reference failed"), m);
  }

  /** The reads, their header's @SQ giving {@code m5} as the contig's checksum. */
  static Path withM5(String name, String m5) {
    SAMFileHeader h = g.header.clone();
    h.getSequence(0).setMd5(m5);
    Path to = dir.resolve(name);
    try (var w = new SAMFileWriterFactory().setCreateIndex(true).makeBAMWriter(h, true, to)) {
      g.reads.stream().sorted(Comparator.comparingInt(SAMRecord::getAlignmentStart)).forEach(w::addAlignment);
    }
    return to;
  }

  static String plan(Path reference, Path reads) {
    try (InputFiles in = new InputFiles(reference, reads)) {
      return RunPlan.forTasks(options(reads), in).partitions() + " partitions";
    }
  }

  /** Same contig name and length but other bases: caught by the reads' M5, from the bases or the .dict. */
  @Test
  void aReferenceWithOtherBasesThanTheReadsChecksumIsNamed() throws Exception {
    String m5 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(g.ref));
    Path reads = withM5("m5.bam", m5);
    assertTrue(plan(fasta, reads).endsWith("partitions"));
    Path maskedDir = Files.createDirectories(dir.resolve("masked")); // soft-masked: M5 is of uppercased bases
    Path masked = maskedDir.resolve("chrT.fa");
    Files.writeString(masked, Files.readString(fasta).toLowerCase().replace(">chrt", ">chrT"));
    Files.copy(Path.of(fasta + ".fai"), Path.of(masked + ".fai"));
    assertTrue(plan(masked, reads).endsWith("partitions"));

    Path otherDir = Files.createDirectories(dir.resolve("otherbases"));
    Path other = new TestGenome("chrT", 12_000, 99).writeFasta(otherDir);
    String m = assertThrows(InputException.class, () -> plan(other, reads)).getMessage();
    assertTrue(m.matches("\\Q" + reads + " and " + other + " disagree: contig chrT has the same length but other bases (M5 "
        + m5 + " in the reads' header, \\E[0-9a-f]{32} of the reference's bases\\); call the reads against the reference"
        + " they were aligned to"), m);

    Path dict = otherDir.resolve("chrT.dict"); // a checksum in the .dict is taken without reading the bases
    Files.writeString(dict, "@HD\tVN:1.6\n@SQ\tSN:chrT\tLN:12000\tM5:" + m5 + "\n");
    assertTrue(plan(other, reads).endsWith("partitions"));
    Files.writeString(dict, "@HD\tVN:1.6\n@SQ\tSN:chrT\tLN:12000\tM5:0123456789abcdef0123456789abcdef\n");
    assertEquals(reads + " and " + other + " disagree: contig chrT has the same length but other bases (M5 " + m5
        + " in the reads' header, 0123456789abcdef0123456789abcdef in the reference's .dict); call the reads against the"
        + " reference they were aligned to", assertThrows(InputException.class, () -> plan(other, reads)).getMessage());
  }

  /** Damage in the middle of the reads that htsjdk reports is named with the file and its root cause. */
  @Test
  void damageFoundWhileReadingIsNamedWithItsCause() throws IOException {
    Path damaged = copy("damaged.bam");
    try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
      f.seek(f.length() / 2);
      f.write(new byte[4096]);
    }
    String m = assertThrows(InputException.class, () -> MakeExamples.run(options(damaged), new CapturingProducer()))
        .getMessage();
    assertTrue(m.matches("\\Q" + damaged + "\\E: cannot read the reads at chrT:\\d+-\\d+: Unexpected compressed block length: 1"), m);
  }
}
