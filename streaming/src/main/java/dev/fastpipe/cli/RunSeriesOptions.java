package dev.fastpipe.cli;

import dev.fastpipe.streaming.OutputFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What bench and tune share: the run order's seed, alpha, JSON output, work directory and the options after --. */
public final class RunSeriesOptions {
  @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of the run order (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--alpha", defaultValue = "0.05", paramLabel = "A",
      description = "Significance level of Welch's t-tests (default ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--json", paramLabel = "FILE",
      description = "Also write every run (warm-ups too, each with its --metrics) and the results as JSON.")
  Path json;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = "Where runs write their VCFs and metrics (default: a temporary directory, removed at the end).")
  Path workDir;

  @Option(names = "--keep", description = "Keep the work directory (and tune's sample BED).")
  boolean keep;

  @Parameters(paramLabel = "CALL_OPTION", description = "After --: options of 'call' every run gets.")
  List<String> callArgs = new ArrayList<>();

  /** Checks alpha and the JSON output before any run. */
  void check() {
    if (!(alpha > 0 && alpha < 1)) throw new UserError("--alpha must be between 0 and 1, got " + alpha);
    if (json != null) OutputFiles.checkWritable(json, "--json");
  }
}
