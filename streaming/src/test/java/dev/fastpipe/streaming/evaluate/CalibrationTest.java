package dev.fastpipe.streaming.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.streaming.evaluate.Calibration.DepthStratum;
import dev.fastpipe.streaming.evaluate.Calibration.GqBin;
import dev.fastpipe.streaming.evaluate.VcfComparison.Counts;
import dev.fastpipe.streaming.evaluate.VcfComparison.DepthSource;
import dev.fastpipe.streaming.evaluate.VcfComparison.Evaluation;
import dev.fastpipe.streaming.evaluate.VcfComparison.Locus;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {

  @TempDir Path dir;

  Evaluation gqPair(boolean allelesOnly) throws IOException {
    CalibrationPair.Files4 f = CalibrationPair.gqBins().write(dir.resolve("gq"));
    return VcfComparison.evaluate(f.ref(), f.truth(), f.calls(), f.bed(), null, allelesOnly);
  }

  /** Asserts one row: label, calls, errors, and the GQ >= GQmin columns; observed, promised and ok follow from them. */
  static void assertBin(GqBin b, String type, String label, int calls, int errors, int callsAbove, int errorsAbove,
      int truth) {
    String where = type + " " + label;
    assertEquals(type, b.type(), where);
    assertEquals(label, b.label(), where);
    assertEquals(calls, b.calls(), where + " calls");
    assertEquals(errors, b.errors(), where + " errors");
    assertEquals(callsAbove, b.callsAtOrAbove(), where + " calls at GQ >= min");
    assertEquals(errorsAbove, b.errorsAtOrAbove(), where + " errors at GQ >= min");
    assertEquals(truth, b.truth(), where + " truth");
    if (calls == 0) {
      assertTrue(Double.isNaN(b.observed()) && Double.isNaN(b.upper95()), where);
      assertNull(b.withinPromise(), where);
    } else {
      assertEquals(errors / (double) calls, b.observed(), 1e-12, where);
    }
  }

  @Test
  void gqTableOfAHandMadePairCountsEveryCallAndErrorInItsBin() throws IOException {
    Evaluation e = gqPair(false);
    // the SNP/INDEL table is unchanged by the calibration: 26 truth SNPs, 20 right, 5 false calls
    assertEquals(new Counts("SNP", 26, 20, 5, 6), e.counts().snp());
    assertEquals(new Counts("INDEL", 7, 4, 3, 3), e.counts().indel());
    List<GqBin> bins = Calibration.of(List.of(e)).gqBins();
    assertEquals(13, bins.size()); // 6 SNP bins, "none", 6 INDEL bins (no INDEL without GQ)
    assertBin(bins.get(0), "SNP", "0-9", 4, 3, 24, 5, 26);
    assertBin(bins.get(1), "SNP", "10-19", 10, 1, 20, 2, 26);
    assertBin(bins.get(2), "SNP", "20-29", 5, 0, 10, 1, 26);
    assertBin(bins.get(3), "SNP", "30-39", 2, 1, 5, 1, 26);
    assertBin(bins.get(4), "SNP", "40-49", 0, 0, 3, 0, 26); // the LowQual and the off-BED call do not count
    assertBin(bins.get(5), "SNP", ">=50", 3, 0, 3, 0, 26);
    assertBin(bins.get(6), "SNP", "none", 1, 0, 0, 0, 26);
    assertBin(bins.get(7), "INDEL", "0-9", 2, 2, 7, 3, 7);
    assertBin(bins.get(8), "INDEL", "10-19", 3, 0, 5, 1, 7);
    assertBin(bins.get(9), "INDEL", "20-29", 0, 0, 2, 1, 7);
    assertBin(bins.get(10), "INDEL", "30-39", 1, 0, 2, 1, 7);
    assertBin(bins.get(11), "INDEL", "40-49", 1, 1, 1, 1, 7);
    assertBin(bins.get(12), "INDEL", ">=50", 0, 0, 0, 0, 7);

    // a type's errors are its FP, its calls its TP + FP
    for (String type : List.of("SNP", "INDEL")) {
      Counts c = type.equals("SNP") ? e.counts().snp() : e.counts().indel();
      assertEquals(c.fp(), bins.stream().filter(b -> b.type().equals(type)).mapToInt(GqBin::errors).sum(), type);
      assertEquals(c.tp() + c.fp(), bins.stream().filter(b -> b.type().equals(type)).mapToInt(GqBin::calls).sum(), type);
    }

    // promised 10^(-GQmin/10), and whether the observed rate is within it (equal is within)
    double[] promised = {1, 0.1, 0.01, 0.001, 1e-4, 1e-5};
    for (int i = 0; i < 6; i++) {
      assertEquals(promised[i], bins.get(i).promised(), promised[i] * 1e-12);
      assertEquals(promised[i], bins.get(7 + i).promised(), promised[i] * 1e-12);
    }
    assertTrue(Double.isNaN(bins.get(6).promised()));
    Boolean[] snpOk = {true, true, true, false, null, true, null};
    Boolean[] indelOk = {true, true, null, true, false, null};
    for (int i = 0; i < snpOk.length; i++) assertEquals(snpOk[i], bins.get(i).withinPromise(), "SNP bin " + i);
    for (int i = 0; i < indelOk.length; i++) assertEquals(indelOk[i], bins.get(7 + i).withinPromise(), "INDEL bin " + i);

    // what a GQ >= GQmin filter keeps
    assertEquals(5 / 24.0, bins.get(0).errorRateAtOrAbove(), 1e-12);
    assertEquals(19 / 26.0, bins.get(0).recallAtOrAbove(), 1e-12);
    assertEquals(0.1, bins.get(1).errorRateAtOrAbove(), 1e-12);
    assertEquals(18 / 26.0, bins.get(1).recallAtOrAbove(), 1e-12);
    assertEquals(0.1, bins.get(2).errorRateAtOrAbove(), 1e-12);
    assertEquals(9 / 26.0, bins.get(2).recallAtOrAbove(), 1e-12);
    assertEquals(0.2, bins.get(3).errorRateAtOrAbove(), 1e-12);
    assertEquals(4 / 26.0, bins.get(3).recallAtOrAbove(), 1e-12);
    assertEquals(0.0, bins.get(5).errorRateAtOrAbove(), 1e-12);
    assertEquals(3 / 26.0, bins.get(5).recallAtOrAbove(), 1e-12);
    assertTrue(Double.isNaN(bins.get(6).errorRateAtOrAbove()) && Double.isNaN(bins.get(6).recallAtOrAbove()));
    assertEquals(3 / 7.0, bins.get(7).errorRateAtOrAbove(), 1e-12);
    assertEquals(4 / 7.0, bins.get(7).recallAtOrAbove(), 1e-12);
    assertEquals(1.0, bins.get(11).errorRateAtOrAbove(), 1e-12);
    assertEquals(0.0, bins.get(11).recallAtOrAbove(), 1e-12);
    assertTrue(Double.isNaN(bins.get(12).errorRateAtOrAbove()));

    // the printed table, every cell (upper95 of 0 in n is 1 - 0.05^(1/n); of x = n - 1 in n, 0.95^(1/n)); its rows
    // start with the bin, so that none starts with SNP or INDEL
    assertEquals("""
        GQ calibration of the PASS calls (error: a false allele or a wrong genotype; promised: 10^(-GQmin/10))
        GQ     type     calls errors observed  upper95 promised ok  | at GQ>=min:   calls errors    error  recall
        0-9    SNP          4      3  0.75000  0.98726  1.00000 yes |                  24      5  0.20833  0.7308
        10-19  SNP         10      1  0.10000  0.39416  0.10000 yes |                  20      2  0.10000  0.6923
        20-29  SNP          5      0  0.00000  0.45072  0.01000 yes |                  10      1  0.10000  0.3462
        30-39  SNP          2      1  0.50000  0.97468  0.00100 no  |                   5      1  0.20000  0.1538
        40-49  SNP          0      0        -        -  0.00010 -   |                   3      0  0.00000  0.1154
        >=50   SNP          3      0  0.00000  0.63160  0.00001 yes |                   3      0  0.00000  0.1154
        none   SNP          1      0  0.00000  0.95000        - -   |                   -      -        -       -
        0-9    INDEL        2      2  1.00000  1.00000  1.00000 yes |                   7      3  0.42857  0.5714
        10-19  INDEL        3      0  0.00000  0.63160  0.10000 yes |                   5      1  0.20000  0.5714
        20-29  INDEL        0      0        -        -  0.01000 -   |                   2      1  0.50000  0.1429
        30-39  INDEL        1      0  0.00000  0.95000  0.00100 yes |                   2      1  0.50000  0.1429
        40-49  INDEL        1      1  1.00000  1.00000  0.00010 no  |                   1      1  1.00000  0.0000
        >=50   INDEL        0      0        -        -  0.00001 -   |                   0      0        -  0.0000
        """, Calibration.of(List.of(e)).gqTable());
  }

  @Test
  void errorsJudgeTheGenotypeEvenWithAllelesOnly() throws IOException {
    Evaluation e = gqPair(true);
    // alleles-only: the two right-allele wrong-genotype SNPs (GQ 5, 39) and indels (GQ 7, 41) are TPs ...
    assertEquals(new Counts("SNP", 26, 22, 3, 4), e.counts().snp());
    assertEquals(new Counts("INDEL", 7, 6, 1, 1), e.counts().indel());
    // ... but still errors in the GQ table
    List<GqBin> bins = Calibration.of(List.of(e)).gqBins();
    assertEquals(3, bins.get(0).errors());
    assertEquals(1, bins.get(3).errors());
    assertEquals(1, bins.get(11).errors());
  }

  @Test
  void upperBoundIsTheClopperPearsonOneSided95() {
    assertEquals(1 - Math.pow(0.05, 1 / 5.0), Calibration.upperBound(0, 5), 1e-9);
    assertEquals(1.0, Calibration.upperBound(3, 3));
    assertTrue(Double.isNaN(Calibration.upperBound(0, 0)));
    // for 0 < x < n: P(X <= x | n, upper) = 0.05
    for (int[] xn : new int[][] {{1, 10}, {3, 4}, {1, 2}, {7, 1139}}) {
      double u = Calibration.upperBound(xn[0], xn[1]);
      assertEquals(0.05, binomialCdf(xn[0], xn[1], u), 1e-6, xn[0] + " of " + xn[1]);
    }
  }

  static double binomialCdf(int x, int n, double p) {
    double sum = 0;
    double logChoose = 0; // log C(n, k), k from 0
    for (int k = 0; k <= x; k++) {
      if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
      sum += Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log1p(-p));
    }
    return sum;
  }

  // ---- depth strata ---------------------------------------------------------------------------

  /** Five sites 400 bp apart, each covered by a known number of counted reads and by reads that must not count. */
  record DepthPair(CalibrationPair pair, Path ref, Path truth, Path calls, Path bed, Path bam) {}

  DepthPair depthPair() throws IOException {
    CalibrationPair p = new CalibrationPair(23);
    TestGenome g = p.genome;
    int a = 200; // SNP, right: 5 reads
    int b = 600; // SNP, missed, no call: 12 reads
    int c = 1000; // SNP, false call: 25 reads, plus 3 MAPQ 0, 2 duplicates and 1 secondary that do not count
    int d = 1400; // deletion, right: 45 reads
    int e = 1800; // SNP, wrong genotype (FP and FN): 15 reads
    p.truth(a, p.base(a), p.other(a, 0), "0/1").call(a, p.base(a), p.other(a, 0), "PASS", "0/1", "30", "99", ".");
    p.truth(b, p.base(b), p.other(b, 0), "0/1");
    p.call(c, p.base(c), p.other(c, 0), "PASS", "0/1", "20", ".", "DP=31"); // no FORMAT DP: INFO DP
    p.truth(d, g.refString(d - 1, d + 2), p.base(d), "0/1")
        .call(d, g.refString(d - 1, d + 2), p.base(d), "PASS", "0/1", "40", "44", ".");
    p.truth(e, p.base(e), p.other(e, 1), "0/1").call(e, p.base(e), p.other(e, 1), "PASS", "1/1", "12", "8", "DP=50");
    cover(g, a, 5);
    cover(g, b, 12);
    cover(g, c, 25);
    for (int i = 0; i < 3; i++) g.add(g.refRead(c - 20, 50)).setMappingQuality(0);
    for (int i = 0; i < 2; i++) g.add(g.refRead(c - 20, 50)).setDuplicateReadFlag(true);
    g.add(g.refRead(c - 20, 50)).setSecondaryAlignment(true);
    cover(g, d, 45);
    cover(g, e, 15);
    // two reads with a deletion over site a's base: no base aligned there, so they do not count
    for (int i = 0; i < 2; i++) {
      String bases = g.refString(a - 31, a - 1) + g.refString(a + 2, a + 32);
      g.add(g.read(a - 31, "30M3D30M", bases));
    }
    CalibrationPair.Files4 f = p.write(dir.resolve("depth"));
    Path bam = g.writeBam(dir.resolve("depth"), "reads.bam");
    return new DepthPair(p, f.ref(), f.truth(), f.calls(), f.bed(), bam);
  }

  /** {@code n} reads of 50 bp covering 1-based {@code pos}, starting at different places. */
  static void cover(TestGenome g, int pos, int n) {
    for (int i = 0; i < n; i++) g.add(g.refRead(pos - 1 - (i % 40), 50));
  }

  static void assertStratum(DepthStratum s, String type, String label, int tp, int fn, int fp) {
    String where = type + " " + label;
    assertEquals(type, s.type(), where);
    assertEquals(label, s.label(), where);
    assertEquals(tp, s.tp(), where + " TP");
    assertEquals(fn, s.fn(), where + " FN");
    assertEquals(fp, s.fp(), where + " FP");
    assertEquals(tp + fn, s.truth(), where + " truth");
  }

  @Test
  void depthStrataFromTheReadsPlaceEverySite() throws IOException {
    DepthPair p = depthPair();
    Evaluation e = VcfComparison.evaluate(p.ref(), p.truth(), p.calls(), p.bed(), p.bam(), false);
    assertEquals(DepthSource.READS, e.depthSource());
    Calibration cal = Calibration.of(List.of(e));
    List<DepthStratum> s = cal.depthStrata();
    assertEquals(8, s.size(), cal.depthTable()); // no "unknown" row: every site has a depth
    assertStratum(s.get(0), "SNP", "<10", 1, 0, 0); // a: 5 reads (not its DP 99, nor the 2 reads deleting it)
    assertStratum(s.get(1), "SNP", "10-19", 0, 2, 1); // b (missed), e (wrong genotype: FN and FP)
    assertStratum(s.get(2), "SNP", "20-39", 0, 0, 1); // c: 25 counted reads
    assertStratum(s.get(3), "SNP", ">=40", 0, 0, 0);
    assertStratum(s.get(4), "INDEL", "<10", 0, 0, 0);
    assertStratum(s.get(5), "INDEL", "10-19", 0, 0, 0);
    assertStratum(s.get(6), "INDEL", "20-39", 0, 0, 0);
    assertStratum(s.get(7), "INDEL", ">=40", 1, 0, 0); // d: 45 reads at its anchor base
    assertEquals(0.0, s.get(1).recall(), 1e-12);
    assertEquals(0.0, s.get(1).precision(), 1e-12);
    assertEquals(1.0, s.get(0).recall(), 1e-12);
    assertTrue(Double.isNaN(s.get(3).recall()) && Double.isNaN(s.get(3).precision()));
    assertTrue(cal.depthTable().startsWith("Depth of the site: reads with a base aligned"), cal.depthTable());

    Map<Locus, Integer> depths = SiteDepths.count(p.ref(), p.bam(), List.of(new Locus("chrC", 200), new Locus("chrC", 600),
        new Locus("chrC", 1000), new Locus("chrC", 1400), new Locus("chrC", 1800), new Locus("chrC", 2900)));
    assertEquals(Map.of(new Locus("chrC", 200), 5, new Locus("chrC", 600), 12, new Locus("chrC", 1000), 25,
        new Locus("chrC", 1400), 45, new Locus("chrC", 1800), 15, new Locus("chrC", 2900), 0), depths);
  }

  @Test
  void depthStrataWithoutReadsTakeTheCallsDepthAndLeaveMissedSitesUnknown() throws IOException {
    DepthPair p = depthPair();
    Evaluation e = VcfComparison.evaluate(p.ref(), p.truth(), p.calls(), p.bed(), null, false);
    assertEquals(DepthSource.CALLS, e.depthSource());
    Calibration cal = Calibration.of(List.of(e));
    List<DepthStratum> s = cal.depthStrata();
    assertEquals(9, s.size(), cal.depthTable()); // SNP "unknown" row; no INDEL one
    assertStratum(s.get(0), "SNP", "<10", 0, 1, 1); // e: FORMAT DP 8 (before INFO DP 50), for its FP and its FN
    assertStratum(s.get(1), "SNP", "10-19", 0, 0, 0);
    assertStratum(s.get(2), "SNP", "20-39", 0, 0, 1); // c: INFO DP 31
    assertStratum(s.get(3), "SNP", ">=40", 1, 0, 0); // a: FORMAT DP 99
    assertStratum(s.get(4), "SNP", "unknown", 0, 1, 0); // b: missed, no call there
    assertStratum(s.get(5), "INDEL", "<10", 0, 0, 0);
    assertStratum(s.get(6), "INDEL", "10-19", 0, 0, 0);
    assertStratum(s.get(7), "INDEL", "20-39", 0, 0, 0);
    assertStratum(s.get(8), "INDEL", ">=40", 1, 0, 0); // d: DP 44
    assertTrue(cal.depthTable().startsWith("Depth of the site: the call's FORMAT DP"), cal.depthTable());
  }

  @Test
  void samtoolsDepthCountsTheSame() throws Exception {
    assumeTrue(VcfCompareAgreementTest.run("command -v samtools").exit() == 0, "samtools not installed; skipping");
    DepthPair p = depthPair();
    List<Locus> loci = new ArrayList<>();
    for (int pos = 150; pos < 1900; pos += 7) loci.add(new Locus("chrC", pos));
    Map<Locus, Integer> ours = SiteDepths.count(p.ref(), p.bam(), loci);
    // samtools depth's default flag filter (UNMAP, SECONDARY, QCFAIL, DUP) and MAPQ >= 5
    VcfCompareAgreementTest.Run r = VcfCompareAgreementTest.run("samtools depth -a -Q 5 -r chrC:150-1900 " + p.bam());
    assertEquals(0, r.exit(), r.out());
    int checked = 0;
    for (String line : r.out().split("\n")) {
      String[] f = line.split("\t");
      Integer d = ours.get(new Locus("chrC", Integer.parseInt(f[1])));
      if (d == null) continue;
      assertEquals(Integer.parseInt(f[2]), d, line);
      checked++;
    }
    assertEquals(loci.size(), checked);
  }

  // ---- pooling and JSON -------------------------------------------------------------------------

  @Test
  void pooledPairsAddUpTheirCallsAndSites() throws IOException {
    Evaluation gq = gqPair(false);
    DepthPair p = depthPair();
    Evaluation depth = VcfComparison.evaluate(p.ref(), p.truth(), p.calls(), p.bed(), p.bam(), false);
    Calibration one = Calibration.of(List.of(gq));
    Calibration pooled = Calibration.of(List.of(gq, depth));
    // the depth pair adds SNP calls at GQ 30 (right), 20 (false) and 12 (wrong genotype)
    List<GqBin> a = one.gqBins();
    List<GqBin> b = pooled.gqBins();
    assertBin(b.get(1), "SNP", "10-19", a.get(1).calls() + 1, a.get(1).errors() + 1, 23, 4, 29);
    assertBin(b.get(2), "SNP", "20-29", a.get(2).calls() + 1, a.get(2).errors() + 1, 12, 2, 29);
    assertBin(b.get(3), "SNP", "30-39", a.get(3).calls() + 1, a.get(3).errors(), 6, 1, 29);
    assertEquals(new Counts("SNP", 29, 21, 7, 8), VcfComparison.Result.pooled(List.of(gq.counts(), depth.counts())).snp());
    // depths of one from its reads, of the other from its calls (no GQ-pair call has a depth)
    assertEquals(java.util.EnumSet.allOf(DepthSource.class), pooled.depthSources());
    DepthStratum unknown = pooled.depthStrata().get(4);
    assertStratum(unknown, "SNP", "unknown", 20, 6, 5);
    assertTrue(pooled.depthTable().startsWith("Depth of the site: pooled: "), pooled.depthTable());
  }

  @Test
  void jsonCarriesEveryRow() throws IOException {
    Calibration cal = Calibration.of(List.of(gqPair(false)));
    Object root = Json.parse(Json.write(cal.toJson()));
    List<Object> bins = Json.list(root, "gq_calibration");
    assertEquals(13, bins.size());
    Object b = bins.get(3);
    assertEquals("SNP", Json.at(b, "type"));
    assertEquals(30.0, Json.number(b, "gq_min"));
    assertEquals(39.0, Json.number(b, "gq_max"));
    assertEquals(2.0, Json.number(b, "calls"));
    assertEquals(1.0, Json.number(b, "errors"));
    assertEquals(0.5, Json.number(b, "observed"));
    assertEquals(0.001, Json.number(b, "promised"), 1e-9);
    assertEquals(Boolean.FALSE, Json.at(b, "within_promise"));
    assertEquals(5.0, Json.number(b, "at_or_above", "calls"));
    assertNull(Json.at(bins.get(6), "gq_min")); // "none"
    assertNull(Json.at(bins.get(12), "observed")); // empty bin
    // no call of this pair has a depth: every site is in the "unknown" rows
    List<Object> strata = Json.list(root, "depth_strata");
    assertEquals(10, strata.size());
    Object unknown = strata.get(4);
    assertEquals("unknown", Json.at(unknown, "depth"));
    assertNull(Json.at(unknown, "depth_min"));
    assertEquals(26.0, Json.number(unknown, "truth"));
    assertEquals(20.0, Json.number(unknown, "tp"));
    assertEquals(6.0, Json.number(unknown, "fn"));
    assertEquals(5.0, Json.number(unknown, "fp"));
    assertTrue(String.valueOf(Json.at(root, "error_definition")).contains("wrong genotype"));
  }
}
