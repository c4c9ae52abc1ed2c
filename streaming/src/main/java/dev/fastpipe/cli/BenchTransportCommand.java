package dev.fastpipe.cli;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.Transports;
import dev.fastpipe.shm.bench.TransportBench;
import dev.fastpipe.shm.bench.TransportBench.Options;
import dev.fastpipe.shm.bench.TransportBench.Result;
import dev.fastpipe.streaming.bench.Summary;
import dev.fastpipe.streaming.pipeline.ShardProcesses;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fastpipe bench-transport}: every transport side by side against a memcpy baseline. */
@Command(
    name = "bench-transport",
    header = "Benchmark the example transports against a memcpy baseline.",
    mixinStandardHelpOptions = true,
    description = {
      "Move K records of N bytes from P producers to one consumer through each transport and report",
      "GB/s, records/s, commit->consume latency p50/p99/p99.9, producer stall %% and consumer idle %%,",
      "next to a memcpy baseline (one thread copying the same bytes) as the physical limit.",
      "The disk transport writes to java.io.tmpdir; shm and chronicle to /dev/shm."
    })
public final class BenchTransportCommand implements Callable<Integer> {

  @Option(names = "--transport", defaultValue = "all", description = "all, or a comma-separated list of: shm, disruptor, chronicle, mutex, disk (default: ${DEFAULT-VALUE})")
  String transport;

  @Option(names = "--producers", defaultValue = "1", description = "producer threads/processes, one shard each (default: ${DEFAULT-VALUE})")
  int producers;

  /** One pileup image with the insert-size channel, DeepVariant's size: 100 x 221 x 7 = 154,700 bytes. */
  static final int PILEUP_RECORD_BYTES = ImageShape.DEFAULT_HEIGHT * ImageShape.DEFAULT_WIDTH * 7;

  @Option(names = "--record-bytes", defaultValue = "" + PILEUP_RECORD_BYTES,
      description = "record size (default: ${DEFAULT-VALUE}, a " + ImageShape.DEFAULT_HEIGHT + "x" + ImageShape.DEFAULT_WIDTH
          + "x7 pileup image)")
  int recordBytes;

  @Option(names = "--records", description = "records per transport (default: 512 MiB worth, at least 1000)")
  Long records;

  @Option(names = "--ring-size", defaultValue = "16777216", description = "ring bytes per shard, power of two (default: ${DEFAULT-VALUE} = 16 MiB)")
  int ringSize;

  @Option(names = "--processes", description = "also run shm with each producer in its own JVM process")
  boolean processes;

  @Option(names = "--repeat", defaultValue = "1", description = "run the whole set this many times (default: ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = "--warmup", defaultValue = "1",
      description = "unreported runs of the whole set first, so JIT compilation is not measured (default: ${DEFAULT-VALUE})")
  int warmup;

  @Option(names = "--json", description = "one JSON object per line instead of the table")
  boolean json;

  @Option(names = "--child-ring", hidden = true)
  Path childRing;

  @Option(names = "--child-count", hidden = true)
  long childCount;

  @Override
  public Integer call() throws Exception {
    if (childRing != null) { // a producer process started by --processes
      TransportBench.runChild(childRing, childCount, recordBytes);
      return 0;
    }
    if (producers < 1) throw new UserError("--producers must be >= 1, got " + producers);
    if (recordBytes < TransportBench.MIN_RECORD_BYTES) throw new UserError("--record-bytes must be >= " + TransportBench.MIN_RECORD_BYTES);
    if (repeat < 1) throw new UserError("--repeat must be >= 1");
    if (warmup < 0) throw new UserError("--warmup must be >= 0");
    List<String> names = transport.equals("all") ? Transports.NAMES : List.of(transport.split(","));
    for (String n : names) {
      if (!Transports.NAMES.contains(n)) throw new UserError("--transport: unknown '" + n + "' (choose all, " + String.join(", ", Transports.NAMES) + ")");
      try {
        Transports.checkRecordFits(n, ringSize, recordBytes);
        if (n.equals("shm")) dev.fastpipe.shm.ShmRingDescriptor.checkCapacity(ringSize);
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage());
      }
    }
    long k = records != null ? records : Math.max(1000, (512L << 20) / recordBytes);
    if (k < producers) throw new UserError("--records must be >= --producers");
    Options o = new Options(producers, recordBytes, k, ringSize);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));

    if (!json) System.out.println(TransportBench.row(null, 1));
    Map<String, List<double[]>> byTransport = new LinkedHashMap<>();
    for (int rep = -warmup; rep < repeat; rep++) {
      boolean measured = rep >= 0;
      Result base = TransportBench.memcpy(o);
      print(base, base, measured, byTransport);
      for (String n : names) {
        print(TransportBench.run(n, o, n.equals("disk") ? tmp : TransportConfig.defaultDir()), base, measured, byTransport);
        if (n.equals("shm") && processes) print(TransportBench.runProcesses(o, childCommand()), base, measured, byTransport);
      }
    }
    if (!json && repeat > 1) {
      System.out.printf("%nmedian (min-max) over %d repetitions, after %d warm-up:%n", repeat, warmup);
      System.out.printf("%-10s %-10s %22s %24s %22s %26s%n", "transport", "mode", "GB/s", "M records/s", "xmemcpy", "p99 us");
      for (var e : byTransport.entrySet()) {
        List<double[]> runs = e.getValue();
        System.out.printf("%-21s %22s %24s %22s %26s%n", e.getKey(), spread(runs, 0, "%.2f"), spread(runs, 3, "%.3f"),
            spread(runs, 1, "%.3f"), spread(runs, 2, "%.0f"));
      }
    }
    return 0;
  }

  /** "median (min-max)" of column {@code col}. */
  static String spread(List<double[]> runs, int col, String fmt) {
    Summary s = Summary.of(runs.stream().mapToDouble(r -> r[col]).toArray());
    return String.format(Locale.ROOT, fmt + " (" + fmt + "-" + fmt + ")", s.median(), s.min(), s.max());
  }

  private void print(Result r, Result base, boolean measured, Map<String, List<double[]>> byTransport) {
    if (!measured) return;
    byTransport.computeIfAbsent(String.format("%-10s %-10s", r.transport(), r.mode()), k -> new ArrayList<>())
        .add(new double[] {r.gbPerSec(), r.gbPerSec() / base.gbPerSec(), r.p99Micros(), r.recordsPerSec() / 1e6});
    System.out.println(json ? r.json(base.gbPerSec()) : TransportBench.row(r, base.gbPerSec()));
    System.out.flush();
  }

  /** Producer processes start like shard workers: through the launcher (same allocator and flags) when there is one. */
  private static TransportBench.ChildCommand childCommand() {
    return (ring, shard, count, bytes) -> {
      List<String> cmd = ShardProcesses.launcherCommand("");
      cmd.addAll(List.of("bench-transport", "--child-ring", ring.toString(), "--child-count", Long.toString(count),
          "--record-bytes", Integer.toString(bytes)));
      return cmd;
    };
  }
}
