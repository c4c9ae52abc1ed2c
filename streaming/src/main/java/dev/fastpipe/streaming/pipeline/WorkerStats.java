package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one line a shard worker process prints on stdout when it finishes, so the parent can count
 * examples, reads and CPU time of processes it cannot look into: {@code fastpipe-worker examples=N
 * reads=N seen=N cpu_seconds=S wall_seconds=S pid=P allocator=NAME malloc_conf=TEXT
 * peak_rss_bytes=N minflt=N majflt=N realigned_windows=N realign_fallbacks=N realigned_reads=N
 * realign_seconds=S} (reads: passing the filters; seen: all; the footprint fields are the worker's
 * {@link ProcessFootprint}, malloc_conf URL-encoded; the realign fields its {@link RealignTotals}).
 */
public final class WorkerStats {
  static final String PREFIX = "fastpipe-worker ";

  private WorkerStats() {}

  /**
   * The line for this process: its examples (every one: CNN images and small-model calls), its own
   * CPU time, JVM start-up included, and its footprint.
   */
  public static String line(MakeExamplesStats st) {
    ProcessFootprint f = ProcessFootprint.self(ProcessFootprint.SHARD, -1);
    return String.format(Locale.ROOT, PREFIX + "examples=%d reads=%d seen=%d cpu_seconds=%.3f wall_seconds=%.3f"
            + " pid=%d allocator=%s malloc_conf=%s peak_rss_bytes=%d minflt=%d majflt=%d"
            + " realigned_windows=%d realign_fallbacks=%d realigned_reads=%d realign_seconds=%.3f",
        st.examples + st.smallCalls, st.reads, st.readsSeen(), f.cpuSeconds(), st.seconds(), f.pid(), f.allocator(),
        URLEncoder.encode(f.mallocConf(), StandardCharsets.UTF_8), f.peakRssBytes(), f.minorFaults(), f.majorFaults(),
        st.realignedWindows, st.realignFallbackWindows, st.realignedReads, st.realignNanos / 1e9);
  }

  static double field(String line, String name) {
    String v = text(line, name);
    return v == null ? 0 : Double.parseDouble(v);
  }

  /** The value of {@code name=} in a stats line, or null. */
  private static String text(String line, String name) {
    for (String part : line.substring(PREFIX.length()).split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).equals(name)) return part.substring(eq + 1);
    }
    return null;
  }

  /** The footprint a worker's stats line reports for shard {@code shard}; null for a line without one. */
  static ProcessFootprint footprint(String line, int shard) {
    String allocator = text(line, "allocator");
    if (allocator == null) return null;
    String conf = text(line, "malloc_conf");
    return new ProcessFootprint(ProcessFootprint.SHARD, shard, (long) field(line, "pid"), allocator,
        conf == null ? "" : URLDecoder.decode(conf, StandardCharsets.UTF_8), (long) field(line, "peak_rss_bytes"),
        (long) field(line, "minflt"), (long) field(line, "majflt"), field(line, "cpu_seconds"));
  }

  /** The footprints of the workers that printed one, in shard order. */
  static List<ProcessFootprint> footprints(ShardProcesses p) {
    List<ProcessFootprint> all = new ArrayList<>();
    for (int i = 0; i < p.processes().size(); i++) {
      for (String l : p.stdout(i)) {
        ProcessFootprint f = l.startsWith(PREFIX) ? footprint(l, i) : null;
        if (f != null) all.add(f);
      }
    }
    return all;
  }

  private static double sum(ShardProcesses p, String name) {
    double total = 0;
    for (int i = 0; i < p.processes().size(); i++) {
      for (String l : p.stdout(i)) if (l.startsWith(PREFIX)) total += field(l, name);
    }
    return total;
  }

  static double sumCpuSeconds(ShardProcesses p) {
    return sum(p, "cpu_seconds");
  }

  /** The workers' realigner counters summed (zero from a worker that printed none). */
  static RealignTotals sumRealignment(ShardProcesses p) {
    return new RealignTotals((long) sum(p, "realigned_windows"), (long) sum(p, "realign_fallbacks"),
        (long) sum(p, "realigned_reads"), sum(p, "realign_seconds"));
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
