package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.report.RunSnapshot;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads a running {@code call}'s live figures into a {@link RunSnapshot}, for the sampler: examples
 * from the shards' published progress and the consumers' count, sites from the writer, partitions
 * from the release, ring fill, stall and idle from the transport, CPU per shard from the shards
 * ({@link Shards#cpuNanos}: /proc for processes, the JVM for threads). CPU per stage:
 * make_examples is the shards' sum; postprocess the time spent assembling and writing sites (plain
 * computation on a consumer thread); call_variants the rest of this process's CPU (consumer threads
 * with TensorFlow's own, and the JVM's), less the shards when they are threads of this process.
 * Reads only; every figure it reads is one the run keeps anyway.
 */
final class RunProbe implements Supplier<RunSnapshot> {
  private final long startNanos;
  private final ExampleTransport transport;
  private final Shards shards;
  private final OrderedRelease release;
  private final VcfCallWriter writer;
  private final int consumerCount;
  private final com.sun.management.OperatingSystemMXBean os;
  private volatile CallVariantsConsumers consumers;

  /**
   * @param startNanos {@link System#nanoTime()} when the run started
   * @param consumerCount how many consumer threads the run will have (consumer c reads shard c first)
   */
  RunProbe(long startNanos, ExampleTransport transport, Shards shards, OrderedRelease release, VcfCallWriter writer,
      int consumerCount) {
    this.startNanos = startNanos;
    this.transport = transport;
    this.shards = shards;
    this.release = release;
    this.writer = writer;
    this.consumerCount = consumerCount;
    this.os = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun : null;
  }

  /** {@link System#nanoTime()} when the run started. */
  long startNanos() {
    return startNanos;
  }

  /** The consumers, once they run (examples called is 0 before). */
  void consumers(CallVariantsConsumers c) {
    this.consumers = c;
  }

  @Override
  public RunSnapshot get() {
    long now = System.nanoTime();
    int n = transport.shards();
    List<RunSnapshot.Shard> list = new ArrayList<>(n);
    long made = 0;
    long shardCpu = 0;
    TransportStats[] stats = new TransportStats[n];
    for (int i = 0; i < n; i++) {
      stats[i] = stats(i);
      long examples = shards.examplesMade(i);
      long cpu = shards.cpuNanos(i);
      made += examples;
      shardCpu += cpu;
      list.add(new RunSnapshot.Shard(examples, stats[i].fillBytes(), stats[i].capacityBytes(),
          stats[i].producerStallNanos(), cpu));
    }
    long[] idle = new long[Math.min(consumerCount, n)];
    for (int c = 0; c < idle.length; c++) idle[c] = stats[c].consumerIdleNanos(); // every shard of c has c's idle
    long post = release.nanos();
    long process = os == null ? 0 : os.getProcessCpuTime();
    long callVariants = Math.max(0, process - (shards.inProcesses() ? 0 : shardCpu) - post);
    CallVariantsConsumers c = consumers;
    return new RunSnapshot(now - startNanos, made, c == null ? 0 : c.examplesCalled(), writer.written(),
        release.frontier().doneCount(), release.frontier().partitions(), list, idle,
        new long[] {shardCpu, callVariants, post});
  }

  private TransportStats stats(int shard) {
    try {
      return transport.stats(shard);
    } catch (RuntimeException e) { // a ring being torn down at the very end: no figures, not an error
      return new TransportStats(shard, 0, 0, 0, 0, 0, 0, 0);
    }
  }
}
