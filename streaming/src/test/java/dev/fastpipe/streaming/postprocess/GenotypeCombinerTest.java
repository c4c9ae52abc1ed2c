package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.genome.HaploidRegions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenotypeCombinerTest {
  private final GenotypeCombiner combiner = new GenotypeCombiner();

  static CallResult result(int pos, String ref, List<String> alts, int[] subset, float... p) {
    int n = alts.size();
    return new CallResult(0, pos, ref, alts, subset, p, n + n * (n - 1) / 2, 30, new int[0]);
  }

  @Test
  void biallelicHetGetsDeepVariantQualities() {
    GenotypeCall c = combiner.combine(List.of(result(99, "A", List.of("G"), new int[] {0}, 0.001f, 0.989f, 0.01f)));
    assertArrayEquals(new int[] {0, 1}, c.genotype());
    // QUAL = -10 log10 p(0/0) = 30; GQ = round(-10 log10(1 - 0.989)) = round(19.59) = 20.
    assertEquals(30.0, c.qual(), 1e-3);
    assertEquals(20, c.gq());
    // PL = round(-10 log10(p / p(GT))): 0/0 -> 29.95 -> 30, 0/1 -> 0, 1/1 -> 19.95 -> 20.
    assertArrayEquals(new int[] {30, 0, 20}, c.pl());
    assertEquals(GenotypeCall.PASS, c.filter());
  }

  @Test
  void qualitiesAreBoundedAtOneHundred() {
    GenotypeCall c = combiner.combine(List.of(result(5, "C", List.of("T"), new int[] {0}, 0f, 0f, 1f)));
    assertArrayEquals(new int[] {1, 1}, c.genotype());
    assertEquals(100.0, c.qual(), 1e-6);
    assertEquals(100, c.gq());
    assertArrayEquals(new int[] {100, 100, 0}, c.pl());
  }

  @Test
  void homRefIsKeptAsRefCallAndUncalledBelowGq20() {
    GenotypeCall confident = combiner.combine(List.of(result(5, "C", List.of("T"), new int[] {0}, 0.999f, 0.001f, 0f)));
    assertEquals(GenotypeCall.REF_CALL, confident.filter());
    assertArrayEquals(new int[] {0, 0}, confident.genotype());
    assertEquals(30, confident.gq());
    GenotypeCall unsure = combiner.combine(List.of(result(5, "C", List.of("T"), new int[] {0}, 0.6f, 0.3f, 0.1f)));
    assertEquals(GenotypeCall.REF_CALL, unsure.filter());
    assertArrayEquals(new int[] {-1, -1}, unsure.genotype());
  }

  @Test
  void lowQualityVariantIsFiltered() {
    GenotypeCombiner strict = new GenotypeCombiner(20, 20);
    // p(0/0) = 0.45 -> QUAL 3.5 < 20, but het is the most likely genotype.
    GenotypeCall c = strict.combine(List.of(result(5, "C", List.of("T"), new int[] {0}, 0.45f, 0.5f, 0.05f)));
    assertArrayEquals(new int[] {0, 1}, c.genotype());
    assertEquals(GenotypeCall.LOW_QUAL, c.filter());
    assertEquals(3.468, c.qual(), 1e-3);
  }

  /**
   * With a GQ map (here one that keeps every GQ and passes SNPs from GQ 1, indels from 0), a het
   * indel at GQ 5 (p(0/1) 0.7) is PASS where the sample's reads slip no more than the envelope and
   * LowQual where its repeat is beyond it; from GQ 10 it is PASS either way, a SNP never carries the
   * flag's consequence, and without a GQ map (--no-gq-calibration) the rule is off.
   */
  @Test
  void aLowGqIndelWhoseRepeatTheSampleSlipsInBeyondTheEnvelopeIsLowQual(@TempDir Path dir) throws Exception {
    GenotypeCombiner combiner = identityMapCombiner(dir);
    int[] ad = {6, 3};
    float[] unsure = {0.25f, 0.7f, 0.05f};
    CallResult inside = new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, unsure, 1, 9, ad, null, false);
    CallResult beyond = new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, unsure, 1, 9, ad, null, true);
    GenotypeCall kept = combiner.combine(List.of(inside));
    GenotypeCall dropped = combiner.combine(List.of(beyond));
    assertEquals(5, kept.gq());
    assertEquals(GenotypeCall.PASS, kept.filter());
    assertArrayEquals(new int[] {0, 1}, dropped.genotype(), "the genotype stays the model's");
    assertEquals(5, dropped.gq());
    assertEquals(GenotypeCall.LOW_QUAL, dropped.filter());
    float[] sure = {0.02f, 0.92f, 0.06f}; // GQ 11
    GenotypeCall sureBeyond = combiner.combine(List.of(
        new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, sure, 1, 9, ad, null, true)));
    assertEquals(9, sureBeyond.gq(), "GQ 11 beyond the envelope: PASS, at GQ 9");
    assertEquals(GenotypeCall.PASS, sureBeyond.filter());
    GenotypeCall snp = combiner.combine(List.of(
        new CallResult(0, 99, "A", List.of("G"), new int[] {0}, unsure, 1, 9, ad, null, true)));
    assertEquals(GenotypeCall.PASS, snp.filter());
    assertEquals(GenotypeCall.PASS, this.combiner.combine(List.of(beyond)).filter(), "no GQ map: no rule");
    // A sure het indel (GQ 30) keeps its GQ inside the envelope and gets 9 beyond it, its PLs alike,
    // and stays PASS (its GQ before the cap decides); GQ 11 beyond it (above) is PASS at GQ 9 too.
    float[] surer = {0.0005f, 0.999f, 0.0005f};
    GenotypeCall in = combiner.combine(List.of(
        new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, surer, 1, 30, new int[] {15, 15}, null, false)));
    GenotypeCall out = combiner.combine(List.of(
        new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, surer, 1, 30, new int[] {15, 15}, null, true)));
    assertEquals(30, in.gq());
    assertEquals(9, out.gq());
    assertEquals(GenotypeCall.PASS, out.filter());
    assertEquals(Math.round(in.pl()[0] * 9 / 30.0), out.pl()[0]);
  }

  /** A combiner with a GQ map that keeps every GQ and passes SNPs from GQ 1, indels from 0. */
  static GenotypeCombiner identityMapCombiner(Path dir) throws Exception {
    return combinerWithMap(dir, 0);
  }

  /** As {@link #identityMapCombiner(Path)}, each GQ mapped to {@code less} below it (at least 0). */
  static GenotypeCombiner combinerWithMap(Path dir, int less) throws Exception {
    StringBuilder map = new StringBuilder();
    for (int i = 0; i <= 100; i++) map.append(i > 0 ? "," : "").append(Math.max(0, i - less));
    Path file = dir.resolve(GqCalibration.FILE_NAME);
    Files.writeString(file, "{\"format\": \"fastpipe-gq-calibration-1\", \"snp\": {\"gq_by_raw_gq\": [" + map
        + "], \"min_pass_gq\": 1}, \"indel\": {\"gq_by_raw_gq\": [" + map + "], \"min_pass_gq\": 0}}");
    return new GenotypeCombiner(GenotypeCombiner.DEFAULT_MIN_QUAL, GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ,
        HaploidRegions.none(), GqCalibration.load(file));
  }

  /**
   * Beyond the envelope, an indel whose variant is sure (QUAL 43: p(0/0) 5e-5) but whose genotype is
   * a toss (hom-alt 0.55 against het 0.45, GQ 3) is PASS: a wrong genotype costs the scorer one
   * false call and one missed, LowQual one missed. At QUAL 30 (p(0/0) 1e-3) the same toss stays
   * LowQual, and so does a sure variant whose genotype the GQ map vouches for less than even odds
   * (calibrated GQ 1).
   */
  @Test
  void aSureIndelBeyondTheEnvelopeWhoseGenotypeIsATossIsPass(@TempDir Path dir) throws Exception {
    GenotypeCombiner combiner = identityMapCombiner(dir);
    int[] ad = {4, 19};
    GenotypeCall sure = combiner.combine(List.of(new CallResult(0, 99, "A", List.of("AAAT"), new int[] {0},
        new float[] {0.00005f, 0.45f, 0.54995f}, 1, 23, ad, null, true)));
    assertArrayEquals(new int[] {1, 1}, sure.genotype());
    assertEquals(43.0, sure.qual(), 0.1);
    assertEquals(3, sure.gq());
    assertEquals(GenotypeCall.PASS, sure.filter(), "a sure variant: PASS at its likelier genotype");
    GenotypeCall unsure = combiner.combine(List.of(new CallResult(0, 99, "A", List.of("AAAT"), new int[] {0},
        new float[] {0.001f, 0.45f, 0.549f}, 1, 23, ad, null, true)));
    assertEquals(30.0, unsure.qual(), 0.1);
    assertEquals(GenotypeCall.LOW_QUAL, unsure.filter(), "QUAL 30: LowQual below GQ 10, as before");
    GenotypeCall inside = combiner.combine(List.of(new CallResult(0, 99, "A", List.of("AAAT"), new int[] {0},
        new float[] {0.001f, 0.45f, 0.549f}, 1, 23, ad, null, false)));
    assertEquals(GenotypeCall.PASS, inside.filter(), "inside the envelope the rule does not apply");
    // a map that vouches for two less than the model claims: the same toss at GQ 1, no better than a coin
    GenotypeCombiner doubting = combinerWithMap(dir, 2);
    GenotypeCall coin = doubting.combine(List.of(new CallResult(0, 99, "A", List.of("AAAT"), new int[] {0},
        new float[] {0.00005f, 0.45f, 0.54995f}, 1, 23, ad, null, true)));
    assertEquals(1, coin.gq());
    assertEquals(GenotypeCall.LOW_QUAL, coin.filter(), "its genotype likelier wrong than right: LowQual");
  }

  @Test
  void multiAllelicSiteTakesTheMinimumOfEachGenotypesVotes() {
    List<String> alts = List.of("G", "T");
    // {G}: mostly het (G is on one haplotype); {T}: mostly het; {G,T}: both alts -> "hom-alt".
    List<CallResult> examples = List.of(
        result(10, "A", alts, new int[] {0}, 0.01f, 0.90f, 0.09f),
        result(10, "A", alts, new int[] {1}, 0.02f, 0.88f, 0.10f),
        result(10, "A", alts, new int[] {0, 1}, 0.001f, 0.04f, 0.959f));
    GenotypeCall c = combiner.combine(examples);
    assertEquals(alts, c.alts());
    // VCF order 00, 01, 11, 02, 12, 22; min over votes:
    // 00 = min(.01,.02,.001) = .001; 01 = min(.90, .04) = .04; 11 = min(.09, .959) = .09;
    // 02 = min(.88, .04) = .04; 12 = .959; 22 = min(.10, .959) = .10.
    double[] expected = {0.001, 0.04, 0.09, 0.04, 0.959, 0.10};
    double sum = 0;
    for (double v : expected) sum += v;
    for (int g = 0; g < 6; g++) assertEquals(expected[g] / sum, c.genotypeProbabilities()[g], 1e-6, "genotype " + g);
    assertArrayEquals(new int[] {1, 2}, c.genotype());
    assertEquals(GenotypeCall.PASS, c.filter());
    assertEquals(6, c.pl().length);
    assertEquals(0, c.pl()[4]);
  }

  @Test
  void lowQualityAltIsPrunedAndAllelesSimplified() {
    // ref ACT, alts A (deletion of CT) and GCT (SNP A>G in the long form).
    List<String> alts = List.of("A", "GCT");
    List<CallResult> examples = List.of(
        result(10, "ACT", alts, new int[] {0}, 0.95f, 0.04f, 0.01f), // QUAL of the deletion < 1: pruned
        result(10, "ACT", alts, new int[] {1}, 0.01f, 0.98f, 0.01f),
        result(10, "ACT", alts, new int[] {0, 1}, 0.05f, 0.9f, 0.05f));
    GenotypeCall c = combiner.combine(examples);
    assertEquals("A", c.ref());
    assertEquals(List.of("G"), c.alts());
    assertArrayEquals(new int[] {0, 1}, c.genotype());
    assertEquals(3, c.genotypeProbabilities().length);
    assertEquals(0.98, c.genotypeProbabilities()[1], 1e-6);
  }

  @Test
  void genotypeIndexFollowsTheVcfOrdering() {
    assertEquals(0, GenotypeCombiner.genotypeIndex(0, 0));
    assertEquals(1, GenotypeCombiner.genotypeIndex(0, 1));
    assertEquals(2, GenotypeCombiner.genotypeIndex(1, 1));
    assertEquals(3, GenotypeCombiner.genotypeIndex(0, 2));
    assertEquals(4, GenotypeCombiner.genotypeIndex(2, 1));
    assertEquals(5, GenotypeCombiner.genotypeIndex(2, 2));
  }

  @Test
  void alleleDepthsFollowRetainedAlleles() {
    List<String> alts = List.of("G", "T");
    int[] ad = {10, 0, 12};
    List<CallResult> examples = List.of(
        new CallResult(0, 7, "A", alts, new int[] {0}, new float[] {0.99f, 0.005f, 0.005f}, 3, 22, ad),
        new CallResult(0, 7, "A", alts, new int[] {1}, new float[] {0.01f, 0.98f, 0.01f}, 3, 22, ad),
        new CallResult(0, 7, "A", alts, new int[] {0, 1}, new float[] {0.01f, 0.98f, 0.01f}, 3, 22, ad));
    GenotypeCall c = combiner.combine(examples);
    assertEquals(List.of("T"), c.alts());
    assertArrayEquals(new int[] {10, 12}, c.alleleDepths());
    assertArrayEquals(new double[] {12 / 22.0}, c.variantAlleleFractions(), 1e-9);
  }

  static CallResult withPileup(int pos, String ref, List<String> alts, int[] subset, float[] gl, float... p) {
    int n = alts.size();
    return new CallResult(0, pos, ref, alts, subset, p, n + n * (n - 1) / 2, 30, new int[0], gl);
  }

  /**
   * A 1/2 STR site as the network scores it at 15x: the weaker alt's own example says hom-ref
   * (QUAL below 1), so DeepVariant's pruning drops it and the site is called 1/1; the pileup's
   * likelihoods (14 and 3 reads of the two alts) keep it and make the call 1/2.
   */
  @Test
  void aMultiAllelicSitesPileupLikelihoodsKeepTheWeakerAltAndCallBoth() {
    List<String> alts = List.of("AAAG", "AAAGAAG");
    float[] one = {0.02f, 0.3f, 0.68f};
    float[] two = {0.85f, 0.14f, 0.01f};
    float[] both = {0.01f, 0.3f, 0.69f};
    GenotypeCombiner withPileup = new GenotypeCombiner(1, 20, dev.fastpipe.streaming.genome.HaploidRegions.none(),
        GqCalibration.IDENTITY.withCounts(AlleleCountLikelihood.parse("indel=0.5:pileup")));
    GenotypeCall networkOnly = withPileup.combine(List.of(result(7, "A", alts, new int[] {0}, one),
        result(7, "A", alts, new int[] {1}, two), result(7, "A", alts, new int[] {0, 1}, both)));
    assertEquals(List.of("AAAG"), networkOnly.alts(), "the weak alt pruned");
    assertArrayEquals(new int[] {1, 1}, networkOnly.genotype());

    // log10 L over 0/0 0/1 1/1 0/2 1/2 2/2: 14 reads of alt 1, 3 of alt 2, e = 0.005.
    double e = 0.005;
    double r = Math.log10(1 - e), w = Math.log10(e / 2), h = Math.log10((1 - e + e / 2) / 2);
    float[] gl = {(float) (17 * w), (float) (14 * h + 3 * w), (float) (14 * r + 3 * w), (float) (14 * w + 3 * h),
        (float) (17 * h), (float) (14 * w + 3 * r)};
    float max = Float.NEGATIVE_INFINITY;
    for (float v : gl) max = Math.max(max, v);
    for (int k = 0; k < gl.length; k++) gl[k] -= max;
    GenotypeCall c = withPileup.combine(List.of(result(7, "A", alts, new int[] {0}, one),
        result(7, "A", alts, new int[] {1}, two), withPileup(7, "A", alts, new int[] {0, 1}, gl, both)));
    assertEquals(alts, c.alts());
    assertArrayEquals(new int[] {1, 2}, c.genotype());
    assertEquals(GenotypeCall.PASS, c.filter());
  }

  /**
   * blind54's miss: T>A,C in a (TTTC)n STR at 30x with a stutter insertion TTCTA among its alts,
   * AD 1,11,17,3, the network's probabilities as it scored the site's six examples. The network alone
   * makes it 1/2 at GQ 3 (its pair example leaves 0.29 on het); with the SNP alts' pileup likelihoods,
   * every genotype with the insertion unmeasured (NaN), the insertion is pruned as the network says
   * and the call is 1/2 with a GQ a user keeps.
   */
  @Test
  void aSiteOfTwoSnpAltsAndAStutterInsertionIsCalledFromTheSnpsPileupOnceTheInsertionIsPruned() {
    List<String> alts = List.of("A", "C", "TTCTA");
    float[][] network = {{4.873629E-4f, 0.9993968f, 1.1582413E-4f}, {4.7804726E-5f, 0.9997766f, 1.7558364E-4f},
        {0.89317894f, 0.106768385f, 5.263344E-5f}, {2.0807536E-6f, 0.29290032f, 0.70709765f},
        {6.950098E-5f, 0.999648f, 2.8257386E-4f}, {5.389411E-5f, 0.99958813f, 3.580438E-4f}};
    int[][] subsets = {{0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}};
    // log10 L of 1 T, 11 A and 17 C reads at e = 0.001, over the reference and the two SNP alts.
    int[] reads = {1, 11, 17};
    double e = 0.001;
    float[] gl = new float[10];
    java.util.Arrays.fill(gl, Float.NaN);
    float max = Float.NEGATIVE_INFINITY;
    for (int b = 0; b < 3; b++) {
      for (int a = 0; a <= b; a++) {
        double l = 0;
        for (int x = 0; x < 3; x++) {
          double pa = x == a ? 1 - e : e / 3, pb = x == b ? 1 - e : e / 3;
          l += reads[x] * Math.log10((pa + pb) / 2);
        }
        gl[GenotypeCombiner.genotypeIndex(a, b)] = (float) l;
        max = Math.max(max, (float) l);
      }
    }
    for (int g = 0; g < 6; g++) gl[g] -= max;
    GenotypeCombiner combiner = new GenotypeCombiner(1, 20, dev.fastpipe.streaming.genome.HaploidRegions.none(),
        GqCalibration.IDENTITY.withCounts(AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup")));
    List<CallResult> alone = new java.util.ArrayList<>();
    List<CallResult> withSnps = new java.util.ArrayList<>();
    for (int k = 0; k < 6; k++) {
      alone.add(result(7, "T", alts, subsets[k], network[k]));
      withSnps.add(k == 1 ? withPileup(7, "T", alts, subsets[k], gl, network[k]) : result(7, "T", alts, subsets[k], network[k]));
    }
    GenotypeCall before = combiner.combine(alone);
    assertEquals(List.of("A", "C"), before.alts(), "the insertion pruned");
    assertArrayEquals(new int[] {1, 2}, before.genotype());
    assertTrue(before.gq() < 10, "the network alone: GQ " + before.gq());
    GenotypeCall after = combiner.combine(withSnps);
    assertEquals(List.of("A", "C"), after.alts());
    assertArrayEquals(new int[] {1, 2}, after.genotype());
    assertTrue(after.gq() >= 30, "with the SNPs' pileup: GQ " + after.gq());
  }

  /**
   * Three stutter reads of an insertion beside one reference read, at a site whose other 28 reads
   * are two SNP alts: against the reference alone the insertion is a het; against the likeliest
   * genotype without it, 1/2 of the SNPs, it is not.
   */
  @Test
  void profiledLikelihoodsWeighAnAltAgainstTheBestOfTheOthers() {
    float[] all = {-9, -5, -3, -6, 0, -4}; // 0/0 0/1 1/1 0/2 1/2 2/2
    assertArrayEquals(new float[] {-4, 0, -3}, GenotypeCombiner.profiled(all, 3, 1), "no 1: 2/2; one: 1/2; two: 1/1");
    assertArrayEquals(new float[] {-3, 0, -4}, GenotypeCombiner.profiled(all, 3, 2), "no 2: 1/1; one: 1/2; two: 2/2");
    float[] two = {-9, 0, -3};
    assertArrayEquals(two, GenotypeCombiner.profiled(two, 2, 1), "a bi-allelic site's own");
    float[] snpsOnly = {-9, -5, -3, Float.NaN, Float.NaN, Float.NaN}; // a SNP alt and an indel alt
    assertArrayEquals(new float[] {-6, -2, 0}, GenotypeCombiner.profiled(snpsOnly, 3, 1), "the SNP among its measured genotypes");
    assertEquals(null, GenotypeCombiner.profiled(snpsOnly, 3, 2), "the unmeasured indel");
  }

  @Test
  void restrictedLikelihoodsAreUnmeasuredWhereTheyKeepANaN() {
    float[] all = {-9, -5, -3, Float.NaN, Float.NaN, Float.NaN}; // a SNP's 0/0 0/1 1/1, an indel's unmeasured
    assertArrayEquals(new float[] {-6, -2, 0}, GenotypeCombiner.restricted(all, new int[] {0, 1}));
    assertEquals(null, GenotypeCombiner.restricted(all, new int[] {0, 2}), "the indel's genotypes");
    assertEquals(null, GenotypeCombiner.restricted(all, new int[] {0, 1, 2}), "both alts");
  }

  @Test
  void restrictedLikelihoodsAreTheRetainedAllelesGenotypes() {
    float[] all = {-9, -5, -3, -6, 0, -4}; // 0/0 0/1 1/1 0/2 1/2 2/2
    assertArrayEquals(new float[] {-5, -2, 0}, GenotypeCombiner.restricted(all, new int[] {0, 2}), "0/0 0/2 2/2");
    assertArrayEquals(new float[] {-6, -2, 0}, GenotypeCombiner.restricted(all, new int[] {0, 1}), "0/0 0/1 1/1");
  }
}
