package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** make-examples -> call-variants (shipped model) -> postprocess on real NA12878 reads. */
class ClassicPathIT {

  @Test
  void shippedModelCallsTheTruthSnpsOfRealReads(@TempDir Path tmp) {
    Path bam = SharedData.require("na12878_tiny/NA12878.chr22.tiny.bam");
    Path dir = bam.getParent();
    Path ref = dir.resolve("q.fa");
    Path model = Path.of("..", "models", "fastpipe-v2").toAbsolutePath().normalize();
    StringWriter err = new StringWriter();
    Path ex = tmp.resolve("ex.tfrecord.gz");
    assertEquals(0, ClassicPathTest.run(err, "make-examples", "--ref", ref.toString(), "--reads", bam.toString(), "--output", ex.toString()), err.toString());
    Path calls = tmp.resolve("calls.gz");
    assertEquals(0, ClassicPathTest.run(err, "call-variants", "--examples", ex.toString(), "--output", calls.toString(), "--model",
        model.toString(), "--reads", bam.toString(), "--intra-op-threads", "1"), err.toString());
    Path vcf = tmp.resolve("out.vcf.gz");
    assertEquals(0, ClassicPathTest.run(err, "postprocess", "--calls", calls.toString(), "--ref", ref.toString(), "--output", vcf.toString()),
        err.toString());

    Set<String> truth = new HashSet<>();
    try (VCFFileReader r = new VCFFileReader(dir.resolve("NA12878.chr22.tiny.giab.vcf.gz"), false)) {
      for (VariantContext vc : r) if (vc.isSNP()) truth.add(vc.getStart() + ":" + vc.getAlternateAllele(0).getBaseString());
    }
    assertEquals(14, truth.size());
    try (VCFFileReader r = new VCFFileReader(vcf, true)) {
      assertEquals(List.of("1"), r.getFileHeader().getGenotypeSamples());
      List<VariantContext> vcs = r.iterator().toList();
      int called = 0;
      List<String> falseSnps = new ArrayList<>();
      for (int i = 0; i < vcs.size(); i++) {
        VariantContext vc = vcs.get(i);
        if (i > 0) assertTrue(vcs.get(i - 1).getStart() <= vc.getStart(), "sorted");
        if (vc.isFiltered() || !vc.isSNP()) continue;
        String key = vc.getStart() + ":" + vc.getAlternateAllele(0).getBaseString();
        if (truth.contains(key)) called++;
        else falseSnps.add(key);
      }
      // The bar for real reads: every truth SNP called, at most 2 false SNPs.
      assertEquals(14, called, "truth SNPs called");
      assertTrue(falseSnps.size() <= 2, "false SNPs: " + falseSnps);
    }
  }
}
