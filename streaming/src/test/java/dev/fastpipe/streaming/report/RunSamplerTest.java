package dev.fastpipe.streaming.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunSamplerTest {

  /** Counts up by one example per read; fails on the read given, if any. */
  static final class Source implements Supplier<RunSnapshot> {
    final AtomicLong reads = new AtomicLong();
    final long failOn;

    Source(long failOn) {
      this.failOn = failOn;
    }

    @Override
    public RunSnapshot get() {
      long n = reads.incrementAndGet();
      if (n == failOn) throw new IllegalStateException("figure not readable");
      return new RunSnapshot(n * 1_000_000L, n, n, 0, 0, 1,
          List.of(new RunSnapshot.Shard(n, 0, 64, 0, 0)), new long[] {0}, new long[3]);
    }
  }

  static void awaitSamples(RunSampler s, int n) throws InterruptedException {
    for (int i = 0; i < 6000 && s.series().size() < n; i++) Thread.sleep(5);
  }

  @Test
  void samplesUntilStoppedThenTakesTheFinalSampleAndEnds() throws Exception {
    Source source = new Source(-1);
    List<RunSnapshot> told = new CopyOnWriteArrayList<>();
    RunSampler sampler = new RunSampler(source, Duration.ofMillis(10), told::add);
    assertNull(sampler.latest());
    sampler.start();
    awaitSamples(sampler, 3);
    RunSeries series = sampler.stop();
    long reads = source.reads.get();
    assertTrue(series.size() >= 4, "three or more while running, one at stop: " + series.size());
    assertEquals(reads, series.size(), "every read is one sample");
    assertEquals(reads, series.samples().get(series.size() - 1).examplesMade(), "the last sample is taken at stop");
    assertEquals(series.samples(), told, "the listener saw every sample, in order");
    assertSame(told.get(told.size() - 1), sampler.latest());
    assertFalse(Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("fastpipe-sampler") && t.isAlive()), "the sampler thread has ended");
    assertTrue(series.samplerCpuNanos() > 0, "the sampler's own CPU is known");
    assertSame(series, sampler.stop(), "stop is idempotent");
    assertEquals(reads, source.reads.get(), "and samples nothing more");
  }

  @Test
  void aSampleThatFailsIsSkippedAndKept() throws Exception {
    Source source = new Source(2);
    RunSampler sampler = new RunSampler(source, Duration.ofMillis(10), s -> {}).start();
    awaitSamples(sampler, 3);
    RunSeries series = sampler.stop();
    assertNotNull(sampler.error());
    assertEquals("figure not readable", sampler.error().getMessage());
    assertEquals(source.reads.get() - 1, series.size(), "all but the failed read");
  }

  @Test
  void anIntervalOutsideTheBoundsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new RunSampler(new Source(-1), Duration.ofMillis(1), s -> {}));
    assertThrows(IllegalArgumentException.class, () -> new RunSampler(new Source(-1), Duration.ofMinutes(2), s -> {}));
  }

  @Test
  void aSamplerNeverStartedStopsWithAnEmptySeries() {
    RunSampler sampler = new RunSampler(new Source(-1), Duration.ofMillis(200), s -> {});
    assertEquals(0, sampler.stop().size());
  }
}
