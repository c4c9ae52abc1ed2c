package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.pipeline.MetricsFile;
import dev.fastpipe.streaming.pipeline.RunMetrics;
import java.util.List;

/**
 * One run of {@code call} in a bench: which configuration, when, how it ended, its wall time from
 * process start to exit (JVM start included: what a user waits), its VCF body's md5 and its
 * {@code --metrics} file (the typed {@link MetricsFile}; null when the run failed).
 *
 * @param seq the run's place in the schedule, from 1
 * @param errorTail the last lines the run wrote on stderr (kept for a failed run)
 * @param loadBefore the machine's 1-minute load average just before the run started (NaN: not read),
 *     so that a slow run can be told from a busy machine
 */
public record BenchRun(int seq, String config, int round, boolean warmup, int exitStatus, double wallSeconds,
    String vcfMd5, MetricsFile metrics, String errorTail, double loadBefore) {

  /** A run whose load average was not read. */
  public BenchRun(int seq, String config, int round, boolean warmup, int exitStatus, double wallSeconds,
      String vcfMd5, MetricsFile metrics, String errorTail) {
    this(seq, config, round, warmup, exitStatus, wallSeconds, vcfMd5, metrics, errorTail, Double.NaN);
  }

  public boolean ok() {
    return exitStatus == 0 && metrics != null;
  }

  /** Stage {@code name}'s wall seconds in the metrics, or NaN. */
  public double stageWall(String name) {
    RunMetrics.Stage s = metrics == null ? null : metrics.stage(name);
    return s == null ? Double.NaN : s.wallSeconds();
  }

  /** Stage {@code name}'s CPU seconds in the metrics, or NaN. */
  public double stageCpu(String name) {
    RunMetrics.Stage s = metrics == null ? null : metrics.stage(name);
    return s == null ? Double.NaN : s.cpuSeconds();
  }

  /**
   * The CPU seconds of every process of the run: make_examples' plus call_variants' (whose parent
   * also runs postprocess) for {@code call}, the recorded {@code total} stage where a run has one
   * (the classic pipeline's stages are separate processes).
   */
  public double totalCpu() {
    RunMetrics.Stage total = metrics == null ? null : metrics.stage("total");
    return total != null ? total.cpuSeconds() : stageCpu("make_examples") + stageCpu("call_variants");
  }

  /** The processes of role {@code role} in the metrics ({@code inference}, {@code shard}). */
  public List<MetricsFile.Process> processes(String role) {
    return metrics == null ? List.of() : metrics.processes(role);
  }

  /** The run's rings. */
  public List<MetricsFile.Ring> rings() {
    return metrics == null ? List.of() : metrics.rings();
  }

  /** "run 3 (glibc, round 2)" or "run 1 (glibc, warm-up)". */
  public String label() {
    return "run " + seq + " (" + config + ", " + (warmup ? "warm-up" : "round " + (round + 1)) + ")";
  }
}
