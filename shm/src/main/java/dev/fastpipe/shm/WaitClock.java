package dev.fastpipe.shm;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What waiting costs one thread: the wall time of its waits (a consumer's dry spells, a producer's
 * stalls on a full ring) and the CPU time its thread burnt during them, spinning, yielding and
 * waking from parks. Reads the thread's CPU clock twice per wait (at its start and its end), never
 * while records flow, so a wait that costs nothing shows as nothing.
 *
 * <p>Single-threaded: the thread that waits starts and ends its own waits.
 */
public final class WaitClock {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean CPU_CLOCK = THREADS.isCurrentThreadCpuTimeSupported();

  private long wallStart;
  private long cpuStart;
  private boolean waiting;
  private long waitNanos;
  private long waitCpuNanos;

  /** True when this JVM can read a thread's CPU time; else {@link #waitCpuNanos()} stays -1. */
  public static boolean cpuMeasured() {
    return CPU_CLOCK;
  }

  /** Starts a wait (no-op if one is running). */
  public void begin() {
    if (waiting) return;
    waiting = true;
    wallStart = System.nanoTime();
    cpuStart = CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /** Ends the running wait, if any, and adds it to the totals. */
  public void end() {
    if (!waiting) return;
    waiting = false;
    waitNanos += System.nanoTime() - wallStart;
    if (CPU_CLOCK) waitCpuNanos += THREADS.getCurrentThreadCpuTime() - cpuStart;
  }

  /** True between {@link #begin} and {@link #end}. */
  public boolean waiting() {
    return waiting;
  }

  /** Wall nanoseconds of the ended waits. */
  public long waitNanos() {
    return waitNanos;
  }

  /** CPU nanoseconds this thread burnt during the ended waits; -1 when the JVM cannot measure it. */
  public long waitCpuNanos() {
    return CPU_CLOCK ? waitCpuNanos : -1;
  }
}
