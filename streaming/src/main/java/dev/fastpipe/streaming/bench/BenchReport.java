package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.Plural;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a bench says: per configuration and {@link Figure} the mean ± sd, min, median and max of
 * its measured runs; per compared pair the % change of the mean, the difference with its 95 %
 * confidence interval, Welch's p-value ({@link Welch}) and beside it the p-value Holm-adjusted over
 * the pair's figures, marked significant when that is below alpha (and a line saying so when no
 * figure is); whether every VCF body was the same. As Markdown for people and
 * as JSON (with every raw run) for the record.
 */
public final class BenchReport {
  private final BenchResult result;
  private final double alpha;
  private final boolean callsMayDiffer;
  private final List<int[]> pairs;
  private final MachineLoad load;

  /**
   * @param baseline the configuration the others are compared with (null: the first)
   * @param allPairs compare every pair, not just each configuration with the baseline
   */
  public BenchReport(BenchResult result, String baseline, boolean allPairs, double alpha) {
    this(result, baseline, allPairs, alpha, false);
  }

  /** @param callsMayDiffer VCF records are compared only within each configuration (e.g. two models) */
  public BenchReport(BenchResult result, String baseline, boolean allPairs, double alpha, boolean callsMayDiffer) {
    this(result, baseline, allPairs, alpha, callsMayDiffer, null);
  }

  /** @param load the machine's load average before and after the runs (null: not measured) */
  public BenchReport(BenchResult result, String baseline, boolean allPairs, double alpha, boolean callsMayDiffer,
      MachineLoad load) {
    this.result = result;
    this.load = load;
    this.alpha = alpha;
    this.callsMayDiffer = callsMayDiffer;
    List<BenchConfig> cs = result.configs();
    int base = 0;
    if (baseline != null) {
      base = -1;
      for (int i = 0; i < cs.size(); i++) if (cs.get(i).name().equals(baseline)) base = i;
      if (base < 0) throw new InputException("--baseline " + baseline + ": no configuration has that name");
    }
    pairs = new ArrayList<>();
    if (allPairs) {
      for (int i = 0; i < cs.size(); i++) for (int j = i + 1; j < cs.size(); j++) pairs.add(new int[] {i, j});
    } else {
      for (int j = 0; j < cs.size(); j++) if (j != base) pairs.add(new int[] {base, j});
    }
  }

  /** The Markdown report. */
  public String markdown() {
    StringBuilder b = new StringBuilder();
    List<BenchConfig> cs = result.configs();
    b.append(String.format(Locale.ROOT, "## fastpipe bench: %s × %s, %s, seed %d%n%n", Plural.of(cs.size(), "configuration"),
        Plural.of(result.rounds(), "run"), Plural.of(result.warmup(), "warm-up round"), result.seed()));
    b.append("Machine: ").append(machine()).append("  \n");
    if (load != null) {
      b.append("Load average (1 min): ").append(num(load.before())).append(" before the runs, ").append(num(load.after()))
          .append(" after  \n");
    }
    b.append("Common options: `").append(result.commonArgs().isEmpty() ? "(none)" : words(result.commonArgs())).append("`  \n");
    b.append("Order: each round runs every configuration once, shuffled with the seed.  \n");
    List<String> mismatches = result.mismatches(callsMayDiffer);
    BenchRun ref = result.reference();
    b.append(callsMayDiffer && mismatches.isEmpty()
        ? "VCF body (records): identical within each configuration (--calls-may-differ)"
        : mismatches.isEmpty()
        ? "VCF body (records): identical in all " + Plural.of(result.runs().size(), "run") + ", md5 " + (ref == null ? "-" : ref.vcfMd5())
        : "VCF body (records): **" + mismatches.size() + " run(s) DIFFER** from " + (ref == null ? "-" : ref.label()))
        .append("\n\n");
    for (BenchConfig c : cs) {
      List<BenchRun> runs = result.measured(c.name());
      b.append("### ").append(c.name()).append(": `").append(c.options().isEmpty() ? "(defaults)" : c.options())
          .append("` (").append(Plural.of(runs.size(), "run")).append(")\n\n");
      b.append("| figure | mean ± sd | min | median | max |\n|---|---:|---:|---:|---:|\n");
      for (Figure f : Figure.STANDARD) {
        Summary s = Summary.of(f.values(runs));
        if (s.n() == 0) continue;
        b.append("| ").append(f.label()).append(" | ").append(meanSd(s)).append(" | ").append(num(s.min())).append(" | ")
            .append(num(s.median())).append(" | ").append(num(s.max())).append(" |\n");
      }
      b.append('\n');
    }
    String a0 = BigDecimal.valueOf(alpha).stripTrailingZeros().toPlainString();
    for (int[] pair : pairs) {
      BenchConfig a = cs.get(pair[0]);
      BenchConfig c = cs.get(pair[1]);
      b.append("### ").append(c.name()).append(" vs ").append(a.name())
          .append(" (Welch's t-test; * = Holm-adjusted p < ").append(a0).append(" over the pair's figures)\n\n");
      b.append("| figure | ").append(a.name()).append(" | ").append(c.name())
          .append(" | change | difference (95 % CI) | p | Holm p |\n|---|---:|---:|---:|---:|---:|---:|\n");
      List<Comparison> ks = comparisons(a.name(), c.name());
      int significant = 0;
      int tested = 0;
      for (Comparison k : ks) {
        if (k.base.n() == 0 || k.other.n() == 0) continue;
        boolean sig = k.significant(alpha);
        if (sig) significant++;
        if (!Double.isNaN(k.welch.p())) tested++;
        b.append("| ").append(k.figure.label()).append(" | ").append(meanSd(k.base)).append(" | ").append(meanSd(k.other))
            .append(" | ").append(String.format(Locale.ROOT, "%+.1f %%", k.base.percentChange(k.other)))
            .append(" | ").append(ci(k.welch, k.base.mean()))
            .append(" | ").append(p(k.welch.p())).append(" | ").append(p(k.holm)).append(sig ? " *" : "").append(" |\n");
      }
      b.append('\n');
      if (significant == 0) {
        b.append("No significant difference between ").append(c.name()).append(" and ").append(a.name()).append(" (")
            .append(tested).append(" figure").append(tested == 1 ? "" : "s").append(" tested, Holm-adjusted p ≥ ")
            .append(a0).append(" for each).\n\n");
      }
    }
    for (String m : mismatches) b.append("- ").append(m).append('\n');
    return b.toString();
  }

  /** One figure of two configurations; {@code holm}: its p-value adjusted over the pair's tested figures. */
  record Comparison(Figure figure, Summary base, Summary other, Welch welch, double holm) {
    boolean significant(double alpha) {
      return !Double.isNaN(holm) && holm < alpha;
    }
  }

  /** Every tested figure of {@code other} against {@code base}, the p-values Holm-adjusted together. */
  List<Comparison> comparisons(String base, String other) {
    List<Figure> figures = Figure.tested();
    Welch[] w = new Welch[figures.size()];
    Summary[][] s = new Summary[figures.size()][];
    double[] p = new double[figures.size()];
    for (int i = 0; i < w.length; i++) {
      double[] a = figures.get(i).values(result.measured(base));
      double[] b = figures.get(i).values(result.measured(other));
      s[i] = new Summary[] {Summary.of(a), Summary.of(b)};
      w[i] = Welch.test(a, b);
      p[i] = s[i][0].n() == 0 || s[i][1].n() == 0 ? Double.NaN : w[i].p();
    }
    double[] holm = Welch.holm(p);
    List<Comparison> out = new ArrayList<>();
    for (int i = 0; i < w.length; i++) out.add(new Comparison(figures.get(i), s[i][0], s[i][1], w[i], holm[i]));
    return out;
  }

  /** "+0.31 [+0.12, +0.50] (+3.1 %)": the difference of the means and its 95 % CI, "-" without a test. */
  static String ci(Welch w, double baseMean) {
    if (Double.isNaN(w.difference())) return "-";
    return signed(w.difference()) + " [" + signed(w.ciLow()) + ", " + signed(w.ciHigh()) + "]"
        + String.format(Locale.ROOT, " (%+.1f %% to %+.1f %%)", w.ciLow() / baseMean * 100, w.ciHigh() / baseMean * 100);
  }

  private static String signed(double d) {
    return (d >= 0 ? "+" : "") + num(d);
  }

  /** Everything as JSON: settings, configurations, every run (warm-ups too, with its metrics), summaries and comparisons. */
  public String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("machine", machine());
    if (load != null) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("before", load.before());
      l.put("after", load.after());
      root.put("load_average_1min", l);
    }
    root.put("rounds", result.rounds());
    root.put("warmup_rounds", result.warmup());
    root.put("seed", result.seed());
    root.put("alpha", alpha);
    root.put("common_args", result.commonArgs());
    List<Object> configs = new ArrayList<>();
    for (BenchConfig c : result.configs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      m.put("env", c.env());
      m.put("args", c.args());
      configs.add(m);
    }
    root.put("configs", configs);
    root.put("vcf_bodies_identical", result.mismatches(callsMayDiffer).isEmpty());
    root.put("vcf_compared_within_configurations", callsMayDiffer);
    root.put("mismatches", result.mismatches(callsMayDiffer));
    List<Object> runs = new ArrayList<>();
    for (BenchRun r : result.runs()) runs.add(runJson(r));
    root.put("runs", runs);
    Map<String, Object> summary = new LinkedHashMap<>();
    for (BenchConfig c : result.configs()) {
      Map<String, Object> figs = new LinkedHashMap<>();
      for (Figure f : Figure.STANDARD) {
        Summary s = Summary.of(f.values(result.measured(c.name())));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", s.n());
        m.put("mean", s.mean());
        m.put("sd", s.sd());
        m.put("min", s.min());
        m.put("median", s.median());
        m.put("max", s.max());
        figs.put(f.label(), m);
      }
      summary.put(c.name(), figs);
    }
    root.put("summary", summary);
    List<Object> comparisons = new ArrayList<>();
    for (int[] pair : pairs) {
      String a = result.configs().get(pair[0]).name();
      String c = result.configs().get(pair[1]).name();
      for (Comparison k : comparisons(a, c)) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("baseline", a);
        m.put("config", c);
        m.put("figure", k.figure.label());
        m.put("change_percent", k.base.percentChange(k.other));
        m.put("difference", k.welch.difference());
        m.put("ci95_low", k.welch.ciLow());
        m.put("ci95_high", k.welch.ciHigh());
        m.put("t", k.welch.t());
        m.put("df", k.welch.df());
        m.put("p", k.welch.p());
        m.put("p_holm", k.holm);
        m.put("significant", k.significant(alpha));
        comparisons.add(m);
      }
    }
    root.put("comparisons", comparisons);
    return JsonCodec.pretty(root);
  }

  /** One run as the JSON reports hold it: its place, how it ended, wall, VCF body md5 and full --metrics. */
  public static Map<String, Object> runJson(BenchRun r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seq", r.seq());
    m.put("config", r.config());
    m.put("round", r.round());
    m.put("warmup", r.warmup());
    m.put("exit_status", r.exitStatus());
    m.put("wall_seconds", r.wallSeconds());
    m.put("load_average_1min_before", Double.isNaN(r.loadBefore()) ? null : r.loadBefore()); // null: not read
    m.put("vcf_body_md5", r.vcfMd5());
    m.put("metrics", r.metrics() == null ? null : JsonCodec.STRICT.convertValue(r.metrics(), Map.class));
    return m;
  }

  /** "AMD EPYC, 2 CPUs, avx2" from /proc/cpuinfo: the model and the widest vector extensions. */
  public static String machine() {
    String model = "unknown CPU";
    String flags = "";
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name") && model.equals("unknown CPU")) model = line.substring(line.indexOf(':') + 1).strip();
        if (line.startsWith("flags") && flags.isEmpty()) flags = " " + line.substring(line.indexOf(':') + 1).strip() + " ";
      }
    } catch (IOException e) {
      // not Linux: the model stays unknown
    }
    List<String> have = new ArrayList<>();
    for (String f : List.of("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile")) {
      if (flags.contains(" " + f + " ")) have.add(f);
    }
    return model + ", " + Runtime.getRuntime().availableProcessors() + " CPUs" + (have.isEmpty() ? "" : ", " + String.join(" ", have));
  }

  private static String words(List<String> args) {
    return String.join(" ", args.stream().map(BenchConfig::quoted).toList());
  }

  /** "8.53 ± 0.210", or the mean alone below two values. */
  public static String meanSd(Summary s) {
    return num(s.mean()) + (Double.isNaN(s.sd()) ? "" : " ± " + num(s.sd()));
  }

  /** Three significant digits at most, never scientific. */
  public static String num(double d) {
    if (Double.isNaN(d)) return "-";
    double a = Math.abs(d);
    String f = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
    return String.format(Locale.ROOT, f, d);
  }

  /** A p-value as reports print it: "0.042", "< 0.001", "n/a". */
  public static String p(double p) {
    if (Double.isNaN(p)) return "n/a";
    return p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", p);
  }
}
