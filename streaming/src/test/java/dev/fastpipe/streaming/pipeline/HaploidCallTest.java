package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.simulate.Simulation;
import dev.fastpipe.streaming.simulate.SyntheticSample;
import htsjdk.variant.variantcontext.Genotype;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code call --haploid-contigs --par-bed --gvcf} end to end on a simulated male: demo1 an
 * autosome, demo3 a haploid contig (its X) whose first 8 kb are a PAR. The haploid part's records
 * have one allele and match the one-copy truth; the PAR and the autosome stay diploid, in the VCF
 * and in the gVCF.
 */
class HaploidCallTest {
  static final String X = "demo3";
  static final int PAR_END = 8000;
  @TempDir static Path dir;
  static Simulation.Result sample;
  static Path parBed;
  static List<VariantContext> vcf;
  static List<VariantContext> gvcf;
  static List<VariantContext> truth;

  @BeforeAll
  static void simulateAMaleAndCallIt() throws IOException {
    parBed = dir.resolve("par.bed");
    Files.writeString(parBed, "# PAR1 of the simulated X, and one on a contig the sample lacks\n"
        + X + "\t0\t" + PAR_END + "\nchrY\t0\t2700\n");
    sample = Simulation.synthetic(7, 4, 120_000, 30).withHaploid(List.of(X), parBed).writeTo(dir.resolve("male"));
    CallRequest.Builder s = settings("male", List.of(X), parBed);
    s.gvcf(dir.resolve("male.g.vcf.gz"));
    run(s);
    vcf = records(vcfOf(s));
    gvcf = records(gvcfOf(s));
    truth = records(sample.files().truth());
  }

  static CallRequest.Builder settings(String name, List<String> haploid, Path par) {
    CallRequest.Builder s = CallRequest.builder();
    s.examples().reference(sample.files().reference()).reads(sample.files().reads()).shards(2).haploidContigs(haploid).parBed(par);
    s.output(dir.resolve(name + ".vcf.gz"));
    s.transport("disruptor");
    s.progress(false);
    s.sample(SyntheticSample.SAMPLE);
    return s;
  }

  static void run(CallRequest.Builder s) {
    StreamingCall.run(s.build(), () -> GenotypeModel.load(Path.of("..", "models", "fastpipe-v2")),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  static List<VariantContext> records(Path path) {
    try (VCFFileReader r = new VCFFileReader(path, false)) {
      List<VariantContext> out = new ArrayList<>();
      r.iterator().forEachRemaining(out::add);
      return out;
    }
  }

  static boolean haploidPart(VariantContext v) {
    return v.getContig().equals(X) && v.getStart() > PAR_END;
  }

  static Genotype gt(VariantContext v) {
    return v.getGenotype(0);
  }

  @Test
  void theSimulatorMadeOneCopyOutsideThePar() {
    int haploid = 0;
    for (VariantContext t : truth) {
      assertEquals(haploidPart(t) ? 1 : 2, gt(t).getPloidy(), t.toString());
      if (haploidPart(t)) {
        haploid++;
        assertTrue(gt(t).isHomVar(), "one copy carries the alt: " + t);
      }
    }
    assertTrue(haploid >= 10, haploid + " truth variants on the haploid part");
    assertTrue(truth.stream().anyMatch(t -> t.getContig().equals(X) && !haploidPart(t) && gt(t).isHet()),
        "the PAR has hets");
  }

  @Test
  void haploidRecordsHaveOneAlleleAndMatchTheTruth() {
    Map<String, VariantContext> called = new HashMap<>();
    for (VariantContext v : vcf) called.put(v.getContig() + ":" + v.getStart(), v);
    int found = 0;
    int haploidTruth = 0;
    for (VariantContext t : truth) {
      if (!haploidPart(t)) continue;
      haploidTruth++;
      VariantContext v = called.get(t.getContig() + ":" + t.getStart());
      if (v == null || !v.isNotFiltered()) continue;
      assertEquals(t.getAlternateAlleles(), v.getAlternateAlleles(), v.toString());
      assertEquals(List.of(v.getAlternateAllele(0)), gt(v).getAlleles(), "GT 1: " + v);
      found++;
    }
    assertTrue(found >= 0.9 * haploidTruth, found + " of " + haploidTruth + " haploid truth variants called as 1");
    for (VariantContext v : vcf) {
      if (!haploidPart(v)) continue;
      Genotype g = gt(v);
      assertEquals(1, g.getPloidy(), "haploid GT: " + v);
      assertEquals(v.getNAlleles(), g.getPL().length, "one PL per allele: " + v);
      if (g.isCalled()) assertEquals(0, g.getPL()[v.getAlleleIndex(g.getAllele(0))], "the called allele's PL is 0: " + v);
      if (v.isNotFiltered()) {
        assertTrue(g.isHomVar(), "a PASS call there is 1: " + v);
        // GQ is the called allele's confidence: the other allele's PL, within rounding
        assertTrue(Math.abs(g.getGQ() - g.getPL()[0]) <= 1, v.toString());
      }
    }
  }

  @Test
  void theParAndTheAutosomeStayDiploid() {
    int hets = 0;
    for (VariantContext v : vcf) {
      if (haploidPart(v)) continue;
      assertEquals(2, gt(v).getPloidy(), v.toString());
      assertEquals(v.getNAlleles() * (v.getNAlleles() + 1) / 2, gt(v).getPL().length, v.toString());
      if (gt(v).isHet() && v.isNotFiltered()) hets++;
    }
    assertTrue(hets >= 20, hets + " het calls off the haploid part");
    assertTrue(vcf.stream().anyMatch(v -> v.getContig().equals(X) && !haploidPart(v) && gt(v).isHet()), "hets in the PAR");
  }

  @Test
  void theGvcfIsHaploidExactlyOutsideThePar() {
    int haploidBlocks = 0;
    int edge = 0; // the first record past the PAR starts at its end
    for (VariantContext v : gvcf) {
      Genotype g = gt(v);
      boolean block = v.hasAttribute("END");
      assertEquals(haploidPart(v) ? 1 : 2, g.getPloidy(), v.toString());
      if (v.getContig().equals(X)) {
        assertTrue(v.getStart() > PAR_END || v.getEnd() <= PAR_END, "no record spans the PAR's edge: " + v);
        if (v.getStart() == PAR_END + 1) edge++;
      }
      if (block && haploidPart(v)) {
        haploidBlocks++;
        assertTrue(g.isHomRef() || g.isNoCall(), "a block is GT 0 or .: " + v);
        assertEquals(2, g.getPL().length, "PLs of 0 and <*>: " + v);
      } else if (block) {
        assertEquals(3, g.getPL().length, v.toString());
      } else if (haploidPart(v)) {
        assertEquals(v.getNAlleles(), g.getPL().length, "alleles and <*>, one PL each: " + v);
      }
    }
    assertEquals(1, edge, "one record starts right after the PAR");
    assertTrue(haploidBlocks > 10, haploidBlocks + " haploid blocks");
    // every VCF record is in the gVCF with the same genotype
    Map<String, String> inGvcf = new HashMap<>();
    for (VariantContext v : gvcf) if (!v.hasAttribute("END")) inGvcf.put(v.getContig() + ":" + v.getStart(), gt(v).getGenotypeString());
    for (VariantContext v : vcf) assertEquals(gt(v).getGenotypeString(), inGvcf.get(v.getContig() + ":" + v.getStart()), v.toString());
  }

  @Test
  void withoutTheOptionsTheMaleXIsCalledDiploid() {
    CallRequest.Builder s = settings("diploid", List.of(), null);
    run(s);
    List<VariantContext> diploid = records(vcfOf(s));
    assertTrue(diploid.stream().allMatch(v -> gt(v).getPloidy() == 2));
    assertEquals(vcf.stream().filter(v -> !haploidPart(v)).map(VariantContext::toStringDecodeGenotypes).toList(),
        diploid.stream().filter(v -> !haploidPart(v)).map(VariantContext::toStringDecodeGenotypes).toList(),
        "off the haploid part the records are the same");
  }

  @Test
  void badOptionsAreOneLineErrorsBeforeAnyOutput() throws IOException {
    InputException e = assertThrows(InputException.class, () -> run(settings("bad-contig", List.of("chrX"), null)));
    assertTrue(e.getMessage().startsWith("--haploid-contigs chrX: not a contig of the reference"), e.getMessage());
    Path bad = dir.resolve("bad.bed");
    Files.writeString(bad, X + "\tzero\t100\n");
    e = assertThrows(InputException.class, () -> run(settings("bad-bed", List.of(X), bad)));
    assertEquals(bad + ":1: start and end must be integers", e.getMessage());
    e = assertThrows(InputException.class, () -> run(settings("par-alone", List.of(), parBed)));
    assertTrue(e.getMessage().contains("--par-bed needs --haploid-contigs"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("bad-contig.vcf.gz")));
  }

  /** The VCF {@code s} writes. */
  static Path vcfOf(CallRequest.Builder s) {
    return s.build().output();
  }

  /** The gVCF {@code s} writes. */
  static Path gvcfOf(CallRequest.Builder s) {
    return s.build().outputs().gvcf();
  }
}
