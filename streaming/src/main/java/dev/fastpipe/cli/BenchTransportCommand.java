package dev.fastpipe.cli;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.Transports;
import dev.fastpipe.shm.bench.TransportBench;
import dev.fastpipe.shm.bench.TransportBench.Result;
import dev.fastpipe.shm.bench.TransportBench.Scenario;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.bench.BenchReport;
import dev.fastpipe.streaming.bench.MachineLoad;
import dev.fastpipe.streaming.bench.Schedule;
import dev.fastpipe.streaming.bench.TransportReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fastpipe bench-transport}: the transports side by side, against the limit a ring can reach, with statistics. */
@Command(
    name = "bench-transport",
    header = "Benchmark the example transports against the working-set copy limit, with confidence intervals.",
    mixinStandardHelpOptions = true,
    description = {
      "Move K records of N bytes from P producers to M consumers through each transport and report",
      "GB/s, records/s, commit->consume latency p50/p99/p99.9, producer stall %% and consumer idle %%,",
      "next to the limit (one thread copying each record into a ring-sized working set and out again),",
      "that copy plus a zeroing pass (what Agrona's ring adds) and a cache-hot memcpy (not a limit).",
      "Every configuration runs once per round, rounds in a fresh random order;",
      "the summary gives means with 95 %% confidence intervals and Welch's tests against --baseline",
      "(Holm-corrected). The disk transport writes to java.io.tmpdir."
    })
public final class BenchTransportCommand implements Callable<Integer> {

  @Option(names = "--transport", defaultValue = "all", paramLabel = "NAME[,NAME]",
      description = "all (every transport on the class path), or a comma-separated list (default: ${DEFAULT-VALUE})")
  String transport;

  @Option(names = "--transport-opt", paramLabel = "[NAME.]KEY=VALUE",
      description = "A transport's own option (repeatable); NAME. limits it to one transport, e.g. disk.gzip=false")
  List<String> transportOpts = new ArrayList<>();

  @Option(names = "--producers", defaultValue = "1", split = ",", paramLabel = "P",
      description = "producers (threads or processes, one shard each); a list runs each (default: ${DEFAULT-VALUE})")
  List<Integer> producers;

  @Option(names = "--consumers", defaultValue = "1", split = ",", paramLabel = "M",
      description = "consumer threads, shards split among them; a list runs each with P >= M (default: ${DEFAULT-VALUE})")
  List<Integer> consumers;

  /** One pileup image with the insert-size channel, DeepVariant's size: 100 x 221 x 7 = 154,700 bytes. */
  static final int PILEUP_RECORD_BYTES = ImageShape.DEFAULT_HEIGHT * ImageShape.DEFAULT_WIDTH * 7;

  @Option(names = "--record-bytes", defaultValue = "" + PILEUP_RECORD_BYTES, split = ",", paramLabel = "N",
      description = "record sizes, e.g. 48,1024," + PILEUP_RECORD_BYTES + " (default: ${DEFAULT-VALUE}, a " + ImageShape.DEFAULT_HEIGHT
          + "x" + ImageShape.DEFAULT_WIDTH + "x7 pileup image)")
  List<Integer> recordBytes;

  @Option(names = "--records", description = "records per run (default: 512 MiB worth per record size, at least 1000)")
  Long records;

  @Option(names = "--ring-size", defaultValue = "16777216", description = "ring bytes per shard, power of two (default: ${DEFAULT-VALUE} = 16 MiB)")
  int ringSize;

  @Option(names = "--processes", description = "also run each transport that can (shm) with every producer in its own JVM process")
  boolean processes;

  @Option(names = "--repeats", defaultValue = "5", paramLabel = "N",
      description = "measured rounds; every configuration runs once per round (default: ${DEFAULT-VALUE})")
  int repeat;

  /** --repeat: --repeats' first spelling here, kept hidden for one release (OptionSpellingsTest). */
  @Option(names = "--repeat", hidden = true, paramLabel = "N")
  Integer repeatAlias;

  /** The measured rounds: --repeats, or --repeat when that was given. */
  int repeats() {
    return repeatAlias != null ? repeatAlias : repeat;
  }

  @Option(names = "--warmup", defaultValue = "1",
      description = "unreported rounds first, so JIT compilation is not measured (default: ${DEFAULT-VALUE})")
  int warmup;

  @Option(names = "--baseline", defaultValue = "mutex", paramLabel = "NAME",
      description = "the transport every other one is tested against, shape by shape (default: ${DEFAULT-VALUE})")
  String baseline;

  @Option(names = "--seed", defaultValue = "1", description = "seed of the rounds' random order (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", paramLabel = "FILE", description = "also write every run and the summary as JSON")
  Path json;

  @Option(names = "--markdown", paramLabel = "FILE", description = "also write the summary table as Markdown")
  Path markdown;

  @Option(names = "--child-transport", hidden = true)
  String childTransport;

  @Option(names = "--child-address", hidden = true)
  String childAddress;

  @Option(names = "--child-count", hidden = true)
  long childCount;

  @Override
  public Integer call() throws Exception {
    if (childTransport != null) { // a producer process started by --processes
      TransportBench.runChild(childTransport, childAddress, childCount, recordBytes.get(0), TransportOptions.parse(transportOpts));
      return 0;
    }
    List<Scenario> configs = configurations();
    if (json != null) OutputFiles.checkWritable(json, "--json");
    if (markdown != null) OutputFiles.checkWritable(markdown, "--markdown");
    if (json != null && markdown != null && json.toAbsolutePath().normalize().equals(markdown.toAbsolutePath().normalize())) {
      throw new UserError("--json and --markdown name the same file " + json);
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    System.out.println(header());
    List<TransportReport.Run> runs = new ArrayList<>();
    for (Schedule.Slot slot : Schedule.interleaved(configs.size(), warmup, repeat, seed)) {
      Scenario s = configs.get(slot.config());
      double load = MachineLoad.oneMinute();
      Result r = switch (s.transport()) {
        case TransportBench.LIMIT -> TransportBench.workingSetLimit(s);
        case TransportBench.LIMIT_ZEROING -> TransportBench.workingSetLimitZeroing(s);
        case TransportBench.MEMCPY -> TransportBench.cacheHotMemcpy(s);
        default -> TransportBench.run(s, s.transport().equals("disk") ? tmp : TransportConfig.defaultDir(), childCommand());
      };
      if (slot.warmup()) continue;
      runs.add(new TransportReport.Run(slot.round() - warmup, r, load));
      System.out.println(row(r));
      System.out.flush();
    }
    TransportReport report = new TransportReport(runs, baseline, configs);
    String table = report.markdown();
    System.out.printf("%nmean (95 %% CI) over %s in interleaved order, after %s; %s%n%n%s",
        dev.fastpipe.streaming.Plural.of(repeat, "round"), dev.fastpipe.streaming.Plural.of(warmup, "warm-up round"),
        BenchReport.machine(), table);
    if (markdown != null) OutputFiles.writeString(markdown, ".tmp", table, "Markdown table");
    if (json != null) OutputFiles.writeString(json, ".tmp", report.json(BenchReport.machine(), settings()), "JSON");
    return 0;
  }

  /** Every configuration: per record size and (P, M), the two limits, then each transport in threads (and processes). */
  List<Scenario> configurations() {
    List<String> names = transport.equals("all") ? Transports.names() : List.of(transport.split(","));
    TransportOptions all = TransportOptionsArg.parse(names, transportOpts);
    Map<String, TransportOptions> opts = new LinkedHashMap<>();
    for (String n : names) opts.put(n, TransportOptionsArg.validated(n, all));
    if (!names.contains(baseline)) TransportOptionsArg.provider(baseline); // an unknown baseline is named now
    repeat = repeats();
    if (repeat < 1) throw new UserError("--repeats must be >= 1");
    if (warmup < 0) throw new UserError("--warmup must be >= 0");
    List<Scenario> configs = new ArrayList<>();
    java.util.Set<String> limitsOf = new java.util.HashSet<>();
    for (int bytes : recordBytes) {
      if (bytes < TransportBench.MIN_RECORD_BYTES) throw new UserError("--record-bytes must be >= " + TransportBench.MIN_RECORD_BYTES + ", got " + bytes);
      for (String n : names) {
        try {
          Transports.checkRecordFits(n, ringSize, bytes);
          if (n.equals("shm")) dev.fastpipe.shm.ShmRingDescriptor.checkCapacity(ringSize);
        } catch (IllegalArgumentException e) {
          throw new UserError(e.getMessage());
        }
      }
      long k = records != null ? records : Math.max(1000, (512L << 20) / bytes);
      for (int p : producers) {
        if (p < 1) throw new UserError("--producers must be >= 1, got " + p);
        if (k < p) throw new UserError("--records must be >= --producers");
        for (int m : consumers) {
          if (m < 1) throw new UserError("--consumers must be >= 1, got " + m);
          if (m > p) continue; // a consumer without a shard
          if (!limitsOf.contains(bytes + "/" + p)) { // once per record size and producers: M changes nothing there
            limitsOf.add(bytes + "/" + p);
            Scenario limit = new Scenario(TransportBench.LIMIT, false, p, 1, bytes, k, ringSize, TransportOptions.NONE);
            configs.add(limit);
            configs.add(limit.with(TransportBench.LIMIT_ZEROING, false));
            configs.add(limit.with(TransportBench.MEMCPY, false));
          }
          for (String n : names) {
            Scenario s = new Scenario(n, false, p, m, bytes, k, ringSize, opts.get(n));
            configs.add(s);
            TransportProvider provider = TransportOptionsArg.provider(n);
            if (processes && provider.capabilities().crossProcess()) configs.add(new Scenario(n, true, p, m, bytes, k, ringSize, opts.get(n)));
          }
        }
      }
    }
    if (configs.stream().noneMatch(s -> s.producers() >= s.consumers())) throw new UserError("no --consumers value is <= a --producers value");
    return configs;
  }

  private Map<String, Object> settings() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("transports", transport);
    m.put("transportOptions", String.join(" ", transportOpts));
    m.put("producers", producers.toString());
    m.put("consumers", consumers.toString());
    m.put("recordBytes", recordBytes.toString());
    m.put("ringBytes", ringSize);
    m.put("processes", processes);
    m.put("rounds", repeat);
    m.put("warmupRounds", warmup);
    m.put("seed", seed);
    m.put("cpus", Runtime.getRuntime().availableProcessors());
    return m;
  }

  static String header() {
    return String.format(Locale.ROOT, "%-10s %-10s %3s %3s %8s %9s %8s %11s %10s %10s %10s %7s %7s",
        "transport", "mode", "P", "M", "bytes", "records", "GB/s", "records/s", "p50 us", "p99 us", "p99.9 us", "stall%", "idle%");
  }

  /** One run as a fixed-width row. */
  static String row(Result r) {
    Scenario s = r.scenario();
    boolean lim = TransportReport.isLimit(s);
    return String.format(Locale.ROOT, "%-10s %-10s %3d %3s %8d %9d %8.3f %11.0f %10.1f %10.1f %10.1f %7.1f %7.1f",
        s.transport(), lim ? "1 thread" : s.mode(), s.producers(), lim ? "-" : Integer.toString(s.consumers()), s.recordBytes(),
        s.records(), r.gbPerSec(), r.recordsPerSec(), r.p50Micros(), r.p99Micros(), r.p999Micros(), r.stallPct(), r.idlePct());
  }

  /** Producer processes start like shard workers: through the launcher (same allocator and flags) when there is one. */
  private static TransportBench.ChildCommand childCommand() {
    return (name, address, count, bytes, options) -> {
      List<String> cmd = Main.LAUNCHER.command("");
      cmd.addAll(List.of("bench-transport", "--child-transport", name, "--child-address", address, "--child-count",
          Long.toString(count), "--record-bytes", Integer.toString(bytes)));
      for (String w : options.words()) cmd.addAll(List.of("--transport-opt", w));
      return cmd;
    };
  }
}
