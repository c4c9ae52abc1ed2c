package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HaploidRegionsTest {
  static final SAMSequenceDictionary DICT = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chr1", 50_000),
      new SAMSequenceRecord("chrX", 100_000), new SAMSequenceRecord("chrY", 60_000)));
  @TempDir Path dir;

  Path bed(String text) throws IOException {
    Path p = dir.resolve("par.bed");
    Files.writeString(p, text);
    return p;
  }

  @Test
  void haploidContigsLessTheirParsAsTheBedSaysThem() throws IOException {
    // GRCh38-like: two PARs on X (given out of order, one overlapping another), one on Y, one on chr7
    Path par = bed("chrX\t90000\t99000\nchrX\t0\t2000\nchrX\t1500\t2700\nchrY\t0\t2700\nchr7\t0\t100\n");
    HaploidRegions r = HaploidRegions.of(List.of("chrX", "chrY"), par, DICT);
    assertFalse(r.isHaploid(0, 10_000), "chr1 is not haploid");
    assertFalse(r.isHaploid(1, 0));
    assertFalse(r.isHaploid(1, 2699), "the overlapping PARs merge");
    assertTrue(r.isHaploid(1, 2700));
    assertTrue(r.isHaploid(1, 89_999));
    assertFalse(r.isHaploid(1, 90_000));
    assertTrue(r.isHaploid(1, 99_000));
    assertTrue(r.isHaploid(2, 2700));
    assertFalse(r.isHaploid(1, 2690, 2710), "a span that touches a PAR stays diploid");
    assertEquals(2700, r.nextBoundary(1, 0));
    assertEquals(90_000, r.nextBoundary(1, 2700));
    assertEquals(Integer.MAX_VALUE, r.nextBoundary(1, 99_000));
    assertEquals(Integer.MAX_VALUE, r.nextBoundary(0, 0));
  }

  @Test
  void noHaploidContigsIsDiploidEverywhere() {
    HaploidRegions r = HaploidRegions.of(List.of(), (Path) null, DICT);
    assertTrue(r.isEmpty());
    assertFalse(r.isHaploid(1, 5000));
  }

  @Test
  void badInputIsOneLineNamingTheOptionOrFile() throws IOException {
    InputException e = assertThrows(InputException.class, () -> HaploidRegions.of(List.of("X"), (Path) null, DICT));
    assertEquals("--haploid-contigs X: not a contig of the reference (it has chr1, chrX, chrY)", e.getMessage());
    e = assertThrows(InputException.class, () -> HaploidRegions.of(List.of("chrX", "chrX"), (Path) null, DICT));
    assertTrue(e.getMessage().contains("names chrX twice"), e.getMessage());
    Path bad = bed("chrX\t0\n");
    e = assertThrows(InputException.class, () -> HaploidRegions.of(List.of("chrX"), bad, DICT));
    assertEquals(bad + ":1: expected chrom, start, end", e.getMessage());
    e = assertThrows(InputException.class, () -> HaploidRegions.of(List.of(), bad, DICT));
    assertTrue(e.getMessage().startsWith(bad + ": --par-bed needs --haploid-contigs"), e.getMessage());
    Path missing = dir.resolve("none.bed");
    e = assertThrows(InputException.class, () -> HaploidRegions.of(List.of("chrX"), missing, DICT));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }
}
