package dev.fastpipe.streaming.report;

import static dev.fastpipe.streaming.report.SvgChart.esc;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.evaluate.CallsetStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;

/**
 * {@code call --report run.html}: one self-contained HTML page about a run: its settings, final
 * figures and per-stage cost, and charts of its time series ({@link RunSeries}) drawn as inline SVG:
 * examples/s per stage, ring fill per shard, producer stall per shard, consumer idle per consumer,
 * CPU per stage and progress. No script, no stylesheet or font from elsewhere, and a
 * Content-Security-Policy that forbids fetching anything, so the page opens the same offline.
 */
public final class HtmlReport {
  /** Shards (or consumers) drawn one line each; above this, their mean, minimum and maximum. */
  static final int MAX_LINES = 8;

  /** Rates and CPU are drawn over trailing windows this long, so that bursts do not hide the trend. */
  static final long RATE_WINDOW_NANOS = 1_000_000_000L;

  static final int CHART_WIDTH = 640;
  static final int CHART_HEIGHT = 300;

  /** One stage's cost, as the final figures give it. */
  public record StageCost(String name, double wallSeconds, double cpuSeconds) {}

  private HtmlReport() {}

  /**
   * The page.
   *
   * @param title what the run was (shown as the heading's second line)
   * @param settings the run's settings, in order
   * @param figures the run's final figures, in order
   * @param stages wall and CPU per stage
   * @param series the sampled time series
   */
  public static String render(String title, Map<String, ?> settings, Map<String, ?> figures, List<StageCost> stages,
      RunSeries series) {
    return render(title, null, settings, figures, stages, series, null);
  }

  /** The page of a run that failed, without a callset QC section (no VCF was published). */
  public static String render(String title, String failure, Map<String, ?> settings, Map<String, ?> figures,
      List<StageCost> stages, RunSeries series) {
    return render(title, failure, settings, figures, stages, series, null);
  }

  /**
   * The page of a run that failed ({@code failure}: why; null: it did not), marked as such at the
   * top; {@code series} may be null (the run stopped before it was sampled). {@code callset}: the
   * VCF's QC figures, shown as the page's last section (the same as {@code fastpipe stats --html}),
   * or null for none.
   */
  public static String render(String title, String failure, Map<String, ?> settings, Map<String, ?> figures,
      List<StageCost> stages, RunSeries series, CallsetStats callset) {
    StringBuilder b = new StringBuilder(64 * 1024);
    // Void elements closed XML-style, so the page is well-formed XML as well as HTML.
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n")
        .append("<title>fastpipe call: run report</title>\n<style>\n").append(CSS).append(CallsetStats.SECTION_CSS).append("</style>\n</head>\n<body>\n");
    b.append("<h1>fastpipe call: run report").append(failure == null ? "" : " (FAILED)").append("</h1>\n<p class=\"sub\">")
        .append(esc(title)).append("</p>\n");
    if (failure != null) {
      b.append("<p class=\"failed\">This run failed: ").append(esc(failure))
          .append(". No VCF was written; the figures are as far as the run got.</p>\n");
    }

    b.append("<div class=\"tables\">\n");
    table(b, "Final figures", figures);
    stageTable(b, stages);
    table(b, "Settings", settings);
    b.append("</div>\n");

    if (series == null) {
      if (callset != null) callset.appendSection(b, "Callset QC");
      b.append("</body>\n</html>\n");
      return b.toString();
    }
    b.append("<div class=\"charts\">\n");
    List<Chart> charts = charts(series);
    for (var mark : series.marks().entrySet()) {
      for (Chart c : charts) c.svg.mark(mark.getKey(), mark.getValue() / 1e9);
    }
    for (Chart c : charts) {
      b.append("<figure>\n").append(c.svg.render(CHART_WIDTH, CHART_HEIGHT)).append("<figcaption>")
          .append(esc(c.caption)).append("</figcaption>\n</figure>\n");
    }
    b.append("</div>\n");
    b.append(String.format(Locale.ROOT,
        "<p class=\"foot\">%d samples, every %d ms (neighbours merged past %d samples); the sampler used %s of CPU.</p>%n",
        series.size(), series.intervalNanos() / 1_000_000, RunSeries.MAX_SAMPLES,
        series.samplerCpuNanos() < 0 ? "an unknown amount" : String.format(Locale.ROOT, "%.0f ms", series.samplerCpuNanos() / 1e6)));
    if (callset != null) callset.appendSection(b, "Callset QC");
    b.append("</body>\n</html>\n");
    return b.toString();
  }

  /** Writes the page under a temporary name, then renames it into place. */
  public static void write(Path path, String html) throws IOException {
    OutputFiles.writeString(path, ".html", html, "report");
  }

  /** Writes the page under a temporary name, staged in {@code tx}: it appears with the run's other outputs. */
  public static void stage(OutputFiles.Transaction tx, Path path, String html) throws IOException {
    tx.writeString(path, ".html", html, "report");
  }

  private record Chart(SvgChart svg, String caption) {}

  /** The charts, in the order they are shown. */
  static List<Chart> charts(RunSeries s) {
    double[] t = s.seconds();
    List<Chart> charts = new ArrayList<>();

    long w = Math.max(RATE_WINDOW_NANOS, s.intervalNanos());
    charts.add(new Chart(new SvgChart("Throughput per stage", "per second")
        .line("make_examples: examples made/s", t, s.perSecond(RunSnapshot::examplesMade, w))
        .line("call_variants: examples called/s", t, s.perSecond(RunSnapshot::examplesCalled, w))
        .line("postprocess: sites written/s", t, s.perSecond(RunSnapshot::sitesWritten, w), true),
        "Examples made by the shards and called by TensorFlow, and VCF records written, per second over the"
            + " trailing " + w / 1_000_000 + " ms at each sample. Sites are written in reference order, so they come"
            + " in bursts as the partition frontier moves."));

    SvgChart fill = new SvgChart("Ring fill per shard", "fill").percent();
    boolean bounded = perShard(fill, t, "shard", s.shards(), s::fill);
    if (!bounded) fill.note("this transport has no bounded ring (disk): no fill level");
    charts.add(new Chart(fill, "How full each shard's ring was at each sample. Near 100 %: the shards make examples"
        + " faster than call_variants takes them (consumer-bound); near 0 %: call_variants waits for the shards."));

    SvgChart stall = new SvgChart("Producer stall per shard", "time waiting on a full ring").percent();
    perShard(stall, t, "shard", s.shards(), i -> s.timeShare(x -> RunSeries.shard(x, i).producerStallNanos()));
    charts.add(new Chart(stall, "Share of each interval a shard spent waiting for room in its ring."));

    SvgChart idle = new SvgChart("Consumer idle per consumer", "time with every ring empty").percent();
    perShard(idle, t, "consumer", s.consumers(), c -> s.timeShare(x -> RunSeries.idle(x, c)));
    charts.add(new Chart(idle, "Share of each interval a call_variants consumer found all of its rings empty"
        + " (consumer c reads shards c, c + M, ...)."));

    SvgChart cpu = new SvgChart("CPU per stage", "cores busy");
    List<String> stages = RunSnapshot.STAGES;
    String[] names = {"make_examples (shards)", "call_variants (TensorFlow, consumers, JVM)", "postprocess"};
    for (int i = 0; i < stages.size(); i++) {
      int stage = i;
      cpu.line(names[i], t, s.cores(x -> x.stageCpuNanos(stage), w));
    }
    charts.add(new Chart(cpu, "CPU cores each stage kept busy over the trailing " + w / 1_000_000 + " ms: the shard processes (or threads) from"
        + " /proc, call_variants as the rest of this JVM (TensorFlow's threads included), postprocess as the time"
        + " spent assembling and writing sites."));

    List<RunSnapshot> samples = s.samples();
    RunSnapshot last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
    charts.add(new Chart(new SvgChart("Progress", "of the run's total").percent()
        .line("partitions done", t, fraction(samples, RunSnapshot::partitionsDone, last == null ? 0 : last.partitions()))
        .line("examples called", t, fraction(samples, RunSnapshot::examplesCalled, last == null ? 0 : last.examplesCalled()))
        .line("sites written", t, fraction(samples, RunSnapshot::sitesWritten, last == null ? 0 : last.sitesWritten()), true),
        "Partitions whose examples have all been called, and examples called and sites written as a share of the"
            + " run's final counts."));
    return charts;
  }

  /**
   * One line per shard (or consumer), or their mean, minimum and maximum past {@link #MAX_LINES};
   * returns false when every value is NaN.
   */
  private static boolean perShard(SvgChart chart, double[] t, String what, int n, IntFunction<double[]> values) {
    boolean any = false;
    List<double[]> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] v = values.apply(i);
      for (double x : v) any |= Double.isFinite(x);
      all.add(v);
    }
    if (n <= MAX_LINES) {
      for (int i = 0; i < n; i++) chart.line(what + " " + i, t, all.get(i));
      return any;
    }
    int len = t.length;
    double[] mean = new double[len];
    double[] min = new double[len];
    double[] max = new double[len];
    for (int k = 0; k < len; k++) {
      double sum = 0;
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (double[] v : all) {
        sum += v[k];
        lo = Math.min(lo, v[k]);
        hi = Math.max(hi, v[k]);
      }
      mean[k] = sum / n;
      min[k] = lo;
      max[k] = hi;
    }
    chart.line("mean of " + n + " " + what + "s", t, mean);
    chart.line("max", t, max, true);
    chart.line("min", t, min, true);
    return any;
  }

  private static double[] fraction(List<RunSnapshot> samples, ToLongFunction<RunSnapshot> f, long total) {
    double[] out = new double[samples.size()];
    for (int i = 0; i < out.length; i++) out[i] = total > 0 ? (double) f.applyAsLong(samples.get(i)) / total : Double.NaN;
    return out;
  }

  private static void table(StringBuilder b, String caption, Map<String, ?> rows) {
    b.append("<table>\n<caption>").append(esc(caption)).append("</caption>\n");
    for (var e : rows.entrySet()) {
      b.append("<tr><th>").append(esc(e.getKey())).append("</th><td>").append(esc(format(e.getValue())))
          .append("</td></tr>\n");
    }
    b.append("</table>\n");
  }

  private static void stageTable(StringBuilder b, List<StageCost> stages) {
    b.append("<table>\n<caption>Stages</caption>\n<tr><th>stage</th><th>wall s</th><th>CPU s</th><th>CPU / wall</th></tr>\n");
    for (StageCost s : stages) {
      b.append("<tr><th>").append(esc(s.name())).append("</th><td>").append(format(s.wallSeconds())).append("</td><td>")
          .append(format(s.cpuSeconds())).append("</td><td>")
          .append(s.wallSeconds() > 0 ? format(s.cpuSeconds() / s.wallSeconds()) : "").append("</td></tr>\n");
    }
    b.append("</table>\n");
  }

  private static String format(Object v) {
    if (v instanceof Double || v instanceof Float) return String.format(Locale.ROOT, "%.3f", ((Number) v).doubleValue());
    return String.valueOf(v);
  }

  private static final String CSS = """
      body { font: 14px/1.4 system-ui, sans-serif; color: #222; margin: 20px 24px; background: #fff; }
      h1 { font-size: 22px; margin: 0 0 4px; }
      .sub { color: #555; margin: 0 0 18px; word-break: break-all; }
      .tables { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; margin-bottom: 20px; }
      table { border-collapse: collapse; font-size: 13px; max-width: 640px; }
      caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
      th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
      td { font-variant-numeric: tabular-nums; word-break: break-all; }
      th { font-weight: 500; color: #444; }
      .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(640px, 1fr)); gap: 18px 24px; }
      figure { margin: 0; }
      figcaption { font-size: 12px; color: #555; max-width: 640px; margin-top: 2px; }
      svg.chart text { font: 11px system-ui, sans-serif; fill: #333; }
      svg.chart .title { font-size: 14px; font-weight: 600; }
      svg.chart .note { fill: #a33; }
      svg.chart .ytick { text-anchor: end; }
      svg.chart .xtick, svg.chart .xlabel, svg.chart .ylabel, svg.chart .empty { text-anchor: middle; }
      svg.chart .frame { fill: none; stroke: #bbb; }
      svg.chart .grid { stroke: #eee; }
      svg.chart .tick { stroke: #bbb; }
      svg.chart .mark { stroke: #888; stroke-dasharray: 2 3; }
      svg.chart .marklabel { fill: #666; font-size: 10px; }
      .foot { color: #777; font-size: 12px; margin-top: 18px; }
      .failed { background: #fde8e8; border-left: 4px solid #c33; color: #822; padding: 8px 12px; font-weight: 600; }
      """;
}
