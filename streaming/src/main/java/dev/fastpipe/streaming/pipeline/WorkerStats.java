package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The one line a shard worker process prints on stdout when it finishes, so the parent can count
 * examples, reads, CPU time and memory of processes it cannot look into: {@code fastpipe-worker
 * examples=N reads=N seen=N cpu_seconds=S wall_seconds=S peak_rss_mb=M} (reads: passing the
 * filters; seen: all; peak_rss_mb: VmHWM, the most resident memory the process held).
 */
public final class WorkerStats {
  static final String PREFIX = "fastpipe-worker ";

  private WorkerStats() {}

  /** The line for this process: its own CPU time, JVM start-up included. */
  public static String line(MakeExamplesStats st) {
    double cpu = 0;
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) cpu = sun.getProcessCpuTime() / 1e9;
    return String.format(Locale.ROOT, PREFIX + "examples=%d reads=%d seen=%d cpu_seconds=%.3f wall_seconds=%.3f"
        + " peak_rss_mb=%.1f", st.examples, st.reads, st.readsSeen(), cpu, st.seconds(), peakRssMb());
  }

  /** This process's peak resident set in MiB (VmHWM of /proc/self/status); -1 where there is no /proc. */
  public static double peakRssMb() {
    try {
      for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0;
      }
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  static double field(String line, String name) {
    for (String part : line.substring(PREFIX.length()).split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).equals(name)) return Double.parseDouble(part.substring(eq + 1));
    }
    return 0;
  }

  private static double sum(ShardProcesses p, String name) {
    double total = 0;
    for (int i = 0; i < p.processes().size(); i++) {
      for (String l : p.stdout(i)) if (l.startsWith(PREFIX)) total += field(l, name);
    }
    return total;
  }

  /** Each worker's peak_rss_mb, in shard order (-1 for a worker that printed no stats line). */
  static double[] peakRssMb(ShardProcesses p) {
    double[] out = new double[p.processes().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = -1;
      for (String l : p.stdout(i)) if (l.startsWith(PREFIX)) out[i] = field(l, "peak_rss_mb");
    }
    return out;
  }

  static double sumCpuSeconds(ShardProcesses p) {
    return sum(p, "cpu_seconds");
  }

  static long sumExamples(ShardProcesses p) {
    return (long) sum(p, "examples");
  }

  /** The workers' reads seen; -1 when a worker printed no stats line. */
  static long sumReadsSeen(ShardProcesses p) {
    for (int i = 0; i < p.processes().size(); i++) {
      if (p.stdout(i).stream().noneMatch(l -> l.startsWith(PREFIX + "examples="))) return -1;
    }
    return (long) sum(p, "seen");
  }
}
