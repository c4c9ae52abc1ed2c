package dev.fastpipe.streaming.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.simulate.SyntheticSample;
import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VcfComparison against the project's evaluator (shared/tools/vcf_compare.py, which runs bcftools)
 * and bcftools' own calls as an outside check of the demo data. Skipped without bcftools, python3
 * or ../shared.
 */
class VcfCompareAgreementTest {

  @TempDir Path dir;

  static void assumeTool(String name) throws Exception {
    assumeTrue(run("command -v " + name).exit == 0, name + " not installed; skipping");
  }

  record Run(int exit, String out) {}

  static Run run(String cmd) throws Exception {
    Process p = new ProcessBuilder("bash", "-o", "pipefail", "-c", cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Run(p.waitFor(), out);
  }

  static Path script() {
    assumeTrue(SharedData.root().isPresent(), "../shared not present; skipping");
    Path s = SharedData.root().get().resolve("tools/vcf_compare.py");
    assumeTrue(Files.exists(s), s + " not present; skipping");
    return s;
  }

  private static final Pattern LINE = Pattern.compile(
      "(SNP|INDEL)\\s+truth=\\s*(\\d+) tp=\\s*(\\d+) fp=\\s*(\\d+) fn=\\s*(\\d+)");

  /** vcf_compare.py's counts, as Counts records. */
  static VcfComparison.Result script(Path ref, Path truth, Path calls, Path bed, boolean allelesOnly) throws Exception {
    Run r = run("python3 " + script() + " " + ref + " " + truth + " " + calls + " " + bed + (allelesOnly ? " --alleles-only" : ""));
    assertEquals(0, r.exit, r.out);
    List<VcfComparison.Counts> counts = new ArrayList<>();
    Matcher m = LINE.matcher(r.out);
    while (m.find()) {
      counts.add(new VcfComparison.Counts(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))));
    }
    assertEquals(2, counts.size(), r.out);
    return new VcfComparison.Result(counts.get(0), counts.get(1));
  }

  @Test
  void agreesWithVcfCompareOnBcftoolsCallsOnSim30x() throws Exception {
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path truth = SharedData.require("sim30x/SIM30X.truth.vcf.gz");
    Path bed = SharedData.require("sim30x/SIM30X.confident.bed");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    assumeTool("bcftools");
    assumeTool("python3");
    script();
    String[] b = Files.readAllLines(bed).get(0).split("\t");
    Path calls = dir.resolve("calls.vcf.gz");
    Run call = run("bcftools mpileup -f " + ref + " -r " + b[0] + ":" + (Long.parseLong(b[1]) + 1) + "-" + b[2] + " " + bam
        + " 2>/dev/null | bcftools call -mv -Oz -o " + calls);
    assertEquals(0, call.exit, call.out);
    for (boolean allelesOnly : new boolean[] {false, true}) {
      VcfComparison.Result expected = script(ref, truth, calls, bed, allelesOnly);
      VcfComparison.Result actual = VcfComparison.compare(ref, truth, calls, bed, allelesOnly);
      assertEquals(expected, actual, "alleles-only=" + allelesOnly);
      assertTrue(actual.snp().tp() > 1000, "a real comparison, not an empty one: " + actual);
    }
  }

  @Test
  void agreesWithVcfCompareOnAwkwardRepresentations() throws Exception {
    assumeTool("bcftools");
    assumeTool("python3");
    script();
    SyntheticSample s = SyntheticSample.generate(11, 20_000, 1);
    SyntheticSample.Files files = s.writeTo(dir.resolve("sample"));
    Path tricky = dir.resolve("tricky.vcf");
    Files.writeString(tricky, awkwardVcf(s.reference(), 5, false), StandardCharsets.US_ASCII);
    Path other = dir.resolve("other.vcf"); // the same sites, some dropped, some with other genotypes
    Files.writeString(other, awkwardVcf(s.reference(), 5, true), StandardCharsets.US_ASCII);
    // each script run costs four bcftools pipelines: three runs cover both modes and self-matching
    Object[][] runs = {{tricky, other, false}, {tricky, other, true}, {tricky, tricky, false}};
    for (Object[] run : runs) {
      Path t = (Path) run[0];
      Path c = (Path) run[1];
      boolean allelesOnly = (Boolean) run[2];
      VcfComparison.Result expected = script(files.reference(), t, c, files.confidentBed(), allelesOnly);
      assertEquals(expected, VcfComparison.compare(files.reference(), t, c, files.confidentBed(), allelesOnly),
          t.getFileName() + " vs " + c.getFileName() + " alleles-only=" + allelesOnly);
      assertTrue(expected.snp().tp() > 20 && expected.indel().tp() > 10, "the files share records: " + expected);
    }
  }

  @Test
  void agreesWithVcfCompareOnTheCalibrationPair() throws Exception {
    assumeTool("bcftools");
    assumeTool("python3");
    script();
    // GT:GQ:DP calls with float and missing GQs, INFO DP, an MNP, a filtered and an off-BED call
    CalibrationPair.Files4 f = CalibrationPair.gqBins().write(dir.resolve("calibration"));
    VcfComparison.Result expected = script(f.ref(), f.truth(), f.calls(), f.bed(), false);
    assertEquals(expected, VcfComparison.evaluate(f.ref(), f.truth(), f.calls(), f.bed(), null, false).counts());
    assertEquals(new VcfComparison.Counts("SNP", 26, 20, 5, 6), expected.snp());
  }

  /**
   * Records in forms callers and truth sets use: MNPs, complex substitutions, SNV+indel, padded
   * and right-shifted indels, multi-allelics mixing SNPs and indels, filtered, hom-ref, missing
   * and haploid genotypes, duplicates, lower case.
   */
  static String awkwardVcf(byte[] ref, long seed, boolean perturb) {
    SplittableRandom rnd = new SplittableRandom(seed);
    SplittableRandom change = new SplittableRandom(seed + 1000);
    StringBuilder sb = new StringBuilder("##fileformat=VCFv4.2\n##contig=<ID=" + SyntheticSample.CONTIG + ",length="
        + ref.length + ">\n##FORMAT=<ID=GT,Number=1,Type=String,Description=\"GT\">\n"
        + "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\n");
    String[] gts = {"0/1", "1/1", "0|1", "1|0"};
    int p = 1200;
    for (int i = 0; p < ref.length - 1200; i++) {
      p += 40 + rnd.nextInt(200);
      String r = new String(ref, p - 1, 12, StandardCharsets.US_ASCII);
      String gt = gts[rnd.nextInt(gts.length)];
      String[] rec;
      switch ((int) (rnd.nextInt(16))) {
        case 0 -> rec = new String[] {r.substring(0, 3), mut(rnd, r.charAt(0)) + r.substring(1, 2) + mut(rnd, r.charAt(2)), "PASS", gt};
        case 1 -> rec = new String[] {r.substring(0, 3), mut(rnd, r.charAt(0)) + r.substring(2, 3), "PASS", gt};
        case 2 -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))).repeat(3), "PASS", gt};
        case 3 -> rec = new String[] {r.substring(0, 1), r.charAt(0) + "A," + mut(rnd, r.charAt(0)), "PASS", "1/2"};
        case 4 -> rec = new String[] {r.substring(0, 4), r.charAt(0) + "," + r.substring(0, 2), "PASS", "1/2"};
        case 5 -> rec = new String[] {r.substring(0, 4), r.substring(0, 2) + r.charAt(3), "PASS", gt};
        case 6 -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))), "PASS", "0/0"};
        case 7 -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))), "PASS", "./."};
        case 8 -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))), "LowQual", "1/1"};
        case 9 -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))), ".", "1"};
        case 10 -> rec = new String[] {r.substring(0, 2), r.substring(0, 2) + r.charAt(1), "PASS", gt};
        case 11 -> rec = new String[] {r.substring(0, 5), mut(rnd, r.charAt(0)) + r.substring(1, 4) + mut(rnd, r.charAt(4)) + "TT", "PASS", gt};
        case 12 -> rec = new String[] {r.substring(0, 2).toLowerCase(), r.substring(0, 1).toLowerCase(), "PASS", gt};
        case 13 -> rec = new String[] {r.substring(0, 6), r.substring(0, 6) + r.substring(1, 3), "PASS", gt};
        case 14 -> rec = new String[] {r.substring(0, 3), mut(rnd, r.charAt(0)) + r.substring(1, 2) + mut(rnd, r.charAt(2)) + "," + r.charAt(0), "PASS", "1/2"};
        default -> rec = new String[] {r.substring(0, 1), String.valueOf(mut(rnd, r.charAt(0))), "PASS", gt};
      }
      boolean duplicate = rnd.nextInt(20) == 0; // drawn before any skip keeps both files on the same sites
      if (perturb) {
        double u = change.nextDouble();
        if (u < 0.1) continue; // a missed call
        if (u < 0.3) rec[3] = rec[3].equals("1/1") ? "0/1" : "1/1"; // a wrong genotype
      }
      sb.append(SyntheticSample.CONTIG).append('\t').append(p).append("\t.\t").append(rec[0]).append('\t').append(rec[1])
          .append("\t50\t").append(rec[2]).append("\t.\tGT\t").append(rec[3]).append('\n');
      if (duplicate) { // an exact duplicate with another genotype
        sb.append(SyntheticSample.CONTIG).append('\t').append(p).append("\t.\t").append(rec[0]).append('\t').append(rec[1])
            .append("\t50\tPASS\t.\tGT\t1/1\n");
      }
    }
    return sb.toString();
  }

  private static char mut(SplittableRandom rnd, char b) {
    String bases = "ACGT".replace(String.valueOf(Character.toUpperCase(b)), "");
    return bases.charAt(rnd.nextInt(3));
  }

  @Test
  void bcftoolsFindsTheDemoTruth() throws Exception {
    assumeTool("bcftools");
    assumeTool("samtools");
    SyntheticSample.Files f = SyntheticSample.write(dir.resolve("demo"), 3, 40_000, 30);
    assertEquals(0, run("samtools quickcheck " + f.reads()).exit);
    Path calls = dir.resolve("calls.vcf.gz");
    Run call = run("bcftools mpileup -f " + f.reference() + " " + f.reads() + " 2>/dev/null | bcftools call -mv -Oz -o " + calls);
    assertEquals(0, call.exit, call.out);
    VcfComparison.Result r = VcfComparison.compare(f.reference(), f.truth(), calls, f.confidentBed(), false);
    // a loose bar: the data must look like sequencing data to an outside caller
    assertTrue(r.snp().f1() > 0.9, r.table());
    assertTrue(r.indel().recall() > 0.5, r.table());
  }
}
