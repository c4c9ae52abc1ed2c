package dev.fastpipe.cli;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.evaluate.Calibration;
import dev.fastpipe.streaming.evaluate.ComparisonManifest.Pair;
import dev.fastpipe.streaming.evaluate.ComparisonManifest;
import dev.fastpipe.streaming.evaluate.VcfComparison.Counts;
import dev.fastpipe.streaming.evaluate.VcfComparison.Evaluation;
import dev.fastpipe.streaming.evaluate.VcfComparison;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Precision / recall / F1 of a calls VCF against a truth VCF, like shared/tools/vcf_compare.py, plus GQ calibration. */
@Command(
    name = "compare",
    header = "Score a calls VCF against a truth VCF (precision, recall, F1 for SNPs and indels; GQ calibration; depth strata).",
    mixinStandardHelpOptions = true,
    description = {
      "Compare a calls VCF against a truth VCF (SNPs and indels apart): TP, FP, FN,",
      "precision, recall, F1. Both are split, atomised and left-normalised against",
      "--ref, matched on (chrom, pos, ref, alt) and on the genotype's number of ALT",
      "copies; records that are not PASS/. or whose genotype lacks the allele are",
      "ignored. Same semantics as vcf_compare.py.",
      "",
      "Then two tables, SNPs and indels apart (rows start with the bin, not the type).",
      "GQ calibration: the PASS calls in the BED, counted as above (after splitting),",
      "each with its record's GQ, in the bins 0-9, 10-19, 20-29, 30-39, 40-49, >=50",
      "('none': calls without GQ). An error is a call whose allele is not in the",
      "truth with the same number of copies in the genotype (a false allele, or a",
      "true allele with the wrong genotype: GQ claims the genotype is right), so a",
      "type's errors add up to its FP (with --alleles-only errors still judge the",
      "genotype). Per bin: calls, errors, observed error rate, its one-sided 95%%",
      "Clopper-Pearson upper bound, the promised rate 10^(-GQmin/10), ok (observed",
      "<= promised), and what a GQ >= GQmin filter keeps: calls, errors, error rate",
      "and recall (right genotypes kept / truth sites).",
      "Depth strata (<10, 10-19, 20-39, >=40, unknown): truth sites, TP and FN (by",
      "the truth site's depth), FP (by the call's depth), recall, precision. With",
      "--reads, every site's depth is counted in the reads at its POS (an indel's",
      "anchor base): reads with a base aligned there that pass call's read filter",
      "(MAPQ >= 5; no duplicate, secondary, supplementary or QC-failed read).",
      "Without --reads it is the call's FORMAT DP (else INFO DP); a truth site takes",
      "the depth of a call at its position, so a missed site with no call there is",
      "'unknown': give --reads to place every FN.",
      "",
      "--manifest pools pairs (e.g. a blind matrix) into one set of tables: a",
      "tab-separated file, one pair a line: NAME REF TRUTH CALLS [BED [READS]]",
      "('-' for none; '#' lines skipped; relative paths from the manifest's",
      "folder). It prints each pair's counts, then the pooled counts and tables.",
      "",
      "--json FILE writes the same as JSON: 'pairs' (files and counts of each),",
      "'SNP' and 'INDEL' (pooled counts, named as vcf_compare.py --json names",
      "them), 'gq_calibration' and 'depth_strata' (one object per row; null where",
      "the text prints '-')."
    })
public final class CompareCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--truth", paramLabel = "T.vcf.gz", description = "truth VCF (.vcf or .vcf.gz)")
  Path truth;

  @Option(names = "--calls", paramLabel = "C.vcf.gz", description = "calls VCF (.vcf or .vcf.gz)")
  Path calls;

  @Option(names = "--ref", paramLabel = "REF.fa", description = "reference FASTA with .fai (bgzipped: also .gzi)")
  Path ref;

  @Option(names = "--bed", paramLabel = "B.bed", description = "confident regions: only records whose POS lies inside count (default: everywhere)")
  Path bed;

  @Option(names = "--reads", paramLabel = "READS.bam", description = "indexed BAM/CRAM of the sample: the depth strata count every site's depth in it")
  Path reads;

  @Option(names = "--manifest", paramLabel = "PAIRS.tsv", description = "pool the pairs of this file (NAME REF TRUTH CALLS [BED [READS]] per line) instead of --ref/--truth/--calls/--bed/--reads")
  Path manifest;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the counts and tables as JSON")
  Path json;

  @Option(names = "--alleles-only", description = "ignore genotypes: any call carrying a truth allele is a TP (candidate recall)")
  boolean allelesOnly;

  @Override
  public Integer call() {
    List<Pair> pairs;
    List<Evaluation> evaluations = new ArrayList<>();
    try {
      pairs = pairs();
      RunFiles.Builder files = RunFiles.builder().input("--manifest", manifest);
      for (Pair p : pairs) {
        String of = manifest == null ? "" : " of " + p.name();
        files.reference("--ref" + of, p.ref()).input("--truth" + of, p.truth()).input("--calls" + of, p.calls())
            .input("--bed" + of, p.bed()).reads("--reads" + of, p.reads());
      }
      files.output("--json", json).check();
      for (Pair p : pairs) {
        evaluations.add(VcfComparison.evaluate(p.ref(), p.truth(), p.calls(), p.bed(), p.reads(), allelesOnly));
      }
    } catch (InputException e) {
      throw new UserError(e.getMessage());
    }
    List<VcfComparison.Result> results = evaluations.stream().map(Evaluation::counts).toList();
    VcfComparison.Result pooled = VcfComparison.Result.pooled(results);
    Calibration calibration = Calibration.of(evaluations);
    PrintWriter out = spec.commandLine().getOut();
    if (manifest != null) {
      out.print(pairTable(pairs, results));
      out.println();
      out.println("pooled over " + pairs.size() + " pairs:");
    }
    out.print(pooled.table());
    out.println();
    out.print(calibration.gqTable());
    out.println();
    out.print(calibration.depthTable());
    out.flush();
    if (json != null) {
      try {
        OutputFiles.writeString(json, ".json", JsonCodec.pretty(json(pairs, results, pooled, calibration)), "comparison JSON");
      } catch (IOException e) {
        throw new UserError(e.getMessage(), e);
      }
    }
    return 0;
  }

  private List<Pair> pairs() {
    if (manifest != null) {
      if (truth != null || calls != null || ref != null || bed != null || reads != null) {
        throw new UserError("--manifest: give the pairs' files in the manifest, not with --ref/--truth/--calls/--bed/--reads");
      }
      return ComparisonManifest.read(manifest);
    }
    if (truth == null || calls == null || ref == null) {
      throw new UserError("compare needs --ref, --truth and --calls (or --manifest PAIRS.tsv)");
    }
    return List.of(new Pair("calls", ref, truth, calls, bed, reads));
  }

  /** One row per pair and type; rows start with the pair's name. */
  private static String pairTable(List<Pair> pairs, List<VcfComparison.Result> results) {
    int width = Math.max(4, pairs.stream().mapToInt(p -> p.name().length()).max().orElse(4));
    String row = "%-" + width + "s %-6s %7s %7s %6s %6s %9s %7s %7s%n";
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, row, "pair", "type", "truth", "TP", "FP", "FN", "precision",
        "recall", "F1"));
    String numbers = "%-" + width + "s %-6s %7d %7d %6d %6d %9.4f %7.4f %7.4f%n";
    for (int i = 0; i < pairs.size(); i++) {
      for (Counts c : List.of(results.get(i).snp(), results.get(i).indel())) {
        sb.append(String.format(Locale.ROOT, numbers, pairs.get(i).name(), c.kind(), c.truth(), c.tp(), c.fp(), c.fn(),
            c.precision(), c.recall(), c.f1()));
      }
    }
    return sb.toString();
  }

  private Map<String, Object> json(List<Pair> pairs, List<VcfComparison.Result> results, VcfComparison.Result pooled,
      Calibration calibration) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("alleles_only", allelesOnly);
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      Pair p = pairs.get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("ref", p.ref().toString());
      m.put("truth", p.truth().toString());
      m.put("calls", p.calls().toString());
      m.put("bed", p.bed() == null ? null : p.bed().toString());
      m.put("reads", p.reads() == null ? null : p.reads().toString());
      m.put("SNP", results.get(i).snp().toJson());
      m.put("INDEL", results.get(i).indel().toJson());
      list.add(m);
    }
    root.put("pairs", list);
    root.put("SNP", pooled.snp().toJson());
    root.put("INDEL", pooled.indel().toJson());
    root.putAll(calibration.toJson());
    return root;
  }
}
