package dev.fastpipe.streaming.bench;

import dev.fastpipe.shm.ProcessStat;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.pipeline.MetricsFile;
import dev.fastpipe.streaming.pipeline.RunMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The classic disk pipeline as one bench run ({@code FASTPIPE_PIPELINE=classic} in a
 * configuration): {@code make-examples} as {@code --shards} parallel tasks writing TFRecord files,
 * then {@code call-variants} over them, then {@code postprocess}, each a child process, so that the
 * streaming pipeline and the stages it replaces are measured in one interleaved schedule with the
 * same statistics. The run's figures are those of {@link Figure#STANDARD} where they exist here:
 * each stage's wall (make_examples: first task started to last ended) and CPU (every process of the
 * stage, from this process's reaped-children CPU, {@link #childrenCpuSeconds}), and the total; per-process RSS and page faults
 * are not known (NaN).
 *
 * <p>The options of {@code call} that bench hands a run are translated to the stage that takes
 * each; one that no stage of the classic pipeline takes is refused before the first run.
 */
final class ClassicPipeline {
  /** The variable that chooses the pipeline: {@code classic}, or {@code streaming} (the default). */
  static final String PIPELINE = "FASTPIPE_PIPELINE";

  private static final Set<String> MAKE_EXAMPLES = Set.of("--ref", "--reads", "--bed", "--regions", "--exclude-contigs",
      "--sample", "--min-mapq", "--min-base-quality", "--snp-min-count", "--snp-min-fraction", "--indel-min-count",
      "--indel-min-fraction", "--indel-shadow-ratio", "--partition-size", "--channels", "--default-base-quality");
  private static final Set<String> MAKE_EXAMPLES_FLAGS = Set.of("--realign-reads", "--no-realign-reads", "--keep-duplicates",
      "--keep-secondary", "--keep-supplementary");
  private static final Set<String> CALL_VARIANTS = Set.of("--model", "--batch-size", "--intra-op-threads", "--inter-op-threads",
      "--ref", "--reads", "--sample");
  private static final Set<String> POSTPROCESS = Set.of("--ref", "--min-qual", "--min-homref-gq", "--sample");

  private final int tasks;
  private final List<String> makeExamples = new ArrayList<>();
  private final List<String> callVariants = new ArrayList<>();
  private final List<String> postprocess = new ArrayList<>();

  /** True when {@code c} asks for the classic pipeline. */
  static boolean wanted(BenchConfig c) {
    return "classic".equals(kind(c));
  }

  /**
   * What {@code c} runs: {@code streaming} ({@code call}, the default), {@code classic} or
   * {@code bcftools} ({@link BcftoolsPeer}); InputException for another value.
   */
  static String kind(BenchConfig c) {
    String p = c.env().getOrDefault(PIPELINE, "streaming");
    if (List.of("streaming", "classic", "bcftools").contains(p)) return p;
    throw new InputException("configuration '" + c.name() + "': " + PIPELINE + "=" + p + ": expected streaming, classic or bcftools");
  }

  /**
   * The stages' options from {@code args} (bench's common options, then the configuration's);
   * InputException naming the configuration and the option no stage takes.
   */
  ClassicPipeline(String config, List<String> args) {
    int shards = Runtime.getRuntime().availableProcessors();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      int eq = a.indexOf('=');
      String name = a.startsWith("--") && eq > 0 ? a.substring(0, eq) : a;
      if (MAKE_EXAMPLES_FLAGS.contains(name)) {
        makeExamples.add(a);
        continue;
      }
      boolean taken = name.equals("--shards") || MAKE_EXAMPLES.contains(name) || CALL_VARIANTS.contains(name)
          || POSTPROCESS.contains(name);
      if (!taken) {
        throw new InputException("configuration '" + config + "' runs the classic pipeline (" + PIPELINE
            + "=classic), whose stages take no " + name + " (they take --shards, " + String.join(", ", sorted()) + ")");
      }
      String value;
      if (eq > 0) {
        value = a.substring(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new InputException("configuration '" + config + "': " + name + " needs a value");
      }
      if (name.equals("--shards")) {
        try {
          shards = Integer.parseInt(value);
        } catch (NumberFormatException e) {
          shards = 0;
        }
        if (shards < 1) throw new InputException("configuration '" + config + "': --shards " + value + ": must be a whole number, 1 or more");
        continue;
      }
      if (MAKE_EXAMPLES.contains(name)) makeExamples.addAll(List.of(name, value));
      if (CALL_VARIANTS.contains(name)) callVariants.addAll(List.of(name, value));
      if (POSTPROCESS.contains(name)) postprocess.addAll(List.of(name, value));
    }
    this.tasks = shards;
  }

  private static List<String> sorted() {
    Set<String> all = new java.util.TreeSet<>(MAKE_EXAMPLES);
    all.addAll(MAKE_EXAMPLES_FLAGS);
    all.addAll(CALL_VARIANTS);
    all.addAll(POSTPROCESS);
    return List.copyOf(all);
  }

  /** The commands of one run, stage by stage (make_examples' tasks run at once), writing {@code vcf}. */
  List<List<List<String>>> commands(List<String> launcher, Path vcf) {
    String base = vcf.getFileName().toString().replaceFirst("\\.vcf\\.gz$", "");
    List<List<String>> me = new ArrayList<>();
    List<String> examples = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      Path ex = vcf.resolveSibling(base + ".examples-" + t + ".tfrecord.gz");
      examples.add(ex.toString());
      List<String> cmd = new ArrayList<>(launcher);
      cmd.add("make-examples");
      cmd.addAll(makeExamples);
      cmd.addAll(List.of("--shards", Integer.toString(tasks), "--task", Integer.toString(t), "--output", ex.toString()));
      me.add(cmd);
    }
    Path calls = vcf.resolveSibling(base + ".calls.gz");
    List<String> cv = new ArrayList<>(launcher);
    cv.add("call-variants");
    cv.add("--examples");
    cv.addAll(examples);
    cv.addAll(callVariants);
    cv.addAll(List.of("--output", calls.toString()));
    List<String> pp = new ArrayList<>(launcher);
    pp.add("postprocess");
    pp.addAll(postprocess);
    pp.addAll(List.of("--calls", calls.toString(), "--output", vcf.toString()));
    return List.of(me, List.of(cv), List.of(pp));
  }

  /** What one run did: its exit status (the first failing stage's), its metrics when it succeeded. */
  record Outcome(int status, MetricsFile metrics) {}

  static final List<String> STAGES = List.of("make_examples", "call_variants", "postprocess");

  /**
   * Runs the stages of {@link #commands} in order, each stage's processes at once with the
   * environment {@code environment} makes of this process's, and output appended to {@code log}; stops at the first stage with a
   * process that fails. Deletes the examples and calls it wrote.
   */
  Outcome run(List<String> launcher, Path vcf, Path log, Consumer<Map<String, String>> environment, ProcessWatch watch)
      throws IOException, InterruptedException {
    List<List<List<String>>> stages = commands(launcher, vcf);
    try {
      return runStages(stages, STAGES, log, environment, watch, Map.of("pipeline", "classic", "shards", tasks));
    } finally {
      for (List<List<String>> stage : stages.subList(0, 2)) {
        for (List<String> cmd : stage) Files.deleteIfExists(Path.of(cmd.get(cmd.size() - 1)));
      }
    }
  }

  /**
   * Runs {@code stages} in order (each stage's processes at once, with the environment
   * {@code environment} makes of this process's, output appended to {@code log}) and stops at the
   * first stage with a process that fails. The metrics hold each stage's wall and CPU under
   * {@code names}, and a {@code total} stage.
   */
  static Outcome runStages(List<List<List<String>>> stages, List<String> names, Path log,
      Consumer<Map<String, String>> environment, ProcessWatch watch, Map<String, Object> settings)
      throws IOException, InterruptedException {
    List<RunMetrics.Stage> figures = new ArrayList<>();
    long t0 = System.nanoTime();
    double cpu0 = childrenCpuSeconds();
    for (int s = 0; s < stages.size(); s++) {
      long start = System.nanoTime();
      double cpuStart = childrenCpuSeconds();
      List<Process> ps = new ArrayList<>();
      for (List<String> cmd : stages.get(s)) {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        environment.accept(pb.environment());
        Process p = pb.start();
        p.getOutputStream().close();
        ps.add(p);
      }
      int status = 0;
      for (Process p : ps) {
        watch.watching(p);
        int st = p.waitFor();
        if (status == 0) status = st;
      }
      watch.watching(null);
      if (status != 0) return new Outcome(status, null);
      figures.add(new RunMetrics.Stage(names.get(s), (System.nanoTime() - start) / 1e9, childrenCpuSeconds() - cpuStart));
    }
    double wall = (System.nanoTime() - t0) / 1e9;
    figures.add(new RunMetrics.Stage("total", wall, childrenCpuSeconds() - cpu0));
    return new Outcome(0, new MetricsFile("ok", null, new LinkedHashMap<>(settings), wall, 0, 0, 0, 0, 0, 0, null, null, null,
        null, 0, 0, 0, null, figures, List.of(), List.of(), List.of(), null));
  }

  /**
   * The CPU seconds of this process's children that have ended and been waited for
   * ({@link ProcessStat#reapedChildrenCpuNanos}), so that a stage's CPU is the difference before and
   * after it; NaN where there is no /proc.
   */
  static double childrenCpuSeconds() {
    long nanos = ProcessStat.reapedChildrenCpuNanos(ProcessHandle.current().pid());
    return nanos < 0 ? Double.NaN : nanos / 1e9;
  }

  /** Where the runner keeps the process it would stop on a signal. */
  interface ProcessWatch {
    void watching(Process p);
  }
}
