package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.ContigExclusion;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionsTest {

  @TempDir Path dir;

  private static final SAMSequenceDictionary DICT =
      new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chrB", 100), new SAMSequenceRecord("chrA", 50)));

  @Test
  void bedIntervalsBecomeRegions() throws IOException {
    Path bed = dir.resolve("r.bed");
    Files.writeString(bed, "track name=x\nchrA\t40\t50\nchrB\t0\t10\nchrB\t20\t20\n");
    assertEquals(List.of(new Region(1, "chrA", 40, 50), new Region(0, "chrB", 0, 10)), Regions.readBed(DICT, bed));
  }

  /** The one-line error of reading a BED of {@code text}, which starts "r.bed:LINE: ". */
  String bedFault(String text) throws IOException {
    Path bed = Files.writeString(dir.resolve("r.bed"), text);
    String m = assertThrows(InputException.class, () -> Regions.readBed(DICT, bed)).getMessage();
    assertTrue(m.startsWith(bed + ":"), m);
    return m.substring(bed.toString().length());
  }

  @Test
  void aNegativeStartOrAnEndPastTheContigIsNamedByLine() throws IOException {
    assertEquals(":2: the start -5 is negative (BED starts are 0-based, 0 or more)", bedFault("chrA\t0\t10\nchrB\t-5\t10\n"));
    assertEquals(":3: the end 80 is past the end of contig chrA (length 50): a BED of another reference?",
        bedFault("chrA\t0\t10\n\nchrA\t40\t80\n"));
  }

  @Test
  void aContigOutsideTheReferenceIsNamedByLine() throws IOException {
    assertEquals(":2: contig chrZ is not in the reference", bedFault("chrA\t0\t10\nchrZ\t0\t10\n"));
  }

  static String fault(String spec) {
    return assertThrows(InputException.class, () -> Regions.parse(DICT, spec)).getMessage();
  }

  @Test
  void eachBadRegionSaysWhatIsWrongWithIt() {
    assertEquals(new Region(0, "chrB", 9, 20), Regions.parse(DICT, "chrB:10-20"));
    assertEquals(new Region(1, "chrA", 0, 50), Regions.parse(DICT, "chrA"));
    assertEquals("--regions chrB:50-10: the start 50 is after the end 10", fault("chrB:50-10"));
    assertEquals("--regions chrB:0-10: positions are 1-based; the start must be at least 1", fault("chrB:0-10"));
    assertEquals("--regions chrB:90-101: the end 101 is past the end of contig chrB (length 100)", fault("chrB:90-101"));
    assertEquals("--regions chrB:10-x: expected chr:start-end", fault("chrB:10-x"));
    assertEquals("--regions chrB:5--3: the start 5 is after the end -3", fault("chrB:5--3"));
    assertTrue(fault("chrZ:1-10").startsWith("--regions chrZ:1-10: contig chrZ is not in the reference (a region is chr,"
        + " chr:start-end or chr:pos; several: separated by spaces or commas; or the path of a BED file)"),
        fault("chrZ:1-10"));
    assertEquals("--regions '': empty; expected chr or chr:start-end", fault(""));
  }

  /** A value that names no contig but reads as a file's path is a missing BED file, not a missing contig. */
  @Test
  void aPathThatIsNotThereIsAMissingBedFile() {
    assertEquals("--regions in/nonexist.bed: no such BED file", fault("in/nonexist.bed"));
    assertEquals("--regions nonexist.bed.gz: no such BED file", fault("nonexist.bed.gz"));
    assertEquals("--regions " + dir + ": no such BED file (a directory)", fault(dir.toString()));
    assertTrue(fault("chrZ").startsWith("--regions chrZ: contig chrZ is not in the reference"), fault("chrZ"));
  }

  /** The regions of one --regions value, resolved as call resolves them (reads on every contig). */
  private static List<Region> regions(String value) {
    return Regions.resolve(DICT, Set.of("chrA", "chrB"), Path.of("r.bam"), List.of(value), null);
  }

  @Test
  void deepVariantsAndBcftoolsListsAndABedPathGiveTheSameRegions() throws IOException {
    List<Region> expected = List.of(new Region(0, "chrB", 0, 10), new Region(0, "chrB", 19, 30), new Region(1, "chrA", 4, 50));
    assertEquals(expected, regions("chrB:1-10 chrB:20-30 chrA:5-50"), "DeepVariant: separated by spaces");
    assertEquals(expected, regions("  chrB:1-10\tchrB:20-30   chrA:5-50 "), "any white space");
    assertEquals(expected, regions("chrB:1-10,chrB:20-30,chrA:5-50"), "bcftools: separated by commas");
    assertEquals(expected, regions("chrB:1-10,chrB:20-30 chrA:5"
        .replace("chrA:5", "chrA:5-50")), "both");
    Path bed = Files.writeString(dir.resolve("regions.bed"), "chrB\t0\t10\nchrB\t19\t30\nchrA\t4\t50\n");
    assertEquals(expected, regions(bed.toString()), "DeepVariant: a BED path");
    assertEquals(List.of(new Region(0, "chrB", 0, 10), new Region(1, "chrA", 0, 50)), regions("chrB:1-10,chrA"));
  }

  @Test
  void commasSeparateThousandsOnlyInsideAPosition() {
    SAMSequenceDictionary big = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chr20", 64_444_167),
        new SAMSequenceRecord("20", 63_025_520), new SAMSequenceRecord("21", 48_129_895)));
    assertEquals(List.of("chr20:10000000-10100000"), Regions.split(big, "chr20:10,000,000-10,100,000"));
    assertEquals(List.of("chr20:1-100", "chr20:1000-2000"), Regions.split(big, "chr20:1-100,chr20:1,000-2,000"));
    assertEquals(List.of("20:1500", "21"), Regions.split(big, "20:1500,21"), "a contig after a comma starts a region");
    assertEquals(List.of("20", "21"), Regions.split(big, "20,21"));
    assertEquals(List.of("chr20:1-12345"), Regions.split(big, "chr20:1-12,345"));
    SAMSequenceDictionary numbered = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("1", 1_000_000),
        new SAMSequenceRecord("100", 1_000_000)));
    InputException e = assertThrows(InputException.class, () -> Regions.split(numbered, "1:5,100"));
    assertTrue(e.getMessage().contains("could separate thousands or regions (100 is also a contig)"), e.getMessage());
    assertEquals(List.of("1:5", "100"), Regions.split(numbered, "1:5 100"), "spaces are never ambiguous");
    InputException empty = assertThrows(InputException.class, () -> Regions.split(numbered, "1:5,,100"));
    assertTrue(empty.getMessage().contains("an empty region"), empty.getMessage());
  }

  @Test
  void aRegionOnAContigTheReadsLackIsAnError() throws IOException {
    Path reads = dir.resolve("reads.bam");
    InputException e = assertThrows(InputException.class,
        () -> Regions.resolve(DICT, Set.of("chrB"), reads, List.of("chrA:1-10"), null));
    assertEquals("--regions chrA:1-10: contig chrA is in the reference but not in the header of " + reads
        + ", so no read can be there", e.getMessage());
    Path bed = Files.writeString(dir.resolve("r.bed"), "chrB\t0\t10\nchrA\t0\t10\n");
    e = assertThrows(InputException.class, () -> Regions.resolve(DICT, Set.of("chrB"), reads, List.of(), bed));
    assertEquals(bed + ":2: contig chrA is in the reference but not in the header of " + reads
        + ", so no read can be there", e.getMessage());
    assertEquals(List.of(new Region(0, "chrB", 0, 100)), Regions.resolve(DICT, Set.of("chrB"), reads, List.of(), null),
        "by default, the contigs of both");
  }

  @Test
  void excludedContigsLeaveTheDefaultRegionsAndTheGivenOnes() throws IOException {
    Path reads = dir.resolve("reads.bam");
    SAMSequenceDictionary d = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chr1", 100),
        new SAMSequenceRecord("chr1_KI270706v1_random", 50), new SAMSequenceRecord("chrEBV", 70)));
    Set<String> all = Set.of("chr1", "chr1_KI270706v1_random", "chrEBV");
    ContigExclusion ex = ContigExclusion.of(List.of("random", "ebv"));
    assertEquals(List.of(new Region(0, "chr1", 0, 100)), Regions.resolve(d, all, reads, List.of(), null, ex));
    assertEquals(List.of(new Region(0, "chr1", 0, 100), new Region(1, "chr1_KI270706v1_random", 0, 50),
        new Region(2, "chrEBV", 0, 70)), Regions.resolve(d, all, reads, List.of(), null), "off by default");
    assertEquals(List.of(new Region(0, "chr1", 9, 20)),
        Regions.resolve(d, all, reads, List.of("chr1:10-20", "chrEBV:1-10"), null, ex));
    InputException e = assertThrows(InputException.class,
        () -> Regions.resolve(d, all, reads, List.of("chrEBV"), null, ex));
    assertEquals("--exclude-contigs random,ebv leaves out every contig of the regions (e.g. chrEBV): nothing to call",
        e.getMessage());
  }
}
