package dev.fastpipe.streaming.tune;

import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.bench.BenchConfig;
import dev.fastpipe.streaming.bench.BenchFailedException;
import dev.fastpipe.streaming.bench.BenchReport;
import dev.fastpipe.streaming.bench.BenchRun;
import dev.fastpipe.streaming.bench.BenchRunner;
import dev.fastpipe.streaming.bench.Schedule;
import dev.fastpipe.streaming.bench.Summary;
import dev.fastpipe.streaming.bench.Welch;
import dev.fastpipe.streaming.tune.Knobs.Dimension;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The search behind {@code fastpipe tune}, on the runs a {@link BenchRunner} makes:
 * <ol>
 *   <li>the defaults: one unreported warm-up run (its VCF body is the reference every other run
 *       must match), then {@code repeats} runs, whose ring figures ({@link RingDiagnosis}) say which
 *       side holds the run back;
 *   <li>one dimension at a time, in the order the diagnosis suggests (consumer-bound: consumers,
 *       batch size, ring size, shards; producer-bound: shards, ring size, consumers, batch size;
 *       then transports and allocators when asked), every candidate value and the current one in
 *       interleaved rounds; the fastest by mean wall, when it beats the current one by
 *       {@link #MIN_GAIN}, becomes current. A configuration whose VCF records differ from the
 *       reference, or whose run fails, is dropped;
 *   <li>when the sweep moved away from the defaults: a confirmation, defaults against the best in
 *       interleaved rounds (3 to 10, as the budget allows), Welch's t-test on total wall time. The
 *       best is recommended only when it is faster with p below alpha; otherwise the defaults are.
 * </ol>
 * The sweep stops starting runs when the rest of the budget is needed for the confirmation.
 */
public final class Tuner {
  /** A candidate must beat the current value's mean wall by this share to replace it in the sweep. */
  static final double MIN_GAIN = 0.02;
  /** Confirmation rounds (one run of each side per round). */
  static final int MIN_CONFIRM_ROUNDS = 3;
  static final int MAX_CONFIRM_ROUNDS = 10;

  /**
   * What to tune.
   *
   * @param candidates per dimension the values to try (a dimension with fewer than two is not swept)
   */
  public record Settings(Knobs defaults, Map<Dimension, List<String>> candidates, int repeats, Duration budget,
      double alpha, long seed) {}

  /** Every run of one configuration, and why it was dropped (null while it stands). */
  public static final class Trial {
    public final Knobs knobs;
    public final List<BenchRun> runs = new ArrayList<>();
    public String dropped;

    Trial(Knobs knobs) {
      this.knobs = knobs;
    }

    public Summary wall() {
      return Summary.of(runs.stream().mapToDouble(BenchRun::wallSeconds).toArray());
    }

    public RingDiagnosis rings() {
      return RingDiagnosis.of(runs);
    }
  }

  /** One dimension's sweep: the mean wall per value in its rounds, and the value kept. */
  public record Step(Dimension dimension, Map<String, Double> meanWall, String kept, boolean complete) {}

  /** The confirmation: defaults against the best, interleaved. */
  public record Confirmation(Summary defaults, Summary best, Welch welch, int rounds) {}

  /** What tune found. */
  public record Result(Knobs defaults, Knobs recommended, List<Trial> trials, List<Step> steps,
      Confirmation confirmation, String reason, boolean budgetRanOut, double seconds) {}

  /** Runs one configuration once (a {@link BenchRunner} in a real tune). */
  @FunctionalInterface
  public interface Runs {
    BenchRun run(BenchConfig config, int round, boolean warmup, int seq);
  }

  private final Runs runner;
  private final Settings s;
  private final PrintStream progress;
  private final LongSupplier clock;
  private final Map<String, Trial> trials = new LinkedHashMap<>();
  private final List<Step> steps = new ArrayList<>();
  private final long startNanos;
  private String referenceMd5;
  private int seq;
  private boolean budgetRanOut;

  /** A tune whose runs are {@code runner}'s child processes; {@code progress} gets one line per run (null: none). */
  public Tuner(BenchRunner runner, Settings settings, PrintStream progress) {
    this((c, round, warmup, seq) -> runner.run(c, round, warmup, seq, 0), settings, progress, System::nanoTime);
  }

  /** A tune over any {@code runs}, timed by {@code clock} (nanoseconds). */
  Tuner(Runs runs, Settings settings, PrintStream progress, LongSupplier clock) {
    this.runner = runs;
    this.s = settings;
    this.progress = progress;
    this.clock = clock;
    this.startNanos = clock.getAsLong();
  }

  public Result run() {
    Knobs defaults = s.defaults();
    BenchRun warm = run(defaults, 0, true);
    if (!warm.ok()) {
      if (ExitStatus.of(warm.exitStatus()) == ExitStatus.BAD_INPUT) throw BenchRunner.badInput(warm);
      throw new BenchFailedException("the defaults failed (" + warm.label() + ", exit "
          + warm.exitStatus() + "): " + warm.errorTail().lines().reduce((a, b) -> b).orElse(""));
    }
    referenceMd5 = warm.vcfMd5();
    for (int r = 0; r < s.repeats(); r++) run(defaults, r, false);
    RingDiagnosis start = trial(defaults).rings();

    Knobs current = defaults;
    for (Dimension d : order(start.bound())) {
      List<String> values = s.candidates().getOrDefault(d, List.of());
      if (values.size() < 2 && (values.isEmpty() || values.get(0).equals(current.get(d)))) continue;
      current = sweep(d, current);
      if (budgetRanOut) break;
    }

    Confirmation confirmation = null;
    Knobs recommended = defaults;
    if (!current.equals(defaults)) {
      confirmation = confirm(defaults, current);
      if (confirmation != null && confirmation.best().mean() < confirmation.defaults().mean()
          && confirmation.welch().significant(s.alpha())) {
        recommended = current;
      }
    }
    String reason = reason(defaults, start, current, recommended, confirmation);
    return new Result(defaults, recommended, new ArrayList<>(trials.values()), steps, confirmation, reason, budgetRanOut,
        elapsed());
  }

  /** The dimensions in the order the defaults' ring figures suggest, then transports and allocators. */
  static List<Dimension> order(RingDiagnosis.Bound bound) {
    List<Dimension> o = switch (bound) {
      case CONSUMER -> List.of(Dimension.CONSUMERS, Dimension.BATCH_SIZE, Dimension.RING_SIZE, Dimension.SHARDS);
      case PRODUCER -> List.of(Dimension.SHARDS, Dimension.RING_SIZE, Dimension.CONSUMERS, Dimension.BATCH_SIZE);
      default -> List.of(Dimension.SHARDS, Dimension.CONSUMERS, Dimension.BATCH_SIZE, Dimension.RING_SIZE);
    };
    List<Dimension> all = new ArrayList<>(o);
    all.add(Dimension.TRANSPORT);
    all.add(Dimension.ALLOCATOR);
    return all;
  }

  /** Sweeps {@code d} around {@code current}; returns the point kept. */
  private Knobs sweep(Dimension d, Knobs current) {
    List<Knobs> points = new ArrayList<>();
    points.add(current);
    for (String v : s.candidates().get(d)) {
      Knobs k = current.with(d, v);
      if (!points.contains(k) && trial(k).dropped == null) points.add(k);
    }
    if (points.size() < 2) return current;
    Map<Knobs, List<Double>> walls = new LinkedHashMap<>();
    points.forEach(k -> walls.put(k, new ArrayList<>()));
    boolean complete = true;
    for (Schedule.Slot slot : Schedule.interleaved(points.size(), 0, s.repeats(), s.seed() + steps.size() + 1)) {
      Knobs k = points.get(slot.config());
      if (trial(k).dropped != null) continue;
      if (!fits(reserve() + estimate())) {
        budgetRanOut = true;
        complete = false;
        break;
      }
      BenchRun r = run(k, slot.round(), false);
      if (r.ok() && trial(k).dropped == null) walls.get(k).add(r.wallSeconds());
    }
    Knobs best = current;
    double bestMean = mean(walls.get(current));
    Map<String, Double> means = new LinkedHashMap<>();
    for (Knobs k : points) {
      double m = mean(walls.get(k));
      means.put(k.get(d), m);
      if (trial(k).dropped != null || walls.get(k).size() < walls.get(current).size() || Double.isNaN(m)) continue;
      if (m < bestMean * (1 - MIN_GAIN) && (best.equals(current) || m < mean(walls.get(best)))) best = k;
    }
    if (Double.isNaN(bestMean)) best = current;
    if (walls.values().stream().filter(w -> !w.isEmpty()).count() >= 2) steps.add(new Step(d, means, best.get(d), complete));
    return best;
  }

  /** Defaults against {@code best} in interleaved rounds, as many as the budget allows (3 to 10); null when none fit. */
  private Confirmation confirm(Knobs defaults, Knobs best) {
    double perRound = 2 * estimate();
    double left = s.budget().toMillis() / 1000.0 - elapsed();
    int rounds = (int) Math.min(MAX_CONFIRM_ROUNDS, Math.floor(left / perRound));
    if (rounds < MIN_CONFIRM_ROUNDS) rounds = MIN_CONFIRM_ROUNDS; // the reserve was kept for this: run them
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    List<Knobs> pair = List.of(defaults, best);
    for (Schedule.Slot slot : Schedule.interleaved(2, 0, rounds, s.seed() + 1000)) {
      Knobs k = pair.get(slot.config());
      BenchRun r = run(k, slot.round(), false);
      if (!r.ok() || trial(k).dropped != null) return null;
      (slot.config() == 0 ? a : b).add(r.wallSeconds());
    }
    double[] da = a.stream().mapToDouble(Double::doubleValue).toArray();
    double[] db = b.stream().mapToDouble(Double::doubleValue).toArray();
    return new Confirmation(Summary.of(da), Summary.of(db), Welch.test(da, db), rounds);
  }

  /** The recommendation's reason, in the ring figures' terms. */
  private String reason(Knobs defaults, RingDiagnosis start, Knobs best, Knobs recommended, Confirmation c) {
    StringBuilder b = new StringBuilder("With the defaults (").append(String.join(" ", defaults.args())).append("), ")
        .append(start.figures()).append(": ").append(start.verdict()).append(". ");
    if (steps.isEmpty()) {
      return b.append("The budget (").append(clock(s.budget().toSeconds())).append(") left no time to try another configuration")
          .append(" after the defaults' runs of ").append(BenchReport.num(estimate())).append(" s each: give a larger --budget")
          .append(" or a smaller --sample-size.").toString();
    }
    if (best.equals(defaults)) {
      return b.append("No other configuration tried was faster by ").append(Math.round(MIN_GAIN * 100))
          .append(" % or more: keep the defaults.").toString();
    }
    String change = best.differences(defaults);
    if (c == null) {
      return b.append("The sweep found ").append(change).append(" faster, but its confirmation against the defaults did not complete: keep the defaults.").toString();
    }
    String p = BenchReport.p(c.welch().p());
    String figures = String.format(Locale.ROOT, "wall %.2f → %.2f s (%+.1f %%, Welch p %s, %s each)",
        c.defaults().mean(), c.best().mean(), c.defaults().percentChange(c.best()), p.startsWith("<") ? p : "= " + p,
        dev.fastpipe.streaming.Plural.of(c.rounds(), "run"));
    if (recommended.equals(defaults)) {
      return b.append("The best configuration tried, ").append(change).append(", was not faster at alpha ")
          .append(s.alpha()).append(" when run against the defaults: ").append(figures).append(". Keep the defaults.").toString();
    }
    return b.append("Use ").append(change).append(": ").append(trial(best).rings().figures()).append("; ")
        .append(figures).append('.').toString();
  }

  /** Why a failed run is dropped: how it ended (killed by signal N, or exit N) and its last non-blank stderr line. */
  static String failure(BenchRun r) {
    String last = r.errorTail().lines().filter(l -> !l.isBlank()).reduce((x, y) -> y).orElse("");
    String how = r.exitStatus() > 128 ? "killed by signal " + (r.exitStatus() - 128) : "exit " + r.exitStatus();
    return "failed (" + how + ")" + (last.isEmpty() ? "" : ": " + last);
  }

  private BenchRun run(Knobs k, int round, boolean warmup) {
    seq++;
    BenchRun r = runner.run(new BenchConfig(k.name(), Map.of(), k.args()), round, warmup, seq);
    Trial t = trial(k);
    if (!warmup) t.runs.add(r);
    if (!r.ok()) {
      t.dropped = failure(r);
    } else if (referenceMd5 != null && !r.vcfMd5().equals(referenceMd5)) {
      t.dropped = "VCF records differ from the defaults' (" + r.label() + ")";
    }
    if (progress != null) {
      progress.printf(Locale.ROOT, "tune: [%s] run %d %-28s %s%6.2f s%s%n", clock(elapsed()), seq, k.name(),
          warmup ? "warm-up " : "", r.wallSeconds(), t.dropped == null ? "" : "  dropped: " + t.dropped);
    }
    return r;
  }

  private Trial trial(Knobs k) {
    return trials.computeIfAbsent(k.name(), n -> new Trial(k));
  }

  /** Seconds one run takes, from those so far (with a margin). */
  private double estimate() {
    double sum = 0;
    int n = 0;
    for (Trial t : trials.values()) {
      for (BenchRun r : t.runs) {
        sum += r.wallSeconds();
        n++;
      }
    }
    return n == 0 ? 60 : sum / n * 1.1 + 0.5;
  }

  /** The budget kept for the confirmation. */
  private double reserve() {
    return 2 * MIN_CONFIRM_ROUNDS * estimate();
  }

  private boolean fits(double seconds) {
    return elapsed() + seconds <= s.budget().toMillis() / 1000.0;
  }

  private double elapsed() {
    return (clock.getAsLong() - startNanos) / 1e9;
  }

  private static double mean(List<Double> v) {
    return v == null || v.isEmpty() ? Double.NaN : v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  static String clock(double seconds) {
    long s = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
