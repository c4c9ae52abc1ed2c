package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.Partition;
import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * make_examples with realignment on a BAM whose carriers of 4 bp insertions in (GATA)x6 repeats
 * were aligned as a short-read aligner does near read ends (soft clips, mismatches), with the
 * repeats placed on and near partition boundaries: the examples are the same, byte for byte, for 1
 * and 3 shards and for other partition sizes, and the realigner's counters add up the same.
 */
class RealignedExamplesTest {
  @TempDir static Path dir;
  static TestGenome g;
  static Path fasta;
  static Path bam;
  /** Repeat starts: across, just before and just after partition boundaries of 1000 and 700. */
  static final int[] REPEATS = {985, 2090, 4190, 6010, 8396};
  static final String INS = "GATA";

  @BeforeAll
  static void buildGenome() throws IOException {
    g = new TestGenome("chrT", 10000, 17);
    StringBuilder alt = new StringBuilder();
    int[] altAfter = new int[REPEATS.length]; // alt coordinate of each insertion's first base
    int from = 0;
    for (int e = 0; e < REPEATS.length; e++) {
      int p = REPEATS[e];
      g.ref[p - 1] = 'C';
      for (int i = 0; i < 24; i++) g.ref[p + i] = (byte) "GATA".charAt(i % 4);
      g.ref[p + 24] = 'C';
      g.ref[p + 40] = 'T'; // a SNP on the alt haplotype nearby
    }
    for (int e = 0; e < REPEATS.length; e++) {
      int after = REPEATS[e] + 24;
      alt.append(g.refString(from, after));
      altAfter[e] = alt.length();
      alt.append(INS);
      from = after;
    }
    alt.append(g.refString(from, g.ref.length));
    for (int e = 0; e < REPEATS.length; e++) alt.setCharAt(altAfter[e] + 4 + 16, 'G'); // ref p + 40 is T
    int i = 0;
    for (int start = 0; start + 100 <= g.ref.length; start += 3, i++) g.add(g.refRead(start, 100));
    for (int a = 1; a + 100 <= alt.length(); a += 3, i++) {
      int shift = 0;
      int d = -1;
      for (int e = 0; e < REPEATS.length; e++) {
        if (altAfter[e] + 4 <= a) shift += 4;
        else if (altAfter[e] > a && altAfter[e] + 4 < a + 100) d = altAfter[e] - a;
      }
      int refStart = a - shift;
      String seq = alt.substring(a, a + 100);
      String cigar = "100M";
      if (d >= 0) {
        boolean clip = i % 2 == 0; // alternate the two ways an aligner gets it wrong
        if (d >= 70) {
          cigar = clip ? d + "M" + (100 - d) + "S" : "100M";
        } else if (d <= 25) {
          if (clip) {
            cigar = (d + 4) + "S" + (96 - d) + "M";
            refStart += d;
          } else {
            refStart -= 4;
          }
        } else {
          cigar = d + "M4I" + (96 - d) + "M";
        }
      }
      if (refStart + 100 > g.ref.length) continue;
      g.add(g.read(refStart, cigar, seq));
    }
    fasta = g.writeFasta(dir);
    bam = g.writeBam(dir, "reads.bam");
    // Truth for labelled runs (whose examples carry the small model's features): each insertion
    // (after the C before its repeat) and each SNP, het.
    StringBuilder vcf = new StringBuilder("##fileformat=VCFv4.2\n##contig=<ID=chrT,length=10000>\n"
        + "##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\n");
    for (int p : REPEATS) {
      vcf.append("chrT\t").append(p + 24).append("\t.\tA\tA").append(INS).append("\t.\tPASS\t.\tGT\t0|1\n");
      vcf.append("chrT\t").append(p + 41).append("\t.\tT\tG\t.\tPASS\t.\tGT\t0|1\n");
    }
    truth = dir.resolve("truth.vcf");
    Files.writeString(truth, vcf.toString());
    confident = dir.resolve("confident.bed");
    Files.writeString(confident, "chrT\t0\t10000\n");
  }

  static Path truth;
  static Path confident;

  static ExampleSettings.Builder options(int shards, int task, int partitionSize) {
    return ExampleSettings.builder().reference(fasta).reads(bam).shards(shards).task(task).partitionSize(partitionSize);
  }

  /** The examples, with the fields that name where they were made (shard, sequence, partition) zeroed, by position. */
  static List<byte[]> examples(List<CapturingProducer> producers) {
    List<byte[]> out = new ArrayList<>();
    for (CapturingProducer p : producers) {
      for (byte[] b : MakeExamplesTest.examplesWithoutShardFields(p)) {
        new UnsafeBuffer(b).putLong(ExampleRecordDescriptor.PARTITION_OFFSET, 0);
        out.add(b);
      }
    }
    out.sort(Comparator.comparingInt(b -> new ExampleRecord().wrap(new UnsafeBuffer(b), 0).position()));
    return out;
  }

  /** {@code seen}: reads the tasks counted (passing the filters or not), each read once over the tasks. */
  record Run(List<byte[]> examples, long windows, long fallbacks, long reads, long seen) {}

  static Run run(int shards, int partitionSize, boolean realign) {
    return run(shards, partitionSize, realign, false);
  }

  static Run run(int shards, int partitionSize, boolean realign, boolean labelled) {
    return run(shards, t -> {
      ExampleSettings.Builder o = options(shards, t, partitionSize).realignReads(realign);
      if (labelled) o.truthVcf(truth).confidentBed(confident);
      return o.build();
    });
  }

  /** Runs tasks 0..shards-1 with {@code options.apply(task)} and gathers their examples and realigner counters. */
  static Run run(int shards, java.util.function.IntFunction<ExampleSettings> options) {
    List<CapturingProducer> producers = new ArrayList<>();
    long windows = 0;
    long fallbacks = 0;
    long reads = 0;
    long seen = 0;
    for (int t = 0; t < shards; t++) {
      CapturingProducer p = new CapturingProducer();
      MakeExamplesStats s = MakeExamples.run(options.apply(t), p);
      windows += s.realignedWindows;
      fallbacks += s.realignFallbackWindows;
      reads += s.realignedReads;
      seen += s.readsSeen();
      producers.add(p);
    }
    return new Run(examples(producers), windows, fallbacks, reads, seen);
  }

  static void assertSame(Run expected, Run actual, String what) {
    assertEquals(expected.examples().size(), actual.examples().size(), what + ": examples");
    for (int i = 0; i < expected.examples().size(); i++) {
      assertArrayEquals(expected.examples().get(i), actual.examples().get(i), what + ": example " + i);
    }
    assertEquals(expected.windows(), actual.windows(), what + ": windows realigned");
    assertEquals(expected.fallbacks(), actual.fallbacks(), what + ": windows fallen back");
    assertEquals(expected.reads(), actual.reads(), what + ": reads realigned");
    assertEquals(expected.seen(), actual.seen(), what + ": reads seen (each counted by one task)");
  }

  @Test
  void realignmentFindsEachInsertionOnce() {
    Run on = run(1, 1000, true);
    assertTrue(on.windows() >= REPEATS.length, "a window per repeat: " + on.windows());
    assertTrue(on.reads() > 0);
    List<Integer> positions = new ArrayList<>();
    for (byte[] b : on.examples()) positions.add(new ExampleRecord().wrap(new UnsafeBuffer(b), 0).position());
    for (int p : REPEATS) {
      assertEquals(1, positions.stream().filter(x -> x == p - 1).count(), "one insertion example at " + (p - 1));
      assertEquals(1, positions.stream().filter(x -> x == p + 40).count(), "one SNP example at " + (p + 40));
    }
    assertEquals(2 * REPEATS.length, positions.size(), "nothing else: " + positions);
    Run off = run(1, 1000, false);
    boolean differ = on.examples().size() != off.examples().size();
    for (int i = 0; !differ && i < on.examples().size(); i++) {
      differ = !java.util.Arrays.equals(on.examples().get(i), off.examples().get(i));
    }
    assertTrue(differ, "realigned reads are drawn in the images");
    assertEquals(0, off.windows() + off.reads(), "--no-realign-reads realigns nothing");
  }

  @Test
  void partitionsWhoseFetchedRangesTouchShareOneStream() {
    Partition a = new Partition(0, 0, "chrT", 0, 1000);
    int pad = 125;
    assertTrue(MakeExamples.rangesTouch(a, new Partition(1, 0, "chrT", 1000, 2000), pad), "adjacent");
    assertTrue(MakeExamples.rangesTouch(a, new Partition(2, 0, "chrT", 1250, 2250), pad), "gap of two pads");
    assertFalse(MakeExamples.rangesTouch(a, new Partition(2, 0, "chrT", 1251, 2251), pad), "gap wider than two pads");
    assertFalse(MakeExamples.rangesTouch(a, new Partition(1, 1, "chrU", 1000, 2000), pad), "another contig");
    // Two shards of 1000 bp partitions take turns: with realignment's margin each shard's
    // partitions (1000 bp apart) stream; without it they are queried one by one. Both ways give
    // the examples one shard gives, and count each read once.
    assertSame(run(1, 1000, true), run(2, 1000, true), "2 shards, realigned");
    assertSame(run(1, 1000, false), run(2, 1000, false), "2 shards, not realigned");
  }

  @Test
  void threeShardsGiveTheSameExamplesAsOne() {
    assertSame(run(1, 1000, true), run(3, 1000, true), "3 shards");
  }

  @Test
  void partitionSizeDoesNotChangeTheExamples() {
    Run base = run(1, 1000, true);
    assertSame(base, run(1, 700, true), "700 bp partitions");
    assertSame(base, run(2, 333, true), "333 bp partitions over 2 shards");
  }

  @Test
  void candidateFeaturesDoNotDependOnPartitions() {
    // Each insertion and its SNP are 41 bp apart; with 1000 bp partitions the pair at 985 is split
    // by the edge at 1000, with 700 bp partitions the pairs at 2090 and 4190 are (2100, 4200).
    Run base = run(1, 1000, true, true);
    int features = 0;
    for (byte[] b : base.examples()) {
      ExampleRecord r = new ExampleRecord().wrap(new UnsafeBuffer(b), 0);
      if (r.floatCount() == 0) continue;
      features++;
      assertEquals(41f, r.floatAt(CandidateFeatures.NAMES.indexOf("nearest_candidate")), "at " + r.position()
          + ": the neighbour 41 bp away, across a partition edge or not");
    }
    assertEquals(2 * REPEATS.length, features, "every labelled example carries its features");
    assertSame(base, run(1, 700, true, true), "700 bp partitions, labelled");
    assertSame(base, run(3, 333, true, true), "333 bp partitions over 3 shards, labelled");
  }
}
