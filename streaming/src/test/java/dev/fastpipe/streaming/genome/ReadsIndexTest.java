package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A BAM's index must be its own: every way it can be another file's is named ({@link ReadsIndex}). */
class ReadsIndexTest {
  @TempDir static Path dir;
  static TestGenome.Written files;

  @BeforeAll
  static void files() throws IOException {
    files = TestGenome.tiled("chrT", 12_000, 5, 0, 20).write(dir, "reads.bam");
    TestGenome.tiled("chrT", 12_000, 5, 3_000, 9).writeBam(dir, "other.bam"); // the same header, other reads
  }

  static SAMFileHeader header(Path reads) throws IOException {
    try (SamReader r = SamReaderFactory.makeDefault().open(reads)) {
      return r.getFileHeader();
    }
  }

  /** A copy of the reads beside {@code index} (copied from another file) as its .bai. */
  static Path withIndex(String name, Path index) throws IOException {
    Path copy = Files.copy(files.bam(), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(index, dir.resolve(name + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    return copy;
  }

  static String fault(Path reads) throws IOException {
    SAMFileHeader h = header(reads);
    return assertThrows(InputException.class, () -> {
      ReadsIndex index = ReadsIndex.read(reads, h);
      try (SamReader r = SamReaderFactory.makeDefault().open(reads)) {
        index.probe(r, 0, files.fasta());
      }
    }).getMessage();
  }

  @Test
  void itsOwnIndexPassesAndSaysWhereReadsAre() throws IOException {
    ReadsIndex index = ReadsIndex.read(files.bam(), header(files.bam()));
    try (SamReader r = SamReaderFactory.makeDefault().open(files.bam())) {
      index.probe(r, 0, files.fasta());
    }
    assertEquals(dir.resolve("reads.bai"), index.path);
    assertEquals(590, index.placedOn(0));
    assertEquals(590, index.alignedOn(0));
    assertFalse(index.placesNoReads());
    assertEquals("chrT:1-12000", index.readsWithin(0, 0, 12_000), "one 16 kb bin, clipped to the contig");
    assertNull(index.readsWithin(0, 100, 12_000), "no bin lies inside");
  }

  @Test
  void anIndexOfAnotherBamIsNamed() throws IOException {
    Path reads = withIndex("swapped.bam", dir.resolve("other.bai"));
    String m = fault(reads);
    assertTrue(m.startsWith(dir.resolve("swapped.bam.bai") + " does not index " + reads + ": "), m);
    assertTrue(m.endsWith("; re-index with samtools index " + reads), m);
  }

  @Test
  void anIndexOfAnotherContigListIsNamed() throws IOException {
    TestGenome two = TestGenome.tiled("chrT", 12_000, 5, 0, 20);
    two.header.addSequence(new SAMSequenceRecord("chrU", 5_000));
    two.writeBam(dir, "two.bam");
    Path reads = withIndex("twocontigs.bam", dir.resolve("two.bai"));
    assertEquals(reads + ".bai does not index " + reads + ": the index has 2 contigs but the reads' header has 1;"
        + " re-index with samtools index " + reads, fault(reads));
  }

  @Test
  void aTruncatedOrForeignFileIsNotAnIndex() throws IOException {
    byte[] bai = Files.readAllBytes(dir.resolve("reads.bai"));
    Path cut = dir.resolve("half.index");
    Files.write(cut, Arrays.copyOf(bai, bai.length / 2));
    Path reads = withIndex("cut.bam", cut);
    assertEquals(reads + ".bai: truncated index (it ends inside an entry); re-index with samtools index " + reads, fault(reads));
    Path text = Files.writeString(dir.resolve("text.index"), "chrT\t12000\n");
    reads = withIndex("text.bam", text);
    assertEquals(reads + ".bai: not a BAM or CRAM index (it starts with \"chrT\")", fault(reads));
    reads = withIndex("zero.bam", Files.writeString(dir.resolve("zero.index"), ""));
    assertEquals(reads + ".bai: empty index file; re-index with samtools index " + reads, fault(reads));
    Path none = Files.copy(files.bam(), dir.resolve("none.bam"), StandardCopyOption.REPLACE_EXISTING);
    assertEquals(none + ": no index (.bai, .csi or .crai) beside it; index it with samtools index " + none, fault(none));
  }

  @Test
  void anEmptyBamPlacesNoReads() throws IOException {
    TestGenome empty = new TestGenome("chrT", 12_000, 5);
    Path reads = empty.writeBam(dir, "empty.bam");
    assertTrue(ReadsIndex.read(reads, header(reads)).placesNoReads());
  }

  @Test
  void bytesFollowWhereReadsStart() throws IOException {
    // Reads every 10 bp in the first 16 kb window, every 20 bp in the third, none elsewhere; no read
    // crosses a window's edge (it would sit in a coarser bin, spread over that bin's span).
    TestGenome g = new TestGenome("chrT", 60_000, 9);
    for (int s = 0; s + 100 <= 16_384; s += 10) g.add(g.refRead(s, 100));
    for (int s = 32_768; s + 100 <= 49_152; s += 20) g.add(g.refRead(s, 100));
    Path reads = g.writeBam(dir, "windows.bam");
    ReadsIndex index = ReadsIndex.read(reads, header(reads));
    assertEquals(14, index.windowShift(), "BAI's 16 kb bins");
    double first = index.bytesIn(0, 0, 16_384);
    double third = index.bytesIn(0, 32_768, 49_152);
    assertEquals(0, index.bytesIn(0, 16_384, 32_768));
    assertEquals(0, index.bytesIn(0, 49_152, 60_000));
    // Twice the reads, about twice the bytes: compressed bytes, and reads that overlap more compress better.
    assertEquals(2, first / third, 0.5, first + " vs " + third);
    assertEquals(first / 2, index.bytesIn(0, 0, 8_192), 1e-6, "spread evenly inside a window");
    double all = index.bytesIn(0, 0, 60_000);
    assertEquals(first + third, all, 1e-6);
    assertTrue(all > 0.5 * Files.size(reads) && all <= Files.size(reads), all + " of " + Files.size(reads) + " bytes");
  }
}
