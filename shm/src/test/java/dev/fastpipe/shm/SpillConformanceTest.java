package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.shm.conformance.TestRecords;
import dev.fastpipe.shm.conformance.TransportConformance;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit over shm and seqring with spilling on ({@code spill-after=1ms}, segments in
 * the test's directory), plus a consumer slow enough that records really go through segments.
 */
class SpillConformanceTest {

  /** What both ring transports get checked for with spilling on. */
  abstract static class Spilling extends TransportConformance {
    @Override protected TransportOptions options() {
      return TransportOptions.of(Map.of(SpillTransport.AFTER, "1ms", SpillTransport.DIR, dir.toString()));
    }

    @Test
    void aSlowConsumerMakesShardsSpillAndStillGetsEveryRecordInOrderOnce() throws Exception {
      long perShard = 3_000;
      try (ExampleTransport t = open(2, 8192, 256)) {
        SpillTransport spill = assertInstanceOf(SpillTransport.class, t, "spilling is on");
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        List<Thread> producers = List.of(0, 1).stream().map(s -> new Thread(() -> {
          try {
            TestRecords.produce(t.producer(s), s, perShard, 16, 256);
          } catch (Throwable e) {
            errors.add(e);
          }
        })).toList();
        producers.forEach(Thread::start);
        TestRecords.Checker check = new TestRecords.Checker(2, 16, 256);
        long[] seen = {0};
        try (ExampleConsumer c = t.consumer(0, 1)) {
          c.drain((shard, b, off, len) -> {
            check.onRecord(shard, b, off, len);
            if (++seen[0] % 20 == 0) LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // slow inference
          }, 16, TransportConfig.backoff());
          assertTrue(c.finished());
        }
        for (Thread p : producers) p.join();
        if (!errors.isEmpty()) throw new AssertionError("producer failed", errors.get(0));
        check.assertComplete(perShard);
        long spilled = spill.spilled(0) + spill.spilled(1);
        assertTrue(spilled > 0, "no record was spilled: the consumer was not slow enough to test spilling");
        assertTrue(spilled < 2 * perShard, "every record was spilled: the ring was never used");
        assertEquals(perShard, t.stats(0).recordsCommitted(), "ring and segment commits of shard 0");
        assertEquals(perShard, t.stats(0).recordsConsumed(), "ring and segment reads of shard 0");
        try (Stream<java.nio.file.Path> left = Files.list(dir)) {
          assertEquals(List.of(), left.filter(p -> p.getFileName().toString().matches(".*\\.spill-[0-9]+")).toList(),
              "drained segments are deleted");
        }
      }
    }

    @Test
    void aCrashedRunsSegmentIsRemovedAndALiveOnesIsKept() throws Exception {
      Process gone = new ProcessBuilder("true").start();
      gone.waitFor();
      java.nio.file.Path dead = dir.resolve("fastpipe-crashed1-abc-0.spill-3");
      java.nio.file.Path live = dir.resolve("fastpipe-other1-abc-0.spill-1");
      try (SpillSegment.Writer w = new SpillSegment.Writer(live, 0, 1, 0)) { } // owned by this live JVM
      java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(SpillSegment.HEADER_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      h.putLong(SpillSegment.MAGIC).putInt(SpillSegment.VERSION).putInt(0).putLong(3).putLong(0).putLong(gone.pid()).putLong(0);
      Files.write(dead, h.array());
      try (ExampleTransport t = open(1, 4096, 64)) {
        assertFalse(Files.exists(dead), "the segment of a dead owner is removed when a run starts");
        assertTrue(Files.exists(live), "a live owner's segment is left alone");
      }
    }

    @Test
    void withoutTheOptionTheRingIsNotWrapped() {
      ExampleTransport t = Transports.create(transportName(), config(1, 4096, 64), TransportOptions.NONE);
      try (t) {
        assertFalse(t instanceof SpillTransport, "spilling is off by default");
      }
    }

    @Test
    void badSpillOptionsAreOneLineErrors() {
      var p = provider();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> p.validate(TransportOptions.of(Map.of(SpillTransport.AFTER, "soon"))));
      assertEquals("transport " + transportName() + ": option spill-after=soon: expected a duration such as 200ms, 5s or 50us", e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> p.validate(TransportOptions.of(Map.of(SpillTransport.DIR, dir.toString()))));
      assertTrue(e.getMessage().contains("needs spill-after"), e.getMessage());
    }
  }

  @Nested class Shm extends Spilling {
    @Override protected String transportName() { return "shm"; }
  }

  @Nested class SeqRing extends Spilling {
    @Override protected String transportName() { return "seqring"; }
  }
}
