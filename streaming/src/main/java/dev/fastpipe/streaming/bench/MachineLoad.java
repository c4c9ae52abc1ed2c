package dev.fastpipe.streaming.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's 1-minute load average before and after a bench's runs, so that a report says
 * whether something else shared the cores (NaN where /proc/loadavg cannot be read).
 */
public record MachineLoad(double before, double after) {

  /** The 1-minute load average now, from /proc/loadavg; NaN off Linux. */
  public static double oneMinute() {
    try {
      return parse(Files.readString(Path.of("/proc/loadavg")));
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The first field of a /proc/loadavg line ("0.52 0.58 0.59 1/123 4567"); NaN if it is not a number. */
  static double parse(String loadavg) {
    String[] f = loadavg.strip().split("\\s+");
    try {
      return Double.parseDouble(f[0]);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
