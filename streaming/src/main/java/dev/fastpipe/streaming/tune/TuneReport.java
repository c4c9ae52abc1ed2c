package dev.fastpipe.streaming.tune;

import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.bench.BenchReport;
import dev.fastpipe.streaming.bench.Summary;
import dev.fastpipe.streaming.plan.Region;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** What {@code fastpipe tune} prints (Markdown) and writes with {@code --json}. */
public final class TuneReport {
  private final Tuner.Result result;
  private final List<Region> sample;
  private final String command;
  private final double budgetSeconds;

  /**
   * @param sample the regions tune ran on
   * @param command the command line to use, with the recommendation in it
   */
  public TuneReport(Tuner.Result result, List<Region> sample, String command, double budgetSeconds) {
    this.result = result;
    this.sample = sample;
    this.command = command;
    this.budgetSeconds = budgetSeconds;
  }

  public String markdown() {
    StringBuilder b = new StringBuilder();
    int runs = result.trials().stream().mapToInt(t -> t.runs.size()).sum();
    b.append(String.format(Locale.ROOT, "## fastpipe tune: %s and a warm-up in %s (budget %s)%s%n%n", dev.fastpipe.streaming.Plural.of(runs, "run"),
        Tuner.clock(result.seconds()), Tuner.clock(budgetSeconds), result.budgetRanOut() ? ", the budget ended the sweep" : ""));
    b.append("Machine: ").append(BenchReport.machine()).append("  \n");
    long bases = sample.stream().mapToLong(Region::length).sum();
    b.append(String.format(Locale.ROOT, "Sample: %,d bp in %d piece%s: ", bases, sample.size(), sample.size() == 1 ? "" : "s"))
        .append(sample.stream().map(TuneReport::text).collect(Collectors.joining(", "))).append("\n\n");
    b.append("| configuration | runs | wall s | make_examples CPU s | call_variants CPU s | producer stall % "
        + "| consumer idle % | ring fill % | |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (Tuner.Trial t : result.trials()) {
      if (t.runs.isEmpty()) continue;
      RingDiagnosis d = t.rings();
      b.append("| ").append(t.knobs.name()).append(t.knobs.equals(result.defaults()) ? " (defaults)" : "")
          .append(t.knobs.equals(result.recommended()) ? " **recommended**" : "")
          .append(" | ").append(t.runs.size())
          .append(" | ").append(BenchReport.meanSd(t.wall()))
          .append(" | ").append(BenchReport.meanSd(stage(t, "make_examples")))
          .append(" | ").append(BenchReport.meanSd(stage(t, "call_variants")))
          .append(" | ").append(pct(d.producerStallPct())).append(" | ").append(pct(d.consumerIdlePct()))
          .append(" | ").append(pct(d.fillPct()))
          .append(" | ").append(t.dropped == null ? "" : "dropped: " + t.dropped).append(" |\n");
    }
    b.append('\n');
    for (Tuner.Step s : result.steps()) {
      b.append("- ").append(s.dimension().option).append(": ");
      b.append(s.meanWall().entrySet().stream().map(e -> e.getKey() + " " + BenchReport.num(e.getValue()) + " s")
          .collect(Collectors.joining(", ")));
      b.append(" → kept ").append(s.kept()).append(s.complete() ? "" : " (rounds cut short by the budget)").append('\n');
    }
    Tuner.Confirmation c = result.confirmation();
    if (c != null) {
      b.append(String.format(Locale.ROOT, "- confirmation, %d interleaved rounds: defaults %s s, best %s s, %+.1f %%, Welch p = %s%n",
          c.rounds(), BenchReport.meanSd(c.defaults()), BenchReport.meanSd(c.best()), c.defaults().percentChange(c.best()), BenchReport.p(c.welch().p())));
    }
    b.append("\n**Recommendation:** `").append(String.join(" ", result.recommended().args())).append("`")
        .append(result.recommended().equals(result.defaults()) ? " (the defaults)" : "").append("\n\n");
    b.append("Why: ").append(result.reason()).append("\n\n");
    b.append("Command:\n\n    ").append(command).append("\n");
    return b.toString();
  }

  public String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("machine", BenchReport.machine());
    root.put("seconds", result.seconds());
    root.put("budget_seconds", budgetSeconds);
    root.put("budget_ran_out", result.budgetRanOut());
    root.put("sample", sample.stream().map(TuneReport::text).toList());
    root.put("defaults", result.defaults().args());
    root.put("recommended", result.recommended().args());
    root.put("reason", result.reason());
    root.put("command", command);
    List<Object> trials = new ArrayList<>();
    for (Tuner.Trial t : result.trials()) {
      Map<String, Object> m = new LinkedHashMap<>();
      RingDiagnosis d = t.rings();
      m.put("name", t.knobs.name());
      m.put("args", t.knobs.args());
      m.put("dropped", t.dropped);
      m.put("producer_stall_pct", d.producerStallPct());
      m.put("consumer_idle_pct", d.consumerIdlePct());
      m.put("ring_fill_pct", d.fillPct());
      m.put("runs", t.runs.stream().map(BenchReport::runJson).toList());
      trials.add(m);
    }
    root.put("trials", trials);
    List<Object> steps = new ArrayList<>();
    for (Tuner.Step s : result.steps()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("option", s.dimension().option);
      m.put("mean_wall_seconds", s.meanWall());
      m.put("kept", s.kept());
      m.put("complete", s.complete());
      steps.add(m);
    }
    root.put("steps", steps);
    Tuner.Confirmation c = result.confirmation();
    if (c != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rounds", c.rounds());
      m.put("defaults_mean_wall", c.defaults().mean());
      m.put("best_mean_wall", c.best().mean());
      m.put("p", c.welch().p());
      root.put("confirmation", m);
    }
    return JsonCodec.pretty(root);
  }

  private static Summary stage(Tuner.Trial t, String name) {
    return Summary.of(t.runs.stream().mapToDouble(r -> r.stageCpu(name)).toArray());
  }

  private static String pct(double d) {
    return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.0f", d);
  }

  /** chr20:10,000,001-10,250,000 (1-based, inclusive, as --regions takes it). */
  static String text(Region r) {
    return r.contig() + ":" + (r.start() + 1) + "-" + r.end();
  }
}
