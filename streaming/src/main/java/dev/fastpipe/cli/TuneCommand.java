package dev.fastpipe.cli;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.bench.BenchConfig;
import dev.fastpipe.streaming.bench.BenchRunner;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import dev.fastpipe.streaming.pipeline.ThreadBudget;
import dev.fastpipe.streaming.tune.Knobs;
import dev.fastpipe.streaming.tune.Knobs.Dimension;
import dev.fastpipe.streaming.tune.SampleRegions;
import dev.fastpipe.streaming.tune.TuneReport;
import dev.fastpipe.streaming.tune.Tuner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fastpipe tune}: sweeps shards, consumers, batch and ring size on a sample; recommends a configuration. */
@Command(
    name = "tune",
    header = "Recommend --shards, --consumers, --batch-size and --ring-size for your data, from measured runs on a sample.",
    mixinStandardHelpOptions = true,
    description = {
      "Chooses a sample of the regions you will call (--sample-size bases in --pieces pieces, placed by the reads'",
      "index where the reads are), then runs 'call' on it within --budget: the defaults first, whose ring figures",
      "(producer stall, consumer idle, ring fill) say which side holds the run back, then one setting at a time",
      "(the most promising first), each candidate against the current best in interleaved rounds. If the sweep",
      "finds a faster configuration, it is run against the defaults (3 to 10 interleaved rounds) and recommended",
      "only if faster with Welch's p below --alpha. A configuration whose VCF records differ from the defaults'",
      "is never recommended. Prints the table of every configuration tried, the reason in the ring figures'",
      "terms and the command line to use. Options after -- go to every run (e.g. --model, --sample).",
      "",
      "Example: fastpipe tune --ref REF.fa --reads READS.bam --bed REGIONS.bed --budget 15m"
    })
public final class TuneCommand implements Callable<Integer> {
  @Option(names = "--ref", required = true, paramLabel = "REF.fa", description = "Reference FASTA (with .fai).")
  Path ref;

  @Option(names = "--reads", required = true, paramLabel = "BAM|CRAM", description = "Indexed reads.")
  Path reads;

  @Option(names = "--regions", paramLabel = "REGION", description = "Regions you will call (chr, chr:start-end); repeatable.")
  List<String> regions = new ArrayList<>();

  @Option(names = "--bed", paramLabel = "BED", description = "Regions you will call, as BED.")
  Path bed;

  @Option(names = "--sample-size", defaultValue = "2M", paramLabel = "BASES",
      description = "Bases of the sample: 500k, 2M, 2000000 (default ${DEFAULT-VALUE}); all regions when they are shorter.")
  String sampleSize;

  @Option(names = "--pieces", defaultValue = "4", paramLabel = "K", description = "Pieces of the sample (default ${DEFAULT-VALUE}).")
  int pieces;

  @Option(names = "--budget", defaultValue = "15m", paramLabel = "TIME", converter = DurationConverter.class,
      description = "Time for all runs: 10m, 1h, seconds (default ${DEFAULT-VALUE}).")
  Duration budget;

  @Option(names = "--repeats", defaultValue = "2", paramLabel = "N",
      description = "Runs of each candidate in the sweep (default ${DEFAULT-VALUE}).")
  int repeats;

  @Option(names = "--shards", split = ",", paramLabel = "N",
      description = "Shard counts to try (default: half, once and twice the CPU count).")
  List<Integer> shards;

  @Option(names = "--consumers", split = ",", paramLabel = "M", description = "Consumer counts to try (default: 1,2).")
  List<Integer> consumers = List.of(1, 2);

  @Option(names = "--batch-sizes", split = ",", paramLabel = "B", description = "Batch sizes to try (default: 32,64,128,256).")
  List<Integer> batchSizes = List.of(32, 64, 128, 256);

  @Option(names = "--ring-sizes", split = ",", paramLabel = "SIZE", description = "Ring sizes to try (default: 4M,16M,64M).")
  List<String> ringSizes = List.of("4M", CallDefaults.bytes(dev.fastpipe.shm.TransportConfig.DEFAULT_RING_BYTES), "64M");

  @Option(names = "--transports", split = ",", paramLabel = "NAME",
      description = "Also try these transports (shm, disruptor, mutex, chronicle, disk; default: shm only).")
  List<String> transports = List.of();

  @Option(names = "--allocators", split = ",", paramLabel = "NAME",
      description = "Also try these allocators for every process (jemalloc, glibc, tcmalloc, mimalloc; default: not swept).")
  List<String> allocators = List.of();

  @Mixin RunSeriesOptions series;

  @Override
  public Integer call() throws IOException {
    for (String a : series.callArgs) {
      for (String own : List.of("--shards", "--consumers", "--batch-size", "--ring-size", "--transport", "--allocator",
          "--ref", "--reads", "--regions", "--bed")) {
        if (a.equals(own) || a.startsWith(own + "=")) {
          throw new UserError("tune sets " + own + " on every run itself; give it to tune (before --), not after --");
        }
      }
    }
    if (repeats < 1) throw new UserError("--repeats must be >= 1, got " + repeats);
    if (pieces < 1) throw new UserError("--pieces must be >= 1, got " + pieces);
    requirePositive("--shards", shards);
    requirePositive("--consumers", consumers);
    requirePositive("--batch-sizes", batchSizes);
    if (budget.isZero() || budget.isNegative()) throw new UserError("--budget must be more than 0 (e.g. 10m), got 0");
    if (!allocators.isEmpty() && System.getenv("FASTPIPE_LAUNCHER") == null) {
      throw new UserError("--allocators needs runs started through bin/fastpipe (FASTPIPE_LAUNCHER is not set)");
    }
    series.check(RunFiles.builder().reference("--ref", ref).reads("--reads", reads).input("--bed", bed));
    long bases = bases(sampleSize);

    List<Region> sample;
    try (InputFiles in = new InputFiles(ref, reads)) {
      List<Region> all = Regions.resolve(in.dictionary, in.readContigs, in.readsPath, regions, bed);
      sample = SampleRegions.choose(in.reads, all, bases, pieces);
    }
    int cpus = Runtime.getRuntime().availableProcessors();
    String allocator = allocators.isEmpty() ? null : System.getenv().getOrDefault("FASTPIPE_ALLOCATOR", "jemalloc");
    Knobs defaults = defaults(ThreadBudget.ofThisMachine(), allocator);
    Map<Dimension, List<String>> candidates = new EnumMap<>(Dimension.class);
    candidates.put(Dimension.SHARDS, strings(shards != null ? shards : List.of(Math.max(1, cpus / 2), cpus, 2 * cpus)));
    candidates.put(Dimension.CONSUMERS, strings(consumers));
    candidates.put(Dimension.BATCH_SIZE, strings(batchSizes));
    candidates.put(Dimension.RING_SIZE, ringSizes(ringSizes, defaults.ringSize()));
    candidates.put(Dimension.TRANSPORT, new ArrayList<>(transports));
    candidates.put(Dimension.ALLOCATOR, new ArrayList<>(allocators));

    Path sampleBed = Files.createTempFile("fastpipe-tune-sample-", ".bed");
    Files.writeString(sampleBed, SampleRegions.bed(sample));
    List<String> common = new ArrayList<>(List.of("--ref", ref.toString(), "--reads", reads.toString(), "--bed",
        sampleBed.toString()));
    common.addAll(series.callArgs);
    boolean differ = false;
    try (BenchRunner runner = new BenchRunner(Main.LAUNCHER.command(""), common, series.workDir, series.keep, null)) {
      runner.checkCalls(pointsToTry(defaults, candidates), CallCommand::check); // every value swept, before the first run
      Tuner.Result result =
          new Tuner(runner, new Tuner.Settings(defaults, candidates, repeats, budget, series.alpha, series.seed), System.err).run();
      TuneReport report = new TuneReport(result, sample, command(result.recommended()), budget.toMillis() / 1000.0);
      System.out.print(report.markdown());
      System.out.flush();
      if (series.json != null) OutputFiles.writeString(series.json, ".json", report.json(), "tune report");
      differ = result.trials().stream().anyMatch(t -> t.dropped != null && t.dropped.startsWith("VCF records differ"));
      if (series.keep || differ) {
        runner.retain();
        System.err.println("tune: work directory " + runner.workDir() + (differ ? " (holds the VCFs that differ)" : "")
            + "; sample " + sampleBed);
      } else {
        runner.removeWorkDir();
      }
    } finally {
      if (!series.keep && !differ) Files.deleteIfExists(sampleBed);
    }
    return 0;
  }

  /** The defaults, and the defaults with each candidate value of each dimension: every value a run may take. */
  static List<BenchConfig> pointsToTry(Knobs defaults, Map<Dimension, List<String>> candidates) {
    Map<String, BenchConfig> points = new LinkedHashMap<>();
    points.put(defaults.name(), new BenchConfig(defaults.name(), Map.of(), defaults.args()));
    candidates.forEach((d, values) -> values.forEach(v -> {
      Knobs k = defaults.with(d, v);
      points.putIfAbsent(k.name(), new BenchConfig(k.name(), Map.of(), k.args()));
    }));
    return new ArrayList<>(points.values());
  }

  /** The command line to use: the user's inputs and options, the recommended settings. */
  String command(Knobs k) {
    List<String> cmd = new ArrayList<>();
    String launcher = System.getenv("FASTPIPE_LAUNCHER");
    cmd.add(launcher != null ? launcher : "bin/fastpipe");
    cmd.addAll(List.of("call", "--ref", ref.toString(), "--reads", reads.toString()));
    for (String r : regions) cmd.addAll(List.of("--regions", r));
    if (bed != null) cmd.addAll(List.of("--bed", bed.toString()));
    cmd.addAll(series.callArgs);
    cmd.addAll(k.args());
    cmd.addAll(List.of("--output", "OUT.vcf.gz"));
    return String.join(" ", cmd.stream().map(BenchConfig::quoted).toList());
  }

  /** The configuration tune measures everything against: call's own defaults on a machine with {@code budget}. */
  static Knobs defaults(ThreadBudget budget, String allocator) {
    return CallCommand.defaultKnobs(budget, allocator);
  }

  /**
   * The ring sizes to try, each spelled as the default when it is the same size ("16m", "16777216"),
   * so that a run of the default size is the defaults' configuration and no other is.
   */
  static List<String> ringSizes(List<String> sizes, String defaultSize) {
    int defaultBytes = CallCommand.parseSize("--ring-size", defaultSize);
    List<String> out = new ArrayList<>();
    for (String s : sizes) {
      String spelled = CallCommand.parseSize("--ring-sizes", s) == defaultBytes ? defaultSize : s;
      if (!out.contains(spelled)) out.add(spelled);
    }
    return out;
  }

  /**
   * Every value of a swept list must be 1 or more (one line naming the option and the value): tune ran
   * its defaults and exited 0 with --shards -1, --consumers 0 or --batch-sizes -1, which no run takes.
   */
  static void requirePositive(String option, List<Integer> values) {
    if (values == null) return;
    if (values.isEmpty()) throw new UserError(option + ": give at least one value");
    for (int v : values) {
      if (v < 1) throw new UserError(option + " " + v + ": every value must be 1 or more");
    }
  }

  private static List<String> strings(List<Integer> values) {
    return new ArrayList<>(new TreeSet<>(values).stream().map(String::valueOf).toList());
  }

  /** Bases from "2000000", "500k", "2M", "1G". */
  static long bases(String text) {
    String t = text.trim().toUpperCase(Locale.ROOT);
    long unit = 1;
    if (t.endsWith("K")) unit = 1_000;
    else if (t.endsWith("M")) unit = 1_000_000;
    else if (t.endsWith("G")) unit = 1_000_000_000;
    if (unit != 1) t = t.substring(0, t.length() - 1);
    try {
      long v = Math.round(Double.parseDouble(t) * unit);
      if (v >= 1000) return v;
    } catch (NumberFormatException e) {
      // below
    }
    throw new UserError("--sample-size " + text + ": expected bases such as 500k, 2M or 2000000 (at least 1000)");
  }
}
