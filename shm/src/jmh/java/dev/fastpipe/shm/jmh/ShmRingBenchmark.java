package dev.fastpipe.shm.jmh;

import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import java.util.concurrent.TimeUnit;
import org.agrona.MutableDirectBuffer;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hot paths of the shm ring on one thread (no cross-core effects): claim + write + commit of a
 * record, then poll of one record. Run with the {@code jmh} profile (see README), never in tests.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class ShmRingBenchmark {
  @Param({"1024", "154700"})
  int recordBytes;

  ShmTransport transport;
  ExampleProducer producer;
  ExampleConsumer consumer;
  Blackhole hole;
  final RecordHandler handler = (shard, b, off, len) -> hole.consume(b.getLong(off));

  @Setup
  public void setUp(Blackhole bh) {
    hole = bh;
    transport = ShmTransport.create(TransportConfig.of(1, recordBytes).withRingBytes(16 << 20));
    producer = transport.producer(0);
    consumer = transport.consumer(0);
  }

  @TearDown
  public void tearDown() { transport.close(); }

  @Benchmark
  public int claimCommitPoll() {
    int at = producer.claim(recordBytes);
    MutableDirectBuffer b = producer.buffer();
    b.putLong(at, at);
    b.putLong(at + recordBytes - 8, System.nanoTime());
    producer.commit();
    return consumer.poll(handler, 1);
  }

  @Benchmark
  public int claimAbortPoll() {
    producer.claim(recordBytes);
    producer.abort(); // Agrona turns the slot into padding: the consumer's poll gives the space back
    return consumer.poll(handler, 1);
  }
}
