package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TestRecords;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The one poll loop: when it ends, when it stops, and when it acts on a dry stream. */
class ConsumerLoopTest {

  /** A consumer that delivers a scripted number of records per poll; finished once the script is spent. */
  static class Scripted implements ExampleConsumer {
    final ArrayDeque<Integer> polls;
    final UnsafeBuffer record = new UnsafeBuffer(new byte[8]);
    int limitSeen;

    Scripted(Integer... polls) {
      this.polls = new ArrayDeque<>(List.of(polls));
    }

    @Override
    public int poll(RecordHandler handler, int limit) {
      limitSeen = limit;
      Integer n = polls.poll();
      if (n == null) return 0;
      for (int i = 0; i < n; i++) handler.onRecord(0, record, 0, 8);
      return n;
    }

    @Override
    public boolean finished() {
      return polls.isEmpty();
    }

    @Override
    public void close() {}
  }

  @Test
  void runsToTheEndOfTheStreamAndCountsRecords() {
    Scripted c = new Scripted(3, 0, 0, 2, 0, 1);
    int[] delivered = {0};
    ConsumerLoop loop = new ConsumerLoop(16, new NoOpIdleStrategy());
    assertTrue(loop.run(c, (shard, b, o, l) -> delivered[0]++));
    assertEquals(6, delivered[0]);
    assertEquals(6, loop.records());
    assertEquals(16, c.limitSeen, "polls ask for up to a batch");
  }

  @Test
  void actsOncePerDrySpellAndNotAtTheEnd() {
    // Two dry spells between records (2 and 1 empty polls), then the end of the stream.
    Scripted c = new Scripted(1, 0, 0, 1, 0, 1);
    int[] dry = {0};
    ConsumerLoop loop = new ConsumerLoop(4, new NoOpIdleStrategy()).onDry(0, () -> dry[0]++);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(2, dry[0]);
  }

  @Test
  void waitsForTheDryThresholdBeforeActing() {
    Scripted c = new Scripted(1, 0, 0, 0, 1);
    int[] dry = {0};
    ConsumerLoop loop = new ConsumerLoop(4, new NoOpIdleStrategy()).onDry(Long.MAX_VALUE / 2, () -> dry[0]++);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(0, dry[0], "a short gap is not a dry ring");
  }

  @Test
  void stopsWhenAskedWithoutReachingTheEnd() {
    ExampleConsumer never = new Scripted(0, 0, 0, 0) {
      @Override
      public boolean finished() {
        return false;
      }
    };
    int[] asked = {0};
    ConsumerLoop loop = new ConsumerLoop(4, new NoOpIdleStrategy()).stopWhen(() -> ++asked[0] > 10);
    assertFalse(loop.run(never, (shard, b, o, l) -> {}));
    assertEquals(11, asked[0]);
  }

  /** A clock the idle strategy moves: every wait takes 0.4 ms. */
  static final class FakeTime implements IdleStrategy {
    long now = 1_000_000_000L;

    @Override public void idle(int workCount) { if (workCount == 0) idle(); }
    @Override public void idle() { now += 400_000L; }
    @Override public void reset() { }
  }

  /** Also keeps what the loop reported to it. */
  static class Told extends Scripted {
    final List<Long> idled = new java.util.ArrayList<>();

    Told(Integer... polls) {
      super(polls);
    }

    @Override
    public void idled(long nanos) {
      idled.add(nanos);
    }
  }

  @Test
  void reportsEachDrySpellToTheConsumerWhenItEnds() {
    // Two empty polls before the first record (0.8 ms), three between the records (1.2 ms), then the end.
    Told c = new Told(0, 0, 2, 0, 0, 0, 1);
    FakeTime time = new FakeTime();
    ConsumerLoop loop = new ConsumerLoop(4, time, () -> time.now);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(List.of(800_000L, 1_200_000L), c.idled, "one report per spell, each under the report period");
    assertEquals(2_000_000L, loop.drySpellNanos(), "what the consumer was told, the wait for the first record included");
    assertEquals(1_200_000L, loop.idleNanos(), "between the first record and the last");
  }

  @Test
  void reportsALongSpellWhileItLastsAndItsRestAtTheEnd() {
    // After one record, five empty polls: 1.2 ms are reported during the spell, the last 0.4 ms at the end.
    Told c = new Told(1, 0, 0, 0, 0, 0);
    FakeTime time = new FakeTime();
    ConsumerLoop loop = new ConsumerLoop(4, time, () -> time.now);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(List.of(1_200_000L, 400_000L), c.idled);
    assertEquals(1_600_000L, loop.drySpellNanos());
    assertEquals(0, loop.idleNanos(), "no record came after the spell");
  }

  @Test
  void reportsNothingWhileRecordsFlow() {
    Told c = new Told(3, 2, 1);
    FakeTime time = new FakeTime();
    ConsumerLoop loop = new ConsumerLoop(4, time, () -> time.now);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(List.of(), c.idled);
    assertEquals(0, loop.drySpellNanos());
  }

  @Test
  void countsIdleTimeOnlyAfterTheFirstRecord() {
    // Two empty polls before the first record (0.8 ms), one between the two records (0.4 ms).
    Told c = new Told(0, 0, 1, 0, 1);
    FakeTime time = new FakeTime();
    ConsumerLoop loop = new ConsumerLoop(4, time, () -> time.now);
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    assertEquals(400_000L, loop.idleNanos(), "the wait before the first record does not count");
    assertEquals(1_200_000L, loop.drySpellNanos(), "for the consumer's idle figure it does");
  }

  @Test
  void drainsARealTransport() {
    TransportConfig cfg = TransportConfig.of(2, 256).withRingBytes(64 * 1024);
    try (ExampleTransport t = Transports.create("disruptor", cfg)) {
      Thread a = new Thread(() -> TestRecords.produce(t.producer(0), 0, 5000, 16, 256));
      Thread b = new Thread(() -> TestRecords.produce(t.producer(1), 1, 3000, 16, 256));
      a.start();
      b.start();
      TestRecords.Checker check = new TestRecords.Checker(2, 16, 256);
      try (ExampleConsumer c = t.consumer(new int[] {0, 1})) {
        assertEquals(8000, c.drain(check, 64, TransportConfig.backoff()));
      }
      assertEquals(8000, check.total);
    }
  }

  @Test
  void refusesAnEmptyBatch() {
    assertThrows(IllegalArgumentException.class, () -> new ConsumerLoop(0, new NoOpIdleStrategy()));
  }

  @Test
  void measuresWhatWaitingCostsAndLeavesTheDryActionOut() {
    // A stream that stays empty for 60 ms (a parking idle strategy), then delivers one record and
    // ends; the dry action burns CPU for 30 ms, which must not count as waiting.
    long until = System.nanoTime() + 60_000_000L;
    ExampleConsumer c = new Scripted() {
      boolean sent;

      @Override
      public int poll(RecordHandler handler, int limit) {
        if (sent || System.nanoTime() < until) return 0;
        sent = true;
        handler.onRecord(0, record, 0, 8);
        return 1;
      }

      @Override
      public boolean finished() {
        return sent;
      }
    };
    long[] actionCpu = {0};
    long[] actionWall = {0};
    ConsumerLoop loop = new ConsumerLoop(8, TransportConfig.backoff()).onDry(1_000_000L, () -> {
      var threads = java.lang.management.ManagementFactory.getThreadMXBean();
      long w0 = System.nanoTime();
      long t0 = threads.getCurrentThreadCpuTime();
      if (WaitClock.cpuMeasured()) {
        while (threads.getCurrentThreadCpuTime() - t0 < 20_000_000L) Thread.onSpinWait(); // 20 ms of CPU
      }
      actionCpu[0] = threads.getCurrentThreadCpuTime() - t0;
      actionWall[0] = System.nanoTime() - w0;
    });
    long start = System.nanoTime();
    assertTrue(loop.run(c, (shard, b, o, l) -> {}));
    long loopWall = System.nanoTime() - start;
    WaitClock w = loop.waits();
    assertFalse(w.waiting());
    assertTrue(w.waitNanos() >= 1_000_000L, "the stream was empty at least until the dry action: " + w.waitNanos());
    assertTrue(w.waitNanos() <= loopWall - actionWall[0], "the action's wall time is not a wait");
    if (WaitClock.cpuMeasured()) {
      assertTrue(w.waitCpuNanos() >= 0);
      // The action's CPU is left out: the waits' CPU is below the waits' wall time, and a parking
      // wait costs less than the action's spinning.
      assertTrue(w.waitCpuNanos() <= w.waitNanos(), w.waitCpuNanos() + " > " + w.waitNanos());
      assertTrue(w.waitCpuNanos() < actionCpu[0], "waiting cost " + w.waitCpuNanos() + " ns, the action " + actionCpu[0]);
    } else {
      assertEquals(-1, w.waitCpuNanos());
    }
  }
}
