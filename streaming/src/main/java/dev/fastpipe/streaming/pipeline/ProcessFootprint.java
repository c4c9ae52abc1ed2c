package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ProcessStat;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What one process of a run cost in memory and which native allocator it really ran on, read from
 * {@code /proc} at its end: the allocator library mapped into it ({@code /proc/PID/maps}: the
 * launcher's preload, not the wish), the {@code MALLOC_CONF} it saw, its peak resident set
 * ({@code VmHWM} of {@code /proc/PID/status}), its minor and major page faults (fields 10 and 12
 * of {@code /proc/PID/stat}) and its CPU seconds. {@code call --metrics} records one per process:
 * role {@code inference} (the parent: consumers, TensorFlow, postprocess; with thread transports the
 * shards too) and role {@code shard} (one per shard worker process).
 *
 * @param shard the shard of a {@code shard} process; -1 for the parent
 * @param mallocConf the process's {@code MALLOC_CONF}; empty when unset
 * @param peakRssBytes -1 when not known (no /proc)
 */
public record ProcessFootprint(String role, int shard, long pid, String allocator, String mallocConf,
    long peakRssBytes, long minorFaults, long majorFaults, double cpuSeconds) {

  public static final String INFERENCE = "inference";
  public static final String SHARD = "shard";

  /** Allocator libraries recognised in a maps file: name, then the file name's prefix. */
  private static final String[][] KNOWN = {
    {"jemalloc", "libjemalloc"}, {"tcmalloc", "libtcmalloc"}, {"mimalloc", "libmimalloc"}
  };

  /** This process, now. */
  public static ProcessFootprint self(String role, int shard) {
    long pid = ProcessHandle.current().pid();
    String conf = System.getenv("MALLOC_CONF");
    var os = ManagementFactory.getOperatingSystemMXBean();
    double cpu = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() / 1e9 : 0;
    long hwmKb = statusKb(Path.of("/proc/self/status"), "VmHWM");
    return new ProcessFootprint(role, shard, pid, allocatorName(mappedAllocator(Path.of("/proc/self/maps"))),
        conf == null ? "" : conf, hwmKb < 0 ? -1 : hwmKb * 1024, ProcessStat.field(pid, 10),
        ProcessStat.field(pid, 12), cpu);
  }

  /**
   * Names the allocator whose shared library is mapped into the process of {@code maps}, with the
   * library: "jemalloc (libjemalloc.so.2 mapped)"; "glibc" when none is; "unknown (...)" when the
   * file cannot be read.
   */
  public static String mappedAllocator(Path maps) {
    List<String> lines;
    try {
      lines = Files.readAllLines(maps);
    } catch (IOException e) {
      return "unknown (" + maps + " unreadable: " + e.getMessage() + ")";
    }
    for (String[] k : KNOWN) {
      for (String line : lines) {
        int slash = line.lastIndexOf('/');
        if (slash >= 0 && line.startsWith(k[1], slash + 1)) {
          return k[0] + " (" + line.substring(slash + 1) + " mapped)";
        }
      }
    }
    return "glibc";
  }

  /** The bare name of a {@link #mappedAllocator} answer: "jemalloc", "glibc", "unknown". */
  static String allocatorName(String mapped) {
    int space = mapped.indexOf(' ');
    return space < 0 ? mapped : mapped.substring(0, space);
  }

  /** A "Key:   N kB" line of a /proc status file, in kB; -1 when absent or unreadable. */
  static long statusKb(Path status, String key) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith(key + ":")) {
          String v = line.substring(key.length() + 1).strip();
          int space = v.indexOf(' ');
          return Long.parseLong(space < 0 ? v : v.substring(0, space));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
