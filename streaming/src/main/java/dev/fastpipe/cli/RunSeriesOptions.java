package dev.fastpipe.cli;

import dev.fastpipe.streaming.RunFiles;
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

  /**
   * Checks alpha, and the JSON output before any run: where it goes, and that it is none of the
   * command's inputs ({@code files}) nor of those named by the call options after -- (--ref, --reads,
   * --bed, --model).
   */
  void check(RunFiles.Builder files) {
    if (!(alpha > 0 && alpha < 1)) throw new UserError("--alpha must be between 0 and 1, got " + alpha);
    for (int i = 0; i < callArgs.size(); i++) {
      String a = callArgs.get(i);
      int eq = a.indexOf('=');
      String name = a.startsWith("--") && eq > 0 ? a.substring(0, eq) : a;
      String value = eq > 0 && a.startsWith("--") ? a.substring(eq + 1) : i + 1 < callArgs.size() ? callArgs.get(i + 1) : null;
      if (value == null) continue;
      switch (name) {
        case "--ref" -> files.reference(name, Path.of(value));
        case "--reads" -> files.reads(name, Path.of(value));
        case "--bed" -> files.input(name, Path.of(value));
        case "--model" -> files.modelDirectory(name, Path.of(value));
        default -> { }
      }
    }
    files.output("--json", json).check();
  }
}
