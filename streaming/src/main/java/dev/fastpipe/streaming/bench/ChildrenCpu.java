package dev.fastpipe.streaming.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU seconds of this process's children that have ended and been waited for (user + system:
 * cutime and cstime of {@code /proc/self/stat}, in the kernel's USER_HZ of 100 ticks a second), so
 * that the CPU of a stage run as child processes is the difference before and after it. NaN where
 * there is no {@code /proc}.
 */
final class ChildrenCpu {
  private static final double TICKS_PER_SECOND = 100;

  private ChildrenCpu() {}

  static double seconds() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      // f[0] is field 3 (state); cutime and cstime are fields 16 and 17.
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
