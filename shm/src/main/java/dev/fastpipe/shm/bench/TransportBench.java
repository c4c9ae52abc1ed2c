package dev.fastpipe.shm.bench;

import dev.fastpipe.shm.ConsumerLoop;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.Transports;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One measurement of {@code bench-transport}: K records of N bytes from P producers (threads, or
 * processes for a transport that can attach producers elsewhere) to M consumer threads, shard i
 * read by consumer i mod M. It measures throughput, commit-to-consume latency (HdrHistogram, from a
 * nanoTime stamp written into each record just before commit), producer stall and consumer idle.
 * The producer copies N bytes from a source buffer into the claimed slot; each consumer copies
 * every record out into a 16 MiB destination (as it would into an input tensor).
 *
 * <p>The two limits beside them, on one thread: {@link #workingSetLimit} copies each record into a
 * working set the size of the rings and back out into the 16 MiB destination, so that it streams
 * through as much memory as the transports do (what a ring could reach at best); {@link #cacheHotMemcpy}
 * copies one record between two record-sized buffers that stay in cache (the figure earlier
 * versions called the physical limit: far above what any ring can reach once the rings exceed the cache).
 */
public final class TransportBench {
  /** Record layout: [0,8) sequence, [8,16) commit stamp (System.nanoTime), [16,N) payload. */
  public static final int MIN_RECORD_BYTES = 16;
  private static final int DEST_BYTES = 16 << 20;
  /** The labels of the two limits in tables and JSON. */
  public static final String LIMIT = "limit", LIMIT_ZEROING = "limit+zero", MEMCPY = "memcpy";

  /**
   * One configuration.
   *
   * @param transport a transport name ({@link Transports})
   * @param processes producers in their own processes (the transport must claim cross-process)
   */
  public record Scenario(String transport, boolean processes, int producers, int consumers, int recordBytes, long records,
      int ringBytes, TransportOptions options) {
    public Scenario {
      if (producers < 1 || consumers < 1 || consumers > producers) {
        throw new IllegalArgumentException("need 1 <= consumers <= producers, got " + consumers + " consumers, " + producers + " producers");
      }
      if (recordBytes < MIN_RECORD_BYTES) throw new IllegalArgumentException("records must be >= " + MIN_RECORD_BYTES + " bytes");
      if (records < producers) throw new IllegalArgumentException("need at least one record per producer");
    }

    public String mode() {
      return processes ? "processes" : "threads";
    }

    /** The same shape with another transport (the limits use {@link #LIMIT} and {@link #MEMCPY}). */
    public Scenario with(String name, boolean procs) {
      return new Scenario(name, procs, producers, consumers, recordBytes, records, ringBytes, options);
    }
  }

  /** What one run measured. Latencies in microseconds; stall: % of the producers' time; idle: % of the consumers'. */
  public record Result(Scenario scenario, double seconds, double gbPerSec, double recordsPerSec, double p50Micros,
      double p99Micros, double p999Micros, double stallPct, double idlePct) {}

  private TransportBench() {}

  /** A payload that compresses roughly like pileup bytes: few distinct values, some runs. */
  static UnsafeBuffer source(int recordBytes) {
    UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(recordBytes));
    SplittableRandom r = new SplittableRandom(42);
    for (int i = 0; i < recordBytes; i++) src.putByte(i, (byte) (r.nextInt(8) * 30));
    return src;
  }

  /**
   * The limit a ring can reach, on one thread: each record copied from the source into the next
   * slot of a working set of {@code producers x ringBytes} (as a producer writes its ring), then
   * from there into the 16 MiB destination (as a consumer reads it out).
   */
  public static Result workingSetLimit(Scenario s) {
    return workingSetCopy(s, false);
  }

  /**
   * {@link #workingSetLimit} plus the third pass Agrona's one-to-one ring makes: the consumed
   * bytes zeroed after they are read ({@code OneToOneRingBuffer.read} clears what it consumed, so
   * that the next lap's record headers start from zero). The difference to the limit is what that
   * pass costs at memory speed.
   */
  public static Result workingSetLimitZeroing(Scenario s) {
    return workingSetCopy(s, true);
  }

  private static Result workingSetCopy(Scenario s, boolean zero) {
    int n = s.recordBytes();
    UnsafeBuffer src = source(n);
    long wsBytes = Math.max((long) s.ringBytes() * s.producers(), n);
    UnsafeBuffer ws = new UnsafeBuffer(ByteBuffer.allocateDirect((int) Math.min(wsBytes, Integer.MAX_VALUE - 8)));
    UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(DEST_BYTES, n)));
    int wsSlots = Math.max(1, ws.capacity() / n);
    int dstSlots = Math.max(1, dst.capacity() / n);
    for (int i = 0; i < wsSlots; i++) ws.putBytes(i * n, src, 0, n); // touch every page once
    long t0 = System.nanoTime();
    for (long i = 0; i < s.records(); i++) {
      int at = (int) (i % wsSlots) * n;
      ws.putBytes(at, src, 0, n);
      dst.putBytes((int) (i % dstSlots) * n, ws, at, n);
      if (zero) ws.setMemory(at, n, (byte) 0);
    }
    double sec = (System.nanoTime() - t0) / 1e9;
    return copyResult(s.with(zero ? LIMIT_ZEROING : LIMIT, false), sec);
  }

  /** One thread copying one record between two record-sized buffers, both cache-hot: not a limit for rings. */
  public static Result cacheHotMemcpy(Scenario s) {
    int n = s.recordBytes();
    UnsafeBuffer src = source(n);
    UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(n));
    for (int w = 0; w < 1000; w++) dst.putBytes(0, src, 0, n);
    long t0 = System.nanoTime();
    for (long i = 0; i < s.records(); i++) {
      dst.putBytes(0, src, 0, n);
      src.putByte(0, dst.getByte(n - 1)); // a dependency, so the loop is not folded away
    }
    double sec = (System.nanoTime() - t0) / 1e9;
    return copyResult(s.with(MEMCPY, false), sec);
  }

  private static Result copyResult(Scenario s, double sec) {
    return new Result(s, sec, s.records() * (double) s.recordBytes() / sec / 1e9, s.records() / sec,
        Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  /** Writes {@code count} records through {@code p}, then ends its stream. */
  public static void produce(ExampleProducer p, long count, int recordBytes) {
    UnsafeBuffer src = source(recordBytes);
    for (long seq = 0; seq < count; seq++) {
      int at = p.claim(recordBytes);
      MutableDirectBuffer b = p.buffer();
      b.putBytes(at + MIN_RECORD_BYTES, src, MIN_RECORD_BYTES, recordBytes - MIN_RECORD_BYTES);
      b.putLong(at, seq);
      b.putLong(at + 8, System.nanoTime());
      p.commit();
    }
    p.endOfStream();
  }

  /** One consumer thread's sink: checks order per shard, copies each record out, records its latency. */
  private static final class Sink implements RecordHandler {
    final Histogram latency = new Histogram(3_600_000_000_000L, 3);
    final UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(DEST_BYTES));
    final long[] next;
    final int batch;
    long minStamp = Long.MAX_VALUE;
    long count, idleNanos, endNanos;
    int dstAt;

    /** Batches of about an eighth of the ring, so the producer refills while the consumer copies. */
    Sink(int shards, Scenario s) {
      next = new long[shards];
      batch = (int) Math.max(1, Math.min(256, (long) s.ringBytes() / s.recordBytes() / 8));
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

  /** Builds the command line of one producer process: attach to {@code address} of {@code transport}. */
  @FunctionalInterface
  public interface ChildCommand {
    List<String> build(String transport, String address, long count, int recordBytes, TransportOptions options);
  }

  /** What a producer process prints once attached, and what it then waits for on stdin. */
  static final String READY = "ready", GO = "go";

  /**
   * The producer process: attach to one shard of a transport, say {@link #READY} on stdout, wait
   * for {@link #GO} on stdin (so that the clock starts when every producer process is up, not at
   * the first one's first record while the others' JVMs still start), then write the records.
   */
  public static void runChild(String transport, String address, long count, int recordBytes, TransportOptions options)
      throws java.io.IOException {
    TransportProvider p = Transports.provider(transport);
    p.validate(options);
    warmUp(transport, options, recordBytes, Math.min(count, 20_000));
    try (ExampleProducer producer = p.attachProducer(address, options)) {
      System.out.println(READY);
      System.out.flush();
      String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8)).readLine();
      if (!GO.equals(line)) throw new IllegalStateException("producer process: expected '" + GO + "' on stdin, got " + line);
      produce(producer, count, recordBytes);
    }
  }

  /**
   * A fresh producer JVM would run its first records interpreted while the threads' producers of
   * the other configurations run compiled code: it first writes {@code records} through a
   * transport of its own (same name and options, drained by a thread here), unmeasured.
   */
  private static void warmUp(String transport, TransportOptions options, int recordBytes, long records) {
    int ring = (int) Math.max(TransportConfig.DEFAULT_RING_BYTES, Transports.ringSizeFor(recordBytes));
    TransportConfig cfg = TransportConfig.of(1, recordBytes).withRingBytes(ring).withRunId(TransportConfig.uniqueRunId("warm"));
    try (ExampleTransport t = Transports.create(transport, cfg, options)) {
      ExampleConsumer c = t.consumer(0);
      Thread drain = new Thread(() -> c.drain((shard, b, off, len) -> { }, 64, TransportConfig.backoff()), "warm-up-consumer");
      drain.start();
      produce(t.producer(0), records, recordBytes);
      drain.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for every producer process to say {@link #READY}, then tells each {@link #GO}. */
  private static void startTogether(List<Process> processes) throws java.io.IOException {
    for (Process p : processes) {
      String line = p.inputReader(java.nio.charset.StandardCharsets.UTF_8).readLine();
      if (!READY.equals(line)) throw new IllegalStateException("producer process did not attach (exit " + (p.isAlive() ? "-" : p.exitValue()) + ")");
    }
    for (Process p : processes) {
      p.getOutputStream().write((GO + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      p.getOutputStream().flush();
    }
  }

  /** Records of shard {@code s}: an equal share, the remainder to shard 0. */
  private static long share(Scenario s, int shard) {
    long per = s.records() / s.producers();
    return shard == 0 ? s.records() - per * (s.producers() - 1) : per;
  }

  /**
   * Runs one scenario of a transport: producers as threads, or as processes started by
   * {@code children} when {@link Scenario#processes()} (null otherwise); files in {@code dir}.
   */
  public static Result run(Scenario s, Path dir, ChildCommand children) throws Exception {
    TransportProvider provider = Transports.provider(s.transport());
    if (s.processes() && !provider.capabilities().crossProcess()) {
      throw new IllegalArgumentException("transport " + s.transport() + " has no producers in other processes");
    }
    TransportConfig cfg = TransportConfig.of(s.producers(), s.recordBytes()).withRingBytes(s.ringBytes()).withDir(dir);
    try (ExampleTransport t = Transports.create(s.transport(), cfg, s.options())) {
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      List<Thread> producerThreads = new ArrayList<>();
      List<Process> processes = new ArrayList<>();
      for (int shard = 0; shard < s.producers(); shard++) {
        long count = share(s, shard);
        if (s.processes()) {
          processes.add(new ProcessBuilder(children.build(s.transport(), t.address(shard), count, s.recordBytes(), s.options()))
              .redirectError(ProcessBuilder.Redirect.INHERIT).start());
        } else {
          ExampleProducer p = t.producer(shard);
          producerThreads.add(new Thread(() -> {
            try {
              produce(p, count, s.recordBytes());
            } catch (Throwable e) {
              errors.add(e);
            }
          }, "bench-producer-" + shard));
        }
      }
      java.util.function.Supplier<Throwable> failure = () -> {
        if (!errors.isEmpty()) return errors.get(0);
        for (Process p : processes) {
          if (!p.isAlive() && p.exitValue() != 0) return new IllegalStateException("producer process exited with " + p.exitValue());
        }
        return null;
      };
      List<Sink> sinks = new ArrayList<>();
      List<Thread> consumerThreads = new ArrayList<>();
      for (int c = 0; c < s.consumers(); c++) {
        List<Integer> mine = new ArrayList<>();
        for (int shard = c; shard < s.producers(); shard += s.consumers()) mine.add(shard);
        Sink sink = new Sink(s.producers(), s);
        sinks.add(sink);
        ExampleConsumer consumer = t.consumer(mine.stream().mapToInt(Integer::intValue).toArray());
        consumerThreads.add(new Thread(() -> {
          try {
            drain(consumer, sink, failure);
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "bench-consumer-" + c));
      }
      try {
        consumerThreads.forEach(Thread::start);
        startTogether(processes);
        producerThreads.forEach(Thread::start);
        for (Thread th : consumerThreads) th.join();
      } finally {
        for (Process p : processes) if (p.isAlive() && !errors.isEmpty()) p.destroy();
        for (Process p : processes) p.getOutputStream().close();
      }
      for (Thread th : producerThreads) th.join();
      for (Process p : processes) p.waitFor();
      if (!errors.isEmpty()) throw new IllegalStateException(s.transport() + ": " + errors.get(0).getMessage(), errors.get(0));
      return result(s, t, sinks);
    }
  }

  /**
   * Drains one consumer through the one {@link ConsumerLoop}; its idle time counts from the first
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
    sink.endNanos = System.nanoTime();
    sink.idleNanos = loop.idleNanos();
  }

  private static Result result(Scenario s, ExampleTransport t, List<Sink> sinks) {
    long count = 0, minStamp = Long.MAX_VALUE, end = 0, idle = 0;
    Histogram h = new Histogram(3_600_000_000_000L, 3);
    for (Sink k : sinks) {
      count += k.count;
      minStamp = Math.min(minStamp, k.minStamp);
      end = Math.max(end, k.endNanos);
      idle += k.idleNanos;
      h.add(k.latency);
    }
    if (count != s.records()) throw new IllegalStateException(s.transport() + ": consumed " + count + " of " + s.records() + " records");
    double sec = (end - minStamp) / 1e9;
    long stall = 0;
    for (int i = 0; i < t.shards(); i++) stall += t.stats(i).producerStallNanos();
    return new Result(s, sec, s.records() * (double) s.recordBytes() / sec / 1e9, s.records() / sec,
        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
        100.0 * stall / (sec * 1e9 * s.producers()), 100.0 * idle / (sec * 1e9 * s.consumers()));
  }
}
