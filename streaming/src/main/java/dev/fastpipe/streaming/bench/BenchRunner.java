package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import dev.fastpipe.streaming.pipeline.MetricsFile;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs {@code call} as child processes, one configuration at a time, and collects each run's
 * {@link BenchRun}. Every run starts through the launcher ({@code bin/fastpipe}, known from
 * {@code FASTPIPE_LAUNCHER}), so launcher options of a configuration ({@code --allocator} and the
 * others) apply to it and to its shard processes; its environment is this process's plus the
 * configuration's. A run writes its VCF and {@code --metrics} JSON into the work directory; the
 * VCF is kept only while it is needed for comparison (the first good run's, and any whose records
 * differ from it).
 */
public final class BenchRunner implements AutoCloseable {

  /** Options of bin/fastpipe itself: they need the launcher. */
  static final List<String> LAUNCHER_OPTIONS = List.of("--allocator", "--shard-allocator", "--malloc-conf", "--shard-malloc-conf");

  private final List<String> launcher;
  private final List<String> commonArgs;
  private final Path workDir;
  private final boolean ownWorkDir;
  private final boolean keep;
  private boolean retained; // finish or retain found something in the work directory to look at
  private final PrintStream progress;
  private String referenceMd5;
  private int referenceSeq;
  private volatile Process current;
  private final Thread onSignal = new Thread(this::stopCurrent, "fastpipe-bench-stop");

  /**
   * @param launcher the command that starts a fastpipe subcommand ({@link
   *     dev.fastpipe.streaming.SubcommandLauncher#command})
   * @param commonArgs options of {@code call} every run gets before its configuration's
   * @param workDir where runs write (null: a new temporary directory, removed by {@link #close}
   *     unless it holds VCFs that differ)
   * @param progress one line per run goes here (null: none)
   */
  public BenchRunner(List<String> launcher, List<String> commonArgs, Path workDir, PrintStream progress) {
    this(launcher, commonArgs, workDir, false, progress);
  }

  /**
   * As {@link #BenchRunner(List, List, Path, PrintStream)}; {@code keep}: the temporary work
   * directory stays whatever happens (bench and tune's --keep). Without it, {@link #close} removes
   * it even after an error, so a failed bench leaves nothing in java.io.tmpdir.
   */
  public BenchRunner(List<String> launcher, List<String> commonArgs, Path workDir, boolean keep, PrintStream progress) {
    this.keep = keep;
    this.launcher = List.copyOf(launcher);
    for (String a : commonArgs) {
      for (String own : BenchConfig.OWN_OPTIONS) {
        if (a.equals(own) || a.startsWith(own + "=")) throw new InputException("bench sets " + own + " on every run itself; remove it");
      }
    }
    this.commonArgs = List.copyOf(commonArgs);
    this.progress = progress;
    try {
      this.ownWorkDir = workDir == null;
      this.workDir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("fastpipe-bench-");
    } catch (IOException e) {
      throw new InputException(workDir + ": cannot make the work directory: " + RootCause.of(e, workDir), e);
    }
    Runtime.getRuntime().addShutdownHook(onSignal);
  }

  /** True when runs start through bin/fastpipe (so launcher options apply). */
  public static boolean throughLauncher(List<String> launcher) {
    return !launcher.isEmpty() && launcher.get(0).endsWith("fastpipe");
  }

  public Path workDir() {
    return workDir;
  }

  /**
   * Runs {@code configs} on the {@link Schedule#interleaved} schedule and returns every run. Stops
   * at the first run that fails, with a {@link BenchFailedException} naming it, its exit status and
   * its last error line. VCF bodies are compared afterwards ({@link BenchResult#mismatches()}).
   */
  public BenchResult runAll(List<BenchConfig> configs, int rounds, int warmup, long seed) {
    BenchConfig.check(configs, false);
    checkLauncherOptions(configs);
    for (BenchConfig c : configs) { // refuses what the stages of a classic or bcftools run do not take
      switch (ClassicPipeline.kind(c)) {
        case "classic" -> new ClassicPipeline(c.name(), allArgs(c));
        case "bcftools" -> new BcftoolsPeer(c.name(), allArgs(c));
        default -> { }
      }
    }
    List<Schedule.Slot> slots = Schedule.interleaved(configs.size(), warmup, rounds, seed);
    List<BenchRun> runs = new ArrayList<>();
    for (Schedule.Slot slot : slots) {
      BenchConfig c = configs.get(slot.config());
      BenchRun r = run(c, slot.round(), slot.warmup(), runs.size() + 1, slots.size());
      runs.add(r);
      if (!r.ok()) {
        if (ExitStatus.of(r.exitStatus()) == ExitStatus.BAD_INPUT) throw badInput(r);
        throw new BenchFailedException(r.label() + " exited with status " + r.exitStatus()
            + (r.errorTail().isBlank() ? "" : ": " + r.errorTail().lines().reduce((a, b) -> b).orElse(""))
            + (workDirStays() ? " (its output: " + workDir.resolve("run-" + r.seq() + ".log")
                : " (its output goes with the temporary work directory; --keep keeps it")
            + "; command: " + commandText(c, r.seq()) + ")");
      }
    }
    return new BenchResult(configs, commonArgs, rounds, warmup, seed, runs, workDir);
  }

  /** The command line of run {@code seq} of {@code c}, as a shell would take it (the stages of a classic run joined by ';'). */
  private String commandText(BenchConfig c, int seq) {
    Path vcf = workDir.resolve("run-" + seq + ".vcf.gz");
    List<List<String>> cmds = switch (ClassicPipeline.kind(c)) {
      case "classic" -> new ClassicPipeline(c.name(), allArgs(c)).commands(launcherOf(c), vcf).stream().flatMap(List::stream).toList();
      case "bcftools" -> List.of(new BcftoolsPeer(c.name(), allArgs(c)).command(vcf));
      default -> List.of(command(c, vcf, workDir.resolve("run-" + seq + ".json")));
    };
    return String.join("; ", cmds.stream().map(cmd -> String.join(" ", cmd.stream().map(BenchConfig::quoted).toList())).toList());
  }

  /** call's own checks of a run before any work (its command line, settings, files and plan), as the CLI has them. */
  @FunctionalInterface
  public interface CallCheck {
    /** Throws an InputException with call's one line for what a call with {@code args} and {@code output} refuses. */
    void check(List<String> args, Path output);
  }

  /**
   * Checks, before the first round, every configuration's call as the run would check it at its
   * start ({@code check}): a bad option in the last configuration fails here, not after the first
   * configurations have run. A refusal names the configuration. Runs of another build
   * ({@link BenchConfig#BUILD}) are left to it; classic and bcftools runs are checked by
   * {@link #runAll}.
   */
  public void checkCalls(List<BenchConfig> configs, CallCheck check) {
    Path output = workDir.resolve("check.vcf.gz"); // where a run writes, not written
    for (BenchConfig c : configs) {
      if (c.build() != null || !ClassicPipeline.kind(c).equals("streaming")) continue;
      try {
        check.check(withoutLauncherOptions(allArgs(c)), output);
      } catch (InputException e) {
        throw new InputException("configuration '" + c.name() + "' is refused before any run: " + e.getMessage(), e);
      }
    }
  }

  /** {@code args} less the launcher's own options and their values (bin/fastpipe takes them, not call). */
  static List<String> withoutLauncherOptions(List<String> args) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (LAUNCHER_OPTIONS.contains(a)) {
        i++; // its value
      } else if (LAUNCHER_OPTIONS.stream().noneMatch(o -> a.startsWith(o + "="))) {
        out.add(a);
      }
    }
    return out;
  }

  /** A configuration that uses a launcher option when runs do not start through the launcher: one line. */
  public void checkLauncherOptions(List<BenchConfig> configs) {
    if (throughLauncher(launcher)) return;
    for (BenchConfig c : configs) {
      for (String a : c.args()) {
        for (String o : LAUNCHER_OPTIONS) {
          if (a.equals(o) || a.startsWith(o + "=")) {
            throw new InputException("configuration '" + c.name() + "' uses " + o
                + ", which needs runs started through bin/fastpipe (FASTPIPE_LAUNCHER is not set)");
          }
        }
      }
    }
  }

  /**
   * Runs configuration {@code c} once as run {@code seq} of {@code total}. Never throws for a run
   * that fails: its exit status and error tail are in the result.
   */
  public BenchRun run(BenchConfig c, int round, boolean warmup, int seq, int total) {
    Path vcf = workDir.resolve("run-" + seq + ".vcf.gz");
    Path json = workDir.resolve("run-" + seq + ".json");
    Path log = workDir.resolve("run-" + seq + ".log");
    int status;
    double wall;
    double load = MachineLoad.oneMinute(); // the machine just before the run, recorded with it
    MetricsFile stagedMetrics = null;
    String kind = ClassicPipeline.kind(c);
    boolean staged = !kind.equals("streaming");
    try {
      long t0 = System.nanoTime();
      if (staged) {
        ClassicPipeline.Outcome o = kind.equals("classic")
            ? new ClassicPipeline(c.name(), allArgs(c)).run(launcherOf(c), vcf, log, env -> environment(c, env), p -> current = p)
            : new BcftoolsPeer(c.name(), allArgs(c)).run(vcf, log, env -> environment(c, env), p -> current = p);
        status = o.status();
        stagedMetrics = o.metrics();
      } else {
        ProcessBuilder pb = new ProcessBuilder(command(c, vcf, json)).redirectErrorStream(true).redirectOutput(log.toFile());
        environment(c, pb.environment());
        Process p = pb.start();
        current = p;
        p.getOutputStream().close();
        status = p.waitFor();
      }
      wall = (System.nanoTime() - t0) / 1e9;
      current = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + launcher.get(0) + ": " + RootCause.of(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopCurrent();
      throw new BenchFailedException("interrupted during run " + seq);
    }
    String md5 = null;
    MetricsFile metrics = null;
    String tail = "";
    try {
      if (status == 0) {
        md5 = VcfBody.md5(vcf);
        metrics = staged ? stagedMetrics : MetricsFile.parse(Files.readString(json));
      } else {
        tail = tail(log, 5);
      }
    } catch (IOException | RuntimeException e) {
      status = status == 0 ? -1 : status;
      tail = "cannot read what the run wrote: " + RootCause.of(e);
    }
    BenchRun r = new BenchRun(seq, c.name(), round, warmup, status, wall, md5, metrics, tail, load);
    if (referenceMd5 == null && r.ok()) {
      referenceMd5 = md5;
      referenceSeq = seq;
    }
    boolean keepVcf = r.ok() && (seq == referenceSeq || !md5.equals(referenceMd5));
    delete(json, r.ok() ? log : null, keepVcf ? null : vcf, keepVcf ? null : Path.of(vcf + ".tbi"));
    if (progress != null) {
      progress.printf(Locale.ROOT, "bench: [%d/%d] %-16s %s %7.2f s  load %.2f%s%n", seq, total, c.name(),
          warmup ? "warm-up " : "round " + (round + 1), wall, load, r.ok() ? "" : "  FAILED (exit " + status + ")");
    }
    return r;
  }

  /** The command of one run of {@code call}. */
  List<String> command(BenchConfig c, Path vcf, Path json) {
    List<String> cmd = new ArrayList<>(launcherOf(c));
    cmd.add("call");
    cmd.addAll(allArgs(c));
    cmd.addAll(List.of("--output", vcf.toString(), "--metrics", json.toString(), "--no-progress"));
    return cmd;
  }

  /** What starts a subcommand for {@code c}: this build's launcher or another build's ({@link BenchConfig#BUILD}). */
  private List<String> launcherOf(BenchConfig c) {
    return c.build() == null ? launcher : List.of(c.build().toString());
  }

  /** The options every run gets, then the configuration's own. */
  private List<String> allArgs(BenchConfig c) {
    List<String> args = new ArrayList<>(commonArgs);
    args.addAll(c.args());
    return args;
  }

  /** A run's environment: this process's, plus the configuration's, less bench's own variables. */
  private static void environment(BenchConfig c, java.util.Map<String, String> env) {
    env.putAll(c.env());
    env.remove(BenchConfig.BUILD);
    env.remove(ClassicPipeline.PIPELINE);
    if (c.build() != null) env.remove("FASTPIPE_LAUNCHER"); // the other build's launcher sets its own
  }

  /** The last {@code n} non-blank lines of {@code log}. */
  private static String tail(Path log, int n) throws IOException {
    List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }

  private static void delete(Path... files) {
    for (Path f : files) {
      if (f == null) continue;
      try {
        Files.deleteIfExists(f);
      } catch (IOException ignored) {
        // a temporary of the bench: the work directory goes as a whole later
      }
    }
  }

  private void stopCurrent() {
    Process p = current;
    if (p != null && p.isAlive()) {
      p.destroy(); // SIGTERM: call stops its shards and drops its partial VCF
      try {
        p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      p.destroyForcibly();
    }
  }

  /**
   * Removes the work directory when this runner made it, {@code keep} is false and it holds nothing
   * to look at: no VCF that differs from the reference. {@code result} null (the bench failed):
   * nothing is decided here; {@link #close} removes a temporary work directory unless kept. Returns
   * the VCFs kept when some differ (the reference's first).
   */
  public List<Path> finish(BenchResult result, boolean keep) {
    return finish(result, keep, false);
  }

  /** As {@link #finish(BenchResult, boolean)}; {@code callsMayDiffer}: VCFs differ only when they do within a configuration. */
  public List<Path> finish(BenchResult result, boolean keep, boolean callsMayDiffer) {
    List<Path> kept = new ArrayList<>();
    BenchRun ref = result == null ? null : result.reference();
    boolean differ = result != null && !result.mismatches(callsMayDiffer).isEmpty();
    if (result == null) return kept;
    if (differ) {
      kept.add(workDir.resolve("run-" + ref.seq() + ".vcf.gz"));
      for (BenchRun r : result.runs()) {
        if (r.ok() && !r.vcfMd5().equals(ref.vcfMd5())) kept.add(workDir.resolve("run-" + r.seq() + ".vcf.gz"));
      }
    }
    if (keep || differ) retained = true;
    else removeWorkDir();
    return kept;
  }

  /** Keeps the work directory at {@link #close} (it holds something to look at). */
  public void retain() {
    retained = true;
  }

  /** True when the work directory stays after {@link #close}: given to the runner, --keep, or retained. */
  public boolean workDirStays() {
    return !ownWorkDir || keep || retained;
  }

  /** Removes the work directory if this runner made it (a directory given to it stays). */
  public void removeWorkDir() {
    if (ownWorkDir) deleteTree(workDir);
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(onSignal);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running already
    }
    stopCurrent();
    if (!workDirStays()) removeWorkDir(); // also after an error: nothing in it is named to the user
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> delete(p));
    } catch (IOException ignored) {
      // best effort: a temporary directory
    }
  }

  /**
   * A run that {@code call} refused for bad input: its one error line, which every other run would
   * print too, as the bench's own bad-input error (exit status 2), not as a failed run.
   */
  public static InputException badInput(BenchRun r) {
    String line = r.errorTail().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("exit status " + r.exitStatus());
    return new InputException(r.label() + " refused its input: " + line);
  }
}
