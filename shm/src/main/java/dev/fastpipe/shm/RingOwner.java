package dev.fastpipe.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who created a ring file, as recorded in its header: the pid, which the kernel reuses, plus what
 * tells two holders of one pid apart: the process's start time and its pid namespace.
 *
 * <p>The start time is {@code /proc/PID/stat} field 22 ({@link ProcessStat}). The pid namespace is the inode of {@code /proc/self/ns/pid}: a pid seen from another namespace
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

  /** The process's start time ({@link ProcessStat#startTicks}), or 0 when unknown. */
  static long startTicks(long pid) {
    return ProcessStat.startTicks(pid);
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
