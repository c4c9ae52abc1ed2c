package dev.fastpipe.streaming.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      assertFalse(scrape(e.url()).contains("fastpipe_examples_made_total "), "no values before the first sample");
      e.publish(new RunSnapshot(2_500_000_000L, 120, 100, 90, 7, 40,
          List.of(new RunSnapshot.Shard(70, 4096, 1 << 20, 1_500_000_000L, 3_000_000_000L),
              new RunSnapshot.Shard(50, 0, 1 << 20, 0, 2_000_000_000L)),
          new long[] {250_000_000L}, new long[] {5_000_000_000L, 4_000_000_000L, 100_000_000L}));
      String text = scrape(e.url());
      for (String line : List.of(
          "fastpipe_examples_made_total 120.0", "fastpipe_examples_called_total 100.0", "fastpipe_sites_written_total 90.0",
          "fastpipe_partitions_done 7.0", "fastpipe_partitions 40.0", "fastpipe_run_seconds 2.5",
          "fastpipe_ring_fill_bytes{shard=\"0\"} 4096.0", "fastpipe_ring_capacity_bytes{shard=\"1\"} 1048576.0",
          "fastpipe_producer_stall_seconds_total{shard=\"0\"} 1.5", "fastpipe_shard_examples_made_total{shard=\"1\"} 50.0",
          "fastpipe_shard_cpu_seconds_total{shard=\"0\"} 3.0", "fastpipe_consumer_idle_seconds_total{consumer=\"0\"} 0.25",
          "fastpipe_cpu_seconds_total{stage=\"make_examples\"} 5.0", "fastpipe_cpu_seconds_total{stage=\"postprocess\"} 0.1",
          "# TYPE fastpipe_examples_made_total counter", "# TYPE fastpipe_ring_fill_bytes gauge")) {
        assertTrue(text.contains(line), line + " missing from\n" + text);
      }
    }
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
