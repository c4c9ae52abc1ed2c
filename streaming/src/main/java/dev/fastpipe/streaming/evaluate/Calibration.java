package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.evaluate.VcfComparison.DepthSource;
import dev.fastpipe.streaming.evaluate.VcfComparison.Evaluation;
import dev.fastpipe.streaming.evaluate.VcfComparison.ScoredCall;
import dev.fastpipe.streaming.evaluate.VcfComparison.ScoredTruth;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a user needs to choose a GQ threshold, from one or several (pooled) {@link Evaluation}s:
 *
 * <ul>
 *   <li><b>GQ calibration</b>, SNPs and indels apart: the PASS calls inside the regions (counted as
 *       the SNP/INDEL table counts them, after splitting and atomising; each keeps its record's GQ)
 *       in the bins 0–9, 10–19, 20–29, 30–39, 40–49 and ≥ 50, and apart those without a GQ. A call is
 *       an <b>error</b> when its allele is not in the truth with the same number of copies in the
 *       genotype: a false allele, or a true allele with the wrong genotype. That is what GQ claims
 *       (the genotype is right), so the errors of a type add up to its FP (with alleles-only, the
 *       errors still judge the genotype). Per bin: calls, errors, the observed error rate, its
 *       one-sided 95 % Clopper–Pearson upper bound, the rate GQ promises at the bin's lowest GQ,
 *       10^(−GQmin/10), whether the observed rate is within it, and what filtering at GQ ≥ GQmin
 *       would keep: calls, errors, error rate and recall (right genotypes kept / truth sites).
 *   <li><b>Depth strata</b>, SNPs and indels apart: truth sites, TP, FN (by the depth of the truth
 *       site), FP (by the depth of the call), recall and precision in depth bins &lt; 10, 10–19,
 *       20–39 and ≥ 40, and "unknown" for sites without a depth ({@link DepthSource}).
 * </ul>
 */
public final class Calibration {
  /** The lowest GQ of each bin; the last bin is open. */
  public static final int[] GQ_BINS = {0, 10, 20, 30, 40, 50};

  /** The lowest depth of each stratum; the last stratum is open. */
  public static final int[] DEPTH_STRATA = {0, 10, 20, 40};

  /** What counts as an error, for the tables' captions and the JSON. */
  public static final String ERROR_DEFINITION = "a PASS call inside the regions whose allele is not in the truth with"
      + " the same number of copies in the genotype (a false allele, or a true allele with the wrong genotype)";

  /**
   * One GQ bin of one type. {@code gqMin} -1 is the bin of calls without a GQ; {@code gqMax} -1: no
   * upper end. The {@code atOrAbove} counts are over every bin from this one up (calls without a GQ
   * excluded), {@code truth} the type's truth sites.
   */
  public record GqBin(String type, int gqMin, int gqMax, int calls, int errors, int callsAtOrAbove,
      int errorsAtOrAbove, int truth) {
    public String label() {
      if (gqMin < 0) return "none";
      return gqMax < 0 ? ">=" + gqMin : gqMin + "-" + gqMax;
    }

    /** errors / calls; NaN when the bin is empty. */
    public double observed() {
      return calls == 0 ? Double.NaN : errors / (double) calls;
    }

    /** The one-sided 95 % Clopper–Pearson upper bound of the error rate; NaN when the bin is empty. */
    public double upper95() {
      return upperBound(errors, calls);
    }

    /** The error rate GQ promises at the bin's lowest GQ, 10^(−GQmin/10); NaN for calls without GQ. */
    public double promised() {
      return gqMin < 0 ? Double.NaN : Math.pow(10, -gqMin / 10.0);
    }

    /** observed ≤ promised (an observed rate equal to the promise, e.g. 1 in 10 at GQ 10, is within); null when the bin is empty or has no GQ. */
    public Boolean withinPromise() {
      return calls == 0 || gqMin < 0 ? null : errors <= promised() * calls * (1 + 1e-9);
    }

    /** Error rate of the calls a GQ ≥ GQmin filter keeps; NaN when it keeps none or for calls without GQ. */
    public double errorRateAtOrAbove() {
      return gqMin < 0 || callsAtOrAbove == 0 ? Double.NaN : errorsAtOrAbove / (double) callsAtOrAbove;
    }

    /** Recall (right genotypes kept / truth sites) after a GQ ≥ GQmin filter; NaN without truth sites or GQ. */
    public double recallAtOrAbove() {
      return gqMin < 0 || truth == 0 ? Double.NaN : (callsAtOrAbove - errorsAtOrAbove) / (double) truth;
    }
  }

  /** One depth stratum of one type; {@code depthMin} -1 is "unknown"; {@code depthMax} -1: no upper end. */
  public record DepthStratum(String type, int depthMin, int depthMax, int tp, int fn, int fp) {
    public String label() {
      if (depthMin < 0) return "unknown";
      if (depthMax < 0) return ">=" + depthMin;
      return depthMin == 0 ? "<" + (depthMax + 1) : depthMin + "-" + depthMax;
    }

    public int truth() {
      return tp + fn;
    }

    /** TP / (TP + FN); NaN when there is neither. */
    public double recall() {
      return tp + fn == 0 ? Double.NaN : tp / (double) (tp + fn);
    }

    /** TP / (TP + FP); NaN when there is neither. */
    public double precision() {
      return tp + fp == 0 ? Double.NaN : tp / (double) (tp + fp);
    }
  }

  private final List<GqBin> gqBins;
  private final List<DepthStratum> depthStrata;
  private final Set<DepthSource> depthSources;

  private Calibration(List<GqBin> gqBins, List<DepthStratum> depthStrata, Set<DepthSource> depthSources) {
    this.gqBins = gqBins;
    this.depthStrata = depthStrata;
    this.depthSources = depthSources;
  }

  /** The tables of one or more evaluations, their calls and truth sites pooled. */
  public static Calibration of(List<Evaluation> evaluations) {
    List<ScoredCall> calls = new ArrayList<>();
    List<ScoredTruth> truth = new ArrayList<>();
    Set<DepthSource> sources = EnumSet.noneOf(DepthSource.class);
    for (Evaluation e : evaluations) {
      calls.addAll(e.calls());
      truth.addAll(e.truth());
      sources.add(e.depthSource());
    }
    List<GqBin> bins = new ArrayList<>();
    List<DepthStratum> strata = new ArrayList<>();
    for (boolean snp : new boolean[] {true, false}) {
      String type = snp ? "SNP" : "INDEL";
      bins.addAll(gqBins(type, snp, calls, truth));
      strata.addAll(depthStrata(type, snp, calls, truth));
    }
    return new Calibration(List.copyOf(bins), List.copyOf(strata), sources);
  }

  public List<GqBin> gqBins() {
    return gqBins;
  }

  public List<DepthStratum> depthStrata() {
    return depthStrata;
  }

  /** Where the depths came from (both, when pooled evaluations differ). */
  public Set<DepthSource> depthSources() {
    return depthSources;
  }

  private static int bin(int value, int[] starts) {
    if (value < 0) return -1;
    int b = 0;
    while (b + 1 < starts.length && value >= starts[b + 1]) b++;
    return b;
  }

  private static List<GqBin> gqBins(String type, boolean snp, List<ScoredCall> calls, List<ScoredTruth> truth) {
    int n = GQ_BINS.length;
    int[] c = new int[n + 1]; // the last slot: calls without GQ
    int[] e = new int[n + 1];
    for (ScoredCall call : calls) {
      if (call.snp() != snp) continue;
      int b = bin(call.gq(), GQ_BINS);
      if (b < 0) b = n;
      c[b]++;
      if (!call.genotypeRight()) e[b]++;
    }
    int nTruth = (int) truth.stream().filter(t -> t.snp() == snp).count();
    List<GqBin> out = new ArrayList<>();
    int callsAbove = 0;
    int errorsAbove = 0;
    for (int b = n - 1; b >= 0; b--) {
      callsAbove += c[b];
      errorsAbove += e[b];
      int max = b + 1 < n ? GQ_BINS[b + 1] - 1 : -1;
      out.add(0, new GqBin(type, GQ_BINS[b], max, c[b], e[b], callsAbove, errorsAbove, nTruth));
    }
    if (c[n] > 0) out.add(new GqBin(type, -1, -1, c[n], e[n], 0, 0, nTruth));
    return out;
  }

  private static List<DepthStratum> depthStrata(String type, boolean snp, List<ScoredCall> calls, List<ScoredTruth> truth) {
    int n = DEPTH_STRATA.length;
    int[] tp = new int[n + 1]; // the last slot: unknown depth
    int[] fn = new int[n + 1];
    int[] fp = new int[n + 1];
    for (ScoredTruth t : truth) {
      if (t.snp() != snp) continue;
      int b = bin(t.depth(), DEPTH_STRATA);
      if (b < 0) b = n;
      if (t.found()) tp[b]++;
      else fn[b]++;
    }
    for (ScoredCall call : calls) {
      if (call.snp() != snp || call.matched()) continue;
      int b = bin(call.depth(), DEPTH_STRATA);
      fp[b < 0 ? n : b]++;
    }
    List<DepthStratum> out = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      out.add(new DepthStratum(type, DEPTH_STRATA[b], b + 1 < n ? DEPTH_STRATA[b + 1] - 1 : -1, tp[b], fn[b], fp[b]));
    }
    if (tp[n] + fn[n] + fp[n] > 0) out.add(new DepthStratum(type, -1, -1, tp[n], fn[n], fp[n]));
    return out;
  }

  /** The one-sided 95 % Clopper–Pearson upper bound of a rate of {@code x} in {@code n}; NaN when n is 0. */
  static double upperBound(int x, int n) {
    return GqCalibration.upperBound95(x, n);
  }

  // ---------------------------------------------------------------------------------------------

  /** The GQ table for terminals; rows start with the bin, so that no row starts with SNP or INDEL. */
  public String gqTable() {
    StringBuilder sb = new StringBuilder();
    sb.append("GQ calibration of the PASS calls (error: a false allele or a wrong genotype; promised: 10^(-GQmin/10))\n");
    sb.append(String.format(Locale.ROOT, "%-6s %-6s %7s %6s %8s %8s %8s %-3s | %-11s %7s %6s %8s %7s%n",
        "GQ", "type", "calls", "errors", "observed", "upper95", "promised", "ok", "at GQ>=min:", "calls", "errors", "error",
        "recall"));
    for (GqBin b : gqBins) {
      Boolean ok = b.withinPromise();
      boolean none = b.gqMin() < 0;
      sb.append(String.format(Locale.ROOT, "%-6s %-6s %7d %6d %8s %8s %8s %-3s | %-11s %7s %6s %8s %7s%n",
          b.label(), b.type(), b.calls(), b.errors(), rate(b.observed(), 5), rate(b.upper95(), 5), rate(b.promised(), 5),
          ok == null ? "-" : ok ? "yes" : "no", "",
          none ? "-" : Integer.toString(b.callsAtOrAbove()), none ? "-" : Integer.toString(b.errorsAtOrAbove()),
          rate(b.errorRateAtOrAbove(), 5), rate(b.recallAtOrAbove(), 4)));
    }
    return sb.toString();
  }

  /** The depth table for terminals, with a caption saying where the depths come from. */
  public String depthTable() {
    StringBuilder sb = new StringBuilder();
    sb.append("Depth of the site: ").append(depthCaption()).append('\n');
    sb.append(String.format(Locale.ROOT, "%-7s %-6s %7s %7s %6s %6s %7s %9s%n",
        "depth", "type", "truth", "TP", "FN", "FP", "recall", "precision"));
    for (DepthStratum s : depthStrata) {
      sb.append(String.format(Locale.ROOT, "%-7s %-6s %7d %7d %6d %6d %7s %9s%n", s.label(), s.type(), s.truth(), s.tp(),
          s.fn(), s.fp(), rate(s.recall(), 4), rate(s.precision(), 4)));
    }
    return sb.toString();
  }

  private String depthCaption() {
    String reads = "reads with a base aligned at its POS that pass call's read filter (MAPQ >= 5)";
    String calls = "the call's FORMAT DP, else INFO DP; a missed site without a call there is unknown"
        + " (--reads counts every site)";
    if (depthSources.size() > 1) return "pooled: " + reads + " where a pair has reads; elsewhere " + calls;
    return depthSources.contains(DepthSource.READS) ? reads : calls;
  }

  private static String rate(double v, int decimals) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** The tables as maps and lists for {@link dev.fastpipe.streaming.JsonCodec#pretty}: {@code gq_calibration}, {@code depth_strata} and their definitions. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("error_definition", ERROR_DEFINITION);
    m.put("depth_source", depthCaption());
    List<Object> bins = new ArrayList<>();
    for (GqBin b : gqBins) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("type", b.type());
      r.put("gq", b.label());
      r.put("gq_min", b.gqMin() < 0 ? null : b.gqMin());
      r.put("gq_max", b.gqMax() < 0 ? null : b.gqMax());
      r.put("calls", b.calls());
      r.put("errors", b.errors());
      r.put("observed", b.observed());
      r.put("upper95", b.upper95());
      r.put("promised", b.promised());
      r.put("within_promise", b.withinPromise());
      if (b.gqMin() >= 0) {
        Map<String, Object> above = new LinkedHashMap<>();
        above.put("calls", b.callsAtOrAbove());
        above.put("errors", b.errorsAtOrAbove());
        above.put("error_rate", b.errorRateAtOrAbove());
        above.put("recall", b.recallAtOrAbove());
        r.put("at_or_above", above);
      }
      bins.add(r);
    }
    m.put("gq_calibration", bins);
    List<Object> strata = new ArrayList<>();
    for (DepthStratum s : depthStrata) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("type", s.type());
      r.put("depth", s.label());
      r.put("depth_min", s.depthMin() < 0 ? null : s.depthMin());
      r.put("depth_max", s.depthMax() < 0 ? null : s.depthMax());
      r.put("truth", s.truth());
      r.put("tp", s.tp());
      r.put("fn", s.fn());
      r.put("fp", s.fp());
      r.put("recall", s.recall());
      r.put("precision", s.precision());
      strata.add(r);
    }
    m.put("depth_strata", strata);
    return m;
  }
}
