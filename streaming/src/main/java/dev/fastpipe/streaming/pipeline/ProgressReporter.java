package dev.fastpipe.streaming.pipeline;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Progress on stderr: one line redrawn in place when stderr is a terminal (fraction of
 * partitions done, examples/s, ETA), plain periodic lines otherwise (logs, CI).
 */
public final class ProgressReporter implements AutoCloseable {
  private final PrintStream err;
  private final PartitionFrontier frontier;
  private final LongSupplier examplesCalled;
  private final boolean terminal;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService timer;
  private boolean drewLine;

  public ProgressReporter(PrintStream err, PartitionFrontier frontier, LongSupplier examplesCalled,
      boolean enabled) {
    this.err = err;
    this.frontier = frontier;
    this.examplesCalled = examplesCalled;
    this.terminal = stderrIsTerminal();
    if (!enabled) {
      timer = null;
      return;
    }
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fastpipe-progress");
      t.setDaemon(true);
      return t;
    });
    long periodMs = terminal ? 500 : 10_000;
    timer.scheduleAtFixedRate(this::report, periodMs, periodMs, TimeUnit.MILLISECONDS);
  }

  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (Exception e) {
      return false;
    }
  }

  /** The status text: "37.5% of 1100 partitions, 812 examples/s, ETA 0:42". */
  public String line() {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    int done = frontier.doneCount();
    int total = Math.max(1, frontier.partitions());
    double fraction = (double) done / total;
    long examples = examplesCalled.getAsLong();
    double rate = seconds > 0 ? examples / seconds : 0;
    String eta = fraction > 0.001 ? clock((long) (seconds * (1 - fraction) / fraction)) : "?";
    return String.format("fastpipe: %5.1f%% of %d partitions, %d examples called, %.0f examples/s, elapsed %s, ETA %s",
        100 * fraction, frontier.partitions(), examples, rate, clock((long) seconds), eta);
  }

  private static String clock(long s) {
    return String.format("%d:%02d", s / 60, s % 60);
  }

  private synchronized void report() {
    if (terminal) {
      err.print("\r\033[K" + line());
      drewLine = true;
    } else {
      err.println(line());
    }
    err.flush();
  }

  @Override
  public synchronized void close() {
    if (timer != null) timer.shutdownNow();
    if (drewLine) {
      err.print("\r\033[K");
      err.flush();
    }
  }
}
