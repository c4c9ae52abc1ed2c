package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.InputFiles;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.testing.SharedData;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Candidate recall against the truth on a 100 kb region of ../shared/data/sim30x (skips without it). */
class Sim30xCandidateRecallTest {
  @TempDir Path dir;

  @Test
  void candidatesCoverTheTruth() throws Exception {
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path truth = SharedData.require("sim30x/SIM30X.truth.vcf.gz");
    Path regionBed = dir.resolve("region.bed");
    Files.writeString(regionBed, "chr20\t10000000\t10100000\n");

    Path candidatesVcf = dir.resolve("cands.vcf.gz");
    ExampleSettings o = ExampleSettings.builder().reference(ref).reads(bam).regionsBed(regionBed).candidatesVcf(candidatesVcf)
        .build();
    MakeExamplesStats stats = MakeExamples.run(o, new CapturingProducer());

    Set<String> candidates = new HashSet<>();
    try (VCFFileReader r = new VCFFileReader(candidatesVcf, true)) {
      for (VariantContext vc : r) {
        candidates.add(TruthLabeler.key(vc.getContig(), vc.getStart() - 1,
            vc.getReference().getBaseString(), vc.getAlternateAllele(0).getBaseString()));
      }
    }
    int snps = 0, snpHits = 0, indels = 0, indelHits = 0;
    try (InputFiles in = new InputFiles(ref, bam)) {
      TruthLabeler truthAlleles = new TruthLabeler(truth, regionBed, in.dictionary, in);
      for (String k : truthAlleles.truthAlleles()) {
        int pos = Integer.parseInt(k.split(":")[1]);
        if (pos < 10000000 || pos >= 10100000) continue;
        String[] alleles = k.substring(k.lastIndexOf(':') + 1).split(">");
        boolean snp = alleles[0].length() == 1 && alleles[1].length() == 1;
        boolean hit = candidates.contains(k);
        if (snp) { snps++; if (hit) snpHits++; } else { indels++; if (hit) indelHits++; }
      }
    }
    double snpRecall = snpHits / (double) snps;
    double indelRecall = indelHits / (double) indels;
    String msg = String.format("SNP %d/%d=%.4f indel %d/%d=%.4f (%s)", snpHits, snps, snpRecall,
        indelHits, indels, indelRecall, stats);
    System.out.println("sim30x candidate recall: " + msg);
    assertTrue(snps > 50 && indels > 5, msg);
    assertTrue(snpRecall >= 0.99, msg);
    assertTrue(indelRecall >= 0.95, msg);
  }
}
