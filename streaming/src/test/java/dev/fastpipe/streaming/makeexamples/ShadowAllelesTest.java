package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShadowAllelesTest {
  @TempDir static Path dir;
  static Path fasta;
  static Path bam;

  /** Anchors (0-based) of a 4-base insertion carried by 12 reads, and of its 2-read shadow 4 bases on: one pair across the 1000 edge. */
  static final int[][] SHADOWED = {{998, 1002}, {5000, 5004}};
  /** Two real insertions of 4 bases, 8 and 5 reads, 4 bases apart: both stay. */
  static final int[] PAIR = {3000, 3004};

  @BeforeAll
  static void buildGenome() throws IOException {
    TestGenome g = TestGenome.tiled("chrS", 8000, 23, 0, 8);
    for (int[] s : SHADOWED) {
      insertionReads(g, s[0], "GAT", 12);
      insertionReads(g, s[1], "CCG", 2);
    }
    insertionReads(g, PAIR[0], "GAT", 8);
    insertionReads(g, PAIR[1], "CCG", 5);
    g.reads.sort(java.util.Comparator.comparingInt(htsjdk.samtools.SAMRecord::getAlignmentStart));
    TestGenome.Written w = g.write(dir, "reads.bam");
    fasta = w.fasta();
    bam = w.bam();
  }

  /**
   * {@code n} 100 bp reads carrying {@code stem} and one more base after 0-based {@code anchor},
   * staggered around it; the last base differs from the anchor's, so the insertion stays there.
   */
  static void insertionReads(TestGenome g, int anchor, String stem, int n) {
    char last = g.ref[anchor] == 'T' ? 'C' : 'T';
    String ins = stem + last;
    for (int k = 0; k < n; k++) {
      int before = 20 + 5 * k; // aligned bases up to and including the anchor
      int start = anchor + 1 - before;
      int after = 100 - before - ins.length();
      String seq = g.refString(start, anchor + 1) + ins + g.refString(anchor + 1, anchor + 1 + after);
      g.add(g.read(start, before + "M" + ins.length() + "I" + after + "M", seq));
    }
  }

  /** Positions of the examples of {@code shards} tasks over partitions of {@code size}. */
  static Set<Integer> examplePositions(int shards, int size, int ratio, List<byte[]> all) {
    return examplePositions(shards, size, ratio, false, all);
  }

  static Set<Integer> examplePositions(int shards, int size, int ratio, boolean realign, List<byte[]> all) {
    Set<Integer> out = new TreeSet<>();
    for (int t = 0; t < shards; t++) {
      CapturingProducer p = new CapturingProducer();
      MakeExamples.run(ExampleSettings.builder().reference(fasta).reads(bam).shards(shards).task(t).partitionSize(size)
          .realignReads(realign).indelShadowRatio(ratio).build(), p);
      for (byte[] b : MakeExamplesTest.examplesWithoutShardFields(p)) {
        ExampleRecord r = new ExampleRecord().wrap(new UnsafeBuffer(b), 0);
        out.add(r.position());
        all.add(b);
      }
    }
    return out;
  }

  @Test
  void aShadowIsNoCandidateWhereverPartitionsFall() {
    List<byte[]> one = new ArrayList<>();
    Set<Integer> positions = examplePositions(1, 1000, 3, one);
    assertEquals(Set.of(SHADOWED[0][0], SHADOWED[1][0], PAIR[0], PAIR[1]), positions,
        "the sources and both alleles of the 8:5 pair; no shadow (2 reads against 12)");
    for (int[] sizes : new int[][] {{1, 700}, {3, 333}, {2, 1001}, {1, 1003}}) {
      List<byte[]> other = new ArrayList<>();
      assertEquals(positions, examplePositions(sizes[0], sizes[1], 3, other), sizes[0] + " shards of " + sizes[1] + " bp");
      assertEquals(one.size(), other.size());
    }
    List<byte[]> realigned = new ArrayList<>();
    Set<Integer> realignedPositions = examplePositions(1, 1000, 3, true, realigned);
    for (int[] sizes : new int[][] {{1, 700}, {3, 333}}) {
      List<byte[]> other = new ArrayList<>();
      assertEquals(realignedPositions, examplePositions(sizes[0], sizes[1], 3, true, other), "realigned, " + sizes[1] + " bp");
      assertEquals(realigned.size(), other.size());
    }
    Set<Integer> off = examplePositions(1, 1000, 0, new ArrayList<>());
    assertEquals(Set.of(SHADOWED[0][0], SHADOWED[0][1], SHADOWED[1][0], SHADOWED[1][1], PAIR[0], PAIR[1]), off,
        "--indel-shadow-ratio 0 keeps the shadows");
    Set<Integer> strict = examplePositions(1, 1000, 7, new ArrayList<>());
    assertEquals(off, strict, "12 reads are 6 times 2: a ratio of 7 keeps the shadows");
  }

  static Candidate candidate(int position, String ref, String[] alts, String[] minRef, String[] minAlt, int[] ad) {
    int[][] support = new int[alts.length][];
    for (int a = 0; a < alts.length; a++) support[a] = new int[] {a};
    return new Candidate(0, "chrS", position, ref, alts, minRef, minAlt, ad, 30, support);
  }

  @Test
  void dropsOnlyTheWeakAlleleOfTheSameLengthChangeAndCutsTheRef() {
    // At 100 (ref ACGT): a 3-base deletion on 2 reads, a 1-base one on 6, a SNP on 3; at 104 a
    // 3-base deletion on 14 reads. The 2-read deletion is its shadow; the site keeps the rest, its
    // ref cut to the longest deletion left.
    Candidate site = candidate(100, "ACGT", new String[] {"A", "AGT", "CCGT"},
        new String[] {"ACGT", "AC", "A"}, new String[] {"A", "A", "C"}, new int[] {10, 2, 6, 3});
    Candidate source = candidate(104, "TAAA", new String[] {"T"}, new String[] {"TAAA"}, new String[] {"T"},
        new int[] {5, 14});
    Candidate[] out = ShadowAlleles.drop(List.of(site, source), List.of(), 3, 10);
    assertSame(source, out[1], "the source stays as it is");
    Candidate kept = out[0];
    assertEquals("AC", kept.ref);
    assertArrayEquals(new String[] {"A", "CC"}, kept.alts);
    assertArrayEquals(new String[] {"AC", "A"}, kept.minimalRef);
    assertArrayEquals(new String[] {"A", "C"}, kept.minimalAlt);
    assertArrayEquals(new int[] {10, 6, 3}, kept.alleleDepths);
    assertArrayEquals(new int[] {1}, kept.supportingReads[0], "each alt keeps its reads");
    assertArrayEquals(new int[] {2}, kept.supportingReads[1]);

    // The same source beyond the partition's edge counts alike; 11 bases away it does not; 13 reads are not 3 times 5.
    assertEquals(2, ShadowAlleles.drop(List.of(site), List.of(source), 3, 10)[0].alts.length);
    Candidate far = candidate(111, "TAAA", new String[] {"T"}, new String[] {"TAAA"}, new String[] {"T"}, new int[] {5, 14});
    assertSame(site, ShadowAlleles.drop(List.of(site, far), List.of(), 3, 10)[0]);
    Candidate[] alone = ShadowAlleles.drop(List.of(candidate(100, "ACGT", new String[] {"A"}, new String[] {"ACGT"},
        new String[] {"A"}, new int[] {20, 2})), List.of(source), 3, 10);
    assertNull(alone[0], "a candidate with nothing left is none");
    assertSame(site, ShadowAlleles.drop(List.of(site), List.of(source), 0, 10)[0], "ratio 0: off");
  }
}
