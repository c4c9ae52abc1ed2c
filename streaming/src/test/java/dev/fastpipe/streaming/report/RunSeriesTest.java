package dev.fastpipe.streaming.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSeriesTest {
  static final long MS = 1_000_000L;

  /** A snapshot at {@code ms} with every counter given, two shards, one consumer. */
  static RunSnapshot at(long ms, long made, long called, long stall0, long idle, long fill0) {
    return new RunSnapshot(ms * MS, made, called, called / 2, (int) (called / 10), 100,
        List.of(new RunSnapshot.Shard(made / 2, fill0, 1000, stall0, made * MS),
            new RunSnapshot.Shard(made - made / 2, 0, 1000, 0, 0)),
        new long[] {idle}, new long[] {made * MS, called * MS, 0});
  }

  @Test
  void ratesAreTakenPerIntervalFromTheRunsStart() {
    RunSeries s = new RunSeries(200 * MS);
    s.add(at(200, 10, 0, 0, 0, 0));
    s.add(at(400, 30, 10, 0, 0, 0));
    s.add(at(600, 30, 40, 0, 0, 0));
    assertArrayEquals(new double[] {0.2, 0.4, 0.6}, s.seconds(), 1e-9);
    assertArrayEquals(new double[] {50, 100, 0}, s.perSecond(RunSnapshot::examplesMade), 1e-9);
    assertArrayEquals(new double[] {0, 50, 150}, s.perSecond(RunSnapshot::examplesCalled), 1e-9);
    // Over trailing windows of 400 ms: the first sample reaches back to the start.
    assertArrayEquals(new double[] {50, 75, 50}, s.perSecond(RunSnapshot::examplesMade, 400 * MS), 1e-9);
    // make_examples CPU rises by made * 1 ms: 10 ms per 200 ms is 0.05 cores.
    assertArrayEquals(new double[] {0.05, 0.1, 0}, s.cores(x -> x.stageCpuNanos(0)), 1e-9);
  }

  @Test
  void aWaitCountedOnlyWhenItEndsIsCarriedBackToTheIntervalsItCovered() {
    RunSeries s = new RunSeries(100 * MS);
    s.add(at(100, 0, 0, 0, 0, 0));
    s.add(at(200, 0, 0, 0, 0, 0));
    s.add(at(300, 0, 0, 0, 0, 0));
    s.add(at(400, 0, 0, 250 * MS, 50 * MS, 0)); // a 250 ms stall that ended in the last interval
    assertArrayEquals(new double[] {0, 0.5, 1, 1}, s.timeShare(x -> x.shards().get(0).producerStallNanos()), 1e-9);
    assertArrayEquals(new double[] {0, 0, 0, 0.5}, s.timeShare(x -> x.consumerIdleNanos(0)), 1e-9);
  }

  @Test
  void fillIsAFractionOfCapacityAndNaNWithoutABound() {
    RunSeries s = new RunSeries(100 * MS);
    s.add(at(100, 0, 0, 0, 0, 250));
    s.add(new RunSnapshot(200 * MS, 0, 0, 0, 0, 1, List.of(new RunSnapshot.Shard(0, 5, Long.MAX_VALUE, 0, 0)),
        new long[0], new long[3]));
    assertEquals(0.25, s.fill(0)[0], 1e-9);
    assertTrue(Double.isNaN(s.fill(0)[1]));
    assertTrue(Double.isNaN(s.fill(1)[1]), "a shard a sample does not have");
  }

  @Test
  void aLongSeriesIsThinnedKeepingCountersTheNewestSampleAndTheMeanFill() {
    RunSeries s = new RunSeries(MS, 8);
    for (int i = 1; i <= 9; i++) s.add(at(i, i, i, 0, 0, i * 10L));
    // 9 > 8: (1,2) (3,4) (5,6) (7,8) merged, 9 kept.
    assertEquals(5, s.size());
    assertArrayEquals(new double[] {0.002, 0.004, 0.006, 0.008, 0.009}, s.seconds(), 1e-12);
    List<RunSnapshot> kept = s.samples();
    assertEquals(8, kept.get(3).examplesMade(), "counters as of the later sample");
    assertEquals(75, kept.get(3).shards().get(0).fillBytes(), "fill: the mean of the two");
    assertEquals(90, kept.get(4).shards().get(0).fillBytes());
    assertThrows(IllegalArgumentException.class, () -> s.add(at(5, 0, 0, 0, 0, 0)), "time went back");
  }

  @Test
  void jsonHasOneValuePerSampleInEveryColumn() {
    RunSeries s = new RunSeries(200 * MS);
    for (int i = 1; i <= 5; i++) s.add(at(200L * i, 10L * i, 8L * i, 20 * MS * i, 0, 100));
    s.mark("call_variants starts", 300 * MS);
    RunSeries.Columns c = s.columns();
    assertEquals(200, c.intervalMs());
    assertEquals(Map.of("call_variants starts", 0.3), c.marks());
    assertNull(c.samplerCpuMs(), "not known for a series no sampler filled");
    assertEquals(5, c.samples());
    assertEquals(100, c.partitionsTotal());
    assertEquals(List.of("make_examples", "call_variants", "postprocess"), List.copyOf(c.cpuCores().keySet()));
    List<List<?>> columns = new ArrayList<>(List.of(c.tSeconds(), c.examplesMade(), c.examplesCalled(), c.sitesWritten(),
        c.partitionsDone(), c.examplesMadePerSecond(), c.examplesCalledPerSecond(), c.sitesWrittenPerSecond()));
    columns.addAll(c.cpuCores().values());
    for (RunSeries.ShardColumns sh : c.shards()) {
      columns.addAll(List.of(sh.examplesMadePerSecond(), sh.ringFill(), sh.producerStall(), sh.cpuCores()));
    }
    for (RunSeries.ConsumerColumns co : c.consumers()) columns.add(co.idle());
    // 8 run-wide columns + 3 stages + 4 per shard x 2 + 1 per consumer, each one value per sample
    assertEquals(8 + 3 + 8 + 1, columns.size());
    for (List<?> col : columns) assertEquals(5, col.size(), col.toString());
    assertEquals(List.of(0.1, 0.1, 0.1, 0.1, 0.1), c.shards().get(0).producerStall());
    assertEquals(List.of(0.1, 0.1, 0.1, 0.1, 0.1), c.shards().get(0).ringFill());
    // As the --metrics file writes it: snake_case, a value not known as null.
    String json = dev.fastpipe.streaming.JsonCodec.pretty(c);
    assertTrue(json.contains("\"sampler_cpu_ms\": null"), json);
    assertTrue(json.contains("\"producer_stall\": [0.1, 0.1, 0.1, 0.1, 0.1]"), json);
  }
}
