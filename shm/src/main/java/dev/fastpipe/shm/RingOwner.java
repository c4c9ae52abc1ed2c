package dev.fastpipe.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who created a ring file, as recorded in its header: the pid, which the kernel reuses, plus what
 * tells two holders of one pid apart: the process's start time and its pid namespace.
 *
 * <p>The start time is {@code /proc/PID/stat} field 22 (clock ticks after boot): fixed for the
 * life of a process and read the same by every reader. Not {@code ProcessHandle.info().startInstant()}:
 * the JDK derives that from the boot time in {@code /proc/stat}, which it reads once per JVM and
 * which moves when the wall clock is stepped, so two JVMs could disagree about a live process.
 * The pid namespace is the inode of {@code /proc/self/ns/pid}: a pid seen from another namespace
 * (a container sharing {@code /dev/shm}) means nothing here. 0 in either field means unknown.
 *
 * @param pid the creator's pid; 0 = no owner recorded
 * @param startTicks the creator's start time in clock ticks after boot; 0 = unknown
 * @param pidNamespace the inode of the creator's pid namespace; 0 = unknown
 */
record RingOwner(long pid, long startTicks, long pidNamespace) {

  private static final RingOwner CURRENT = new RingOwner(ProcessHandle.current().pid(),
      startTicks(ProcessHandle.current().pid()), pidNamespaceOfThisProcess());

  /** This process. */
  static RingOwner current() {
    return CURRENT;
  }

  /**
   * True only when the owner is provably gone: its pid is not running, or runs a process that
   * started at another time (the pid was reused). An owner that is not recorded, that lives in
   * another pid namespace, or whose start time cannot be compared while its pid runs, is not.
   */
  boolean provablyDead() {
    if (pid <= 0) return false;
    if (pidNamespace != 0 && CURRENT.pidNamespace != 0 && pidNamespace != CURRENT.pidNamespace) return false;
    long nowTicks = startTicks(pid);
    if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) return true;
    return startTicks != 0 && nowTicks != 0 && nowTicks != startTicks;
  }

  /** Why {@link #provablyDead()} holds, for the message that names a removed file. */
  String deathReason() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
        ? "owner pid " + pid + " has exited; the pid now belongs to a process started later"
        : "owner pid " + pid + " has exited";
  }

  /** Field 22 of {@code /proc/PID/stat}, or 0 when there is no such process or no /proc. */
  static long startTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
      // "pid (comm) state ppid ...": comm may hold spaces and ')', so count fields after the last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[22 - 3]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long pidNamespaceOfThisProcess() {
    try {
      String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // "pid:[4026531836]"
      return Long.parseLong(link.substring(link.indexOf('[') + 1, link.indexOf(']')));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
