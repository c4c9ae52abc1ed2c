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
 * another site are a het it must call. Runs the whole call as {@code call} does: the shipped
 * model's CNN, small model and GQ calibration.
 */
class LowCoverageModelTest {
  private static final int DEPTH = 13;
  private static final int ERROR_SITE = 700;
  private static final int HET_SITE = 1500;

  /** Thirteen 100 bp reads over {@code site} (both strands), the first {@code alts} with {@code alt} there at Q37. */
  private static void pileup(TestGenome g, int site, int alts) {
    char ref = (char) g.ref[site];
    char alt = ref == 'A' ? 'C' : 'A';
    for (int i = 0; i < DEPTH; i++) {
      int start = site - 90 + i * 7;
      String bases = g.refString(start, start + 100);
      if (i < alts) bases = TestGenome.mutate(bases, site - start, alt);
      SAMRecord r = g.read(start, "100M", bases);
      byte[] q = new byte[100];
      Arrays.fill(q, (byte) 37);
      r.setBaseQualities(q);
      r.setReadNegativeStrandFlag(i % 2 == 1);
      g.add(r);
    }
  }

  @Test
  void twoErrorReadsOfThirteenAreHomRefAndSixAreAHet(@TempDir Path dir) throws Exception {
    TestGenome g = new TestGenome("chrT", 2400, 2213);
    pileup(g, ERROR_SITE, 2);
    pileup(g, HET_SITE, 6);
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
  }

  /** The VCF {@code s} writes. */
  static Path vcfOf(CallRequest.Builder s) {
    return s.build().output();
  }
}
