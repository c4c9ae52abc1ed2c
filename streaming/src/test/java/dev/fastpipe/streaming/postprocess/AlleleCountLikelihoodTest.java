package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.postprocess.GqCalibration.Observation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlleleCountLikelihoodTest {
  private static final AlleleCountLikelihood INDEL_ONLY = AlleleCountLikelihood.parse("indel=0.2:0.005");

  private static CallResult site(String ref, String alt, int refReads, int altReads, float... p) {
    return new CallResult(0, 99, ref, List.of(alt), new int[] {0}, p, 1, refReads + altReads, new int[] {refReads, altReads});
  }

  private static GenotypeCombiner combiner(AlleleCountLikelihood counts) {
    return new GenotypeCombiner(1.0, 20, HaploidRegions.none(), GqCalibration.IDENTITY.withCounts(counts));
  }

  @Test
  void parsesBothTypesNoneAndRefusesNonsense() {
    AlleleCountLikelihood c = AlleleCountLikelihood.parse("snp=0.1:0.02,indel=0.35:0.01");
    assertEquals(0.1, c.snp().weight());
    assertEquals(0.02, c.snp().error());
    assertEquals(0.35, c.indel().weight());
    assertEquals(c, AlleleCountLikelihood.parse(c.spec()));
    assertSame(AlleleCountLikelihood.NONE, AlleleCountLikelihood.parse("none"));
    assertEquals(0, INDEL_ONLY.snp().weight()); // a type left out stays off
    for (String bad : new String[] {"", "snp=0.1", "snp=x:0.01", "snv=0.1:0.01", "snp=1.5:0.01", "snp=NaN:0.01",
        "snp=0.1:0", "snp=0.1:0.5", "snp=-0.1:0.01"}) {
      assertThrows(IllegalArgumentException.class, () -> AlleleCountLikelihood.parse(bad), bad);
    }
  }

  @Test
  void anUncertainRefCallWithFourOfFifteenAltReadsBecomesAHet() {
    // A 20x blind-matrix miss: PL 0,1,35 from the network, AD 11,4.
    float[] p = {0.55f, 0.44f, 0.01f};
    GenotypeCall off = combiner(AlleleCountLikelihood.NONE).combine(List.of(site("A", "AT", 11, 4, p)));
    assertEquals(GenotypeCall.REF_CALL, off.filter());
    GenotypeCall on = combiner(INDEL_ONLY).combine(List.of(site("A", "AT", 11, 4, p)));
    assertArrayEquals(new int[] {0, 1}, on.genotype());
    assertEquals(GenotypeCall.PASS, on.filter());
    // The same counts at a SNP: the SNP weight is 0, so the network's call stands.
    GenotypeCall snp = combiner(INDEL_ONLY).combine(List.of(site("A", "G", 11, 4, p)));
    assertEquals(GenotypeCall.REF_CALL, snp.filter());
  }

  @Test
  void aFewErrorReadsAtDepthPushTowardsHomRef() {
    double[] p = {0.5, 0.5, 0.0};
    double[] q = INDEL_ONLY.apply(false, p, 38, 2); // 2 of 40: far likelier errors than a het
    // L(0/0) / L(0/1) = 0.005^2 0.995^38 / 0.5^40, to the power 0.2: about 29.4 for hom-ref.
    double ratio = Math.pow(Math.pow(0.005, 2) * Math.pow(0.995, 38) / Math.pow(0.5, 40), 0.2);
    assertEquals(ratio / (ratio + 1), q[0], 1e-9, java.util.Arrays.toString(q));
    assertTrue(q[0] > 0.95);
    assertEquals(1.0, q[0] + q[1] + q[2], 1e-12);
  }

  @Test
  void neverMovesAHomAltTowardsHet() {
    // A long hom-alt insertion with 10 reads that do not span it counted as reference.
    double[] p = {0.0001, 0.2, 0.7999};
    double[] q = INDEL_ONLY.apply(false, p, 10, 23);
    assertTrue(q[2] / q[1] >= p[2] / p[1] - 1e-9, java.util.Arrays.toString(q));
    assertTrue(q[0] < p[0]);
  }

  @Test
  void offTypesNoReadsAndMultiAllelicSitesAreLeftAlone() {
    double[] p = {0.6, 0.3, 0.1};
    assertSame(p, INDEL_ONLY.apply(true, p, 11, 4));
    assertSame(p, INDEL_ONLY.apply(false, p, 0, 0));
    // A tri-allelic site: the same genotype whether the counts are on or off.
    List<CallResult> tri = List.of(
        new CallResult(0, 99, "A", List.of("AT", "ATT"), new int[] {0}, new float[] {0.5f, 0.4f, 0.1f}, 3, 20, new int[] {10, 5, 5}),
        new CallResult(0, 99, "A", List.of("AT", "ATT"), new int[] {1}, new float[] {0.5f, 0.4f, 0.1f}, 3, 20, new int[] {10, 5, 5}),
        new CallResult(0, 99, "A", List.of("AT", "ATT"), new int[] {0, 1}, new float[] {0.5f, 0.3f, 0.2f}, 3, 20, new int[] {10, 5, 5}));
    assertArrayEquals(combiner(AlleleCountLikelihood.NONE).combine(tri).genotypeProbabilities(),
        combiner(INDEL_ONLY).combine(tri).genotypeProbabilities());
  }

  @Test
  void theCalibrationFileCarriesTheCountsAndOldFilesHaveNone(@TempDir Path dir) throws Exception {
    List<Observation> calls = new ArrayList<>();
    for (int i = 0; i < 100; i++) calls.add(new Observation(false, 30, false));
    GqCalibration fitted = GqCalibration.fit(calls, 0, 100, INDEL_ONLY);
    fitted.save(dir);
    GqCalibration loaded = GqCalibration.load(dir.resolve(GqCalibration.FILE_NAME));
    assertEquals(INDEL_ONLY, loaded.counts());
    assertTrue(loaded.identity().contains("counts=" + INDEL_ONLY.spec()));
    // A calibration written before the counts existed reads as none.
    String text = Files.readString(dir.resolve(GqCalibration.FILE_NAME));
    String old = text.replaceAll("(?s)\"allele_count_likelihood\"\\s*:\\s*\\{.*?\\}\\s*\\}\\s*,", "");
    assertTrue(!old.contains("allele_count_likelihood"), old);
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME), old);
    assertEquals(AlleleCountLikelihood.NONE, GqCalibration.forModel(dir).counts());
  }

  private static final AlleleCountLikelihood PILEUP = AlleleCountLikelihood.parse("snp=0.4:pileup,indel=0.5:0.005");

  @Test
  void parsesPileupWeights() {
    assertTrue(PILEUP.snp().pileup());
    assertEquals(0.4, PILEUP.snp().weight());
    assertTrue(!PILEUP.indel().pileup());
    assertEquals("snp=0.4:pileup,indel=0.5:0.005", PILEUP.spec());
    assertEquals(PILEUP, AlleleCountLikelihood.parse(PILEUP.spec()));
    AlleleCountLikelihood both = AlleleCountLikelihood.parse("snp=0.4:pileup,indel=0.3:pileup");
    assertTrue(both.indel().pileup());
    assertEquals(both, AlleleCountLikelihood.parse(both.spec()));
    assertThrows(IllegalArgumentException.class, () -> AlleleCountLikelihood.parse("snp=0.4:pileups"));
    assertThrows(IllegalArgumentException.class, () -> AlleleCountLikelihood.parse("snp=2:pileup"));
  }

  @Test
  void aPileupWeightUsesThePileupsLikelihoodsNotTheCounts() {
    double[] p = {0.6, 0.3, 0.1};
    float[] gl = {-4f, 0f, -20f}; // log10
    double[] q = PILEUP.apply(true, p, 11, 2, gl);
    // p(g)^0.6 * (prior(g) 10^gl[g])^0.4, normalised, with bcftools' prior 1.1e-3.
    double[] prior = {1 - 1.65e-3, 1.1e-3, 0.55e-3};
    double[] w = new double[3];
    for (int g = 0; g < 3; g++) w[g] = Math.pow(p[g], 0.6) * Math.pow(prior[g] * Math.pow(10, gl[g]), 0.4);
    double sum = w[0] + w[1] + w[2];
    for (int g = 0; g < 3; g++) assertEquals(w[g] / sum, q[g], 1e-9);
    // Without the pileup's likelihoods (a small-model call) the network's probabilities stand,
    // whatever the counts say.
    assertSame(p, PILEUP.apply(true, p, 11, 2, null));
  }

  @Test
  void aCertainVariantWithAnUncertainGenotypeTakesTheGenotypeTheReadsShow() {
    // The 30x misses of blind3: QUAL 20-55 but GQ 2 between het and hom-alt, 15 ref and 15 alt reads
    // at MAPQ 20-40 in a repeat; the pileup makes hom-alt impossible.
    float[] p = {0.005f, 0.50f, 0.495f};
    CallResult site = new CallResult(0, 99, "A", List.of("G"), new int[] {0}, p, 1, 30, new int[] {15, 15},
        new float[] {-40f, 0f, -35f});
    GenotypeCall off = combiner(AlleleCountLikelihood.NONE).combine(List.of(site));
    assertTrue(off.gq() <= 3, "the network alone: GQ " + off.gq());
    GenotypeCall on = combiner(PILEUP).combine(List.of(site));
    assertArrayEquals(new int[] {0, 1}, on.genotype());
    assertTrue(on.gq() >= 40, "with the pileup: GQ " + on.gq());
  }

  @Test
  void theCalibrationFileCarriesAPileupWeight(@TempDir Path dir) throws Exception {
    List<Observation> calls = new ArrayList<>();
    for (int i = 0; i < 100; i++) calls.add(new Observation(true, 30, false));
    GqCalibration.fit(calls, 100, 0, PILEUP).save(dir);
    String text = Files.readString(dir.resolve(GqCalibration.FILE_NAME));
    assertTrue(text.contains("\"evidence\": \"pileup\""), text);
    assertEquals(PILEUP, GqCalibration.load(dir.resolve(GqCalibration.FILE_NAME)).counts());
  }

  @Test
  void atIndelsThePileupsLikelihoodTakesTheCountsPlace() {
    // AD 3,10 at a hom-alt deletion: the three "reference" reads end inside the repeat, so the
    // pileup counts only the ten that carry it; stacked as the counts are, p(g) * L(g)^w, no prior.
    AlleleCountLikelihood c = AlleleCountLikelihood.parse("indel=0.5:pileup");
    double[] p = {0.05, 0.6, 0.35};
    float[] gl = {-23f, -3f, 0f};
    double[] q = c.apply(false, p, 3, 10, gl);
    double[] w = {0.05 * Math.pow(10, -11.5), 0.6 * Math.pow(10, -1.5), 0.35};
    double sum = w[0] + w[1] + w[2];
    for (int g = 0; g < 3; g++) assertEquals(w[g] / sum, q[g], 1e-9);
    assertTrue(q[2] > q[1], "hom-alt: " + java.util.Arrays.toString(q));
    assertSame(p, c.apply(false, p, 3, 10, null));
  }

  /**
   * log10 L over 0/0 0/1 1/1 0/2 1/2 2/2 of {@code a} reads of alt 1 and {@code b} of alt 2, each
   * read wrong at {@code e} and then showing one of {@code wrongWays} other alleles alike.
   */
  static float[] twoAlts(int a, int b, double e, int wrongWays) {
    double r = Math.log10(1 - e), w = Math.log10(e / wrongWays), h = Math.log10((1 - e + e / wrongWays) / 2);
    double[] l = {(a + b) * w, a * h + b * w, a * r + b * w, a * w + b * h, (a + b) * h, a * w + b * r};
    double max = java.util.Arrays.stream(l).max().getAsDouble();
    float[] out = new float[6];
    for (int g = 0; g < 6; g++) out[g] = (float) (l[g] - max);
    return out;
  }

  /** At a SNP a wrong read shows one of three other bases. */
  static float[] triAllelicSnp(int a, int b, double e) {
    return twoAlts(a, b, e, 3);
  }


  static int best(double[] p) {
    int b = 0;
    for (int g = 1; g < p.length; g++) if (p[g] > p[b]) b = g;
    return b;
  }

  @Test
  void aSecondAltBaseInTwoReadsOfFifteenIsAnErrorBesideAHomAltButFourAndFourAreBoth() {
    AlleleCountLikelihood c = AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup");
    // The network's min-vote gives 1/2 at least 1/1's share (1/2 is voted only by the pair's example).
    double[] network = {0.001, 0.02, 0.40, 0.001, 0.55, 0.028};
    List<String> snps = List.of("G", "T");
    assertEquals(2, best(c.applyMultiAllelic("A", snps, network, triAllelicSnp(13, 2, 0.01))), "1/1: the prior of two alts");
    assertEquals(4, best(c.applyMultiAllelic("A", snps, network, triAllelicSnp(4, 4, 0.01))), "1/2");
    // Without a prior (the stacking of an STR's indel alleles, two lengths) the same figures make 1/2.
    assertEquals(4, best(c.applyMultiAllelic("A", List.of("AT", "ATT"), network, triAllelicSnp(13, 2, 0.01))));
  }

  /** At an indel site of two alts a wrong read shows one of the two other alleles (IndelErrorRate.FLOOR). */
  static float[] twoIndelAlts(int a, int b) {
    return twoAlts(a, b, dev.fastpipe.streaming.pileup.IndelErrorRate.FLOOR, 2);
  }


  @Test
  void twoInsertionsOfOneLengthAreOneAlleleAndErrorsUnlessBothAreMany() {
    AlleleCountLikelihood c = AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup");
    double[] network = {0.001, 0.02, 0.30, 0.001, 0.65, 0.028};
    // blind9's hom-alt C>CTA with 2 of 20 reads showing CTG (an error in the inserted bases).
    assertEquals(2, best(c.applyMultiAllelic("C", List.of("CTA", "CTG"), network, twoIndelAlts(18, 2))), "1/1");
    assertEquals(4, best(c.applyMultiAllelic("C", List.of("CTA", "CTG"), network, twoIndelAlts(10, 10))), "1/2");
    // An STR's two lengths, 14 and 3 reads (blind8's AAG +3/+6 at 15x): no prior against 1/2. The
    // prior of one length would take the likelihood's lead away (1.1e-3 against its 10^2.7).
    double[] str = c.applyMultiAllelic("C", List.of("CTA", "CTATA"), network, twoIndelAlts(14, 3));
    double[] oneLength = c.applyMultiAllelic("C", List.of("CTA", "CTG"), network, twoIndelAlts(14, 3));
    assertEquals(4, best(str));
    assertTrue(str[4] / str[2] > 10 * oneLength[4] / oneLength[2], "the prior weighs against one length's 1/2");
    assertArrayEquals(new double[] {1, 1, 1, 1, 1.1e-3, 1}, AlleleCountLikelihood.sameLengthAltsPrior(List.of("CTA", "CTG")));
    assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1}, AlleleCountLikelihood.sameLengthAltsPrior(List.of("CTA", "CTATA")));
  }

  private static final AlleleCountLikelihood ENVELOPE_WEIGHTS = AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup:0.85");

  @Test
  void anIndelsPileupWeighsMoreInASampleWhoseReadsSlipWithinTheEnvelope(@TempDir Path dir) throws Exception {
    assertEquals(0.5, ENVELOPE_WEIGHTS.indel().weight(false));
    assertEquals(0.85, ENVELOPE_WEIGHTS.indel().weight(true));
    assertEquals(0.5, ENVELOPE_WEIGHTS.snp().weight(true), "one weight where no second is given");
    assertEquals("snp=0.5:pileup,indel=0.5:pileup:0.85", ENVELOPE_WEIGHTS.spec());
    assertEquals(ENVELOPE_WEIGHTS, AlleleCountLikelihood.parse(ENVELOPE_WEIGHTS.spec()));
    for (String bad : new String[] {"indel=0.5:0.01:0.85", "indel=0.5:pileup:1.5", "indel=0.5:pileup:x", "indel=0.5:pileup:0.8:1:1",
        "indel=0.5:pileup:0.8:1.5", "snp=0.5:0.01:0.5:0.85"}) {
      assertThrows(IllegalArgumentException.class, () -> AlleleCountLikelihood.parse(bad), bad);
    }
    // blind77's HSXn 15x miss: a het CT>C on AD 13,3 that the network holds hom-ref at 0.998 and the
    // pileup makes a het by 10^5.0: RefCall at the weight of 0.5, a het at 0.85, in a clean sample only.
    float[] network = {0.998f, 0.0019f, 0.0001f};
    float[] gl = {-5.0f, 0f, -9f};
    CallResult stutter = new CallResult(0, 99, "CT", List.of("C"), new int[] {0}, network, 1, 16, new int[] {13, 3}, gl, false, false);
    CallResult clean = new CallResult(0, 99, "CT", List.of("C"), new int[] {0}, network, 1, 16, new int[] {13, 3}, gl, false, true);
    assertEquals(GenotypeCall.REF_CALL, combiner(ENVELOPE_WEIGHTS).combine(List.of(stutter)).filter());
    GenotypeCall het = combiner(ENVELOPE_WEIGHTS).combine(List.of(clean));
    assertArrayEquals(new int[] {0, 1}, het.genotype());
    assertEquals(GenotypeCall.PASS, het.filter());
    // The same reads at one weight everywhere: the sample's envelope changes nothing.
    AlleleCountLikelihood one = AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup");
    assertEquals(GenotypeCall.REF_CALL, combiner(one).combine(List.of(clean)).filter());
    // A multi-allelic indel site alike.
    double[] probs = {0.9, 0.05, 0.01, 0.02, 0.01, 0.01};
    float[] two = twoIndelAlts(3, 2);
    assertTrue(ENVELOPE_WEIGHTS.applyMultiAllelic("C", List.of("CT", "CTT"), probs, two, true)[0]
        < ENVELOPE_WEIGHTS.applyMultiAllelic("C", List.of("CT", "CTT"), probs, two, false)[0]);
    // The calibration file carries the second weight, and a file without it reads as one weight.
    GqCalibration.IDENTITY.withCounts(ENVELOPE_WEIGHTS).save(dir);
    String text = Files.readString(dir.resolve(GqCalibration.FILE_NAME));
    assertTrue(text.contains("\"weight_within_envelope\": 0.85"), text);
    assertEquals(ENVELOPE_WEIGHTS, GqCalibration.forModel(dir).counts());
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME), text.replaceAll(",\\s*\"weight_within_envelope\": 0.85", ""));
    assertEquals(one, GqCalibration.forModel(dir).counts());
    // Only the pileup's weight has a second one.
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME),
        text.replace("\"evidence\": \"pileup\",\n      \"weight_within_envelope\"", "\"error\": 0.01,\n      \"weight_within_envelope\""));
    RuntimeException e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> GqCalibration.forModel(dir));
    assertTrue(e.getMessage().contains("calibration.json") && e.getMessage().contains("weight_within_envelope"), e.getMessage());
  }

  private static final AlleleCountLikelihood OVERPROMISE_WEIGHTS =
      AlleleCountLikelihood.parse("snp=0.5:pileup:0.5:0.85,indel=0.5:pileup:0.85");

  /**
   * Two Q40 alt reads of fourteen at a SNP in a sample whose Q40 bases err at 0.22 % (Mason's reads,
   * 22 times the promise): the network, which reads Q40 as promised, holds a het at 0.97; the pileup,
   * at the measured rate, makes a het only 10^2.05 likelier than two errors, less than bcftools'
   * prior takes away. At the weight of 0.5 a het; at the weight for samples whose qualities
   * overpromise (0.85), RefCall, in such a sample only. Indels and samples that keep their promise
   * keep their weights.
   */
  @Test
  void aSnpsPileupWeighsMoreInASampleWhoseGoodBasesOverpromise(@TempDir Path dir) throws Exception {
    assertEquals(0.85, OVERPROMISE_WEIGHTS.snp().weight(false, true));
    assertEquals(0.85, OVERPROMISE_WEIGHTS.snp().weight(true, true), "the overpromise weight comes first");
    assertEquals(0.5, OVERPROMISE_WEIGHTS.snp().weight(true, false));
    assertEquals(0.85, OVERPROMISE_WEIGHTS.indel().weight(true, true), "a type without one keeps its envelope's weight");
    assertEquals(0.5, OVERPROMISE_WEIGHTS.indel().weight(false, true));
    assertFalse(ENVELOPE_WEIGHTS.snp().hasOverpromise());
    assertEquals("snp=0.5:pileup:0.5:0.85,indel=0.5:pileup:0.85", OVERPROMISE_WEIGHTS.spec());
    assertEquals(OVERPROMISE_WEIGHTS, AlleleCountLikelihood.parse(OVERPROMISE_WEIGHTS.spec()));
    float[] network = {0.02f, 0.97f, 0.01f};
    float[] gl = {-2.05f, 0f, -30f};
    CallResult kept = new CallResult(0, 99, "C", List.of("T"), new int[] {0}, network, 1, 14, new int[] {12, 2}, gl, false,
        false, false);
    CallResult overpromised = new CallResult(0, 99, "C", List.of("T"), new int[] {0}, network, 1, 14, new int[] {12, 2}, gl,
        false, false, true);
    assertArrayEquals(new int[] {0, 1}, combiner(OVERPROMISE_WEIGHTS).combine(List.of(kept)).genotype());
    assertEquals(GenotypeCall.REF_CALL, combiner(OVERPROMISE_WEIGHTS).combine(List.of(overpromised)).filter());
    assertArrayEquals(new int[] {0, 1}, combiner(ENVELOPE_WEIGHTS).combine(List.of(overpromised)).genotype(),
        "without a weight of its own the sample's qualities change nothing");
    // An indel's example from such a sample keeps the indel's weight.
    float[] indelGl = {-5.0f, 0f, -9f};
    float[] indelNetwork = {0.998f, 0.0019f, 0.0001f};
    CallResult indel = new CallResult(0, 99, "CT", List.of("C"), new int[] {0}, indelNetwork, 1, 16, new int[] {13, 3},
        indelGl, false, false, true);
    assertEquals(GenotypeCall.REF_CALL, combiner(OVERPROMISE_WEIGHTS).combine(List.of(indel)).filter());
    // A multi-allelic SNP site alike.
    double[] probs = {0.3, 0.35, 0.01, 0.32, 0.01, 0.01};
    float[] two = {-2.0f, 0f, -20f, 0f, -20f, -20f};
    assertTrue(OVERPROMISE_WEIGHTS.applyMultiAllelic("C", List.of("T", "G"), probs, two, false, true)[0]
        > OVERPROMISE_WEIGHTS.applyMultiAllelic("C", List.of("T", "G"), probs, two, false, false)[0]);
    // The calibration file carries the weight; a file without it reads as none.
    GqCalibration.IDENTITY.withCounts(OVERPROMISE_WEIGHTS).save(dir);
    String text = Files.readString(dir.resolve(GqCalibration.FILE_NAME));
    assertTrue(text.contains("\"weight_where_qualities_overpromise\": 0.85"), text);
    assertEquals(OVERPROMISE_WEIGHTS, GqCalibration.forModel(dir).counts());
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME),
        text.replaceAll(",\\s*\"weight_where_qualities_overpromise\": 0.85", ""));
    assertEquals(AlleleCountLikelihood.parse("snp=0.5:pileup,indel=0.5:pileup:0.85"), GqCalibration.forModel(dir).counts());
    // Only the pileup's weight has one.
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME), text.replace("\"evidence\": \"pileup\",\n      \"weight_where",
        "\"error\": 0.01,\n      \"weight_where"));
    RuntimeException e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> GqCalibration.forModel(dir));
    assertTrue(e.getMessage().contains("weight_where_qualities_overpromise"), e.getMessage());
  }

  @Test
  void theMultiAllelicPriorSpreadsTheBiAllelicOneOverTheAlts() {
    double[] p = AlleleCountLikelihood.multiAllelicPrior(6);
    double theta = 1.1e-3;
    assertArrayEquals(new double[] {1 - 1.5 * theta, theta / 2, theta / 4, theta / 2, theta * theta, theta / 4}, p, 1e-15);
  }
}
