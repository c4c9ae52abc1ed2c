package dev.fastpipe.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc/PID/stat} says of a process, for telling "the process I knew is still running"
 * from "it exited" or "its pid now belongs to another": a ring file's owner ({@link RingOwner}) and
 * a shard worker's parent are both judged this way.
 *
 * <p>The start time is field 22 (clock ticks after boot): fixed for the life of a process and read
 * the same by every reader. Not {@code ProcessHandle.info().startInstant()}: the JDK derives that
 * from the boot time in {@code /proc/stat}, which it reads once per JVM and which moves when the
 * wall clock is stepped, so two readers could disagree about one live process.
 */
public final class ProcessStat {
  private ProcessStat() {}

  /** Field 22 of {@code /proc/PID/stat}, or 0 when there is no such process or no /proc. */
  public static long startTicks(long pid) {
    return Math.max(0, field(pid, 22));
  }

  /**
   * Numeric field {@code n} (numbered from 1 as in proc(5): 10 minflt, 12 majflt, 14 utime, 22
   * starttime) of {@code /proc/PID/stat}, or -1 when there is no such process or no /proc.
   */
  public static long field(long pid, int n) {
    String[] f = fieldsAfterComm(pid);
    try {
      return f == null || n < 3 ? -1 : Long.parseLong(f[n - 3]);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /**
   * The unit of the CPU times in {@code /proc/PID/stat}: USER_HZ, which the kernel fixes at 100 for
   * user space on every architecture it runs on now (x86, arm, riscv, ...).
   */
  static final long TICKS_PER_SECOND = 100;

  /**
   * CPU time the process has used, user plus system, over all its threads (fields 14 and 15 of
   * {@code /proc/PID/stat}), in nanoseconds at the kernel's 10 ms resolution; -1 when there is no
   * such process (or no /proc).
   */
  public static long cpuNanos(long pid) {
    return ticksAsNanos(pid, 14, 15);
  }

  /**
   * CPU time, user plus system, of the process's children that have ended and been waited for
   * (cutime and cstime, fields 16 and 17 of {@code /proc/PID/stat}), in nanoseconds at the kernel's
   * 10 ms resolution; -1 when there is no such process (or no /proc).
   */
  public static long reapedChildrenCpuNanos(long pid) {
    return ticksAsNanos(pid, 16, 17);
  }

  /** Fields {@code user} + {@code system} (numbered as in proc(5)) of /proc/PID/stat, in ticks, as nanoseconds; -1 as above. */
  private static long ticksAsNanos(long pid, int user, int system) {
    String[] f = fieldsAfterComm(pid);
    try {
      return f == null ? -1 : (Long.parseLong(f[user - 3]) + Long.parseLong(f[system - 3])) * (1_000_000_000L / TICKS_PER_SECOND);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /**
   * True when the process has exited: the JDK says it is not running, or /proc says it waits to
   * be reaped (state Z or X: killed, its parent not yet told), which {@link ProcessHandle#isAlive}
   * still calls alive.
   */
  public static boolean exited(long pid) {
    if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) return true;
    String[] f = fieldsAfterComm(pid);
    return f != null && (f[0].equals("Z") || f[0].equals("X"));
  }

  /**
   * True when {@code pid} no longer runs the process that had {@code startTicks} (0: not known, so
   * only an exit counts): it exited, or the pid was reused by a process started at another time.
   */
  public static boolean gone(long pid, long startTicks) {
    if (exited(pid)) return true;
    long now = startTicks(pid);
    return startTicks != 0 && now != 0 && now != startTicks;
  }

  /** The fields of {@code /proc/PID/stat} from field 3 (state) on; null without such a process or /proc. */
  private static String[] fieldsAfterComm(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
      // "pid (comm) state ppid ...": comm may hold spaces and ')', so count fields after the last ')'.
      int close = stat.lastIndexOf(')');
      return close < 0 ? null : stat.substring(close + 2).split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
