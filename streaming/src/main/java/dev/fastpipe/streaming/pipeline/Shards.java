package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.SubcommandLauncher;
import dev.fastpipe.streaming.plan.RunPlan;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The make_examples shards of one run: shard i runs task i of the {@link RunPlan} and writes into
 * producer i of the transport. Processes ({@link ShardProcesses}, for the shared-memory rings) or
 * threads ({@link ShardThreads}, for the in-process transports) behind one interface, so the run's
 * wiring does not care which.
 */
public interface Shards extends AutoCloseable {

  /**
   * Processes for {@link ShmTransport} (rings other processes can attach to), threads otherwise.
   * {@code shardTimeout} stops a shard process whose ring heartbeat stands still that long (zero:
   * never); {@code launcher} starts a process; threads have no timeout: a JVM is stopped whole, and a stuck thread cannot be stopped
   * safely anyway.
   */
  static Shards forTransport(ExampleTransport transport, SubcommandLauncher launcher, String workerJavaOpts,
      Duration shardTimeout) {
    return transport instanceof ShmTransport
        ? new ShardProcesses(launcher, workerJavaOpts, shardTimeout) : new ShardThreads();
  }

  /** Starts every shard of {@code plan}; returns at once. */
  void start(RunPlan plan, ExampleTransport transport) throws IOException;

  /** The first shard that failed (named, with its last error line), or null. */
  ShardFailedException failure();

  /** True once every shard has ended, well or not. */
  boolean allEnded();

  /** {@link System#nanoTime()} when the last shard ended, or 0 while one still runs. */
  long endNanos();

  /** Waits up to {@code timeout} for every shard to end; returns {@link #failure()}. */
  ShardFailedException await(long timeout, TimeUnit unit) throws InterruptedException;

  /**
   * What each shard that has ended did (one {@link ShardReport} each, in shard order; a process
   * that died without writing one has none), so that counts, CPU and footprints come from one record.
   */
  List<ShardReport> reports();

  /**
   * Examples shard {@code shard} has made so far, read live: what it last published through its
   * producer ({@link dev.fastpipe.shm.ExampleProducer#progress}); 0 before it has started.
   */
  long examplesMade(int shard);

  /**
   * CPU nanoseconds shard {@code shard} has used so far, read live (a process from /proc, a thread
   * from the JVM); the last figure known once it has ended; 0 before it has started.
   */
  long cpuNanos(int shard);

  /** True when the shards run in other processes (their CPU is not this process's). */
  boolean inProcesses();

  /** Stops every shard still running. */
  @Override
  void close();
}
