package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** What bench's report tests and records, over made-up runs of two configurations. */
class BenchReportTest {

  static BenchRun run(int seq, String config, double post) {
    String metrics = String.format(Locale.ROOT, """
        {"stages": [{"name": "make_examples", "wall_seconds": %s, "cpu_seconds": %s},
                    {"name": "call_variants", "wall_seconds": 3, "cpu_seconds": 4},
                    {"name": "postprocess", "wall_seconds": %s, "cpu_seconds": %s}]}
        """, 5 + seq % 3 * 0.1, 9 + seq % 2 * 0.2, post + seq % 3 * 0.01, post + seq % 3 * 0.01);
    return new BenchRun(seq, config, seq / 2, false, 0, 10 + seq % 3 * 0.1, "same", dev.fastpipe.streaming.pipeline.MetricsFile.parse(metrics), "");
  }

  static BenchResult result() {
    List<BenchRun> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) runs.add(run(i, i % 2 == 0 ? "a" : "b", i % 2 == 0 ? 0.5 : 0.7));
    return new BenchResult(List.of(BenchConfig.parse("a: --shards 1"), BenchConfig.parse("b: --shards 2")), List.of(),
        3, 0, 1, runs, null);
  }

  @Test
  void postprocessCpuIsNotTestedItIsThatStagesWall() {
    BenchReport report = new BenchReport(result(), null, false, 0.05);
    String md = report.markdown();
    String pair = md.substring(md.indexOf("### b vs a"));
    assertTrue(pair.contains("| postprocess wall s |"), pair);
    assertFalse(pair.contains("postprocess CPU"), pair);
    List<Object> figures = Json.list(Json.parse(report.json()), "comparisons").stream().map(c -> Json.at(c, "figure")).toList();
    assertTrue(figures.contains("postprocess wall s"), figures.toString());
    assertFalse(figures.contains("postprocess CPU s"), figures.toString());
  }

  @Test
  void eachDifferenceHasItsConfidenceIntervalAndHolmAdjustedPBesideTheRawOne() {
    BenchReport report = new BenchReport(result(), null, false, 0.05);
    String md = report.markdown();
    assertTrue(md.contains("| change | difference (95 % CI) | p | Holm p |"), md);
    List<Object> cs = Json.list(Json.parse(report.json()), "comparisons");
    List<BenchReport.Comparison> ks = report.comparisons("a", "b");
    double[] raw = ks.stream().mapToDouble(k -> k.welch().p()).toArray();
    double[] holm = Welch.holm(raw); // adjusted over the pair's figures together
    assertEquals(ks.size(), cs.size());
    for (int i = 0; i < cs.size(); i++) {
      Object c = cs.get(i);
      assertEquals(holm[i], Json.number(c, "p_holm"), 1e-6, c.toString()); // the JSON rounds to 6 decimals
      if (!Double.isNaN(raw[i])) {
        assertTrue(Json.number(c, "p_holm") >= raw[i], "never below the raw p: " + c);
        assertTrue(Json.number(c, "ci95_low") <= Json.number(c, "difference")
            && Json.number(c, "difference") <= Json.number(c, "ci95_high"), c.toString());
        assertEquals(Json.number(c, "p_holm") < 0.05, Json.at(c, "significant"), c.toString());
      }
    }
    // postprocess wall: 0.5 against 0.7 s with tiny spread is significant even after Holm
    assertTrue(md.contains("| postprocess wall s |") && !md.contains("No significant difference"), md);
  }

  @Test
  void noSignificantDifferenceIsSaidInOneLine() {
    List<BenchRun> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) runs.add(run(i, i % 2 == 0 ? "a" : "b", 0.5));
    BenchResult same = new BenchResult(List.of(BenchConfig.parse("a: --shards 1"), BenchConfig.parse("b: --shards 2")),
        List.of(), 3, 0, 1, runs, null);
    String md = new BenchReport(same, null, false, 0.05).markdown();
    assertTrue(md.matches("(?s).*\\nNo significant difference between b and a \\(\\d+ figures tested, Holm-adjusted p ≥ 0\\.05"
        + " for each\\)\\.\\n.*"), md);
  }

  @Test
  void theMachinesLoadBeforeAndAfterIsInTheReportAndTheJson() {
    BenchReport report = new BenchReport(result(), null, false, 0.05, false, new MachineLoad(0.52, 1.9));
    assertTrue(report.markdown().contains("Load average (1 min): 0.520 before the runs, 1.90 after"), report.markdown());
    Object j = Json.parse(report.json());
    assertEquals(0.52, Json.number(j, "load_average_1min", "before"));
    assertEquals(1.9, Json.number(j, "load_average_1min", "after"));
    Object unknown = Json.parse(new BenchReport(result(), null, false, 0.05, false, new MachineLoad(Double.NaN, 2)).json());
    assertEquals(null, Json.at(unknown, "load_average_1min", "before"), "an unreadable load is null, not a made-up number");
  }

  @Test
  void eachRunsLoadIsShownPerConfigurationAndInTheJsonButNeverTested() {
    List<BenchRun> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      BenchRun r = run(i, i % 2 == 0 ? "a" : "b", 0.5);
      runs.add(new BenchRun(r.seq(), r.config(), r.round(), r.warmup(), r.exitStatus(), r.wallSeconds(), r.vcfMd5(),
          r.metrics(), r.errorTail(), 1.0 + i));
    }
    BenchResult result = new BenchResult(List.of(BenchConfig.parse("a: --shards 1"), BenchConfig.parse("b: --shards 2")),
        List.of(), 3, 0, 1, runs, null);
    BenchReport report = new BenchReport(result, null, false, 0.05);
    String md = report.markdown();
    String tableA = md.substring(md.indexOf("### a:"), md.indexOf("### b:"));
    assertTrue(tableA.contains("| load average before the run (1 min) | 3.00 ± 2.00 | 1.00 | 3.00 | 5.00 |"), tableA);
    assertFalse(md.substring(md.indexOf("### b vs a")).contains("load average"), "the machine is not a figure to test");
    Object j = Json.parse(report.json());
    assertEquals(1.0, Json.number(Json.list(j, "runs").get(0), "load_average_1min_before"));
    Object unread = Json.list(Json.parse(new BenchReport(result(), null, false, 0.05).json()), "runs").get(0);
    assertTrue(((java.util.Map<?, ?>) unread).containsKey("load_average_1min_before"));
    assertEquals(null, Json.at(unread, "load_average_1min_before"), "a load that was not read is null");
  }

  @Test
  void theLoadIsProcLoadavgsFirstField() {
    assertEquals(0.52, MachineLoad.parse("0.52 0.58 0.59 1/123 4567\n"));
    assertTrue(Double.isNaN(MachineLoad.parse("")));
    double now = MachineLoad.oneMinute();
    assertTrue(Double.isNaN(now) || now >= 0, "load " + now);
  }
}
