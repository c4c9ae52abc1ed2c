package dev.fastpipe.streaming.scatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.genome.BedFile;
import dev.fastpipe.streaming.genome.BedInterval;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SAMSequenceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ScatterPlan}: samples checked as call checks them (a failure names the sample and the file),
 * bytes summed over samples, one BED per chunk that together hold the regions exactly once.
 */
class ScatterPlanTest {
  @TempDir static Path dir;
  static Path ref;
  static TestGenome chrT;
  static TestGenome chrU;

  /** A FASTA (+.fai) of the genomes' contigs, in order. */
  static Path fasta(Path file, TestGenome... genomes) throws IOException {
    StringBuilder fa = new StringBuilder();
    StringBuilder fai = new StringBuilder();
    for (TestGenome g : genomes) {
      fa.append('>').append(g.contig).append('\n');
      long offset = fa.toString().getBytes(StandardCharsets.US_ASCII).length;
      for (int i = 0; i < g.ref.length; i += 60) {
        fa.append(new String(g.ref, i, Math.min(60, g.ref.length - i), StandardCharsets.US_ASCII)).append('\n');
      }
      fai.append(g.contig).append('\t').append(g.ref.length).append('\t').append(offset).append("\t60\t61\n");
    }
    Files.writeString(file, fa);
    Files.writeString(Path.of(file + ".fai"), fai);
    return file;
  }

  /** Reads of {@code g} in a BAM whose header also names {@code alsoContigs} (in that order after g's). */
  static Path bam(TestGenome g, String name, String sample, TestGenome... alsoContigs) {
    for (TestGenome o : alsoContigs) g.header.addSequence(new SAMSequenceRecord(o.contig, o.ref.length));
    if (sample != null) {
      SAMReadGroupRecord rg = new SAMReadGroupRecord("rg-" + sample);
      rg.setSample(sample);
      g.header.addReadGroup(rg);
      for (var r : g.reads) r.setAttribute("RG", rg.getId());
    }
    return g.writeBam(dir, name);
  }

  @BeforeAll
  static void genome() throws IOException {
    chrT = TestGenome.tiled("chrT", 40_000, 3, 0, 25);
    chrU = TestGenome.tiled("chrU", 20_000, 4, 0, 25);
    ref = fasta(dir.resolve("ref.fa"), chrT, chrU);
  }

  static String fault(Path reference, List<SampleSheet.Sample> samples, Path bed, int chunks) {
    return assertThrows(InputException.class, () -> ScatterPlan.plan(reference, samples, bed, ContigExclusion.none(), chunks)).getMessage();
  }

  @Test
  void chunkBedsHoldTheRegionsOnceInOrder() throws IOException {
    // Sample A has reads on chrT only (chrU in its header), sample B on both.
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "a.bam", "A", chrU);
    TestGenome bReads = TestGenome.tiled("chrT", 40_000, 3, 0, 50);
    Path b = bam(bReads, "b.bam", "B", chrU);
    List<SampleSheet.Sample> samples = List.of(new SampleSheet.Sample("A", a, 2), new SampleSheet.Sample("B", b, 3));
    ScatterPlan.Result plan = ScatterPlan.plan(ref, samples, null, ContigExclusion.none(), 3);
    assertEquals(List.of(new Region(0, "chrT", 0, 40_000), new Region(1, "chrU", 0, 20_000)), plan.regions());
    List<Path> files = ScatterPlan.write(dir.resolve("plan"), plan.chunks());
    assertEquals(List.of("chunk-0001-of-0003.bed", "chunk-0002-of-0003.bed", "chunk-0003-of-0003.bed"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    assertTrue(Files.readString(files.get(0)).startsWith("# fastpipe plan: chunk 1 of 3, "), Files.readString(files.get(0)));
    List<BedInterval> all = new ArrayList<>();
    for (Path f : files) all.addAll(BedFile.read(f));
    int at = 0;
    for (BedInterval iv : all.subList(0, all.size() - 1)) {
      assertEquals("chrT", iv.contig());
      assertEquals(at, iv.start());
      at = iv.end();
    }
    assertEquals(40_000, at);
    BedInterval last = all.get(all.size() - 1);
    assertEquals(List.of("chrU", 0, 20_000), List.of(last.contig(), last.start(), last.end()), "chrU whole, last");
    double bytes = plan.chunks().stream().mapToDouble(ChunkPlanner.Chunk::bytes).sum();
    assertEquals(bytes / 3, plan.chunks().get(0).bytes(), bytes / 3 * 0.1, "balanced: " + plan.chunks());
    // an --output-dir that is a file (the BED itself, say) is named as such, and the file is untouched
    Path bed = Files.writeString(dir.resolve("regions.bed"), "chrT\t0\t100\n");
    InputException e = assertThrows(InputException.class, () -> ScatterPlan.write(bed, plan.chunks()));
    assertEquals("--output-dir " + bed + ": exists and is not a directory", e.getMessage());
    assertEquals("chrT\t0\t100\n", Files.readString(bed));
  }

  @Test
  void aPlanIsWrittenWholeOrNotAtAll() throws IOException {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "whole.bam", "A", chrU);
    ScatterPlan.Result plan = ScatterPlan.plan(ref, List.of(new SampleSheet.Sample("A", a, 2)), null, ContigExclusion.none(), 3);
    Path out = dir.resolve("whole");
    Files.createDirectories(out.resolve("chunk-0003-of-0003.bed")); // the last chunk's name is taken by a directory
    InputException e = assertThrows(InputException.class, () -> ScatterPlan.write(out, plan.chunks()));
    assertTrue(e.getMessage().contains("chunk-0003-of-0003.bed"), e.getMessage());
    try (var left = Files.list(out)) {
      assertEquals(List.of("chunk-0003-of-0003.bed"), left.map(p -> p.getFileName().toString()).toList(),
          "no chunk BED and no temporary stays when one chunk cannot be written");
    }
  }

  @Test
  void aSampleWhoseReadsLackAContigIsNamed() {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "full.bam", null, chrU);
    Path b = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "partial.bam", null);
    String m = fault(ref, List.of(new SampleSheet.Sample("A", a, 2), new SampleSheet.Sample("B", b, 3)), null, 2);
    assertEquals("sample B: the reads " + b + " lack contig chrU of the reference, which those of sample A (" + a
        + ") have: were they aligned to other references? (call both on a --bed of the contigs they share)", m);
  }

  @Test
  void aReferenceThatDoesNotMatchTheReadsIsNamedWithTheSample() throws IOException {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "ok.bam", null);
    Path other = fasta(dir.resolve("other.fa"), new TestGenome("chrT", 30_000, 1));
    String m = fault(other, List.of(new SampleSheet.Sample("A", a, 2)), null, 2);
    assertEquals("sample A: " + a + " and " + other + " disagree: contig chrT has length 40000 in the reads but 30000"
        + " in the reference", m);
  }

  @Test
  void aSampleTheReadGroupsDoNotNameIsNamed() {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "na1.bam", "NA1");
    String m = fault(ref, List.of(new SampleSheet.Sample("NA2", a, 2)), null, 2);
    assertEquals("sample NA2: " + a + ": no read group of sample NA2; the samples of its read groups are [NA1]", m);
  }

  @Test
  void tooManyChunksIsSaidOnceNotPerSample() throws IOException {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "few.bam", null);
    Path bed = Files.writeString(dir.resolve("small.bed"), "chrT\t100\t2500\n");
    assertEquals("--chunks 4: the regions (2400 bp in 1 interval) can be cut into at most 3 chunks (a cut falls"
        + " between intervals or on a multiple of 1000 bp)", fault(ref, List.of(new SampleSheet.Sample("A", a, 2)), bed, 4));
  }

  @Test
  void excludedContigsAreLeftOutAsCallLeavesThemOut() {
    Path a = bam(TestGenome.tiled("chrT", 40_000, 3, 0, 25), "excl.bam", null, chrU);
    ScatterPlan.Result plan = ScatterPlan.plan(ref, List.of(new SampleSheet.Sample("A", a, 2)), null,
        ContigExclusion.of(List.of("chrU")), 2);
    assertEquals(List.of(new Region(0, "chrT", 0, 40_000)), plan.regions());
  }
}
