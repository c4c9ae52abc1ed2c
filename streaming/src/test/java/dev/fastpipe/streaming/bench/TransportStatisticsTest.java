package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.bench.TransportBench;
import dev.fastpipe.shm.bench.TransportBench.Result;
import dev.fastpipe.shm.bench.TransportBench.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bench-transport's statistics on synthetic samples whose answers are known. */
class TransportStatisticsTest {

  @Test
  void theMeansIntervalIsStudentsT() {
    // R: t.test(1:5)$conf.int = 1.036757 4.963243
    MeanInterval m = MeanInterval.of95(new double[] {1, 2, 3, 4, 5});
    assertEquals(5, m.n());
    assertEquals(3.0, m.mean(), 1e-12);
    assertEquals(1.036757, m.low(), 1e-6);
    assertEquals(4.963243, m.high(), 1e-6);
    MeanInterval one = MeanInterval.of95(new double[] {7, Double.NaN});
    assertEquals(7.0, one.mean());
    assertTrue(Double.isNaN(one.low()), "no interval from one value");
  }

  @Test
  void holmMultipliesTheSortedPValuesAndKeepsThemMonotone() {
    // sorted 0.005 0.01 0.03 0.04 -> x4 x3 x2 x1 = 0.02 0.03 0.06 0.04 -> monotone 0.02 0.03 0.06 0.06
    double[] adj = Holm.adjust(new double[] {0.01, 0.04, Double.NaN, 0.03, 0.005});
    assertArrayEquals(new double[] {0.03, 0.06, Double.NaN, 0.06, 0.02}, adj, 1e-12);
    assertArrayEquals(new double[] {1.0, 1.0}, Holm.adjust(new double[] {0.6, 0.9}), 1e-12, "capped at 1");
  }

  private static Scenario shape(String name) {
    return new Scenario(name, false, 2, 1, 1024, 1000, 1 << 20, TransportOptions.NONE);
  }

  private static Result result(String name, double gb, double p99) {
    return new Result(shape(name), 1, gb, gb * 1e6, p99 / 2, p99, p99 * 2, 1, 2);
  }

  @Test
  void aClearlyFasterTransportIsSignificantAfterHolmAndIdenticalOnesAreNot() {
    double[] noise = {0.0, 0.1, -0.1, 0.05, -0.05};
    List<TransportReport.Run> runs = new ArrayList<>();
    for (int i = 0; i < noise.length; i++) {
      runs.add(new TransportReport.Run(i, result(TransportBench.LIMIT, 4.0, Double.NaN), 1.0));
      runs.add(new TransportReport.Run(i, result("mutex", 1.0 + noise[i], 100 + 10 * noise[i]), 1.0));
      runs.add(new TransportReport.Run(i, result("shm", 2.0 + noise[i], 100 + 10 * noise[(i + 2) % 5]), 1.0));
      runs.add(new TransportReport.Run(i, result("twin", 1.0 + noise[(i + 1) % 5], 100 + 10 * noise[(i + 1) % 5]), 3.0));
    }
    List<Scenario> order = List.of(shape(TransportBench.LIMIT), shape("mutex"), shape("shm"), shape("twin"));
    TransportReport rep = new TransportReport(runs, "mutex", order);
    List<TransportReport.Row> rows = rep.rows();
    assertEquals(List.of(TransportBench.LIMIT, "mutex", "shm", "twin"), rows.stream().map(r -> r.scenario().transport()).toList());
    TransportReport.Row shm = rows.get(2), twin = rows.get(3), mutex = rows.get(1);
    assertEquals(0.5, shm.vsLimit(), 1e-12);
    assertEquals(2.0, shm.gbPerSec().mean(), 1e-12);
    assertTrue(shm.pThroughput() < 1e-6, "p " + shm.pThroughput());
    assertTrue(shm.pThroughputHolm() >= shm.pThroughput() && shm.pThroughputHolm() < 0.001, "Holm p " + shm.pThroughputHolm());
    assertEquals(1.0, twin.pThroughput(), 1e-9, "the same sample in another order");
    assertTrue(twin.pThroughputHolm() > 0.05);
    assertTrue(Double.isNaN(mutex.pThroughput()), "the baseline is not tested against itself");
    String md = rep.markdown();
    assertTrue(md.contains("| shm, threads | 2 | 1 | 1,024 | 5 | 2.00 ("), md);
    assertTrue(md.contains("load average (1 min) before the runs: mean 1.50, min 1.00, max 3.00, over 20 runs"), md);
    Object json = Json.parse(rep.json("test machine", Map.of("rounds", 5)));
    assertEquals(20, Json.list(json, "runs").size());
    assertEquals(4, Json.list(json, "summary").size());
    assertEquals(0.5, Json.number(Json.list(json, "summary").get(2), "vsLimit"), 1e-12);
    assertNull(Json.at(Json.list(json, "summary").get(1), "pThroughput"), "no p-value is null in JSON, not NaN");
  }
}
