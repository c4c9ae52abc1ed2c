package dev.fastpipe.streaming.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.FastpipeVersion;
import dev.fastpipe.streaming.InputException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

  static String scrape(String url) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    return r.body();
  }

  @Test
  void servesTheNewestSampleInPrometheusTextFormat() throws Exception {
    try (MetricsEndpoint e = MetricsEndpoint.start(0)) {
      assertTrue(e.port() > 0);
      assertTrue(e.url().startsWith("http://127.0.0.1:" + e.port() + "/"), e.url());
      String first = scrape(e.url());
      for (String line : List.of("fastpipe_examples_made_total 0.0", "fastpipe_partitions_done_total 0.0",
          "fastpipe_run_finished 0.0", "fastpipe_build_info{model=\"\",sample=\"\",version=\"" + FastpipeVersion.get() + "\"} 1")) {
        assertTrue(first.contains(line), "zeros before the first sample, never an empty page: " + line + " missing from\n" + first);
      }
      e.describe("fastpipe-v5", "NA12878");
      e.publish(new RunSnapshot(2_500_000_000L, 120, 100, 90, 7, 40,
          List.of(new RunSnapshot.Shard(70, 4096, 1 << 20, 1_500_000_000L, 3_000_000_000L),
              new RunSnapshot.Shard(50, 0, 1 << 20, 0, 2_000_000_000L)),
          new long[] {250_000_000L}, new long[] {5_000_000_000L, 4_000_000_000L, 100_000_000L}));
      String text = scrape(e.url());
      for (String line : List.of(
          "fastpipe_examples_made_total 120.0", "fastpipe_examples_called_total 100.0", "fastpipe_sites_written_total 90.0",
          "fastpipe_partitions_done_total 7.0", "# TYPE fastpipe_partitions_done_total counter",
          "fastpipe_build_info{model=\"fastpipe-v5\",sample=\"NA12878\",version=\"" + FastpipeVersion.get() + "\"} 1",
          "jvm_memory_used_bytes{area=\"heap\"}", "process_cpu_seconds_total", "fastpipe_partitions 40.0", "fastpipe_run_seconds 2.5",
          "fastpipe_ring_fill_bytes{shard=\"0\"} 4096.0", "fastpipe_ring_capacity_bytes{shard=\"1\"} 1048576.0",
          "fastpipe_producer_stall_seconds_total{shard=\"0\"} 1.5", "fastpipe_shard_examples_made_total{shard=\"1\"} 50.0",
          "fastpipe_shard_cpu_seconds_total{shard=\"0\"} 3.0", "fastpipe_consumer_idle_seconds_total{consumer=\"0\"} 0.25",
          "fastpipe_cpu_seconds_total{stage=\"make_examples\"} 5.0", "fastpipe_cpu_seconds_total{stage=\"postprocess\"} 0.1",
          "# TYPE fastpipe_examples_made_total counter", "# TYPE fastpipe_ring_fill_bytes gauge")) {
        assertTrue(text.contains(line), line + " missing from\n" + text);
      }
      e.finished(true);
      String after = scrape(e.url());
      assertTrue(after.contains("fastpipe_run_finished 1.0") && after.contains("fastpipe_run_failed 0.0"), after);
      assertTrue(after.contains("fastpipe_examples_made_total 120.0"), "the final figures stay: " + after);
    }
  }

  @Test
  void everyMetricTheGrafanaDashboardUsesIsServed() throws Exception {
    String dashboard = java.nio.file.Files.readString(java.nio.file.Path.of("../docs/grafana/fastpipe-call.json"));
    Object json = dev.fastpipe.streaming.bench.Json.parse(dashboard); // valid JSON
    assertEquals("fastpipe call", dev.fastpipe.streaming.bench.Json.at(json, "title"));
    java.util.Set<String> used = new java.util.TreeSet<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"expr\": \"([^\"\\\\]|\\\\.)*\"").matcher(dashboard);
    while (m.find()) {
      java.util.regex.Matcher name = java.util.regex.Pattern.compile("\\b(fastpipe|jvm|process)_[a-z_]+").matcher(m.group());
      while (name.find()) used.add(name.group());
    }
    assertTrue(used.size() > 10, used.toString());
    try (MetricsEndpoint e = MetricsEndpoint.start(0)) {
      e.publish(new RunSnapshot(1_000_000_000L, 10, 5, 4, 1, 2, List.of(new RunSnapshot.Shard(10, 0, 1 << 20, 0, 0)),
          new long[] {0}, new long[] {0, 0, 0}));
      String text = scrape(e.url());
      for (String metric : used) assertTrue(text.contains("\n" + metric), metric + " is not served:\n" + text);
    }
  }

  @Test
  void itListensOnTheAddressItIsGiven() throws Exception {
    try (MetricsEndpoint e = MetricsEndpoint.start("0.0.0.0", 0)) {
      assertTrue(e.url().startsWith("http://0.0.0.0:" + e.port() + "/"), e.url());
      assertTrue(scrape("http://127.0.0.1:" + e.port() + "/metrics").contains("fastpipe_build_info"), "reachable on loopback");
    }
    InputException bad = assertThrows(InputException.class, () -> MetricsEndpoint.start("no.such.host.invalid", 0));
    assertTrue(bad.getMessage().startsWith("--metrics-bind no.such.host.invalid: not an address of this machine"),
        bad.getMessage());
  }

  @Test
  void aPortInUseIsAOneLineErrorNamingTheOption() {
    try (MetricsEndpoint first = MetricsEndpoint.start(0)) {
      InputException e = assertThrows(InputException.class, () -> MetricsEndpoint.start(first.port()));
      assertTrue(e.getMessage().startsWith("--metrics-port " + first.port() + ": cannot listen on 127.0.0.1:"),
          e.getMessage());
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    assertThrows(InputException.class, () -> MetricsEndpoint.start(70000));
  }
}
