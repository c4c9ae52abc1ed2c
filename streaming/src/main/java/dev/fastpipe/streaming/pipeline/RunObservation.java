package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.evaluate.CallsetStats;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.report.HtmlReport;
import dev.fastpipe.streaming.report.MetricsEndpoint;
import dev.fastpipe.streaming.report.RunSampler;
import dev.fastpipe.streaming.report.RunSeries;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What watches a {@code call} run from outside its data path: the {@link RunSampler} (for
 * {@code --metrics}, {@code --report} and {@code --metrics-port}), the live {@link MetricsEndpoint}
 * and the {@link HtmlReport}. Opened before any work (so a port in use stops the run at once),
 * started once the shards run, finished when the run is done; closing it stops everything.
 */
final class RunObservation implements AutoCloseable {
  private final CallRequest settings;
  private final PrintStream err;
  private final MetricsEndpoint endpoint;
  private RunSampler sampler;
  private RunMetrics metrics; // the run's, once it has them: what a failed run's files show
  private long startNanos;
  private boolean closed;

  private RunObservation(CallRequest settings, PrintStream err, MetricsEndpoint endpoint) {
    this.settings = settings;
    this.err = err;
    this.endpoint = endpoint;
  }

  /** Listens on the metrics port, if one is asked for, and says where. */
  static RunObservation open(CallRequest s, PrintStream err) {
    MetricsEndpoint endpoint = null;
    if (s.observability().metricsPort() != null) {
      endpoint = MetricsEndpoint.start(s.observability().metricsBind() != null ? s.observability().metricsBind() : MetricsEndpoint.HOST, s.observability().metricsPort());
      if (s.inference().modelDir() != null) endpoint.describe(s.inference().modelDir().toAbsolutePath().normalize().getFileName().toString(), null);
      err.println("fastpipe: live metrics at " + endpoint.url());
    }
    return new RunObservation(s, err, endpoint);
  }

  /** Starts sampling {@code probe}, when anything wants the samples. */
  void start(RunProbe probe) {
    if (!settings.sampled()) return;
    startNanos = probe.startNanos();
    sampler = new RunSampler(probe, settings.observability().metricsInterval(), snapshot -> {
      if (endpoint != null) endpoint.publish(snapshot);
    }).start();
  }

  /** Notes a moment of the run ({@link System#nanoTime()} {@code atNanos}) that the report's charts mark. */
  void mark(String label, long atNanos) {
    if (sampler != null && atNanos != 0) sampler.series().mark(label, atNanos - startNanos);
  }

  /** Takes the final sample and stops sampling; the series, or null when the run was not sampled. */
  RunSeries finish() {
    if (sampler == null) return null;
    RunSeries series = sampler.stop();
    if (sampler.error() != null) {
      err.println("fastpipe: warning: some samples of the run's figures were skipped: " + sampler.error());
    }
    return series;
  }

  /** Writes {@code --report}, if asked for, from the final figures and the series, staged in {@code tx}. */
  void writeReport(RunMetrics m, VcfCallWriter writer, RunSeries series, OutputFiles.Transaction tx) throws IOException {
    if (settings.outputs().report() == null || series == null) return;
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("output", settings.outputForm() == VcfCallWriter.Form.STDOUT ? "standard output" : settings.output().toAbsolutePath());
    figures.put("wall seconds", m.wallSeconds);
    figures.put("examples made", m.examplesMade);
    figures.put("examples called", m.examplesCalled);
    figures.put("examples/s", m.wallSeconds > 0 ? m.examplesCalled / m.wallSeconds : 0.0);
    figures.put("sites written", m.sitesWritten);
    figures.put("PASS / RefCall / LowQual", writer.pass() + " / " + writer.refCall() + " / " + writer.lowQual());
    if (m.journal) {
      figures.put("resumed", m.basesResumed == 0 ? "no"
          : String.format(java.util.Locale.ROOT, "%.1f %% of the bases (%,d of %,d), %.1f s of an earlier run's work saved",
              100.0 * m.basesResumed / Math.max(1, m.basesTotal), m.basesResumed, m.basesTotal, m.secondsResumed));
      figures.put("journal checkpoints", m.checkpoints + String.format(java.util.Locale.ROOT, " (%.3f s)", m.journalSeconds));
    }
    figures.put("model batches", m.batches);
    figures.put("padding images", m.paddingImages);
    var stages = m.stages.stream()
        .map(st -> new HtmlReport.StageCost(st.name(), st.wallSeconds(), st.cpuSeconds())).toList();
    String title = settings.examples().inputs().reads() + " -> " + settings.output() + ", " + java.time.LocalDateTime.now()
        .withNano(0);
    // The callset QC of the VCF just written, read back from its finished temporary file (a
    // resumed run's earlier records included); none when it went to standard output.
    // A VCF that cannot be read back costs the section, not the run.
    var written = writer.finishedFile();
    CallsetStats qc = null;
    if (written.isEmpty()) figures.put("callset QC", "none: the VCF went to standard output (fastpipe stats VCF gives it)");
    else {
      try {
        qc = CallsetStats.of(written.get());
      } catch (RuntimeException e) {
        figures.put("callset QC", "none: " + e.getMessage());
        err.println("fastpipe: warning: the report has no callset QC section: " + e.getMessage());
      }
    }
    HtmlReport.stage(tx, settings.outputs().report(), HtmlReport.render(title, null, m.settings, figures, stages, series, qc));
  }

  /** The run's metrics, as far as they go: what {@link #writeFailure} writes if the run fails. */
  void attach(RunMetrics m) {
    metrics = m;
  }

  /**
   * After a failed run: {@code --metrics} and {@code --report}, if asked for, with what the run got
   * to, marked failed and naming {@code error}; each under a temporary name, then renamed (the VCF is
   * not published). A file that cannot be written is a warning: the run's own error stays the one
   * reported; a file whose own write was the failure is not tried again.
   */
  void writeFailure(Throwable error, double wallSeconds) {
    if (settings.outputs().metrics() == null && settings.outputs().report() == null) return;
    stopSampling();
    RunMetrics m = metrics != null ? metrics : new RunMetrics();
    String why = error.getMessage() == null || error.getMessage().isBlank() ? error.toString() : error.getMessage();
    m.failure = why.replace('\n', ' ').strip();
    if (m.wallSeconds == 0) m.wallSeconds = wallSeconds;
    RunSeries series = sampler == null ? null : sampler.series();
    if (m.series == null) m.series = series;
    try {
      if (settings.outputs().metrics() != null && !about(m.failure, settings.outputs().metrics())) m.write(settings.outputs().metrics());
    } catch (IOException | RuntimeException e) {
      err.println("fastpipe: warning: " + settings.outputs().metrics() + ": cannot write the failed run's metrics (" + e.getMessage() + ")");
    }
    try {
      if (settings.outputs().report() != null && !about(m.failure, settings.outputs().report())) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("status", "FAILED: " + m.failure);
        figures.put("wall seconds", m.wallSeconds);
        figures.put("examples made", m.examplesMade);
        figures.put("examples called", m.examplesCalled);
        figures.put("sites released (not published)", m.sitesWritten);
        var stages = m.stages.stream()
            .map(st -> new HtmlReport.StageCost(st.name(), st.wallSeconds(), st.cpuSeconds())).toList();
        String title = settings.examples().inputs().reads() + " -> " + settings.output() + ", " + java.time.LocalDateTime.now().withNano(0);
        HtmlReport.write(settings.outputs().report(), HtmlReport.render(title, m.failure, m.settings, figures, stages, series));
      }
    } catch (IOException | RuntimeException e) {
      err.println("fastpipe: warning: " + settings.outputs().report() + ": cannot write the failed run's report (" + e.getMessage() + ")");
    }
  }

  /** The sample the run calls, for the endpoint's build_info. */
  void sample(String name) {
    if (endpoint != null) endpoint.describe(null, name);
  }

  /** Stops the sampler (its final sample is the endpoint's last); the endpoint still answers. Idempotent. */
  synchronized void stopSampling() {
    if (sampler != null) sampler.stop();
  }

  /**
   * The run has ended ({@code ok}: it succeeded): the endpoint says so and serves the final figures
   * for {@code --metrics-linger}, so a scrape after the run still finds them.
   */
  void linger(boolean ok) {
    stopSampling();
    if (endpoint == null) return;
    endpoint.finished(ok);
    long millis = settings.observability().metricsLinger().toMillis();
    if (millis <= 0) return;
    err.println("fastpipe: serving the final metrics at " + endpoint.url() + " for " + settings.observability().metricsLinger().toSeconds()
        + " s (--metrics-linger)");
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** True when the failure is that {@code file} itself could not be written: it is not tried again. */
  private static boolean about(String failure, java.nio.file.Path file) {
    return failure.startsWith(file + ": ") || failure.startsWith(file.toAbsolutePath() + ": ");
  }

  /** Stops the sampler and the endpoint. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    stopSampling();
    if (endpoint != null) endpoint.close();
  }
}
