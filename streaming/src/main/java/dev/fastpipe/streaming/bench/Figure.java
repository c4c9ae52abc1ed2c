package dev.fastpipe.streaming.bench;

import static dev.fastpipe.streaming.pipeline.ProcessFootprint.INFERENCE;
import static dev.fastpipe.streaming.pipeline.ProcessFootprint.SHARD;

import dev.fastpipe.streaming.pipeline.MetricsFile;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A figure bench reports for every run: per stage (make_examples, call_variants, postprocess,
 * total) wall and CPU seconds, and per process role peak RSS and minor page faults.
 *
 * <p>total wall is the run's process from start to exit (JVM start included); total CPU is the
 * CPU of every process of the run: make_examples' (the shard processes', or their threads') plus
 * call_variants' (the parent's, which includes postprocess and start-up), or for the classic
 * pipeline ({@link ClassicPipeline}) every stage's processes. Stage figures are those
 * of {@code call --metrics}: make_examples wall runs from the shards' start to the last one's
 * end, call_variants wall from the model being loaded to the last example classified.
 *
 * @param compared whether pairs of configurations are tested on it: not "postprocess CPU", which
 *     {@code call --metrics} records as that stage's wall (postprocess runs on the parent's
 *     threads; its CPU is in call_variants CPU), so a test of it repeats postprocess wall's
 */
public record Figure(String name, String unit, ToDoubleFunction<BenchRun> value, boolean compared) {

  public Figure(String name, String unit, ToDoubleFunction<BenchRun> value) {
    this(name, unit, value, true);
  }

  private static final double MIB = 1 << 20;

  /** The figures of every bench report, in the order of its tables. */
  public static final List<Figure> STANDARD = List.of(
      new Figure("total wall", "s", BenchRun::wallSeconds),
      new Figure("total CPU", "s", BenchRun::totalCpu),
      new Figure("make_examples wall", "s", r -> r.stageWall("make_examples")),
      new Figure("make_examples CPU", "s", r -> r.stageCpu("make_examples")),
      new Figure("call_variants wall", "s", r -> r.stageWall("call_variants")),
      new Figure("call_variants CPU", "s", r -> r.stageCpu("call_variants")),
      new Figure("postprocess wall", "s", r -> r.stageWall("postprocess")),
      new Figure("postprocess CPU", "s", r -> r.stageCpu("postprocess"), false),
      new Figure("peak RSS inference", "MiB", r -> max(r, INFERENCE, MetricsFile.Process::peakRssBytes) / MIB),
      new Figure("peak RSS shard (max)", "MiB", r -> max(r, SHARD, MetricsFile.Process::peakRssBytes) / MIB),
      new Figure("minor faults inference", "k", r -> sum(r, INFERENCE, MetricsFile.Process::minorFaults) / 1000),
      new Figure("minor faults shards (sum)", "k", r -> sum(r, SHARD, MetricsFile.Process::minorFaults) / 1000),
      // The machine, not the configuration: shown beside the figures, never tested.
      new Figure("load average before the run", "(1 min)", BenchRun::loadBefore, false));

  /** The figures pairs of configurations are tested on. */
  public static List<Figure> tested() {
    return STANDARD.stream().filter(Figure::compared).toList();
  }

  /** The figure's values over {@code runs}. */
  public double[] values(List<BenchRun> runs) {
    return runs.stream().mapToDouble(value).toArray();
  }

  /** "total wall s". */
  public String label() {
    return name + " " + unit;
  }

  private static double max(BenchRun r, String role, ToDoubleFunction<MetricsFile.Process> field) {
    return r.processes(role).stream().mapToDouble(field).filter(d -> d >= 0).max().orElse(Double.NaN);
  }

  private static double sum(BenchRun r, String role, ToDoubleFunction<MetricsFile.Process> field) {
    List<MetricsFile.Process> ps = r.processes(role);
    return ps.isEmpty() ? Double.NaN : ps.stream().mapToDouble(field).sum();
  }
}
