package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.pileup.IndelErrorRate;
import dev.fastpipe.streaming.pileup.ReadErrors;
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

class ReadErrorSampleTest {
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
    StrandArtifactRate withArtifacts = ReadErrorSample.measure(sample(true), ReadErrorSample.READS).strandArtifacts();
    StrandArtifactRate clean = ReadErrorSample.measure(sample(false), ReadErrorSample.READS).strandArtifacts();
    // 99 artifact sites among ~100,000 columns, with the prior's 2,000 columns at 1.1e-4 beside them
    assertTrue(withArtifacts.rate() > 5e-4, withArtifacts.describe());
    assertTrue(clean.rate() < 1e-5, clean.describe());
    assertTrue(clean.columns() > 99_000, clean.describe());
  }

  @Test
  void onlyTheFirstReadsOfTheFileAreSampled() throws Exception {
    ExampleSettings s = sample(true);
    StrandArtifactRate few = ReadErrorSample.measure(s, 2_000).strandArtifacts(); // 2,000 reads: the first 10 kb
    assertEquals(10_000 + 95, few.columns(), 100, few.describe());
    assertEquals(few, ReadErrorSample.measure(s, 2_000).strandArtifacts(), "the same reads fit the same rate");
  }

  @Test
  void readsOnTheMitochondrionOrOnExcludedContigsAreNotSampled() throws Exception {
    StrandArtifactRate mito = ReadErrorSample.measure(sample("chrM", true), ReadErrorSample.READS).strandArtifacts();
    assertEquals(0, mito.columns(), mito.describe());
    assertEquals(StrandArtifactRate.DEFAULT, mito.rate(), mito.describe());
    ExampleSettings s = sample("chrA", true);
    ExampleSettings excluded = ExampleSettings.builder().reference(s.inputs().reference()).reads(s.inputs().reads())
        .excludeContigs(List.of("chrA")).build();
    assertEquals(0, ReadErrorSample.measure(excluded, ReadErrorSample.READS).strandArtifacts().columns());
    for (String name : List.of("chrM", "MT", "M", "chrMT")) assertTrue(ReadErrorSample.MITOCHONDRIAL.matcher(name).matches(), name);
    for (String name : List.of("chr1", "chrMX", "20")) assertTrue(!ReadErrorSample.MITOCHONDRIAL.matcher(name).matches(), name);
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
    StrandArtifactRate r = ReadErrorSample.measure(
        ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(), ReadErrorSample.READS).strandArtifacts();
    assertTrue(r.columns() > 19_000, r.describe());
  }

  /**
   * Reads tiled at depth 20 whose bases all say Q{@code quality}; each base is wrong with probability
   * {@code error} (at random, so two reads seldom agree on a wrong base).
   */
  BaseErrorRate baseErrors(int quality, double error, String name) throws Exception {
    TestGenome g = new TestGenome("chrA", LENGTH, 11);
    Random rnd = new Random(13);
    for (int s = 0; s + 100 <= LENGTH; s += STEP) {
      StringBuilder bases = new StringBuilder(g.refString(s, s + 100));
      for (int i = 0; i < 100; i++) if (rnd.nextDouble() < error) bases.setCharAt(i, other((byte) bases.charAt(i)));
      SAMRecord r = g.read(s, "100M", bases.toString());
      java.util.Arrays.fill(r.getBaseQualities(), (byte) quality);
      g.add(r);
    }
    TestGenome.Written w = g.write(dir, name);
    return ReadErrorSample.measure(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(),
        ReadErrorSample.READS).bases();
  }

  /**
   * Reads at depth 20, strands alternating, with no variant: Q20 bases that err at 1 %, each wrong
   * base showing the base after the reference's (A to C, T to A) on forward reads and the base
   * before it on reverse reads, as wgsim's errors do. Two random errors then agree on their base on
   * one strand nine times as often as a third each would make them, and on both strands hardly ever.
   */
  ReadErrors oneSidedErrors() throws Exception {
    TestGenome g = new TestGenome("chrA", LENGTH, 17);
    Random rnd = new Random(19);
    String acgt = "ACGT";
    int n = 0;
    for (int s = 0; s + 100 <= LENGTH; s += STEP, n++) {
      boolean reverse = n % 2 == 1;
      StringBuilder bases = new StringBuilder(g.refString(s, s + 100));
      for (int i = 0; i < 100; i++) {
        if (rnd.nextDouble() >= 0.01) continue;
        int ref = acgt.indexOf(Character.toUpperCase(bases.charAt(i)));
        bases.setCharAt(i, acgt.charAt((ref + (reverse ? 3 : 1)) % 4));
      }
      SAMRecord r = g.read(s, "100M", bases.toString());
      java.util.Arrays.fill(r.getBaseQualities(), (byte) 20);
      r.setReadNegativeStrandFlag(reverse);
      g.add(r);
    }
    TestGenome.Written w = g.write(dir, "one-sided.bam");
    return ReadErrorSample.measure(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(), ReadErrorSample.READS);
  }

  @Test
  void errorsThatFavourOneBasePerStrandAreMeasuredAndNotTakenForStrandArtifacts() throws Exception {
    ReadErrors errors = oneSidedErrors();
    BaseErrorRate bases = errors.bases();
    // about 2,500 wrong bases per reference base and strand, the prior's 300 a third each beside them
    assertTrue(bases.wrongShare(0, false, 1) > 0.85, "A to C on forward reads: " + bases.describe());
    assertTrue(bases.wrongShare(0, true, 3) > 0.85, "A to T on reverse reads: " + bases.describe());
    assertTrue(bases.wrongShare(0, false, 3) < 0.1 && bases.wrongShare(3, true, 0) < 0.1, bases.describe());
    // with a third each (the code before the shares) these reads fitted 9.5e-4: 97 of the 99,990
    // columns taken for artifacts, the columns where two reads of one strand showed one wrong base
    StrandArtifactRate fitted = errors.strandArtifacts();
    // (with the shares: 2.9e-6, 0.1 artifacts)
    assertTrue(fitted.rate() < 1e-5, fitted.describe());
  }

  @Test
  void basesThatErrMoreThanTheirQualityPromisesAreGivenTheirMeasuredRate() throws Exception {
    // Q40 promises 1e-4; these bases err at 0.5 % (Mason 2's Q40 bases err at 0.2 %).
    BaseErrorRate lying = baseErrors(40, 0.005, "lying.bam");
    // (a little below 0.5 %: columns where two reads share a wrong base, and the prior's 20,000 bases at 1e-4)
    assertTrue(lying.at(40) > 0.004 && lying.at(40) < 0.0055, lying.describe());
    assertEquals(1e-3, lying.at(30), 1e-9, "a quality no base has keeps its promise: " + lying.describe());
    // Q30 bases that err at 0.05 % keep Q30's 0.1 %: a rate is never lowered below the promise.
    BaseErrorRate honest = baseErrors(30, 0.0005, "honest.bam");
    assertEquals(1e-3, honest.at(30), 1e-9, honest.describe());
    assertTrue(honest.bases() > 1_000_000, honest.describe());
  }

  /**
   * A genome with a run of 14 A's every 200 bases (and no other A), read at depth 20; one read in four drops an A
   * of the run (a deletion written left-aligned, after the base before the run), as reads stutter,
   * and one read in 100 elsewhere has a deletion of its own. The runs' class gets the stutter's rate;
   * the columns without a repeat stay below the floor, and the columns inside the runs count for
   * nothing (no aligner writes a run's indel there).
   */
  @Test
  void indelErrorsAreMeasuredPerRepeatLengthAtTheColumnBeforeTheRepeat() throws Exception {
    TestGenome g = new TestGenome("chrA", LENGTH, 7);
    List<Integer> runs = runsOf14A(g);
    int n = 0;
    for (int s = 0; s + 100 <= LENGTH; s += STEP, n++) {
      int run = runAcross(runs, s);
      if (run >= 0 && n % 4 == 0) {
        int k = run - s; // the run's first A in the read: bases k..k+13; drop one, write 1D after base k-1
        String bases = g.refString(s, run) + g.refString(run + 1, s + 101);
        g.add(g.read(s, k + "M1D" + (100 - k) + "M", bases));
      } else if (run < 0 && n % 100 == 7) {
        g.add(g.read(s, "50M1D50M", g.refString(s, s + 50) + g.refString(s + 51, s + 101)));
      } else {
        g.add(g.refRead(s, 100));
      }
    }
    TestGenome.Written w = g.write(dir, "stutter.bam");
    IndelErrorRate r = ReadErrorSample.measure(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(),
        ReadErrorSample.READS).indels();
    // About 2.4 reads of 20 at each run's anchor (a quarter of the ~9.4 that reach 20 bases past both
    // ends), 0.12 a read, with the prior's 2,000 reads at the floor beside the ~9,900 of the runs: ~0.1.
    assertTrue(r.at(14, 1) > 0.07 && r.at(14, 1) < 0.13, r.describe());
    assertEquals(IndelErrorRate.FLOOR, r.at(14, 2), "no STR of that length slips: " + r.describe());
    assertEquals(IndelErrorRate.FLOOR, r.at(0, 0), r.describe());
    assertTrue(r.rates()[0] < IndelErrorRate.FLOOR, r.describe());
    assertTrue(r.rates()[0] > 1e-5, "the deletions elsewhere count: " + r.describe());
  }

  /**
   * Runs of 14 A's every 200 bases, read at depth 20: one read in four drops an A of a run (a
   * one-unit slip) and about one in eighty two A's; every tenth run is a het two-base deletion instead
   * (every other read drops two A's). The slips give a two-unit slip about 1/20 of a one-unit one;
   * the hets' columns, whose reads would take it to about a quarter, count for nothing.
   */
  @Test
  void slipsAreCountedByUnitsAwayFromColumnsThatLookLikeAVariants() throws Exception {
    TestGenome g = new TestGenome("chrA", LENGTH, 9);
    List<Integer> runs = runsOf14A(g);
    int n = 0;
    for (int s = 0; s + 100 <= LENGTH; s += STEP, n++) {
      int run = runAcross(runs, s);
      int dropped = 0;
      if (run >= 0 && runs.indexOf(run) % 10 == 0) dropped = n % 2 == 0 ? 2 : 0;
      else if (run >= 0 && n % 4 == 0) dropped = 1;
      else if (run >= 0 && n % 61 == 2) dropped = 2; // 61: every offset into a run, where 60 would alias with the 200-base spacing
      if (dropped == 0) {
        g.add(g.refRead(s, 100));
      } else {
        int k = run - s;
        g.add(g.read(s, k + "M" + dropped + "D" + (100 - k) + "M", g.refString(s, run) + g.refString(run + dropped, s + 100 + dropped)));
      }
    }
    TestGenome.Written w = g.write(dir, "units.bam");
    IndelErrorRate r = ReadErrorSample.measure(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(),
        ReadErrorSample.READS).indels();
    double two = r.unitShare(14, 1, 2);
    assertTrue(two > 0.03 && two < 0.08, "two-unit slips per one-unit slip: " + two + "; " + r.describe());
    assertTrue(r.unitShare(14, 1, 3) < 0.02, "no three-unit slip: the prior's part: " + r.describe());
    assertEquals(0.1, r.unitShare(14, 2, 4), 1e-12, "no dinucleotide repeat: the prior");
  }

  /** Makes {@code g}'s only A's runs of 14 every 200 bases from 500; their starts. */
  static List<Integer> runsOf14A(TestGenome g) {
    for (int i = 0; i < LENGTH; i++) if (g.ref[i] == 'A') g.ref[i] = 'C';
    List<Integer> runs = new ArrayList<>();
    for (int p = 500; p + 14 < LENGTH - 500; p += 200) {
      for (int i = 0; i < 14; i++) g.ref[p + i] = 'A';
      runs.add(p);
    }
    return runs;
  }

  /** The run a 100 bp read from {@code s} reaches 20 bases before and past, or -1. */
  static int runAcross(List<Integer> runs, int s) {
    int run = -1;
    for (int p : runs) if (p - 20 >= s && p + 34 <= s + 100) run = p;
    return run;
  }
}
