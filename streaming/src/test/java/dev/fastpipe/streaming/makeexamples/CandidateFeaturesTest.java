package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Summary features of hand-built candidates: counts, fractions, qualities, strand, context, type. */
class CandidateFeaturesTest {
  final ExampleSettings.Builder o = ExampleSettings.builder();
  final TestGenome g = new TestGenome("chrT", 2000, 11);

  float f(float[] x, String name) {
    return x[CandidateFeatures.NAMES.indexOf(name)];
  }

  List<Candidate> count(List<SAMRecord> reads) {
    AlleleCounter c = new AlleleCounter(o.readFilters(), o.candidates());
    c.reset(0, g.contig, 900, 1100, g.ref, 0);
    for (int i = 0; i < reads.size(); i++) c.add(reads.get(i), i);
    return c.candidates();
  }

  @Test
  void snpCountsFractionsQualitiesAndStrand() {
    char alt = g.ref[1000] == 'A' ? 'C' : 'A';
    List<SAMRecord> reads = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String seq = g.refString(950, 1050);
      if (i < 8) seq = TestGenome.mutate(seq, 50, alt);
      SAMRecord r = g.read(950, "100M", seq);
      if (i < 8) {
        r.setReadNegativeStrandFlag(i < 2); // alt: 6 forward, 2 reverse
        r.setMappingQuality(i < 4 ? 10 : 50); // alt MQ: 4 x 10, 4 x 50 -> mean 30, low-MQ share 0.5
        r.getBaseQualities()[50] = 20;
      } else {
        r.setReadNegativeStrandFlag(i % 2 == 0); // ref: 6 forward, 6 reverse
      }
      reads.add(r);
    }
    List<Candidate> cs = count(reads);
    assertEquals(1, cs.size());
    float[] x = new CandidateFeatures().compute(cs.get(0), reads, all(reads), reads.size(), g.ref, 0,
        CandidateFeatures.nearestCandidate(cs, 0), new float[CandidateFeatures.COUNT]);
    assertEquals(20, f(x, "depth"));
    assertEquals(12, f(x, "ref_count"));
    assertEquals(8, f(x, "alt_count"));
    assertEquals(0, f(x, "other_count"));
    assertEquals(0.6f, f(x, "ref_fraction"), 1e-6);
    assertEquals(0.4f, f(x, "alt_fraction"), 1e-6);
    assertEquals(20, f(x, "alt_mean_bq"), 1e-6);
    assertEquals(30, f(x, "alt_mean_mq"), 1e-6);
    assertEquals(30, f(x, "ref_mean_bq"), 1e-6);
    assertEquals(60, f(x, "ref_mean_mq"), 1e-6);
    assertEquals(0.75f, f(x, "alt_forward_fraction"), 1e-6);
    assertEquals(0.5f, f(x, "alt_strand_imbalance"), 1e-6, "|6 - 2| / 8");
    assertEquals(0.5f, f(x, "ref_forward_fraction"), 1e-6);
    assertEquals(0.5f, f(x, "alt_low_mq_fraction"), 1e-6);
    assertEquals(CandidateFeatures.DISTANCE_CAP, f(x, "nearest_candidate"), "alone in its partition");
    assertEquals(1, f(x, "is_snp"));
    assertEquals(0, f(x, "is_insertion"));
    assertEquals(0, f(x, "is_deletion"));
    assertEquals(0, f(x, "indel_length"));
  }

  @Test
  void readsThatDeleteTheCandidatesBaseAreCountedApartFromTheFeatures() {
    char alt = g.ref[1000] == 'A' ? 'C' : 'A';
    List<SAMRecord> reads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      // 4 alt reads, 3 reference reads, 5 reads whose deletion of 999-1001 takes the site's base
      if (i < 5) reads.add(g.read(950, "49M3D51M", g.refString(950, 999) + g.refString(1002, 1053)));
      else reads.add(g.read(950, "100M", i < 9 ? TestGenome.mutate(g.refString(950, 1050), 50, alt) : g.refString(950, 1050)));
    }
    List<Candidate> cs = count(reads);
    Candidate snp = cs.stream().filter(c -> c.position == 1000).findFirst().orElseThrow();
    CandidateFeatures features = new CandidateFeatures();
    float[] x = features.compute(snp, reads, all(reads), reads.size(), g.ref, 0, CandidateFeatures.nearestCandidate(cs, 0),
        new float[CandidateFeatures.COUNT]);
    assertEquals(7, f(x, "depth"), "the reads with a base there");
    assertEquals(5, features.deletingReads());
    List<SAMRecord> withBases = reads.subList(5, 12);
    List<Candidate> again = count(withBases);
    features.compute(again.get(0), withBases, all(withBases), withBases.size(), g.ref, 0, CandidateFeatures.DISTANCE_CAP,
        new float[CandidateFeatures.COUNT]);
    assertEquals(0, features.deletingReads(), "each candidate counts its own");
  }

  @Test
  void deletionInAHomopolymerHasItsLengthAndContext() {
    byte[] ref = g.ref;
    ref[999] = 'C';
    for (int i = 1000; i < 1007; i++) ref[i] = 'A'; // A x 7 at 1000..1006
    ref[1007] = 'G';
    ref[1008] = 'T';
    List<SAMRecord> reads = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      reads.add(i < 5 ? g.read(950, "56M1D44M", g.refString(950, 1006) + g.refString(1007, 1051)) : g.refRead(950, 100));
    }
    List<Candidate> cs = count(reads);
    assertEquals(1, cs.size());
    Candidate d = cs.get(0);
    assertEquals(999, d.position);
    float[] x = new CandidateFeatures().compute(d, reads, all(reads), reads.size(), ref, 0,
        CandidateFeatures.nearestCandidate(cs, 0), new float[CandidateFeatures.COUNT]);
    assertEquals(-1, f(x, "indel_length"));
    assertEquals(1, f(x, "is_deletion"));
    assertEquals(0, f(x, "is_snp"));
    assertEquals(7, f(x, "homopolymer_length"), "the run of A after the anchor base");
    assertEquals(7, f(x, "str_length"));
    assertEquals(5, f(x, "alt_count"));
  }

  @Test
  void tandemRepeatsAndHomopolymers() {
    byte[] s = "GTCACACACAGT".getBytes();
    assertEquals(8, CandidateFeatures.tandemRepeat(s, 2), "CACACACA: unit 2, from index 2");
    assertEquals(0, CandidateFeatures.tandemRepeat("ACGTTGCA".getBytes(), 0), "no unit repeats at 0");
    assertEquals(6, CandidateFeatures.tandemRepeat("ACGACGT".getBytes(), 0), "ACGACG: unit 3");
    assertEquals(4, CandidateFeatures.homopolymer("GTTTTC".getBytes(), 2));
    assertEquals(1, CandidateFeatures.homopolymer("GTC".getBytes(), 0));
    assertEquals(0, CandidateFeatures.homopolymer("GTC".getBytes(), 3), "outside");
  }

  @Test
  void nearestCandidateIsTheCloserNeighbour() {
    String[] a = {"C"};
    List<Candidate> cs = new ArrayList<>();
    for (int pos : new int[] {100, 130, 135, 600}) {
      cs.add(new Candidate(0, "chrT", pos, "A", a, new String[] {"A"}, a, new int[] {1, 1}, 2, new int[][] {{}}));
    }
    assertEquals(30, CandidateFeatures.nearestCandidate(cs, 0));
    assertEquals(5, CandidateFeatures.nearestCandidate(cs, 1));
    assertEquals(5, CandidateFeatures.nearestCandidate(cs, 2));
    assertEquals(CandidateFeatures.DISTANCE_CAP, CandidateFeatures.nearestCandidate(cs, 3), "465 bp is capped");
  }

  private static int[] all(List<SAMRecord> reads) {
    return java.util.stream.IntStream.range(0, reads.size()).toArray();
  }
}
