package dev.fastpipe.streaming.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastpipe.streaming.bench.BenchRun;
import dev.fastpipe.streaming.bench.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class RingDiagnosisTest {

  static BenchRun run(double stallMs, double idleMs, double fill) {
    String m = "{\"stages\": [{\"name\": \"make_examples\", \"wall_seconds\": 10}, {\"name\": \"call_variants\", \"wall_seconds\": 5}],"
        + " \"rings\": [{\"capacity_bytes\": 200, \"mean_fill_bytes\": " + fill + ", \"producer_stall_ms\": " + stallMs
        + ", \"consumer_idle_ms\": " + idleMs + "}]}";
    return new BenchRun(1, "x", 0, false, 0, 11, "m", dev.fastpipe.streaming.pipeline.MetricsFile.parse(m), "");
  }

  @Test
  void stallIdleAndFillAreSharesOfTheirStagesAndTheCapacity() {
    RingDiagnosis d = RingDiagnosis.of(List.of(run(3800, 100, 180), run(3800, 100, 180)));
    assertEquals(38, d.producerStallPct(), 1e-9);
    assertEquals(2, d.consumerIdlePct(), 1e-9);
    assertEquals(90, d.fillPct(), 1e-9);
    assertEquals(RingDiagnosis.Bound.CONSUMER, d.bound());
    assertEquals("producers stall 38 % of the time with rings 90 % full on average; consumers idle 2 %", d.figures());
  }

  @Test
  void idleConsumersOnEmptyRingsAreProducerBound() {
    assertEquals(RingDiagnosis.Bound.PRODUCER, RingDiagnosis.of(List.of(run(0, 2500, 10))).bound());
    assertEquals(RingDiagnosis.Bound.BALANCED, RingDiagnosis.of(List.of(run(500, 500, 100))).bound());
    assertEquals(RingDiagnosis.Bound.UNKNOWN, RingDiagnosis.of(List.of()).bound());
  }
}
