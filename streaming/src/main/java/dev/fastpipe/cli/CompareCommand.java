package dev.fastpipe.cli;

import dev.fastpipe.streaming.evaluate.VcfComparison;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Precision / recall / F1 of a calls VCF against a truth VCF, like shared/tools/vcf_compare.py. */
@Command(
    name = "compare",
    header = "Score a calls VCF against a truth VCF (precision, recall, F1 for SNPs and indels).",
    mixinStandardHelpOptions = true,
    description = {
      "Compare a calls VCF against a truth VCF (SNPs and indels apart): TP, FP, FN, precision,",
      "recall, F1. Both are split, atomised and left-normalised against --ref, matched on",
      "(chrom, pos, ref, alt) and on the genotype's number of ALT copies; records that are not",
      "PASS/. or whose genotype lacks the allele are ignored. Same semantics as vcf_compare.py."
    })
public final class CompareCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--truth", required = true, paramLabel = "T.vcf.gz", description = "truth VCF (.vcf or .vcf.gz)")
  Path truth;

  @Option(names = "--calls", required = true, paramLabel = "C.vcf.gz", description = "calls VCF (.vcf or .vcf.gz)")
  Path calls;

  @Option(names = "--ref", required = true, paramLabel = "REF.fa", description = "reference FASTA with .fai (bgzipped: also .gzi)")
  Path ref;

  @Option(names = "--bed", paramLabel = "B.bed", description = "confident regions: only records whose POS lies inside count (default: everywhere)")
  Path bed;

  @Option(names = "--alleles-only", description = "ignore genotypes: any call carrying a truth allele is a TP (candidate recall)")
  boolean allelesOnly;

  @Override
  public Integer call() {
    VcfComparison.Result result;
    try {
      result = VcfComparison.compare(ref, truth, calls, bed, allelesOnly);
    } catch (dev.fastpipe.streaming.InputException e) {
      throw new UserError(e.getMessage());
    }
    spec.commandLine().getOut().print(result.table());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
