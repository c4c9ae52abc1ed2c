package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.genome.ReadsIndex;
import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.plan.RunPlan;
import htsjdk.samtools.SAMFileHeader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Progress on stderr: one line redrawn in place when stderr is a terminal (every half second),
 * plain lines otherwise (logs, CI: every 10 s for the first two minutes, then every minute).
 *
 * <p>The share done is the share of the run's work, not of its partitions: each partition weighs
 * what the reads' index says its reads take in the file ({@link dev.fastpipe.streaming.plan.PartitionWork}), so a contig
 * without reads, a centromere or an N gap counts for almost nothing and a deep region for much.
 * The ETA divides the work left by the rate of the last {@link #RATE_WINDOW_NANOS} (from the first
 * finished partition on, so start-up does not count as slowness): over hours it follows the run's
 * present speed, as the machine gets busier or quieter, rather than its average since the start.
 */
public final class ProgressReporter implements AutoCloseable {
  /** How far back the rate behind the ETA looks. */
  static final long RATE_WINDOW_NANOS = TimeUnit.MINUTES.toNanos(10);

  private final PrintStream err;
  private final PartitionFrontier frontier;
  private final LongSupplier examplesCalled;
  private final LongSupplier clock;
  private final boolean terminal;
  private final long startNanos;
  private final ScheduledExecutorService timer;
  /** (time, work done) samples, oldest first, covering at least the rate window once it has passed. */
  private final ArrayDeque<double[]> samples = new ArrayDeque<>();
  private boolean drewLine;
  private long lastPrinted;

  public ProgressReporter(PrintStream err, PartitionFrontier frontier, LongSupplier examplesCalled,
      boolean enabled) {
    this(err, frontier, examplesCalled, enabled, System::nanoTime, stderrIsTerminal());
  }

  ProgressReporter(PrintStream err, PartitionFrontier frontier, LongSupplier examplesCalled, boolean enabled,
      LongSupplier clock, boolean terminal) {
    this.err = err;
    this.frontier = frontier;
    this.examplesCalled = examplesCalled;
    this.clock = clock;
    this.terminal = terminal;
    this.startNanos = clock.getAsLong();
    this.lastPrinted = startNanos;
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
    timer.scheduleAtFixedRate(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
  }

  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (Exception e) {
      return false;
    }
  }

  /** The status text: "37.5% done (812 of 1,100 partitions), 912,000 examples, 812 examples/s, elapsed 0:12:03, ETA 0:20:42". */
  public synchronized String line() {
    long now = clock.getAsLong();
    double done = frontier.workDone();
    double total = Math.max(frontier.totalWork(), 1e-9);
    sample(now, done);
    double fraction = Math.min(1, done / total);
    long examples = examplesCalled.getAsLong();
    double seconds = (now - startNanos) / 1e9;
    double examplesRate = seconds > 0 ? examples / seconds : 0;
    String eta = "?";
    if (samples.size() >= 2 && fraction < 1) {
      double[] first = samples.peekFirst();
      double[] last = samples.peekLast();
      double rate = (last[1] - first[1]) / ((last[0] - first[0]) / 1e9); // work per second, recently
      if (rate > 0) eta = clock(Math.round((total - done) / rate));
    } else if (fraction >= 1) {
      eta = clock(0);
    }
    return String.format("fastpipe: %5.1f%% done (%,d of %,d partitions), %,d examples called, %.0f examples/s,"
            + " elapsed %s, ETA %s",
        100 * fraction, frontier.doneCount(), frontier.partitions(), examples, examplesRate,
        clock(Math.round(seconds)), eta);
  }

  /**
   * Notes (now, done): samples start once a partition is done (start-up is not the run's pace)
   * and are dropped once a younger one is at least the rate window old.
   */
  private void sample(long now, double done) {
    if (done <= 0) return;
    double[] last = samples.peekLast();
    if (last != null && last[1] == done && samples.size() >= 2) {
      // no progress since the last sample: keep its time, so the rate counts the stall
      samples.pollLast();
    }
    samples.addLast(new double[] {now, done});
    while (samples.size() > 2) {
      var it = samples.iterator();
      it.next();
      double[] second = it.next();
      if (now - (long) second[0] >= RATE_WINDOW_NANOS) samples.pollFirst();
      else break;
    }
  }

  /** h:mm:ss. */
  static String clock(long s) {
    return String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  private synchronized void tick() {
    long now = clock.getAsLong();
    String text = line();
    if (terminal) {
      err.print("\r\033[K" + text);
      drewLine = true;
    } else {
      // a log gets a line every 10 s while the run starts, then one a minute: 60 lines an hour
      boolean early = now - startNanos < TimeUnit.MINUTES.toNanos(2);
      if (!early && now - lastPrinted < TimeUnit.SECONDS.toNanos(59)) return;
      err.println(text);
    }
    lastPrinted = now;
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
