package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.postprocess.GqCalibration.Observation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GqCalibrationTest {

  private static void add(List<Observation> l, boolean snp, int gq, int calls, int wrong) {
    for (int i = 0; i < calls; i++) l.add(new Observation(snp, gq, i < wrong));
  }

  /** The one-sided 95 % upper bound of 0 errors in n calls: 1 - 0.05^(1/n) (Beta(1, n)'s quantile). */
  private static double noErrorBound(int n) {
    return 1 - Math.pow(0.05, 1.0 / n);
  }

  @Test
  void eachRawGqIsBoundedByItsBestWindowOfCallsAtOrBelowIt() {
    long[] n = new long[41];
    long[] e = new long[41];
    n[10] = 100; e[10] = 50;
    n[20] = 1000; e[20] = 0;
    n[30] = 2000; e[30] = 0;
    double[] b = GqCalibration.windowBounds(n, e);
    assertEquals(1.0, b[5], 1e-12, "no call at or below GQ 5: nothing vouches for it");
    assertEquals(GqCalibration.upperBound95(50, 100), b[12], 1e-12, "only the window [10, 12]");
    assertTrue(b[12] > 0.5 && b[12] < 0.6, "50 of 100: " + b[12]);
    assertEquals(noErrorBound(1000), b[20], 1e-9, "[20, 20]: 0 of 1,000 beats [10, 20]'s 50 of 1,100");
    assertEquals(noErrorBound(1000), b[25], 1e-9);
    // At 30 the window [20, 30] (0 of 3,000) beats [30, 30] (0 of 2,000); above 30 nothing changes.
    assertEquals(noErrorBound(3000), b[30], 1e-9);
    assertEquals(noErrorBound(3000), b[40], 1e-9);
    assertEquals(GqCalibration.upperBound95(0, 3000), b[40], 1e-9);
  }

  @Test
  void aGqPromisesNoMoreThanTheValidationCallsVouchFor() {
    List<Observation> calls = new ArrayList<>();
    add(calls, true, 25, 200, 21); // 10.5 % wrong, promised 0.3 %: lowered to the upper bound's 8
    add(calls, true, 50, 1000, 0); // none wrong, but 1,000 calls vouch for 0.3 % (GQ 25), not 1e-5
    add(calls, false, 15, 1000, 1); // indels: 1 of 1,000, bound 0.0047 (GQ 23) > GQ 15's promise: kept
    GqCalibration c = GqCalibration.fit(calls, 1200, 1000);
    assertEquals((int) Math.floor(-10 * Math.log10(GqCalibration.upperBound95(21, 200))), c.gq(true, 25));
    assertEquals(8, c.gq(true, 25));
    assertEquals(25, c.gq(true, 50), "-10 log10(1 - 0.05^(1/1000)) = 25.2");
    assertEquals(25, c.gq(true, 99), "above the highest raw GQ seen: the same calls vouch");
    assertEquals(15, c.gq(false, 15));
    assertEquals(25L, ((Number) ((java.util.Map<?, ?>) c.info().get("snp")).get("max_gq")).longValue());
    // Monotone and never above the raw GQ, for every raw GQ.
    for (int raw = 0; raw <= GqCalibration.MAX_GQ; raw++) {
      assertTrue(c.gq(true, raw) <= raw);
      if (raw > 0) assertTrue(c.gq(true, raw) >= c.gq(true, raw - 1));
    }
  }

  @Test
  void passThresholdMaximisesF1OnTheValidationCalls() {
    List<Observation> calls = new ArrayList<>();
    add(calls, true, 5, 100, 90); // 10 right, 90 wrong: dropping them gains F1
    add(calls, true, 60, 900, 0);
    GqCalibration c = GqCalibration.fit(calls, 910, 0);
    int t = c.minPassGq(true);
    assertTrue(t > c.gq(true, 5) && t <= c.gq(true, 60), "threshold " + t);
    // F1 at the threshold: 900 TP, 0 FP, 910 truth -> 1800 / 1810.
    assertEquals(1800.0 / 1810, ((Number) ((java.util.Map<?, ?>) c.info().get("snp")).get("validation_f1_at_threshold"))
        .doubleValue(), 1e-6);
    // No indel calls: nothing to filter.
    assertEquals(0, c.minPassGq(false));
  }

  @Test
  void combinerUsesCalibratedGqScaledPlsAndTheTypesPassThreshold(@TempDir Path dir) throws Exception {
    List<Observation> calls = new ArrayList<>();
    add(calls, true, 20, 100, 30); // raw GQ 20 SNPs are 30 % wrong: calibrated GQ 5
    add(calls, true, 60, 1000, 0);
    GqCalibration fitted = GqCalibration.fit(calls, 1000, 0);
    fitted.save(dir);
    GqCalibration c = GqCalibration.load(dir.resolve(GqCalibration.FILE_NAME));
    assertEquals(fitted.gq(true, 20), c.gq(true, 20));
    assertEquals(fitted.minPassGq(true), c.minPassGq(true));
    GenotypeCombiner combiner = new GenotypeCombiner(1.0, 20, dev.fastpipe.streaming.genome.HaploidRegions.none(), c);
    // p = (0.001, 0.989, 0.01): raw GQ 20, QUAL 30, PL 30,0,20 (GenotypeCombinerTest).
    GenotypeCall call = combiner.combine(List.of(
        GenotypeCombinerTest.result(99, "A", List.of("G"), new int[] {0}, 0.001f, 0.989f, 0.01f)));
    int gq = c.gq(true, 20);
    assertTrue(gq < 20);
    assertEquals(gq, call.gq());
    double f = gq / 20.0;
    assertArrayEquals(new int[] {(int) Math.round(30 * f), 0, (int) Math.round(20 * f)}, call.pl());
    assertEquals(30.0, call.qual(), 1e-3); // QUAL is the model's
    assertEquals(GenotypeCall.LOW_QUAL, call.filter());
    // An indel with the same probabilities is untouched (no indel calibration was fitted).
    GenotypeCall indel = combiner.combine(List.of(
        GenotypeCombinerTest.result(99, "A", List.of("AG"), new int[] {0}, 0.001f, 0.989f, 0.01f)));
    assertEquals(20, indel.gq());
    assertEquals(GenotypeCall.PASS, indel.filter());
  }

  @Test
  void aModelDirectoryWithoutCalibrationIsTheIdentity(@TempDir Path dir) {
    GqCalibration c = GqCalibration.forModel(dir);
    assertTrue(c.isIdentity());
    assertEquals(37, c.gq(true, 37));
    assertEquals(0, c.minPassGq(false));
  }

  @Test
  void aBrokenCalibrationFileIsOneLineNamingIt(@TempDir Path dir) throws Exception {
    Path f = dir.resolve(GqCalibration.FILE_NAME);
    Files.writeString(f, "{\"format\": \"fastpipe-gq-calibration-1\", \"snp\": {\"gq_by_raw_gq\": [0, 1]}}");
    InputException e = assertThrows(InputException.class, () -> GqCalibration.forModel(dir));
    assertTrue(e.getMessage().startsWith(f + ": not a fastpipe GQ calibration"), e.getMessage());
    Files.writeString(f, "not json");
    e = assertThrows(InputException.class, () -> GqCalibration.load(f));
    assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
  }

  /**
   * A SNP whose genotype is a het/hom-alt toss (calibrated GQ 2, below the PASS threshold 3) is
   * written 1/1 and PASS when at most one read shows the reference, more show the alt and QUAL is
   * 10 or more, whichever of the two the network leans to; with two reference reads (of nine), as many
   * reference as alt reads, no allele depths, QUAL below 10 or as an indel it stays as called and
   * LowQual, and a het above the threshold stays het.
   */
  @Test
  void aSureSnpWhoseGenotypeIsATossOnAtMostOneReferenceReadIsWrittenHomAltAndPass(@TempDir Path dir) throws Exception {
    GqCalibration c = calibration(dir, 2, 3);
    java.util.function.BiFunction<float[], int[], GenotypeCall> site = (p, ad) -> call(c, "G", p, ad);
    float[] leansHomAlt = {0.001f, 0.49f, 0.509f};
    float[] leansHet = {0.001f, 0.509f, 0.49f};

    GenotypeCall noReference = site.apply(leansHomAlt, new int[] {0, 4});
    assertArrayEquals(new int[] {1, 1}, noReference.genotype());
    assertEquals(2, noReference.gq(), "raw GQ 3, calibrated 2: below the threshold");
    assertEquals(30.0, noReference.qual(), 1e-3);
    assertEquals(GenotypeCall.PASS, noReference.filter());
    assertEquals(GenotypeCall.PASS, site.apply(leansHomAlt, new int[] {1, 8}).filter(), "one reference read");

    GenotypeCall het = site.apply(leansHet, new int[] {0, 4});
    assertArrayEquals(new int[] {1, 1}, het.genotype(), "a toss the network calls het is written hom-alt");
    assertEquals(2, het.gq(), "GQ of 1/1: raw phred(1 - 0.49) = 3, calibrated 2");
    assertEquals(GenotypeCall.PASS, het.filter());
    assertArrayEquals(new int[] {1, 1}, site.apply(leansHet, new int[] {1, 6}).genotype());

    GenotypeCall twoReference = site.apply(leansHet, new int[] {2, 7});
    assertArrayEquals(new int[] {0, 1}, twoReference.genotype());
    assertEquals(GenotypeCall.LOW_QUAL, twoReference.filter(), "two reference reads, fewer than four alt reads each");
    assertEquals(GenotypeCall.LOW_QUAL, site.apply(leansHomAlt, new int[] {1, 1}).filter(), "as many reference reads as alt");
    assertEquals(GenotypeCall.LOW_QUAL, site.apply(leansHomAlt, new int[0]).filter(), "no allele depths");
    GenotypeCall indel = call(c, "AG", leansHet, new int[] {0, 4});
    assertArrayEquals(new int[] {0, 1}, indel.genotype());
    assertEquals(GenotypeCall.LOW_QUAL, indel.filter(), "an indel");
    GenotypeCall unsure = site.apply(new float[] {0.15f, 0.40f, 0.45f}, new int[] {0, 4});
    assertEquals(8.2, unsure.qual(), 0.1);
    assertEquals(GenotypeCall.LOW_QUAL, unsure.filter(), "QUAL below 10");
    GenotypeCall sureHet = site.apply(new float[] {0.001f, 0.9f, 0.099f}, new int[] {1, 6});
    assertArrayEquals(new int[] {0, 1}, sureHet.genotype(), "a het above the GQ threshold stays het");
    assertEquals(GenotypeCall.PASS, sureHet.filter());
  }

  /**
   * With two reference reads or more, a sure SNP's het/hom-alt toss is written 1/1 and PASS where
   * the alt has at least four reads per reference read (AD 2,8 and 4,16, blind78-82's stutter
   * hom-alts that were LowQual), whichever of the two the network leans to; AD 2,7 and 3,11 stay
   * as called and LowQual, and so do an indel and a call below QUAL 10 on AD 2,8.
   */
  @Test
  void aSureSnpWhoseGenotypeIsATossOnFourAltReadsPerReferenceReadIsWrittenHomAltAndPass(@TempDir Path dir)
      throws Exception {
    GqCalibration c = calibration(dir, 2, 3);
    java.util.function.BiFunction<float[], int[], GenotypeCall> site = (p, ad) -> call(c, "G", p, ad);
    float[] leansHet = {0.001f, 0.509f, 0.49f};
    float[] leansHomAlt = {0.001f, 0.49f, 0.509f};

    GenotypeCall twoOfTen = site.apply(leansHet, new int[] {2, 8});
    assertArrayEquals(new int[] {1, 1}, twoOfTen.genotype(), "AD 2,8: four alt reads per reference read");
    assertEquals(2, twoOfTen.gq(), "GQ of 1/1: raw phred(1 - 0.49) = 3, calibrated 2");
    assertEquals(GenotypeCall.PASS, twoOfTen.filter());
    GenotypeCall fourOfTwenty = site.apply(leansHomAlt, new int[] {4, 16});
    assertArrayEquals(new int[] {1, 1}, fourOfTwenty.genotype());
    assertEquals(GenotypeCall.PASS, fourOfTwenty.filter());

    for (int[] ad : new int[][] {{2, 7}, {3, 11}}) {
      GenotypeCall fewer = site.apply(leansHet, ad);
      assertArrayEquals(new int[] {0, 1}, fewer.genotype(), java.util.Arrays.toString(ad));
      assertEquals(GenotypeCall.LOW_QUAL, fewer.filter(), java.util.Arrays.toString(ad) + ": fewer than four alt reads per reference read");
    }
    GenotypeCall indel = call(c, "AG", leansHet, new int[] {2, 8});
    assertEquals(GenotypeCall.LOW_QUAL, indel.filter(), "an indel");
    assertEquals(GenotypeCall.LOW_QUAL, site.apply(new float[] {0.15f, 0.40f, 0.45f}, new int[] {2, 8}).filter(),
        "QUAL below 10");
  }

  /**
   * With a GQ map, an indel call below QUAL 5 is LowQual whatever its GQ (the indel threshold is GQ
   * 0): QUAL 3.5 (hom-ref 0.45) and 4.9 are, 5.2 passes; a SNP at QUAL 3.5 passes on its GQ, and
   * without a map (IDENTITY, --no-gq-calibration) the indel passes as --min-qual lets it.
   */
  @Test
  void anIndelCallBelowQualFiveIsLowQualWhereTheGqMapIsInUse(@TempDir Path dir) throws Exception {
    GqCalibration c = calibration(dir, 3, 0);
    assertTrue(c.mapsGq());
    java.util.function.BiFunction<GqCalibration, float[], GenotypeCall> indel = (cal, p) -> call(cal, "AG", p, new int[] {8, 3});
    float[] quality35 = {0.45f, 0.5f, 0.05f};

    GenotypeCall low = indel.apply(c, quality35);
    assertEquals(3.47, low.qual(), 0.01);
    assertArrayEquals(new int[] {0, 1}, low.genotype());
    assertEquals(GenotypeCall.LOW_QUAL, low.filter(), "QUAL 3.5");
    assertEquals(GenotypeCall.LOW_QUAL, indel.apply(c, new float[] {0.325f, 0.6f, 0.075f}).filter(), "QUAL 4.9");
    GenotypeCall five = indel.apply(c, new float[] {0.30f, 0.6f, 0.10f});
    assertEquals(5.23, five.qual(), 0.01);
    assertEquals(GenotypeCall.PASS, five.filter(), "QUAL 5.2");
    assertEquals(GenotypeCall.PASS, indel.apply(GqCalibration.IDENTITY, quality35).filter(), "no GQ map");

    GenotypeCall snp = call(c, "G", quality35, new int[] {8, 3});
    assertEquals(GenotypeCall.PASS, snp.filter(), "a SNP passes on its GQ (3)");
  }

  /**
   * A GQ calibration written to {@code dir}: every raw GQ kept but 3, which becomes {@code rawThreeAs};
   * SNPs PASS from GQ 3, indels from {@code indelMinPassGq}.
   */
  private static GqCalibration calibration(Path dir, int rawThreeAs, int indelMinPassGq) throws Exception {
    StringBuilder map = new StringBuilder();
    for (int raw = 0; raw <= 100; raw++) map.append(raw == 0 ? "" : ", ").append(raw == 3 ? rawThreeAs : raw);
    Files.writeString(dir.resolve(GqCalibration.FILE_NAME), "{\"format\": \"fastpipe-gq-calibration-1\", "
        + "\"snp\": {\"gq_by_raw_gq\": [" + map + "], \"min_pass_gq\": 3}, "
        + "\"indel\": {\"gq_by_raw_gq\": [" + map + "], \"min_pass_gq\": " + indelMinPassGq + "}}");
    return GqCalibration.forModel(dir);
  }

  /** The call {@code c} makes of one example at 0:99, A to {@code alt}, of probabilities {@code p} on allele depths {@code ad}. */
  private static GenotypeCall call(GqCalibration c, String alt, float[] p, int[] ad) {
    return new GenotypeCombiner(1.0, 20, dev.fastpipe.streaming.genome.HaploidRegions.none(), c).combine(List.of(
        new CallResult(0, 99, "A", List.of(alt), new int[] {0}, p, 1, 4, ad)));
  }
}
