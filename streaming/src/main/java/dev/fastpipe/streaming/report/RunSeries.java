package dev.fastpipe.streaming.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The time series of one run: its {@link RunSnapshot}s in time order, and what is derived from
 * them per interval (examples/s, time shares, CPU cores). Each interval runs from the sample before
 * (or the run's start, where every counter was zero) to the sample itself.
 *
 * <p>Bounded: past {@link #MAX_SAMPLES} samples, every two neighbours are merged into one
 * ({@link RunSnapshot#mergedWith}), so a run of hours keeps its whole shape at a coarser step and
 * the series stays a few hundred kilobytes of JSON. Thread-safe: the sampler adds while others read.
 */
public final class RunSeries {
  /** Samples kept before neighbours are merged. */
  public static final int MAX_SAMPLES = 2048;

  private final long intervalNanos;
  private final int maxSamples;
  private final List<RunSnapshot> samples = new ArrayList<>();
  private final Map<String, Long> marks = new LinkedHashMap<>();
  private volatile long samplerCpuNanos = -1;

  /** An empty series sampled every {@code intervalNanos}. */
  public RunSeries(long intervalNanos) {
    this(intervalNanos, MAX_SAMPLES);
  }

  RunSeries(long intervalNanos, int maxSamples) {
    if (maxSamples < 2) throw new IllegalArgumentException("maxSamples must be >= 2, got " + maxSamples);
    this.intervalNanos = intervalNanos;
    this.maxSamples = maxSamples;
  }

  /** Appends a sample (times must not go back); merges neighbours once the series is full. */
  public synchronized void add(RunSnapshot s) {
    if (!samples.isEmpty() && s.nanos() < samples.get(samples.size() - 1).nanos()) {
      throw new IllegalArgumentException("sample at " + s.nanos() + " ns is before the last one");
    }
    samples.add(s);
    if (samples.size() > maxSamples) thin();
  }

  /** Merges samples 0+1, 2+3, ...; an odd last sample stays as it is (it is the newest). */
  private void thin() {
    List<RunSnapshot> kept = new ArrayList<>(samples.size() / 2 + 1);
    int i = 0;
    for (; i + 1 < samples.size(); i += 2) kept.add(samples.get(i + 1).mergedWith(samples.get(i)));
    if (i < samples.size()) kept.add(samples.get(i));
    samples.clear();
    samples.addAll(kept);
  }

  /** Notes a moment of the run ("call_variants started"), {@code nanos} after its start; charts draw it. */
  public synchronized void mark(String label, long nanos) {
    marks.put(label, nanos);
  }

  /** The moments noted, in the order noted: label to nanoseconds after the start. */
  public synchronized Map<String, Long> marks() {
    return new LinkedHashMap<>(marks);
  }

  /** CPU time the sampler thread used, or -1 when not known (yet). */
  public long samplerCpuNanos() {
    return samplerCpuNanos;
  }

  void samplerCpuNanos(long nanos) {
    this.samplerCpuNanos = nanos;
  }

  /** The nominal sampling interval the sampler was given. */
  public long intervalNanos() {
    return intervalNanos;
  }

  public synchronized List<RunSnapshot> samples() {
    return List.copyOf(samples);
  }

  public synchronized int size() {
    return samples.size();
  }

  /** Seconds since the run started, per sample. */
  public double[] seconds() {
    List<RunSnapshot> s = samples();
    double[] t = new double[s.size()];
    for (int i = 0; i < t.length; i++) t[i] = s.get(i).nanos() / 1e9;
    return t;
  }

  /** Per interval: how much {@code counter} rose, per second. */
  public double[] perSecond(ToLongFunction<RunSnapshot> counter) {
    return perSecond(counter, 0);
  }

  /**
   * Per sample: how much {@code counter} rose per second over the trailing window of at least
   * {@code windowNanos} that ends at the sample (from the sample before it, with 0: per interval;
   * from the run's start, where counters were 0, while the run is younger than the window).
   */
  public double[] perSecond(ToLongFunction<RunSnapshot> counter, long windowNanos) {
    List<RunSnapshot> s = samples();
    int n = s.size();
    long[] t = new long[n];
    long[] c = new long[n];
    for (int i = 0; i < n; i++) {
      t[i] = s.get(i).nanos();
      c[i] = counter.applyAsLong(s.get(i));
    }
    double[] out = new double[n];
    int from = -1; // the window's start: a sample index, or -1 for the run's start
    for (int i = 0; i < n; i++) {
      while (from + 1 < i && t[i] - t[from + 1] >= windowNanos) from++;
      long t0 = from < 0 ? 0 : t[from];
      long c0 = from < 0 ? 0 : c[from];
      out[i] = t[i] > t0 ? (c[i] - c0) / ((t[i] - t0) / 1e9) : 0;
    }
    return out;
  }

  /**
   * Per interval: the share of the interval (0 to 1) that a nanosecond counter of waiting covers,
   * such as producer stall or consumer idle. A counter that is only told of a wait when it ends rises
   * by more than one interval at once; the excess belongs to the intervals before (the wait began
   * then), so it is carried back to them rather than clipped away.
   */
  public double[] timeShare(ToLongFunction<RunSnapshot> nanosCounter) {
    List<RunSnapshot> s = samples();
    int n = s.size();
    long[] delta = new long[n];
    long[] span = new long[n];
    long prevT = 0;
    long prevC = 0;
    for (int i = 0; i < n; i++) {
      long c = nanosCounter.applyAsLong(s.get(i));
      delta[i] = Math.max(0, c - prevC);
      span[i] = s.get(i).nanos() - prevT;
      prevT = s.get(i).nanos();
      prevC = Math.max(prevC, c);
    }
    double[] out = new double[n];
    long carry = 0;
    for (int i = n - 1; i >= 0; i--) {
      long v = delta[i] + carry;
      long used = Math.min(v, Math.max(0, span[i]));
      out[i] = span[i] > 0 ? (double) used / span[i] : 0;
      carry = v - used;
    }
    return out;
  }

  /** Per interval: CPU cores busy, from a CPU nanosecond counter. */
  public double[] cores(ToLongFunction<RunSnapshot> cpuNanos) {
    return cores(cpuNanos, 0);
  }

  /** CPU cores busy over trailing windows ({@link #perSecond(ToLongFunction, long)}). */
  public double[] cores(ToLongFunction<RunSnapshot> cpuNanos, long windowNanos) {
    double[] perSecond = perSecond(cpuNanos, windowNanos);
    for (int i = 0; i < perSecond.length; i++) perSecond[i] /= 1e9;
    return perSecond;
  }

  /** Per sample: ring fill of {@code shard} as a fraction of its capacity (NaN without a bound). */
  public double[] fill(int shard) {
    List<RunSnapshot> s = samples();
    double[] out = new double[s.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = shard < s.get(i).shards().size() ? s.get(i).shards().get(shard).fillFraction() : Double.NaN;
    }
    return out;
  }

  /** Shards in the newest sample. */
  public int shards() {
    List<RunSnapshot> s = samples();
    return s.isEmpty() ? 0 : s.get(s.size() - 1).shards().size();
  }

  /** Consumers in the newest sample. */
  public int consumers() {
    List<RunSnapshot> s = samples();
    return s.isEmpty() ? 0 : s.get(s.size() - 1).consumers();
  }

  /**
   * The series as the {@code --metrics} file keeps it: columns of equal length, one value per
   * sample (rates and shares rounded; a value not known is null), written by Jackson.
   */
  public record Columns(long intervalMs, int samples, Double samplerCpuMs, Map<String, Double> marks,
      long partitionsTotal, List<Double> tSeconds, List<Long> examplesMade, List<Long> examplesCalled,
      List<Long> sitesWritten, List<Long> partitionsDone, List<Double> examplesMadePerSecond,
      List<Double> examplesCalledPerSecond, List<Double> sitesWrittenPerSecond, Map<String, List<Double>> cpuCores,
      List<ShardColumns> shards, List<ConsumerColumns> consumers) {}

  /** One shard's columns: examples made per second, ring fill, producer stall (a share of time), CPU cores. */
  public record ShardColumns(int shard, List<Double> examplesMadePerSecond, List<Double> ringFill,
      List<Double> producerStall, List<Double> cpuCores) {}

  /** One consumer's idle share of time. */
  public record ConsumerColumns(int consumer, List<Double> idle) {}

  /** The series' {@link Columns}. */
  public Columns columns() {
    List<RunSnapshot> s = samples();
    Map<String, Double> markSeconds = new LinkedHashMap<>();
    marks().forEach((k, v) -> markSeconds.put(k, rounded(v / 1e9, 3)));
    Map<String, List<Double>> stageCores = new LinkedHashMap<>();
    for (int st = 0; st < RunSnapshot.STAGES.size(); st++) {
      int stage = st;
      stageCores.put(RunSnapshot.STAGES.get(st), rounded(cores(x -> x.stageCpuNanos(stage)), 3));
    }
    List<ShardColumns> shardColumns = new ArrayList<>();
    for (int sh = 0; sh < shards(); sh++) {
      int shard = sh;
      shardColumns.add(new ShardColumns(sh, rounded(perSecond(x -> shard(x, shard).examplesMade()), 1),
          rounded(fill(sh), 3), rounded(timeShare(x -> shard(x, shard).producerStallNanos()), 3),
          rounded(cores(x -> shard(x, shard).cpuNanos()), 3)));
    }
    List<ConsumerColumns> consumerColumns = new ArrayList<>();
    for (int c = 0; c < consumers(); c++) {
      int consumer = c;
      consumerColumns.add(new ConsumerColumns(c, rounded(timeShare(x -> idle(x, consumer)), 3)));
    }
    return new Columns(intervalNanos / 1_000_000, size(), samplerCpuNanos < 0 ? null : rounded(samplerCpuNanos / 1e6, 3),
        markSeconds, s.isEmpty() ? 0 : s.get(s.size() - 1).partitions(), rounded(seconds(), 3),
        longs(s, RunSnapshot::examplesMade), longs(s, RunSnapshot::examplesCalled), longs(s, RunSnapshot::sitesWritten),
        longs(s, RunSnapshot::partitionsDone), rounded(perSecond(RunSnapshot::examplesMade), 1),
        rounded(perSecond(RunSnapshot::examplesCalled), 1), rounded(perSecond(RunSnapshot::sitesWritten), 1),
        stageCores, shardColumns, consumerColumns);
  }

  /** Shard {@code i} of a sample, or zeros when that sample has no such shard. */
  static RunSnapshot.Shard shard(RunSnapshot s, int i) {
    return i < s.shards().size() ? s.shards().get(i) : new RunSnapshot.Shard(0, 0, 0, 0, 0);
  }

  static long idle(RunSnapshot s, int consumer) {
    return consumer < s.consumers() ? s.consumerIdleNanos(consumer) : 0;
  }

  private static List<Long> longs(List<RunSnapshot> s, ToLongFunction<RunSnapshot> f) {
    return s.stream().map(x -> f.applyAsLong(x)).toList();
  }

  private static List<Double> rounded(double[] v, int decimals) {
    List<Double> r = new ArrayList<>(v.length);
    for (double d : v) r.add(rounded(d, decimals)); // NaN stays NaN: written as null
    return r;
  }

  private static double rounded(double d, int decimals) {
    double scale = Math.pow(10, decimals);
    return Double.isFinite(d) ? Math.round(d * scale) / scale : d;
  }
}
