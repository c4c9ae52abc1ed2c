package dev.fastpipe.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.streaming.pipeline.ProcessFootprint;
import dev.fastpipe.streaming.pipeline.RunMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fastpipe's one JSON set-up: what it writes is JSON that reads back (here and in Python), NaN as null. */
class JsonCodecTest {

  @Test
  void readsWhatRunMetricsWrites() {
    RunMetrics m = new RunMetrics();
    m.settings.put("transport", "shm");
    m.settings.put("model", "a \"quoted\" path\\x");
    m.stages.add(new RunMetrics.Stage("call_variants", 1.25, 2.5));
    m.sampleRings(List.of(new TransportStats(0, 1024, 512, 600, 3, 3, 4_000_000, 0)));
    m.processes.add(new ProcessFootprint("inference", -1, 9, "glibc", "", 2048, 1, 0, 1.5));
    Object j = Json.parse(m.toJson()); // the tests' reader
    assertEquals("a \"quoted\" path\\x", Json.at(j, "settings", "model"));
    assertEquals(2.5, Json.number(Json.list(j, "stages").get(0), "cpu_seconds"));
    assertEquals(4.0, Json.number(Json.list(j, "rings").get(0), "producer_stall_ms"));
    assertEquals(2048, Json.number(Json.list(j, "processes").get(0), "peak_rss_bytes"));
    assertTrue(Double.isNaN(Json.number(j, "no", "such")));
    assertNull(Json.at(j, "settings", "absent"));
  }

  @Test
  void writesWhatItReads() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", List.of(1.0, 2.5, "x\ny"));
    m.put("b", Map.of("c", true));
    m.put("d", null);
    m.put("e", Double.NaN);
    String text = JsonCodec.pretty(m);
    Object back = Json.parse(text);
    assertEquals(List.of(1.0, 2.5, "x\ny"), Json.at(back, "a"));
    assertEquals(true, Json.at(back, "b", "c"));
    assertNull(Json.at(back, "e"), "NaN has no JSON number: null");
    assertTrue(text.contains("\"a\": [1.0, 2.5, \"x\\ny\"]"), text);
  }

  @Test
  void notJsonIsNamedWithItsOffset() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1,}")).getMessage()
        .startsWith("not JSON: "));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, 2"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{} x"));
  }

  static final double[] AWKWARD = {1e-7, -1e-7, 4e-7, 5e-7, 0.5e-6, 1e-6, 0.1, -0.0, 1e-300, -1e-300, Double.MIN_VALUE,
      123456.7891234, -2.5, 0.3333333333, 1e14 + 0.5, 2e15 + 0.5, -0.9999999};

  @Test
  void everyDoubleIsWrittenAsAJsonNumberAndReadsBack() {
    for (double d : AWKWARD) {
      String text = JsonCodec.pretty(List.of(d)).trim();
      String n = text.substring(1, text.length() - 1);
      assertTrue(n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"), d + " written as " + n);
      double back = (Double) ((List<?>) Json.parse(text)).get(0);
      assertEquals(d, back, 0.0, "read back exactly: " + d + " written as " + n);
    }
    assertEquals("[1.0E-7, -0.0, 0.1]", JsonCodec.pretty(List.of(1e-7, -0.0, 0.1)).trim());
  }

  @Test
  void numbersOutsideJsonsGrammarAreRefused() {
    for (String bad : List.of("0.", "-0.", ".5", "+1", "1e", "01", "1.e5", "-")) {
      assertThrows(IllegalArgumentException.class, () -> Json.parse("[" + bad + "]"), bad);
    }
    assertEquals(List.of(-0.0, 1.5e-7, 10.0), Json.parse("[-0.0, 1.5E-7, 1e1]"));
  }

  @Test
  void pythonsJsonModuleReadsWhatIsWritten() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < AWKWARD.length; i++) m.put("v" + i, AWKWARD[i]);
    m.put("p", List.of(1e-7, Map.of("q", -1e-9)));
    String text = JsonCodec.pretty(m);
    Process p;
    try {
      p = new ProcessBuilder("python3", "-c", "import json,sys; json.load(sys.stdin)").redirectErrorStream(true).start();
    } catch (java.io.IOException noPython) {
      org.junit.jupiter.api.Assumptions.abort("python3 is not installed");
      return;
    }
    try (var in = p.getOutputStream()) {
      in.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "python3's json rejected:\n" + text + "\n" + out);
  }
}
