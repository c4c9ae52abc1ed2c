package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.pipeline.CallRequest;
import dev.fastpipe.streaming.pipeline.StreamingCall;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped model at low coverage (issue 22): two high-quality error reads among thirteen are a
 * candidate (2/13 >= 0.12) that the model must call hom-ref, while six alt reads of thirteen at
 * another site are a het it must call. The reads err as the held-back samples' reads that made v4's
 * false SNPs do (dwgsim: about one base in a hundred wrong, whatever its quality says), so that two
 * alt reads are what errors look like there. Runs the whole call as {@code call} does: the shipped
 * model's CNN, small model, pileup likelihood and GQ calibration.
 *
 * <p>Where the other bases of the reads make no error at all, two Q37 alt reads, one on each strand,
 * are a het by their likelihood (10^4.4 against hom-ref, 27 to 1 after bcftools' prior), and the
 * shipped model calls them so since its pileup likelihood (MODEL.md); the third site checks that.
 */
class LowCoverageModelTest {
  private static final int DEPTH = 13;
  private static final int ERROR_SITE = 700;
  private static final int HET_SITE = 1500;
  private static final int CLEAN_PAIR_SITE = 2300;
  /** One base in this many is wrong in the noisy reads (away from the site itself). */
  private static final int ERROR_EVERY = 100;

  /**
   * Thirteen 100 bp reads over {@code site} (both strands), the first {@code alts} with {@code alt}
   * there, every base at Q37; with {@code noisy}, one base in {@link #ERROR_EVERY} elsewhere wrong.
   */
  private static void pileup(TestGenome g, int site, int alts, boolean noisy, java.util.Random rnd) {
    char ref = (char) g.ref[site];
    char alt = ref == 'A' ? 'C' : 'A';
    for (int i = 0; i < DEPTH; i++) {
      int start = site - 90 + i * 7;
      String bases = g.refString(start, start + 100);
      if (i < alts) bases = TestGenome.mutate(bases, site - start, alt);
      if (noisy) {
        for (int k = 0; k < 100; k++) {
          if (k == site - start || rnd.nextInt(ERROR_EVERY) != 0) continue;
          char b = bases.charAt(k);
          bases = TestGenome.mutate(bases, k, "ACGT".charAt(("ACGT".indexOf(b) + 1 + rnd.nextInt(3)) % 4));
        }
      }
      SAMRecord r = g.read(start, "100M", bases);
      byte[] q = new byte[100];
      Arrays.fill(q, (byte) 37);
      r.setBaseQualities(q);
      r.setReadNegativeStrandFlag(i % 2 == 1);
      g.add(r);
    }
  }

  @Test
  void twoErrorReadsOfThirteenInNoisyReadsAreHomRefAndSixAreAHet(@TempDir Path dir) throws Exception {
    TestGenome g = new TestGenome("chrT", 3200, 2213);
    java.util.Random rnd = new java.util.Random(2213);
    pileup(g, ERROR_SITE, 2, true, rnd);
    pileup(g, HET_SITE, 6, true, rnd);
    pileup(g, CLEAN_PAIR_SITE, 2, false, rnd);
    TestGenome.Written w = g.write(dir, "low.bam");
    Path model = Path.of("..").resolve(ModelOptions.SHIPPED_MODEL).toAbsolutePath().normalize();

    CallRequest.Builder s = CallRequest.builder();
    s.examples().reference(w.fasta()).reads(w.bam()).shards(1).smallModel(SmallModel.find(model));
    s.calibration(GqCalibration.forModel(model));
    s.output(dir.resolve("low.vcf.gz"));
    s.transport("disruptor");
    s.progress(false);
    s.sample("S");
    StreamingCall.run(s.build(), () -> GenotypeModel.load(model),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    Map<Integer, VariantContext> byPos = new HashMap<>();
    try (VCFFileReader r = new VCFFileReader(vcfOf(s), false)) {
      r.iterator().forEachRemaining(v -> byPos.put(v.getStart(), v));
    }
    VariantContext error = byPos.get(ERROR_SITE + 1);
    assertNotNull(error, "the 2-of-13 site is a candidate, so it gets a record");
    assertTrue(error.isFiltered() && error.getFilters().contains("RefCall"),
        "2 error reads of 13 must be hom-ref: " + error.toStringDecodeGenotypes());
    VariantContext het = byPos.get(HET_SITE + 1);
    assertNotNull(het, "the 6-of-13 site is a candidate");
    assertEquals("PASS", het.getFilters().isEmpty() ? "PASS" : String.join(",", het.getFilters()),
        "6 alt reads of 13 must be a PASS het: " + het.toStringDecodeGenotypes());
    assertTrue(het.getGenotype(0).isHet(), het.toStringDecodeGenotypes());
    VariantContext clean = byPos.get(CLEAN_PAIR_SITE + 1);
    assertNotNull(clean, "the clean 2-of-13 site is a candidate");
    assertTrue(clean.getGenotype(0).isHet() && !clean.getFilters().contains("RefCall"),
        "two Q37 alt reads of 13, one per strand, in reads without another error, are a het: "
            + clean.toStringDecodeGenotypes());
  }

  /** The VCF {@code s} writes. */
  static Path vcfOf(CallRequest.Builder s) {
    return s.build().output();
  }
}
