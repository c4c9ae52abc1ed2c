package dev.fastpipe.streaming.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.fastpipe.shm.bench.TransportBench;
import dev.fastpipe.shm.bench.TransportBench.Result;
import dev.fastpipe.shm.bench.TransportBench.Scenario;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * bench-transport's statistics over interleaved repeats: per configuration (transport, mode,
 * producers, consumers, record size) the mean of each figure with its 95 % confidence interval,
 * throughput as a fraction of the working-set limit measured in the same rounds, and Welch's test
 * of throughput and of p99 latency against a baseline transport of the same shape, the p-values of
 * the whole table corrected together with Holm's method. Written as a Markdown table and as JSON
 * (Jackson).
 */
public final class TransportReport {

  /** One measured run and the 1-minute load average just before it. */
  public record Run(int round, Result result, double loadBefore) {}

  /** The figures of one configuration; p-values NaN for the baseline itself and the limits. */
  public record Row(Scenario scenario, int n, MeanInterval gbPerSec, double vsLimit, MeanInterval p99Micros,
      MeanInterval stallPct, MeanInterval idlePct, double pThroughput, double pP99, double pThroughputHolm, double pP99Holm) {
    public String label() {
      return switch (scenario.transport()) {
        case TransportBench.LIMIT -> "limit: copy through ring-sized working set";
        case TransportBench.LIMIT_ZEROING -> "limit + zeroing the consumed bytes (Agrona's third pass)";
        case TransportBench.MEMCPY -> "memcpy, cache-hot (not a limit)";
        default -> scenario.transport() + ", " + scenario.mode();
      };
    }
  }

  private final List<Run> runs;
  private final String baseline;
  private final List<Row> rows = new ArrayList<>();

  /**
   * Groups {@code runs} by configuration (rows in the order of {@code order}, then first-seen) and
   * tests each against {@code baseline}.
   */
  public TransportReport(List<Run> runs, String baseline, List<Scenario> order) {
    this.runs = List.copyOf(runs);
    this.baseline = baseline;
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort(java.util.Comparator.comparingInt(r -> {
      int i = order.indexOf(r.result().scenario());
      return i < 0 ? Integer.MAX_VALUE : i;
    }));
    Map<Key, List<Result>> by = new LinkedHashMap<>();
    for (Run r : sorted) by.computeIfAbsent(Key.of(r.result().scenario()), k -> new ArrayList<>()).add(r.result());
    List<Row> raw = new ArrayList<>();
    for (var e : by.entrySet()) {
      List<Result> rs = e.getValue();
      Scenario s = rs.get(0).scenario();
      double[] gb = col(rs, Result::gbPerSec), p99 = col(rs, Result::p99Micros);
      List<Result> limit = by.get(e.getKey().limit());
      double vsLimit = limit == null ? Double.NaN : Summary.of(gb).mean() / Summary.of(col(limit, Result::gbPerSec)).mean();
      double pt = Double.NaN, pl = Double.NaN;
      List<Result> base = by.get(e.getKey().as(baseline));
      boolean compared = base != null && !isLimit(s) && !(s.transport().equals(baseline) && !s.processes());
      if (compared) {
        pt = Welch.test(gb, col(base, Result::gbPerSec)).p();
        pl = Welch.test(p99, col(base, Result::p99Micros)).p();
      }
      raw.add(new Row(s, rs.size(), MeanInterval.of95(gb), vsLimit, MeanInterval.of95(p99),
          MeanInterval.of95(col(rs, Result::stallPct)), MeanInterval.of95(col(rs, Result::idlePct)), pt, pl, Double.NaN, Double.NaN));
    }
    double[] all = new double[raw.size() * 2];
    for (int i = 0; i < raw.size(); i++) {
      all[2 * i] = raw.get(i).pThroughput();
      all[2 * i + 1] = raw.get(i).pP99();
    }
    double[] holm = Holm.adjust(all);
    for (int i = 0; i < raw.size(); i++) {
      Row r = raw.get(i);
      rows.add(new Row(r.scenario(), r.n(), r.gbPerSec(), r.vsLimit(), r.p99Micros(), r.stallPct(), r.idlePct(),
          r.pThroughput(), r.pP99(), holm[2 * i], holm[2 * i + 1]));
    }
  }

  /** The one-thread copies beside the transports (no latency, stall or idle; never tested). */
  public static boolean isLimit(Scenario s) {
    return s.transport().equals(TransportBench.LIMIT) || s.transport().equals(TransportBench.LIMIT_ZEROING)
        || s.transport().equals(TransportBench.MEMCPY);
  }

  /** A configuration's shape: the comparisons are within one (producers, consumers, record size). */
  private record Key(String transport, boolean processes, int producers, int consumers, int recordBytes) {
    static Key of(Scenario s) {
      return new Key(s.transport(), s.processes(), s.producers(), s.consumers(), s.recordBytes());
    }

    /** The limit of this shape: one thread, whatever the consumers ({@code consumers} 1). */
    Key limit() {
      return new Key(TransportBench.LIMIT, false, producers, 1, recordBytes);
    }

    /** The same shape for another transport, in threads (the baseline runs in threads). */
    Key as(String name) {
      return new Key(name, false, producers, consumers, recordBytes);
    }
  }

  private static double[] col(List<Result> rs, java.util.function.ToDoubleFunction<Result> f) {
    return rs.stream().mapToDouble(f).toArray();
  }

  public List<Row> rows() {
    return rows;
  }

  /** The table, one row per configuration, like a paper's. */
  public String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("| configuration | P | M | bytes | n | GB/s (95 % CI) | × limit | p99 µs (95 % CI) | stall % | idle % | p GB/s vs ")
        .append(baseline).append(" (Holm) | p p99 vs ").append(baseline).append(" (Holm) |\n");
    b.append("|---|---:|---:|---:|---:|---|---:|---|---:|---:|---:|---:|\n");
    for (Row r : rows) {
      Scenario s = r.scenario();
      boolean lim = isLimit(s);
      b.append("| ").append(r.label()).append(" | ").append(s.producers()).append(" | ").append(lim ? "–" : s.consumers())
          .append(" | ").append(String.format(Locale.ROOT, "%,d", s.recordBytes())).append(" | ").append(r.n())
          .append(" | ").append(ci(r.gbPerSec(), "%.2f"))
          .append(" | ").append(Double.isNaN(r.vsLimit()) ? "–" : String.format(Locale.ROOT, "%.2f", r.vsLimit()))
          .append(" | ").append(lim ? "–" : ci(r.p99Micros(), "%,.0f"))
          .append(" | ").append(lim ? "–" : String.format(Locale.ROOT, "%.1f", r.stallPct().mean()))
          .append(" | ").append(lim ? "–" : String.format(Locale.ROOT, "%.1f", r.idlePct().mean()))
          .append(" | ").append(p(r.pThroughputHolm())).append(" | ").append(p(r.pP99Holm())).append(" |\n");
    }
    double[] load = runs.stream().mapToDouble(Run::loadBefore).toArray();
    Summary l = Summary.of(load);
    b.append(String.format(Locale.ROOT, "%nload average (1 min) before the runs: mean %.2f, min %.2f, max %.2f, over %s%n",
        l.mean(), l.min(), l.max(), dev.fastpipe.streaming.Plural.of(load.length, "run")));
    return b.toString();
  }

  static String ci(MeanInterval m, String fmt) {
    if (Double.isNaN(m.mean())) return "–";
    if (Double.isNaN(m.low())) return String.format(Locale.ROOT, fmt, m.mean());
    return String.format(Locale.ROOT, fmt + " (" + fmt + "–" + fmt + ")", m.mean(), m.low(), m.high());
  }

  static String p(double p) {
    if (Double.isNaN(p)) return "–";
    return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", p);
  }

  /** Everything as one JSON document: the machine, the settings, every run and every row. */
  public String json(String machine, Map<String, Object> settings) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("machine", machine);
      g.writeStringField("baseline", baseline);
      g.writeObjectFieldStart("settings");
      for (var e : settings.entrySet()) {
        g.writeFieldName(e.getKey());
        Object v = e.getValue();
        if (v instanceof Number n) g.writeNumber(n.toString());
        else if (v instanceof Boolean bo) g.writeBoolean(bo);
        else g.writeString(Objects.toString(v));
      }
      g.writeEndObject();
      g.writeArrayFieldStart("runs");
      for (Run r : runs) {
        Result x = r.result();
        g.writeStartObject();
        g.writeNumberField("round", r.round());
        scenario(g, x.scenario());
        number(g, "seconds", x.seconds());
        number(g, "gbPerSec", x.gbPerSec());
        number(g, "recordsPerSec", x.recordsPerSec());
        number(g, "p50Micros", x.p50Micros());
        number(g, "p99Micros", x.p99Micros());
        number(g, "p999Micros", x.p999Micros());
        number(g, "producerStallPct", x.stallPct());
        number(g, "consumerIdlePct", x.idlePct());
        number(g, "loadAverage1m", r.loadBefore());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("summary");
      for (Row r : rows) {
        g.writeStartObject();
        g.writeStringField("label", r.label());
        scenario(g, r.scenario());
        g.writeNumberField("n", r.n());
        interval(g, "gbPerSec", r.gbPerSec());
        number(g, "vsLimit", r.vsLimit());
        interval(g, "p99Micros", r.p99Micros());
        interval(g, "producerStallPct", r.stallPct());
        interval(g, "consumerIdlePct", r.idlePct());
        number(g, "pThroughput", r.pThroughput());
        number(g, "pThroughputHolm", r.pThroughputHolm());
        number(g, "pP99", r.pP99());
        number(g, "pP99Holm", r.pP99Holm());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e); // a StringWriter does not fail
    }
    return w.toString() + "\n";
  }

  private static void scenario(JsonGenerator g, Scenario s) throws IOException {
    g.writeStringField("transport", s.transport());
    g.writeStringField("mode", isLimit(s) ? "1 thread" : s.mode());
    g.writeNumberField("producers", s.producers());
    g.writeNumberField("consumers", s.consumers());
    g.writeNumberField("recordBytes", s.recordBytes());
    g.writeNumberField("records", s.records());
    g.writeNumberField("ringBytes", s.ringBytes());
  }

  /** A number, or null where there is none (JSON has no NaN). */
  private static void number(JsonGenerator g, String name, double v) throws IOException {
    if (Double.isNaN(v) || Double.isInfinite(v)) g.writeNullField(name);
    else g.writeNumberField(name, v);
  }

  private static void interval(JsonGenerator g, String name, MeanInterval m) throws IOException {
    g.writeObjectFieldStart(name);
    number(g, "mean", m.mean());
    number(g, "ci95Low", m.low());
    number(g, "ci95High", m.high());
    g.writeEndObject();
  }
}
