package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code call --report --metrics --metrics-port} on sim30x_eval, as a user runs it: the endpoint is
 * scraped while the run lasts and its counters appear and grow; the report and the metrics JSON
 * carry non-empty series; the VCF is the one a run without observers writes.
 */
class RunReportIT {
  @TempDir Path dir;

  static final Pattern URL = Pattern.compile("live metrics at (http://127\\.0\\.0\\.1:\\d+/metrics)");

  List<String> callArgs(Path out) {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    return new ArrayList<>(List.of(LauncherIT.LAUNCHER.toString(), "call", "--ref", ref.toString(), "--reads",
        bam.toString(), "--output", out.toString(), "--shards", "2", "--no-progress"));
  }

  /** The value of an unlabelled sample line in Prometheus text, or -1 when absent. */
  static double value(String text, String name) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }

  @Test
  void aScrapedRunShowsGrowingCountersServesItsFinalFiguresAfterItAndLeavesAReportWithItsSeries() throws Exception {
    Path observed = dir.resolve("observed.vcf.gz");
    Path report = dir.resolve("run.html");
    Path metrics = dir.resolve("run.json");
    List<String> args = callArgs(observed);
    args.addAll(List.of("--report", report.toString(), "--metrics", metrics.toString(), "--metrics-port", "0",
        "--metrics-interval", "100ms", "--metrics-linger", "3s"));
    Process call = new ProcessBuilder(args).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    StringBuilder err = new StringBuilder();
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(call.getErrorStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          synchronized (err) {
            err.append(line).append('\n');
          }
          Matcher m = URL.matcher(line);
          if (m.find()) url.complete(m.group(1));
        }
      } catch (IOException e) {
        url.completeExceptionally(e);
      }
      url.complete(null);
    });
    reader.start();
    String endpoint = url.get(120, TimeUnit.SECONDS);
    assertNotNull(endpoint, "no endpoint announced on stderr: " + err);

    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    List<Double> made = new ArrayList<>();
    List<Double> called = new ArrayList<>();
    String last = "";
    String first = null;
    String afterTheRun = null;
    while (call.isAlive()) {
      try {
        last = http.send(HttpRequest.newBuilder(URI.create(endpoint)).build(), HttpResponse.BodyHandlers.ofString()).body();
        if (first == null) first = last;
        if (value(last, "fastpipe_run_finished") == 1) afterTheRun = last;
        made.add(value(last, "fastpipe_examples_made_total"));
        called.add(value(last, "fastpipe_examples_called_total"));
      } catch (IOException closedAtTheEnd) {
        break;
      }
      Thread.sleep(150);
    }
    assertTrue(call.waitFor(300, TimeUnit.SECONDS));
    reader.join();
    assertEquals(0, call.exitValue(), err.toString());

    // The first scrape has every counter (0 before the first sample), and one after the run, within
    // --metrics-linger, the final figures: every example made (CNN and small model) was called.
    assertTrue(value(first, "fastpipe_examples_made_total") >= 0, "an empty first scrape: " + first);
    assertTrue(first.contains("fastpipe_build_info{model=\"fastpipe-v5\""), first);
    assertNotNull(afterTheRun, "no scrape after the run within --metrics-linger: " + err);
    assertTrue(err.toString().contains("fastpipe: serving the final metrics at " + endpoint + " for 3 s"), err.toString());
    assertEquals(1.0, value(afterTheRun, "fastpipe_run_finished"));
    assertEquals(0.0, value(afterTheRun, "fastpipe_run_failed"));
    assertEquals(value(afterTheRun, "fastpipe_examples_called_total"), value(afterTheRun, "fastpipe_examples_made_total"),
        afterTheRun);
    assertEquals(value(afterTheRun, "fastpipe_partitions"), value(afterTheRun, "fastpipe_partitions_done_total"), afterTheRun);
    assertTrue(afterTheRun.contains("fastpipe_build_info{model=\"fastpipe-v5\",sample=\"SIM30X_EVAL\""), afterTheRun);
    assertTrue(afterTheRun.contains("jvm_memory_used_bytes"), "the JVM's metrics: " + afterTheRun);
    assertTrue(Files.exists(observed), "the VCF is published before the endpoint lingers");

    // The counters were there and grew while the run lasted.
    assertTrue(made.stream().anyMatch(v -> v >= 0), "no examples_made counter scraped: " + last);
    for (int i = 1; i < made.size(); i++) assertTrue(made.get(i) >= made.get(i - 1), "made went back: " + made);
    for (int i = 1; i < called.size(); i++) assertTrue(called.get(i) >= called.get(i - 1), "called went back: " + called);
    assertTrue(made.stream().filter(v -> v > 0).distinct().count() >= 2, "examples made did not grow while scraped: " + made);
    assertTrue(called.stream().filter(v -> v > 0).distinct().count() >= 2,
        "examples called did not grow while scraped: " + called);
    for (String name : List.of("fastpipe_ring_fill_bytes{shard=\"1\"}", "fastpipe_producer_stall_seconds_total{shard=\"0\"}",
        "fastpipe_cpu_seconds_total{stage=\"call_variants\"}", "fastpipe_partitions_done_total", "fastpipe_sites_written_total")) {
      assertTrue(last.contains(name + " "), name + " missing from\n" + last);
    }

    // The metrics JSON: a series whose last sample holds the run's final counts.
    String json = Files.readString(metrics);
    Matcher samples = Pattern.compile("\"samples\": (\\d+)").matcher(json);
    assertTrue(samples.find() && Integer.parseInt(samples.group(1)) >= 5, "too few samples:\n" + json);
    Matcher total = Pattern.compile("\"examples_made\": (\\d+),").matcher(json);
    Matcher series = Pattern.compile("\"examples_made\": \\[([^\\]]*)\\]").matcher(json);
    assertTrue(total.find() && series.find(), json);
    String[] values = series.group(1).split(", ");
    assertEquals(total.group(1), values[values.length - 1].trim(), "the final sample has the final count");
    assertTrue(Long.parseLong(total.group(1)) > 0);

    // The report: every chart, drawn from samples.
    String html = Files.readString(report);
    assertEquals(6 + 5, html.split("<svg ", -1).length - 1, "six charts, then the callset QC's five histograms");
    assertFalse(html.contains("no samples"), "a chart without data");
    assertTrue(html.contains("shard 1") && html.contains("<polyline"), "per-shard lines");
    // The callset QC section holds the figures that 'fastpipe stats' gives for the published VCF.
    var qc = dev.fastpipe.streaming.evaluate.CallsetStats.of(observed);
    assertTrue(html.contains("<h2>Callset QC</h2>"), "no callset QC section");
    assertTrue(html.contains("<tr><th>records</th><td>" + qc.records() + "</td></tr>"), "records: " + qc.records());
    assertTrue(qc.variantCalls() > 0 && html.contains("<tr><th>variant calls (PASS or no FILTER, an ALT in GT)</th><td>"
        + qc.variantCalls() + "</td></tr>"), "variant calls: " + qc.variantCalls());
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "temporaries left");
    }

    // Watching changes nothing in the output.
    Path plain = dir.resolve("plain.vcf.gz");
    Process p = new ProcessBuilder(callArgs(plain)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("plain.err").toFile()).start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("plain.err")));
    assertEquals(CallIT.body(plain), CallIT.body(observed), "the observed run wrote other records");
  }

  @Test
  void aMetricsPortInUseStopsTheRunBeforeAnyWork() throws Exception {
    Path out = dir.resolve("never.vcf.gz");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      List<String> args = callArgs(out);
      args.addAll(List.of("--metrics-port", Integer.toString(taken.getLocalPort()), "--report",
          dir.resolve("r.html").toString()));
      Path err = dir.resolve("err.txt");
      Process call = new ProcessBuilder(args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(err.toFile()).start();
      assertTrue(call.waitFor(120, TimeUnit.SECONDS));
      // the oversubscription warning (--shards 2 on a 2-core machine) is not the error
      String message = Files.readString(err).lines().filter(l -> !l.startsWith("fastpipe: warning:"))
          .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b).strip();
      assertEquals(2, call.exitValue(), message);
      assertEquals(1, message.lines().count(), "one line: " + message);
      assertTrue(message.contains("--metrics-port " + taken.getLocalPort()) && message.contains("in use"), message);
    }
    try (var files = Files.list(dir)) {
      assertEquals(List.of("err.txt"), files.map(p -> p.getFileName().toString()).toList(), "nothing written");
    }
  }
}
