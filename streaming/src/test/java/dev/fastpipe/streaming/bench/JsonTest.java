package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.streaming.pipeline.ProcessFootprint;
import dev.fastpipe.streaming.pipeline.RunMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void readsWhatRunMetricsWrites() {
    RunMetrics m = new RunMetrics();
    m.settings.put("transport", "shm");
    m.settings.put("model", "a \"quoted\" path\\x");
    m.stages.add(new RunMetrics.Stage("call_variants", 1.25, 2.5));
    m.sampleRings(List.of(new TransportStats(0, 1024, 512, 600, 3, 3, 4_000_000, 0)));
    m.processes.add(new ProcessFootprint("inference", -1, 9, "glibc", "", 2048, 1, 0, 1.5));
    Object j = Json.parse(m.toJson());
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
    String text = Json.write(m);
    Object back = Json.parse(text);
    assertEquals(List.of(1.0, 2.5, "x\ny"), Json.at(back, "a"));
    assertEquals(true, Json.at(back, "b", "c"));
    assertNull(Json.at(back, "e"));
    assertTrue(text.contains("\"a\": [1, 2.5, \"x\\ny\"]"), text);
  }

  @Test
  void notJsonIsNamedWithItsOffset() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1,}")).getMessage()
        .startsWith("not JSON at offset"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, 2"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{} x"));
  }
}
