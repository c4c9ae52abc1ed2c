package dev.fastpipe.streaming.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VcfComparisonTest {

  //                                        1         2         3         4         5         6
  //                               123456789012345678901234567890123456789012345678901234567890
  static final String SEQUENCE = "GATCCAGTTAGCAAAAAGCTTGACCTGATCGGATCCATGCAGTCAGTACGATCGATTGCA";

  @TempDir static Path dir;
  static Path ref;

  @BeforeAll
  static void reference() throws IOException {
    ref = dir.resolve("t.fa");
    Files.writeString(ref, ">chrT\n" + SEQUENCE + "\n");
    Files.writeString(Path.of(ref + ".fai"), "chrT\t" + SEQUENCE.length() + "\t6\t" + SEQUENCE.length() + "\t"
        + (SEQUENCE.length() + 1) + "\n");
  }

  static Path vcf(String name, String... records) throws IOException {
    StringBuilder sb = new StringBuilder("##fileformat=VCFv4.2\n##contig=<ID=chrT,length=60>\n"
        + "##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">\n"
        + "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\n");
    for (String r : records) {
      String[] f = r.split(" ");
      // POS REF ALT FILTER GT
      sb.append("chrT\t").append(f[0]).append("\t.\t").append(f[1]).append('\t').append(f[2]).append("\t50\t")
          .append(f[3]).append("\t.\tGT\t").append(f[4]).append('\n');
    }
    Path p = dir.resolve(name);
    Files.writeString(p, sb.toString(), StandardCharsets.US_ASCII);
    return p;
  }

  static Path truth() throws IOException {
    return vcf("truth.vcf",
        "3 T C PASS 0/1",
        "10 A G PASS 0/1",
        "12 CA C PASS 0/1", // one A of the A13-A17 run, left-aligned
        "26 T TGG PASS 1/1");
  }

  static Path calls() throws IOException {
    return vcf("calls.vcf",
        "3 T C PASS 0|1", // TP (phasing does not matter)
        "10 A G PASS 1/1", // right allele, wrong genotype: FP and FN
        "16 AA A . 0/1", // the same deletion written at the run's right end: TP after left-alignment
        "34 T A PASS ./.", // no ALT copy: ignored
        "40 C T PASS 0/1", // not in the truth: FP
        "45 A G LowQual 1/1", // filtered: ignored
        "50 G A PASS 0/0"); // hom-ref: ignored
  }

  @Test
  void countsTruePositivesFalsePositivesAndGenotypeMismatches() throws IOException {
    VcfComparison.Result r = VcfComparison.compare(ref, truth(), calls(), null, false);
    assertEquals(new VcfComparison.Counts("SNP", 2, 1, 2, 1), r.snp());
    assertEquals(new VcfComparison.Counts("INDEL", 2, 1, 0, 1), r.indel());
    assertEquals(1 / 3.0, r.snp().precision(), 1e-12);
    assertEquals(0.5, r.snp().recall(), 1e-12);
    assertEquals(2 * (1 / 3.0) * 0.5 / (1 / 3.0 + 0.5), r.snp().f1(), 1e-12);
    assertEquals(1.0, r.indel().precision(), 1e-12);
    assertTrue(r.table().contains("INDEL") && r.table().contains("0.5000"));
  }

  @Test
  void allelesOnlyIgnoresGenotypes() throws IOException {
    VcfComparison.Result r = VcfComparison.compare(ref, truth(), calls(), null, true);
    assertEquals(new VcfComparison.Counts("SNP", 2, 2, 1, 0), r.snp());
  }

  @Test
  void bedKeepsRecordsWhosePositionIsInside() throws IOException {
    Path bed = dir.resolve("r.bed");
    Files.writeString(bed, "chrT\t0\t39\n"); // POS 1..39: the FP at 40 falls outside
    VcfComparison.Result r = VcfComparison.compare(ref, truth(), calls(), bed, false);
    assertEquals(new VcfComparison.Counts("SNP", 2, 1, 1, 1), r.snp());
    Files.writeString(bed, "chrT\t2\t3\n"); // only POS 3
    r = VcfComparison.compare(ref, truth(), calls(), bed, false);
    assertEquals(new VcfComparison.Counts("SNP", 1, 1, 0, 0), r.snp());
    assertEquals(new VcfComparison.Counts("INDEL", 0, 0, 0, 0), r.indel());
  }

  @Test
  void multiAllelicSitesAreSplitAndTheirStarRecordsDropped() throws IOException {
    Path t = vcf("multi_truth.vcf", "50 G A,T PASS 1/2", "20 T TG,TGG PASS 1/2");
    // the same alleles as one multi-allelic record: everything matches
    VcfComparison.Result same = VcfComparison.compare(ref, t, t, null, false);
    assertEquals(same.snp().truth(), same.snp().tp());
    assertEquals(0, same.snp().fp() + same.snp().fn() + same.indel().fp() + same.indel().fn());
    // vcf_compare.py atomises 1/2 into G>A, G>T and an overlap record G>* (and T>* at the indel
    // site), then drops the "*" records: biallelic calls of the same alleles match everything
    Path c = vcf("multi_calls.vcf", "50 G A PASS 0/1", "50 G T PASS 0/1", "20 T TG PASS 0/1", "20 T TGG PASS 0/1");
    VcfComparison.Result split = VcfComparison.compare(ref, t, c, null, false);
    assertEquals(new VcfComparison.Counts("SNP", 2, 2, 0, 0), split.snp());
    assertEquals(new VcfComparison.Counts("INDEL", 2, 2, 0, 0), split.indel());
  }

  @Test
  void starAllelesInTruthAndCallsAreNoVariants() throws IOException {
    Path t = vcf("star_truth.vcf",
        "3 T C,* PASS 1/2", // one copy of C; the "*" copy is no variant
        "34 T * PASS 0/1"); // a "*" record alone: not in the truth
    Path c = vcf("star_calls.vcf",
        "3 T C PASS 0/1", // one copy of C, as in the truth: TP
        "34 T * PASS 1/1", // "*" only: not a call, so no FP
        "40 C T,* PASS 2/2", // no copy of T: ignored
        "50 G A,* PASS 1/2"); // one copy of A, not in the truth: FP
    for (boolean allelesOnly : new boolean[] {false, true}) {
      VcfComparison.Result r = VcfComparison.compare(ref, t, c, null, allelesOnly);
      assertEquals(new VcfComparison.Counts("SNP", 1, 1, 1, 0), r.snp(), "alleles-only=" + allelesOnly);
      assertEquals(new VcfComparison.Counts("INDEL", 0, 0, 0, 0), r.indel(), "alleles-only=" + allelesOnly);
    }
  }

  @Test
  void mnpsAreAtomisedAndPaddedIndelsTrimmed() throws IOException {
    Path t = vcf("mnp_truth.vcf", "3 T C PASS 0/1", "5 C T PASS 0/1", "26 T TGG PASS 1/1");
    Path c = vcf("mnp_calls.vcf", "3 TCC CCT PASS 0/1", "25 CTG CTGGG PASS 1/1");
    VcfComparison.Result r = VcfComparison.compare(ref, t, c, null, false);
    assertEquals(new VcfComparison.Counts("SNP", 2, 2, 0, 0), r.snp());
    assertEquals(new VcfComparison.Counts("INDEL", 1, 1, 0, 0), r.indel());
  }

  @Test
  void badInputIsNamedInOneLine() throws IOException {
    Path wrongRef = vcf("wrong.vcf", "3 G C PASS 0/1");
    var e = assertThrows(dev.fastpipe.streaming.InputException.class,
        () -> VcfComparison.compare(ref, truth(), wrongRef, null, false));
    assertTrue(e.getMessage().startsWith(wrongRef.toString()) && e.getMessage().contains("chrT:3"), e.getMessage());
    Path missing = dir.resolve("nope.vcf");
    e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfComparison.compare(ref, truth(), missing, null, false));
    assertTrue(e.getMessage().startsWith(missing.toString()), e.getMessage());
    Path badContig = dir.resolve("contig.vcf");
    Files.writeString(badContig, "chrX\t3\t.\tT\tC\t50\tPASS\t.\tGT\t0/1\n");
    e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfComparison.compare(ref, truth(), badContig, null, false));
    assertTrue(e.getMessage().contains("chrX"), e.getMessage());
  }

  @Test
  void parsesGenotypes() {
    Path v = Path.of("c.vcf");
    assertEquals(List.of(0, 1), box(VcfComparison.parseGenotype(v, 1, "0/1", 2)));
    assertEquals(List.of(1, 2), box(VcfComparison.parseGenotype(v, 1, "1|2", 3)));
    assertEquals(List.of(-1, -1), box(VcfComparison.parseGenotype(v, 1, "./.", 2)));
    assertEquals(List.of(1), box(VcfComparison.parseGenotype(v, 1, "1", 2)));
    assertEquals(List.of(-1), box(VcfComparison.parseGenotype(v, 1, ".", 1)));
  }

  /** A calls record whose GT is cut short or names an allele beyond the ALTs is an error naming the line, not skipped. */
  @Test
  void aBrokenGenotypeIsAnErrorNamingTheFileLineAndGt() throws IOException {
    Path cut = vcf("cutgt.vcf", "3 T C PASS 0/1", "10 A G PASS 0/");
    var e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfComparison.compare(ref, truth(), cut, null, false));
    assertEquals(cut + ": line 6: GT '0/' is cut short (an empty allele)", e.getMessage());
    Path beyond = vcf("gt05.vcf", "3 T C PASS 0/5");
    e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfComparison.compare(ref, truth(), beyond, null, false));
    assertEquals(beyond + ": line 5: GT '0/5' names allele 5, but the record has 1 ALT allele", e.getMessage());
    Path word = vcf("word.vcf", "3 T C,G PASS 1/x");
    e = assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfComparison.compare(ref, truth(), word, null, false));
    assertEquals(word + ": line 5: GT '1/x' has allele 'x', neither an allele number nor '.'", e.getMessage());
  }

  private static List<Integer> box(int[] a) {
    return java.util.Arrays.stream(a).boxed().toList();
  }
}
