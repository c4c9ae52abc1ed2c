package dev.fastpipe.shm.bench;

import dev.fastpipe.shm.ConsumerLoop;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.ShmProducer;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.Transports;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Moves K records of N bytes from P producers to one consumer through a transport and measures
 * throughput, commit-to-consume latency (HdrHistogram, from a nanoTime stamp written into each
 * record just before commit), producer stall and consumer idle. The producer copies N bytes from
 * a source buffer into the claimed slot; the consumer copies each record out into a 16 MiB
 * destination (as it would into an input tensor). The memcpy baseline copies the same bytes
 * source -> 16 MiB destination on one thread: the physical one-copy limit every transport is a
 * ratio to.
 */
public final class TransportBench {
  /** Record layout: [0,8) sequence, [8,16) commit stamp (System.nanoTime), [16,N) payload. */
  public static final int MIN_RECORD_BYTES = 16;
  private static final int DEST_BYTES = 16 << 20;

  public record Options(int producers, int recordBytes, long records, int ringBytes) {}

  public record Result(String transport, String mode, int producers, int recordBytes, long records, double seconds,
      double gbPerSec, double recordsPerSec, double p50Micros, double p99Micros, double p999Micros,
      double stallPct, double idlePct) {

    public String json(double memcpyGbPerSec) {
      return String.format(Locale.ROOT,
          "{\"transport\":\"%s\",\"mode\":\"%s\",\"producers\":%d,\"recordBytes\":%d,\"records\":%d,\"seconds\":%.4f,"
              + "\"gbPerSec\":%.4f,\"recordsPerSec\":%.1f,\"p50Micros\":%.2f,\"p99Micros\":%.2f,\"p999Micros\":%.2f,"
              + "\"producerStallPct\":%.2f,\"consumerIdlePct\":%.2f,\"vsMemcpy\":%.4f}",
          transport, mode, producers, recordBytes, records, seconds, gbPerSec, recordsPerSec, p50Micros, p99Micros,
          p999Micros, stallPct, idlePct, gbPerSec / memcpyGbPerSec);
    }
  }

  private TransportBench() {}

  /** A payload that compresses roughly like pileup bytes: few distinct values, some runs. */
  static UnsafeBuffer source(int recordBytes) {
    UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(recordBytes));
    SplittableRandom r = new SplittableRandom(42);
    for (int i = 0; i < recordBytes; i++) src.putByte(i, (byte) (r.nextInt(8) * 30));
    return src;
  }

  /** One thread copying N bytes, K times, from a source buffer into a 16 MiB destination. */
  public static Result memcpy(Options o) {
    UnsafeBuffer src = source(o.recordBytes());
    UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(DEST_BYTES, o.recordBytes())));
    int slots = Math.max(1, dst.capacity() / o.recordBytes());
    for (int w = 0; w < Math.min(o.records(), 1000); w++) dst.putBytes((w % slots) * o.recordBytes(), src, 0, o.recordBytes());
    long t0 = System.nanoTime();
    for (long i = 0; i < o.records(); i++) dst.putBytes((int) (i % slots) * o.recordBytes(), src, 0, o.recordBytes());
    double s = (System.nanoTime() - t0) / 1e9;
    return new Result("memcpy", "1 thread", 1, o.recordBytes(), o.records(), s, o.records() * (double) o.recordBytes() / s / 1e9,
        o.records() / s, 0, 0, 0, 0, 0);
  }

  /** Writes {@code count} records through {@code p}, then ends its stream. */
  public static void produce(ExampleProducer p, long count, int recordBytes) {
    UnsafeBuffer src = source(recordBytes);
    MutableDirectBuffer b = null;
    for (long seq = 0; seq < count; seq++) {
      int at = p.claim(recordBytes);
      b = p.buffer();
      b.putBytes(at + MIN_RECORD_BYTES, src, MIN_RECORD_BYTES, recordBytes - MIN_RECORD_BYTES);
      b.putLong(at, seq);
      b.putLong(at + 8, System.nanoTime());
      p.commit();
    }
    p.endOfStream();
  }

  /** Consumes everything, copying each record out and recording its latency. */
  private static final class Sink implements RecordHandler {
    final Histogram latency = new Histogram(3_600_000_000_000L, 3);
    final UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(DEST_BYTES));
    final long[] next;
    long minStamp = Long.MAX_VALUE;
    long count, idleNanos;
    int dstAt;

    final int batch;

    /** Batches of about an eighth of the ring, so the producer refills while the consumer copies. */
    Sink(int shards, Options o) {
      next = new long[shards];
      batch = (int) Math.max(1, Math.min(256, (long) o.ringBytes() / o.recordBytes() / 8));
    }

    @Override
    public void onRecord(int shard, DirectBuffer buffer, int offset, int length) {
      long now = System.nanoTime();
      long stamp = buffer.getLong(offset + 8);
      if (buffer.getLong(offset) != next[shard]++) throw new IllegalStateException("shard " + shard + ": lost or reordered record");
      if (dstAt + length > dst.capacity()) dstAt = 0;
      dst.putBytes(dstAt, buffer, offset, length);
      dstAt += length;
      latency.recordValue(Math.max(0, now - stamp));
      if (stamp < minStamp) minStamp = stamp;
      count++;
    }
  }

  /** Runs one transport with P producer threads in this JVM. */
  public static Result run(String name, Options o, Path dir) throws InterruptedException {
    TransportConfig cfg = TransportConfig.of(o.producers(), o.recordBytes()).withRingBytes(o.ringBytes()).withDir(dir);
    try (ExampleTransport t = Transports.create(name, cfg)) {
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      long per = o.records() / o.producers();
      for (int s = 0; s < o.producers(); s++) {
        ExampleProducer p = t.producer(s);
        long count = s == 0 ? o.records() - per * (o.producers() - 1) : per;
        Thread th = new Thread(() -> {
          try {
            produce(p, count, o.recordBytes());
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "bench-producer-" + s);
        threads.add(th);
      }
      Sink sink = new Sink(o.producers(), o);
      ExampleConsumer c = t.consumer(allShards(o.producers()));
      threads.forEach(Thread::start);
      drain(c, sink, () -> errors.isEmpty() ? null : errors.get(0));
      long end = System.nanoTime();
      for (Thread th : threads) th.join();
      return result(name, "threads", o, t, sink, end);
    }
  }

  /** Runs the shm transport with each producer in its own JVM, started by {@code command(ringFile, shard, count)}. */
  public static Result runProcesses(Options o, ChildCommand command) throws Exception {
    TransportConfig cfg = TransportConfig.of(o.producers(), o.recordBytes()).withRingBytes(o.ringBytes());
    try (ShmTransport t = ShmTransport.create(cfg)) {
      List<Process> children = new ArrayList<>();
      long per = o.records() / o.producers();
      for (int s = 0; s < o.producers(); s++) {
        long count = s == 0 ? o.records() - per * (o.producers() - 1) : per;
        children.add(new ProcessBuilder(command.build(t.path(s), s, count, o.recordBytes()))
            .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start());
      }
      Sink sink = new Sink(o.producers(), o);
      try {
        drain(t.consumer(allShards(o.producers())), sink, () -> {
          for (Process p : children) {
            if (!p.isAlive() && p.exitValue() != 0) return new IllegalStateException("producer process exited with " + p.exitValue());
          }
          return null;
        });
      } finally {
        for (Process p : children) if (p.isAlive() && sink.count == 0) p.destroy();
      }
      long end = System.nanoTime();
      for (Process p : children) p.waitFor();
      return result("shm", "processes", o, t, sink, end);
    }
  }

  /** Builds the command line of one producer process. */
  @FunctionalInterface
  public interface ChildCommand {
    List<String> build(Path ringFile, int shard, long count, int recordBytes);
  }

  /** The producer process: attach to a ring file and write the benchmark records. */
  public static void runChild(Path ring, long count, int recordBytes) {
    try (ShmProducer p = ShmTransport.attachProducer(ring, TransportConfig.backoff())) {
      produce(p, count, recordBytes);
    }
  }

  private static int[] allShards(int n) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) all[i] = i;
    return all;
  }

  /**
   * Drains the consumer through the one {@link ConsumerLoop}; its idle time counts from the first
   * record on (not while producers start up). {@code failure} is asked every 1024 polls.
   */
  private static void drain(ExampleConsumer c, Sink sink, java.util.function.Supplier<Throwable> failure) {
    Throwable[] failed = new Throwable[1];
    long[] polls = new long[1];
    ConsumerLoop loop = new ConsumerLoop(sink.batch, TransportConfig.backoff())
        .stopWhen(() -> (++polls[0] & 1023) == 0 && (failed[0] = failure.get()) != null);
    try (c) {
      if (!loop.run(c, sink)) throw new IllegalStateException("producer failed: " + failed[0].getMessage(), failed[0]);
    }
    sink.idleNanos = loop.idleNanos();
  }

  private static Result result(String name, String mode, Options o, ExampleTransport t, Sink sink, long end) {
    if (sink.count != o.records()) throw new IllegalStateException(name + ": consumed " + sink.count + " of " + o.records() + " records");
    double s = (end - sink.minStamp) / 1e9;
    long stall = 0;
    for (int i = 0; i < t.shards(); i++) stall += t.stats(i).producerStallNanos();
    long idle = sink.idleNanos;
    Histogram h = sink.latency;
    return new Result(name, mode, o.producers(), o.recordBytes(), o.records(), s,
        o.records() * (double) o.recordBytes() / s / 1e9, o.records() / s,
        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
        100.0 * stall / (s * 1e9 * o.producers()), 100.0 * idle / (s * 1e9));
  }

  /** A fixed-width table row, or the header when {@code r} is null. */
  public static String row(Result r, double memcpyGbPerSec) {
    if (r == null) {
      return String.format(Locale.ROOT, "%-10s %-10s %3s %8s %9s %8s %11s %10s %10s %10s %7s %7s %8s",
          "transport", "mode", "P", "bytes", "records", "GB/s", "records/s", "p50 us", "p99 us", "p99.9 us", "stall%", "idle%", "xmemcpy");
    }
    return String.format(Locale.ROOT, "%-10s %-10s %3d %8d %9d %8.3f %11.0f %10.1f %10.1f %10.1f %7.1f %7.1f %8.3f",
        r.transport(), r.mode(), r.producers(), r.recordBytes(), r.records(), r.gbPerSec(), r.recordsPerSec(),
        r.p50Micros(), r.p99Micros(), r.p999Micros(), r.stallPct(), r.idlePct(), r.gbPerSec() / memcpyGbPerSec);
  }
}
