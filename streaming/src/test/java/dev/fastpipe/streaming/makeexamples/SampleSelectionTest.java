package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.plan.InputFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SAMRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of several samples: {@code --sample NAME} calls that sample from its own read groups only;
 * without it, or with a name no read group has, the run stops and lists the samples.
 */
class SampleSelectionTest {
  @TempDir static Path dir;
  static Path fasta;
  static Path twoSamples;
  static final int SNP = 3000;

  @BeforeAll
  static void files() throws IOException {
    TestGenome g = new TestGenome("chrT", 8000, 21);
    for (String[] rg : new String[][] {{"lane1", "S1"}, {"lane2", "S2"}, {"lane3", "S2"}}) {
      SAMReadGroupRecord r = new SAMReadGroupRecord(rg[0]);
      r.setSample(rg[1]);
      g.header.addReadGroup(r);
    }
    int n = 0;
    for (int start = 0; start + 100 <= 8000; start += 5, n++) {
      String lane = n % 3 == 0 ? "lane1" : n % 3 == 1 ? "lane2" : "lane3";
      String seq = g.refString(start, start + 100);
      if (!lane.equals("lane1") && SNP >= start && SNP < start + 100) { // S2 is homozygous for the SNP
        seq = TestGenome.mutate(seq, SNP - start, g.ref[SNP] == 'A' ? 'C' : 'A');
      }
      SAMRecord r = g.add(g.read(start, "100M", seq));
      r.setAttribute("RG", lane);
    }
    fasta = g.writeFasta(dir);
    twoSamples = g.writeBam(dir, "two.bam");
  }

  static List<Integer> examplePositions(String sample) {
    ExampleSettings o = ExampleSettings.builder().reference(fasta).reads(twoSamples).sample(sample).build();
    CapturingProducer p = new CapturingProducer();
    MakeExamples.run(o, p);
    List<Integer> positions = new ArrayList<>();
    ExampleRecord r = new ExampleRecord();
    for (byte[] b : p.records) {
      r.wrap(new UnsafeBuffer(b), 0);
      if (r.isExample()) positions.add(r.position());
    }
    return positions;
  }

  @Test
  void theNamedSampleIsCalledFromItsOwnReadGroups() {
    assertEquals(List.of(SNP), examplePositions("S2"));
    assertEquals(List.of(), examplePositions("S1"), "S1's reads carry no variant; S2's are not pooled in");
  }

  @Test
  void withoutASampleOrWithAnUnknownOneTheSamplesAreListed() {
    InputException e = assertThrows(InputException.class, () -> examplePositions(null));
    assertEquals(twoSamples + ": read groups name several samples [S1, S2]; pass --sample NAME to call one", e.getMessage());
    e = assertThrows(InputException.class, () -> examplePositions("S3"));
    assertEquals(twoSamples + ": no read group of sample S3; the samples of its read groups are [S1, S2]", e.getMessage());
  }

  @Test
  void oneSampleOrNoneNeedsNoSelection() throws IOException {
    SAMFileHeader one = new SAMFileHeader();
    SAMReadGroupRecord rg = new SAMReadGroupRecord("a");
    rg.setSample("NA12878");
    one.addReadGroup(rg);
    Path reads = Files.createFile(dir.resolve("one.bam"));
    assertEquals("NA12878", SampleNames.resolve(reads, one, null));
    assertEquals("NA12878", SampleNames.resolve(reads, one, "NA12878"));
    assertNull(SampleNames.readGroupsOf(one, "NA12878"), "every read is the sample's: no filtering");
    InputException e = assertThrows(InputException.class, () -> SampleNames.resolve(reads, one, "HG002"));
    assertEquals(reads + ": no read group of sample HG002; the samples of its read groups are [NA12878]", e.getMessage());
    SAMFileHeader none = new SAMFileHeader();
    assertNull(SampleNames.select(reads, none, null), "make_examples needs no name");
    assertEquals("X", SampleNames.resolve(reads, none, "X"), "the name given names the VCF's sample");
    e = assertThrows(InputException.class, () -> SampleNames.resolve(reads, none, null));
    assertEquals(reads + ": no read group with a sample name (SM); pass --sample NAME", e.getMessage());
  }

  @Test
  void theSelectionTravelsWithThePlan() {
    ExampleSettings o = ExampleSettings.builder().reference(fasta).reads(twoSamples).sample("S2").build();
    try (InputFiles in = new InputFiles(fasta, twoSamples)) {
      RunPlan back = RunPlan.fromText(RunPlan.forCall(o, in, false).toText());
      assertEquals("S2", back.settings().inputs().sample());
      assertEquals(Set.of("lane2", "lane3"), SampleNames.readGroupsOf(in.reads.getFileHeader(), "S2"));
      assertTrue(new ReadFilter(back.settings().readFilters(), back.settings().inputs().sample(), in.reads.getFileHeader()).accept(withGroup(in, "lane3")));
      assertFalse(new ReadFilter(back.settings().readFilters(), back.settings().inputs().sample(), in.reads.getFileHeader()).accept(withGroup(in, "lane1")));
    }
  }

  static SAMRecord withGroup(InputFiles in, String lane) {
    SAMRecord r = new SAMRecord(in.reads.getFileHeader());
    r.setReferenceName("chrT");
    r.setAlignmentStart(10);
    r.setCigarString("4M");
    r.setReadString("ACGT");
    r.setMappingQuality(60);
    r.setAttribute("RG", lane);
    return r;
  }
}
