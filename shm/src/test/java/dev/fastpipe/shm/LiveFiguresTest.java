package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TestRecords;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run's sampler reads while the run goes on: progress, a stall as it lasts, a process's CPU. */
class LiveFiguresTest {
  @TempDir Path dir;

  @Test
  void progressIsPublishedThroughTheRingHeader() {
    try (ShmTransport t = ShmTransport.create(TransportConfig.of(2, 128).withDir(dir).withRingBytes(1024))) {
      assertEquals(0, t.progress(1), "nothing published yet");
      t.producer(1).progress(7);
      assertEquals(7, t.progress(1));
      assertEquals(0, t.progress(0), "another shard's own");
    }
  }

  @Test
  void aStallIsSeenWhileTheProducerStillWaits() throws Exception {
    try (ShmTransport t = ShmTransport.create(TransportConfig.of(1, 120).withDir(dir).withRingBytes(1024))) {
      ShmProducer p = t.producer(0);
      for (int i = 0; i < 7; i++) { // 7 frames of 128 bytes: the 8th does not fit (Agrona keeps one frame's room)
        int at = p.claim(120);
        TestRecords.write(p.buffer(), at, 120, 0, i);
        p.commit();
      }
      Thread waiting = new Thread(() -> {
        int at = p.claim(120); // waits until the consumer below makes room
        TestRecords.write(p.buffer(), at, 120, 0, 7);
        p.commit();
      });
      waiting.start();
      long seen = 0;
      for (int i = 0; i < 10_000 && seen < 5_000_000L; i++) {
        seen = t.stats(0).producerStallNanos();
        Thread.sleep(1);
      }
      assertTrue(waiting.isAlive(), "the producer still waits");
      assertTrue(seen >= 5_000_000L, "stall so far published during the wait: " + seen);
      ExampleConsumer c = t.consumer(0);
      assertEquals(7, c.poll(new TestRecords.Checker(1, 120, 120), 7));
      waiting.join();
      assertTrue(t.stats(0).producerStallNanos() >= seen, "and in full once it ended");
    }
  }

  @Test
  void aProcessCpuTimeIsReadFromProc() {
    long self = ProcessStat.cpuNanos(ProcessHandle.current().pid());
    assertTrue(self > 0, "this JVM has used CPU: " + self);
    assertEquals(0, self % (1_000_000_000L / ProcessStat.TICKS_PER_SECOND), "whole clock ticks");
    assertEquals(-1, ProcessStat.cpuNanos(Long.MAX_VALUE), "no such process");
  }
}
