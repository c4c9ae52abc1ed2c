package dev.fastpipe.streaming.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.bench.BenchConfig;
import dev.fastpipe.streaming.bench.BenchRun;
import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.streaming.tune.Knobs.Dimension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The tuner over made-up runs (no processes, a clock that advances by each run's wall time): the
 * defaults are consumer-bound, two consumers are faster, batch size 128 is fastest but writes other
 * records, one shard is slower.
 */
class TunerTest {

  final AtomicLong clock = new AtomicLong();
  final List<String> ran = new ArrayList<>();

  static String arg(BenchConfig c, String option) {
    return c.args().get(c.args().indexOf(option) + 1);
  }

  BenchRun fake(BenchConfig c, int round, boolean warmup, int seq) {
    ran.add(c.name());
    boolean twoConsumers = arg(c, "--consumers").equals("2");
    boolean batch128 = arg(c, "--batch-size").equals("128");
    double wall = 10;
    if (twoConsumers) wall = 7;
    if (batch128) wall -= 2;
    if (arg(c, "--shards").equals("1")) wall += 3;
    wall += (seq % 3 - 1) * 0.1; // a little spread, as real runs have
    clock.addAndGet((long) (wall * 1e9));
    double stallMs = twoConsumers ? 800 : 3200; // of 8 s of make_examples: 10 % or 40 %
    double fill = twoConsumers ? 30 : 90;
    String metrics = String.format(Locale.ROOT, """
        {"stages": [{"name": "make_examples", "wall_seconds": 8, "cpu_seconds": 7},
                    {"name": "call_variants", "wall_seconds": 9, "cpu_seconds": 9}],
         "rings": [{"shard": 0, "capacity_bytes": 100, "mean_fill_bytes": %s, "producer_stall_ms": %s, "consumer_idle_ms": 90},
                   {"shard": 1, "capacity_bytes": 100, "mean_fill_bytes": %s, "producer_stall_ms": %s, "consumer_idle_ms": 90}]}
        """, fill, stallMs, fill, stallMs);
    return new BenchRun(seq, c.name(), round, warmup, 0, wall, batch128 ? "other" : "same", dev.fastpipe.streaming.pipeline.MetricsFile.parse(metrics), "");
  }

  Tuner.Settings settings(Duration budget) {
    Map<Dimension, List<String>> candidates = new EnumMap<>(Dimension.class);
    candidates.put(Dimension.SHARDS, List.of("1", "2"));
    candidates.put(Dimension.CONSUMERS, List.of("1", "2"));
    candidates.put(Dimension.BATCH_SIZE, List.of("64", "128"));
    candidates.put(Dimension.RING_SIZE, List.of("16M"));
    return new Tuner.Settings(new Knobs(2, 1, 64, "16M", "shm", null), candidates, 2, budget, 0.05, 1);
  }

  @Test
  void aConsumerBoundRunGetsMoreConsumersAndNeverARecordChangingConfiguration() {
    Tuner.Result r = new Tuner(this::fake, settings(Duration.ofMinutes(30)), null, clock::get).run();
    // Consumer-bound defaults: consumers are swept first, and two are kept.
    assertEquals(Dimension.CONSUMERS, r.steps().get(0).dimension());
    assertEquals("2", r.steps().get(0).kept());
    // Batch size 128 was fastest, but its records differ: dropped, not recommended.
    Tuner.Trial b128 = r.trials().stream().filter(t -> t.knobs.batchSize() == 128).findFirst().orElseThrow();
    assertTrue(b128.dropped.startsWith("VCF records differ from the defaults'"), b128.dropped);
    assertEquals(new Knobs(2, 2, 64, "16M", "shm", null), r.recommended());
    assertNotNull(r.confirmation());
    assertTrue(r.confirmation().welch().p() < 0.05, "p " + r.confirmation().welch().p());
    assertTrue(r.reason().contains("producers stall 40 % of the time with rings 90 % full on average; consumers idle 1 %:"
        + " consumer-bound (call_variants cannot keep up with make_examples)"), r.reason());
    assertTrue(r.reason().contains("Use --consumers 2: producers stall 10 % of the time with rings 30 % full"), r.reason());
    assertTrue(r.reason().matches(".*; wall (9|10)\\.\\d\\d → 7\\.\\d\\d s \\(-\\d+\\.\\d %, Welch p < 0\\.001, 10 runs each\\)\\.$"),
        r.reason());
    assertEquals("s2-c1-b64-r16M-shm", ran.get(0)); // the warm-up: the defaults
  }

  @Test
  void theSweepStopsWhereTheBudgetMustKeepTimeForTheConfirmation() {
    Tuner.Result r = new Tuner(this::fake, settings(Duration.ofSeconds(150)), null, clock::get).run();
    assertTrue(r.budgetRanOut());
    assertEquals(new Knobs(2, 2, 64, "16M", "shm", null), r.recommended());
    assertEquals(3, r.confirmation().rounds());
    assertTrue(r.seconds() <= 150 + 10, "ran " + r.seconds() + " s");
  }

  @Test
  void aBudgetTooSmallForAnySweepSaysSo() {
    Tuner.Result r = new Tuner(this::fake, settings(Duration.ofSeconds(40)), null, clock::get).run();
    assertEquals(r.defaults(), r.recommended());
    assertTrue(r.steps().isEmpty());
    assertTrue(r.reason().contains("left no time to try another configuration"), r.reason());
  }

  @Test
  void theOrderFollowsTheBound() {
    assertEquals(Dimension.CONSUMERS, Tuner.order(RingDiagnosis.Bound.CONSUMER).get(0));
    assertEquals(Dimension.SHARDS, Tuner.order(RingDiagnosis.Bound.PRODUCER).get(0));
    assertEquals(Dimension.ALLOCATOR, Tuner.order(RingDiagnosis.Bound.BALANCED).get(5));
  }

  @Test
  void knobsSpellEverySettingAndTheirDifferences() {
    Knobs k = new Knobs(2, 1, 64, "16M", "shm", null);
    assertEquals(List.of("--shards", "2", "--consumers", "1", "--batch-size", "64", "--ring-size", "16M", "--transport", "shm"),
        k.args());
    Knobs m = k.with(Dimension.CONSUMERS, "2").with(Dimension.ALLOCATOR, "glibc");
    assertEquals("--consumers 2 --allocator glibc", m.differences(k));
    assertEquals("s2-c2-b64-r16M-shm-glibc", m.name());
  }

  @Test
  void aFailedRunSaysHowItEndedAndItsLastErrorLine() {
    BenchRun killed = new BenchRun(3, "s1", 0, false, 138, 2.0, null, null, "");
    assertEquals("failed (killed by signal 10)", Tuner.failure(killed));
    BenchRun bad = new BenchRun(4, "s1", 0, false, 2, 1.0, null, null, "a warning\nfastpipe call: --ring-size 1K: too small\n\n");
    assertEquals("failed (exit 2): fastpipe call: --ring-size 1K: too small", Tuner.failure(bad));
  }
}
