package dev.fastpipe.streaming.postprocess;

import static dev.fastpipe.streaming.postprocess.GenotypeCombinerTest.result;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.genome.BedInterval;
import dev.fastpipe.streaming.genome.HaploidRegions;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The haploid collapse of a site's diploid genotype probabilities: GT, GQ, QUAL, PL and FILTER. */
class HaploidGenotypeTest {
  /** Contig 0 (chr1) diploid; contig 1 (chrX) haploid except its PAR [0, 1000). */
  static final SAMSequenceDictionary DICT = new SAMSequenceDictionary(
      List.of(new SAMSequenceRecord("chr1", 100_000), new SAMSequenceRecord("chrX", 100_000)));
  static final HaploidRegions MALE =
      HaploidRegions.of(List.of("chrX"), List.of(new BedInterval("chrX", 0, 1000, null, 1)), DICT);
  private final GenotypeCombiner combiner = new GenotypeCombiner(GenotypeCombiner.DEFAULT_MIN_QUAL,
      GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ, MALE);

  static CallResult on(int contig, CallResult r) {
    return new CallResult(contig, r.position(), r.ref(), r.alts(), r.altSubset(), r.probabilities(), r.examplesAtSite(),
        r.depth(), r.alleleDepths());
  }

  @Test
  void hetMassIsDroppedAndTheRestRenormalised() {
    // p(0/0) 0.02, p(0/1) 0.48, p(1/1) 0.5: diploid the call is a coin toss between 0/1 and 1/1,
    // haploid it is 1 with p = 0.5 / 0.52.
    GenotypeCall c = combiner.combine(List.of(on(1, result(5000, "A", List.of("G"), new int[] {0}, 0.02f, 0.48f, 0.5f))));
    assertTrue(c.haploid());
    assertArrayEquals(new int[] {1}, c.genotype());
    assertArrayEquals(new double[] {0.02 / 0.52, 0.5 / 0.52}, c.genotypeProbabilities(), 1e-6);
    // GQ = round(-10 log10(0.02 / 0.52)) = round(14.15); QUAL = -10 log10 p(0) = 14.15
    assertEquals(14, c.gq());
    assertEquals(14.150, c.qual(), 1e-3);
    // PL of 0 and 1 relative to the call: round(-10 log10(0.02 / 0.5)) = 14, 0
    assertArrayEquals(new int[] {14, 0}, c.pl());
    assertEquals(GenotypeCall.PASS, c.filter());
  }

  @Test
  void aHetThatIsMostlyRefBecomesARefCall() {
    GenotypeCall c = combiner.combine(List.of(on(1, result(5000, "A", List.of("G"), new int[] {0}, 0.3f, 0.699f, 0.001f))));
    assertArrayEquals(new int[] {0}, c.genotype());
    assertEquals(GenotypeCall.REF_CALL, c.filter());
    assertEquals(25, c.gq(), "round(-10 log10(0.001 / 0.301))");
    assertArrayEquals(new int[] {0, 25}, c.pl());
  }

  @Test
  void anUnsureRefCallIsANoCallOfOneAllele() {
    GenotypeCall c = combiner.combine(List.of(on(1, result(5000, "A", List.of("G"), new int[] {0}, 0.6f, 0.2f, 0.2f))));
    assertArrayEquals(new int[] {-1}, c.genotype(), "GQ 6 < 20: GT .");
    assertEquals(GenotypeCall.REF_CALL, c.filter());
  }

  @Test
  void allMassOnTheHetGivesUniformHaploidProbabilities() {
    assertArrayEquals(new double[] {0.5, 0.5}, GenotypeCombiner.haploidProbabilities(new double[] {0, 1, 0}, 2));
    GenotypeCall c = combiner.combine(List.of(on(1, result(5000, "A", List.of("G"), new int[] {0}, 0f, 1f, 0f))));
    assertEquals(3, c.gq(), "ties go to the ref, at GQ round(-10 log10 0.5)");
    assertArrayEquals(new int[] {-1}, c.genotype(), "which is below 20: GT .");
    assertEquals(GenotypeCall.REF_CALL, c.filter());
  }

  @Test
  void multiAllelicSitesKeepOnePlPerAllele() {
    // alleles 0, T, G: diploid order 00 01 11 02 12 22; the haploid ones are 00, 11, 22
    List<CallResult> ex = List.of(
        on(1, result(7000, "C", List.of("T", "G"), new int[] {0}, 0.01f, 0.9f, 0.09f)),
        on(1, result(7000, "C", List.of("T", "G"), new int[] {1}, 0.01f, 0.5f, 0.49f)),
        on(1, result(7000, "C", List.of("T", "G"), new int[] {0, 1}, 0.01f, 0.1f, 0.89f)));
    GenotypeCall diploid = new GenotypeCombiner().combine(ex);
    double[] d = diploid.genotypeProbabilities();
    GenotypeCall c = combiner.combine(ex);
    double sum = d[0] + d[2] + d[5];
    assertArrayEquals(new double[] {d[0] / sum, d[2] / sum, d[5] / sum}, c.genotypeProbabilities(), 1e-9);
    assertEquals(3, c.pl().length);
    assertArrayEquals(new int[] {2}, c.genotype(), "p(G/G) 0.49 beats p(T/T) 0.09");
    assertEquals(0, c.pl()[2]);
  }

  @Test
  void theParTheAutosomeAndASiteTouchingTheParStayDiploid() {
    CallResult het = result(500, "A", List.of("G"), new int[] {0}, 0.01f, 0.9f, 0.09f);
    assertArrayEquals(new int[] {0, 1}, combiner.combine(List.of(on(1, het))).genotype(), "chrX PAR");
    assertArrayEquals(new int[] {0, 1}, combiner.combine(List.of(on(0, het))).genotype(), "chr1");
    // a deletion from 999 (the PAR's last base) onto the haploid part
    CallResult edge = result(999, "ACG", List.of("A"), new int[] {0}, 0.01f, 0.9f, 0.09f);
    assertFalse(combiner.combine(List.of(on(1, edge))).haploid());
    CallResult after = result(1000, "ACG", List.of("A"), new int[] {0}, 0.01f, 0.9f, 0.09f);
    assertArrayEquals(new int[] {1}, combiner.combine(List.of(on(1, after))).genotype());
  }
}
