package dev.fastpipe.streaming.bench;

import java.util.List;

/**
 * One run of {@code call} in a bench: which configuration, when, how it ended, its wall time from
 * process start to exit (JVM start included: what a user waits), its VCF body's md5 and its
 * {@code --metrics} JSON (parsed; null when the run failed).
 *
 * @param seq the run's place in the schedule, from 1
 * @param errorTail the last lines the run wrote on stderr (kept for a failed run)
 * @param loadBefore the machine's 1-minute load average just before the run started (NaN: not read),
 *     so that a slow run can be told from a busy machine
 */
public record BenchRun(int seq, String config, int round, boolean warmup, int exitStatus, double wallSeconds,
    String vcfMd5, Object metrics, String errorTail, double loadBefore) {

  /** A run whose load average was not read. */
  public BenchRun(int seq, String config, int round, boolean warmup, int exitStatus, double wallSeconds,
      String vcfMd5, Object metrics, String errorTail) {
    this(seq, config, round, warmup, exitStatus, wallSeconds, vcfMd5, metrics, errorTail, Double.NaN);
  }

  public boolean ok() {
    return exitStatus == 0 && metrics != null;
  }

  /** {@code field} (wall_seconds, cpu_seconds) of stage {@code name} in the metrics, or NaN. */
  public double stage(String name, String field) {
    for (Object s : Json.list(metrics, "stages")) {
      if (name.equals(Json.at(s, "name"))) return Json.number(s, field);
    }
    return Double.NaN;
  }

  /** The processes of role {@code role} in the metrics ({@code inference}, {@code shard}). */
  public List<Object> processes(String role) {
    return Json.list(metrics, "processes").stream().filter(p -> role.equals(Json.at(p, "role"))).toList();
  }

  /** The run's rings (shard, capacity_bytes, mean_fill_bytes, max_fill_bytes, producer_stall_ms, consumer_idle_ms). */
  public List<Object> rings() {
    return Json.list(metrics, "rings");
  }

  /** "run 3 (glibc, round 2)" or "run 1 (glibc, warm-up)". */
  public String label() {
    return "run " + seq + " (" + config + ", " + (warmup ? "warm-up" : "round " + (round + 1)) + ")";
  }
}
