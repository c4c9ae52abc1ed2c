package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TestRecords;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer's heartbeat moves while it works and while it waits on a full ring (a slow consumer
 * is no fault), and the monitor counts silence only while it watches.
 */
class HeartbeatTest {
  @TempDir Path dir;

  private ShmTransport transport(int shards) {
    return ShmTransport.create(TransportConfig.of(shards, 64).withDir(dir).withRingBytes(4096));
  }

  @Test
  void claimsAndCommitsAdvanceTheHeartbeat() {
    try (ShmTransport t = transport(1)) {
      assertEquals(0, t.heartbeat(0), "no producer yet");
      ShmProducer p = t.producer(0);
      long attached = t.heartbeat(0);
      assertTrue(attached > 0, "attaching is a sign of life");
      TestRecords.produce(p, 0, 3, 16, 64);
      assertTrue(t.heartbeat(0) >= attached + 6, "claim and commit each beat: " + t.heartbeat(0));
      assertTrue(t.endOfStream(0));
    }
  }

  @Test
  void aProducerWaitingOnAFullRingKeepsBeating() throws Exception {
    try (ShmTransport t = transport(1)) {
      ShmProducer p = t.producer(0);
      Thread writer = new Thread(() -> TestRecords.produce(p, 0, 200, 16, 64)); // far more than 4 KiB
      writer.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      // No consumer: once the producer waits (it publishes its stall while it waits), the ring is
      // full and it never moves on. Counts that merely stand still for a while are no proof on a
      // busy machine (the writer thread may not have been scheduled yet).
      while (t.stats(0).producerStallNanos() == 0 && System.nanoTime() < deadline) Thread.sleep(5);
      assertTrue(t.stats(0).producerStallNanos() > 0, "the writer never waited on the full ring");
      long committed = t.stats(0).recordsCommitted();
      long before = t.heartbeat(0);
      Thread.sleep(50);
      assertEquals(committed, t.stats(0).recordsCommitted(), "the writer should be waiting on the full ring");
      assertTrue(t.heartbeat(0) > before, "no heartbeat while waiting on a full ring");
      TestRecords.Checker c = new TestRecords.Checker(1, 16, 64);
      try (ExampleConsumer consumer = t.consumer(0)) {
        consumer.drain(c, 100, TransportConfig.backoff());
      }
      writer.join(10_000);
      c.assertComplete(200);
      // Each ended stall published what it cost the writer's thread: some CPU, less than its wall time.
      TransportStats s = t.stats(0);
      if (WaitClock.cpuMeasured()) {
        assertTrue(s.producerStallCpuNanos() >= 0, "stall CPU published: " + s.producerStallCpuNanos());
        assertTrue(s.producerStallCpuNanos() <= s.producerStallNanos(),
            s.producerStallCpuNanos() + " ns of CPU in " + s.producerStallNanos() + " ns of stall");
      }
    }
  }

  @Test
  void silenceIsCountedWhileWatchedAndEndsWithTheStream() {
    try (ShmTransport t = transport(2)) {
      long ms = TimeUnit.MILLISECONDS.toNanos(1);
      HeartbeatMonitor m = new HeartbeatMonitor(t, 0);
      m.poll(100 * ms);
      assertEquals(100 * ms, m.silentNanos(0), "not heard from since the start");
      ShmProducer p0 = t.producer(0);
      m.poll(200 * ms);
      assertEquals(0, m.silentNanos(0), "shard 0 attached");
      assertEquals(200 * ms, m.silentNanos(1));
      m.poll(200 * ms + 60 * HeartbeatMonitor.MAX_GAP_NANOS); // the watcher itself stood (Ctrl-Z, suspend)
      assertEquals(200 * ms + HeartbeatMonitor.MAX_GAP_NANOS, m.silentNanos(1), "a gap counts at most MAX_GAP");
      assertEquals(HeartbeatMonitor.MAX_GAP_NANOS, m.silentNanos(0));
      p0.endOfStream();
      m.poll(200 * ms + 61 * HeartbeatMonitor.MAX_GAP_NANOS);
      m.poll(200 * ms + 62 * HeartbeatMonitor.MAX_GAP_NANOS);
      assertEquals(0, m.silentNanos(0), "an ended stream is never silent");
    }
  }
}
