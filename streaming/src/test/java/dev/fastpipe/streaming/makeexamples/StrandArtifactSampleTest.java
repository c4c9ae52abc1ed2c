package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StrandArtifactSampleTest {
  static final int LENGTH = 100_000;
  static final int STEP = 5; // a 100 bp read every 5 bases, strands alternating: depth 20, 10 per strand

  @TempDir Path dir;

  /**
   * Reads tiled over a random genome with a het every 1,000 bases (alt on both strands, every other
   * read) and, if {@code artifacts}, a strand artifact every 1,000 bases between them: 4 of the 10
   * forward reads with one wrong base, the reverse reads clean.
   */
  ExampleSettings sample(boolean artifacts) throws Exception {
    return sample("chrA", artifacts);
  }

  ExampleSettings sample(String contig, boolean artifacts) throws Exception {
    TestGenome g = new TestGenome(contig, LENGTH, 5);
    List<Integer> hets = new ArrayList<>();
    List<Integer> artifactSites = new ArrayList<>();
    for (int p = 500; p < LENGTH - 500; p += 1000) {
      hets.add(p);
      if (artifacts) artifactSites.add(p + 500);
    }
    Random rnd = new Random(9);
    int n = 0;
    for (int s = 0; s + 100 <= LENGTH; s += STEP, n++) {
      boolean reverse = n % 2 == 1;
      StringBuilder bases = new StringBuilder(g.refString(s, s + 100));
      for (int h : hets) if (h >= s && h < s + 100 && (n / 2) % 2 == 0) bases.setCharAt(h - s, other(g.ref[h]));
      for (int a : artifactSites) {
        if (a >= s && a < s + 100 && !reverse && rnd.nextInt(10) < 4) bases.setCharAt(a - s, other(g.ref[a]));
      }
      SAMRecord r = g.read(s, "100M", bases.toString());
      r.setReadNegativeStrandFlag(reverse);
      g.add(r);
    }
    TestGenome.Written w = g.write(dir, (artifacts ? "artifacts" : "clean") + ".bam");
    return ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build();
  }

  static char other(byte base) {
    return base == 'A' ? 'C' : 'A';
  }

  @Test
  void strandArtifactsInTheReadsRaiseTheRateAndCleanReadsLowerIt() throws Exception {
    StrandArtifactRate withArtifacts = StrandArtifactSample.measure(sample(true), StrandArtifactSample.READS);
    StrandArtifactRate clean = StrandArtifactSample.measure(sample(false), StrandArtifactSample.READS);
    // 99 artifact sites among ~100,000 columns, with the prior's 2,000 columns at 1.1e-4 beside them
    assertTrue(withArtifacts.rate() > 5e-4, withArtifacts.describe());
    assertTrue(clean.rate() < 1e-5, clean.describe());
    assertTrue(clean.columns() > 99_000, clean.describe());
  }

  @Test
  void onlyTheFirstReadsOfTheFileAreSampled() throws Exception {
    ExampleSettings s = sample(true);
    StrandArtifactRate few = StrandArtifactSample.measure(s, 2_000); // 2,000 reads: the first 10 kb
    assertEquals(10_000 + 95, few.columns(), 100, few.describe());
    assertEquals(few, StrandArtifactSample.measure(s, 2_000), "the same reads fit the same rate");
  }

  @Test
  void readsOnTheMitochondrionOrOnExcludedContigsAreNotSampled() throws Exception {
    StrandArtifactRate mito = StrandArtifactSample.measure(sample("chrM", true), StrandArtifactSample.READS);
    assertEquals(0, mito.columns(), mito.describe());
    assertEquals(StrandArtifactRate.DEFAULT, mito.rate(), mito.describe());
    ExampleSettings s = sample("chrA", true);
    ExampleSettings excluded = ExampleSettings.builder().reference(s.inputs().reference()).reads(s.inputs().reads())
        .excludeContigs(List.of("chrA")).build();
    assertEquals(0, StrandArtifactSample.measure(excluded, StrandArtifactSample.READS).columns());
    for (String name : List.of("chrM", "MT", "M", "chrMT")) assertTrue(StrandArtifactSample.MITOCHONDRIAL.matcher(name).matches(), name);
    for (String name : List.of("chr1", "chrMX", "20")) assertTrue(!StrandArtifactSample.MITOCHONDRIAL.matcher(name).matches(), name);
  }

  @Test
  void anUnmappedReadPlacedBesideItsMateDoesNotEndTheSample() throws Exception {
    TestGenome g = TestGenome.tiled("chrA", 20_000, 5, 0, 5);
    SAMRecord unmapped = g.read(1_000, "100M", g.refString(1_000, 1_100));
    unmapped.setReadUnmappedFlag(true); // placed at its mate's position, as bwa writes it
    unmapped.setCigarString("*");
    unmapped.setMappingQuality(0);
    g.add(unmapped);
    TestGenome.Written w = g.write(dir, "placed.bam");
    StrandArtifactRate r = StrandArtifactSample.measure(
        ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(), StrandArtifactSample.READS);
    assertTrue(r.columns() > 19_000, r.describe());
  }
}
