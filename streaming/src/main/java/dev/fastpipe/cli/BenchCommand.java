package dev.fastpipe.cli;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.bench.BenchConfig;
import dev.fastpipe.streaming.bench.BenchFailedException;
import dev.fastpipe.streaming.bench.BenchReport;
import dev.fastpipe.streaming.bench.BenchResult;
import dev.fastpipe.streaming.bench.BenchRunner;
import dev.fastpipe.streaming.bench.MachineLoad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fastpipe bench}: A/B runs of {@code call} configurations with Welch's t-test per stage. */
@Command(
    name = "bench",
    header = "Compare configurations of 'call' (options, environment, allocator): interleaved runs, Welch's t-test per stage.",
    mixinStandardHelpOptions = true,
    description = {
      "Runs 'call' in two or more configurations, each --repeats times, in rounds that run every configuration",
      "once in an order shuffled with --seed, after --warmup unreported rounds. Every run is a child process",
      "started through bin/fastpipe, so launcher options (--allocator, --shard-allocator, --malloc-conf,",
      "--shard-malloc-conf) in a configuration apply to it. Prints a Markdown report: per configuration and",
      "figure (wall and CPU seconds of make_examples, call_variants, postprocess and total; peak RSS and",
      "minor page faults per process role) mean ± sd, min, median, max; per pair the %% change of the mean",
      "and Welch's t-test p-value, * below --alpha. Checks that every run wrote the same VCF records (md5 of",
      "the lines after the header): if one differs, names the runs, keeps their VCFs and exits 1.",
      "",
      "A configuration is NAME: [VAR=VALUE ...] [OPTION ...], e.g.",
      "  --config 'glibc: --allocator glibc' --config 'je-conf: FASTPIPE_MALLOC_CONF=narenas:1 --allocator jemalloc'",
      "Options after -- go to every run (inputs, regions, model...), before the configuration's own;",
      "a configuration must not repeat one of them. bench sets --output, --metrics and --no-progress.",
      "FASTPIPE_BUILD=DIR in a configuration runs it with another build's DIR/bin/fastpipe (a checkout or an",
      "unpacked release): two versions side by side, e.g. --config 'before: FASTPIPE_BUILD=../old' --config 'after:'",
      "(add --calls-may-differ when their calls may differ).",
      "FASTPIPE_PIPELINE=classic runs the classic disk pipeline instead of call: make-examples as --shards",
      "parallel tasks (default: the CPU count), call-variants, postprocess, each stage timed (RSS not known);",
      "the options of call its stages do not take are refused. Its calls differ (no small model): add",
      "--calls-may-differ.",
      "FASTPIPE_PIPELINE=bcftools runs the peer bcftools mpileup | call -mv on --ref, --reads, --bed, --regions",
      "(total wall and CPU), e.g. to measure call's CPU against bcftools' in the same schedule.",
      "",
      "Example:",
      "  fastpipe bench --config 'jemalloc: --allocator jemalloc' --config 'glibc: --allocator glibc' \\",
      "      --repeats 10 --warmup 1 --json bench.json -- --ref REF.fa --reads READS.bam --bed REGIONS.bed"
    })
public final class BenchCommand implements Callable<Integer> {

  @Option(names = "--config", paramLabel = "'NAME: [VAR=VALUE ...] [OPTION ...]'",
      description = "A configuration (repeat for each; at least two with --configs).")
  List<String> configs = new ArrayList<>();

  @Option(names = "--configs", paramLabel = "FILE",
      description = "Configurations from a file, one per line as --config takes them; # comments.")
  Path configsFile;

  @Option(names = "--repeats", defaultValue = "5", paramLabel = "N",
      description = "Measured runs per configuration (default ${DEFAULT-VALUE}; at least 2 for a t-test).")
  int runs;

  /** --runs: --repeats' first spelling, kept hidden for one release (OptionSpellingsTest). */
  @Option(names = "--runs", hidden = true, paramLabel = "N")
  Integer runsAlias;

  /** The measured runs per configuration: --repeats, or --runs when that was given. */
  int repeats() {
    return runsAlias != null ? runsAlias : runs;
  }

  @Option(names = "--warmup", defaultValue = "1", paramLabel = "W",
      description = "Unreported rounds first, each running every configuration once (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--baseline", paramLabel = "NAME",
      description = "The configuration the others are compared with (default: the first).")
  String baseline;

  @Option(names = "--all-pairs", description = "Compare every pair of configurations, not only each with the baseline.")
  boolean allPairs;

  @Option(names = "--calls-may-differ",
      description = "Configurations may call differently (e.g. two models): VCF records are compared only between the"
          + " runs of each configuration, not across them.")
  boolean callsMayDiffer;

  @Mixin RunSeriesOptions series;

  @Override
  public Integer call() throws IOException {
    List<BenchConfig> all = new ArrayList<>();
    if (configsFile != null) all.addAll(BenchConfig.read(configsFile));
    for (String c : configs) all.add(BenchConfig.parse(c));
    BenchConfig.check(all, false);
    runs = repeats();
    if (runs < 1) throw new UserError("--repeats must be >= 1, got " + runs);
    if (warmup < 0) throw new UserError("--warmup must be >= 0, got " + warmup);
    if (baseline != null && all.stream().noneMatch(c -> c.name().equals(baseline))) {
      throw new UserError("--baseline " + baseline + ": no configuration has that name");
    }
    series.check(RunFiles.builder().input("--configs", configsFile));
    BenchResult result = null;
    try (BenchRunner runner = new BenchRunner(Main.LAUNCHER.command(""), series.callArgs, series.workDir, series.keep, System.err)) {
      try {
        runner.checkCalls(all, CallCommand::check); // a bad option of any configuration, before the first round
        double loadBefore = MachineLoad.oneMinute();
        result = runner.runAll(all, runs, warmup, series.seed);
        MachineLoad load = new MachineLoad(loadBefore, MachineLoad.oneMinute());
        BenchReport report = new BenchReport(result, baseline, allPairs, series.alpha, callsMayDiffer, load);
        System.out.print(report.markdown());
        System.out.flush();
        if (series.json != null) OutputFiles.writeString(series.json, ".json", report.json(), "bench report");
      } finally {
        List<Path> kept = runner.finish(result, series.keep, callsMayDiffer);
        if (result != null && !result.mismatches(callsMayDiffer).isEmpty()) {
          throw new BenchFailedException("VCF records differ: " + String.join("; ", result.mismatches(callsMayDiffer))
              + " (VCFs kept: " + String.join(" ", kept.stream().map(Path::toString).toList()) + ")");
        }
        if (series.keep || (result == null && runner.workDirStays())) System.err.println("bench: work directory " + runner.workDir());
      }
    }
    return 0;
  }
}
