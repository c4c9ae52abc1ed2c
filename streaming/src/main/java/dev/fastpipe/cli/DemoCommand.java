package dev.fastpipe.cli;

import dev.fastpipe.streaming.simulate.SyntheticSample;
import dev.fastpipe.streaming.evaluate.VcfComparison;
import dev.fastpipe.streaming.pipeline.CallRequest;
import dev.fastpipe.streaming.pipeline.StreamingCall;
import dev.fastpipe.streaming.pipeline.ThreadBudget;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fastpipe demo}: the main job on built-in data. Simulates a small diploid sample in code
 * (reference, known variants, 30x paired reads), runs the streaming {@code call} over it with the
 * shm transport, and scores the VCF against the built-in truth.
 */
@Command(
    name = "demo",
    header = "Run the whole pipeline on a built-in simulated sample and score it against the truth.",
    mixinStandardHelpOptions = true,
    description = {
      "Run the whole pipeline on built-in data: simulate a diploid sample (a few hundred kb of",
      "reference, known SNPs and indels, 30x 2x150 bp reads; deterministic seed), call it with the",
      "streaming pipeline (shm transport: one process per shard), and print precision/recall",
      "against the built-in truth. Needs no input files."
    })
public final class DemoCommand implements Callable<Integer> {
  @Option(names = "--output-dir", paramLabel = "DIR",
      description = "Where the sample and demo.vcf.gz go (default: a new fastpipe-demo-* folder in the temp directory).")
  Path outputDir;

  @Option(names = "--seed", defaultValue = "" + SyntheticSample.DEFAULT_SEED, description = "Simulation seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--length", defaultValue = "" + SyntheticSample.DEFAULT_LENGTH, paramLabel = "BP",
      description = "Reference length (default ${DEFAULT-VALUE}).")
  int length;

  @Option(names = "--coverage", defaultValue = "" + SyntheticSample.DEFAULT_COVERAGE, description = "Read depth (default ${DEFAULT-VALUE}).")
  double coverage;

  @Option(names = "--shards", paramLabel = "N",
      description = "make_examples shards (default: from the thread budget, as call; here ${DEFAULT-VALUE}).")
  int shards = ThreadBudget.ofThisMachine().shards();

  @Option(names = "--transport", defaultValue = "shm", description = "Transport (default ${DEFAULT-VALUE}).")
  String transport;

  @Option(names = "--no-progress", description = "No progress line on stderr.")
  boolean noProgress;

  @Mixin ModelOptions modelOptions;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintStream out = System.out;
    Path dir = outputDir != null ? outputDir : Files.createTempDirectory("fastpipe-demo-");
    Files.createDirectories(dir);
    long t0 = System.nanoTime();
    SyntheticSample.Files sample;
    try {
      sample = SyntheticSample.write(dir, seed, length, coverage);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    out.printf("demo: simulated %,d bp, %.0fx reads, seed %d in %.1f s -> %s%n", length, coverage, seed,
        (System.nanoTime() - t0) / 1e9, dir);

    // The settings are call's own, from the call command line this demo stands for: the same
    // defaults, checks, small model, GQ calibration and journal as `fastpipe call` gives.
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--ref", sample.reference().toString(),
        "--reads", sample.reads().toString(), "--output", dir.resolve("demo.vcf.gz").toString(),
        "--shards", Integer.toString(Math.max(1, shards)), "--transport", transport, "--sample", SyntheticSample.SAMPLE));
    if (noProgress) args.add("--no-progress");
    args.addAll(modelOptions.asArguments());
    CallCommand callCommand = new CallCommand();
    new picocli.CommandLine(callCommand).parseArgs(args.toArray(String[]::new));
    // the VCF header records what the user typed: fastpipe demo ...
    CallRequest s = callCommand.request().commandLine(CommandText.of(spec)).build();
    StreamingCall.Summary r = StreamingCall.run(s, callCommand.modelOptions::load, System.err);
    out.printf("demo: called %d examples -> %d sites (PASS %d) in %.1f s with %s, %s%n",
        r.examples(), r.sites(), r.pass(), r.seconds(), transport, CallCommand.shardCount(s.examples().sharding().shards()));
    out.println("demo: VCF " + s.output());
    VcfComparison.Result cmp;
    try {
      cmp = VcfComparison.compare(sample.reference(), sample.truth(), s.output(), sample.confidentBed(), false);
    } catch (dev.fastpipe.streaming.InputException e) {
      throw new UserError(e.getMessage());
    }
    out.println("demo: accuracy against the built-in truth (confident region):");
    out.print(cmp.table());
    return 0;
  }
}
