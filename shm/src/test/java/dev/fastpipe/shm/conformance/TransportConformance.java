package dev.fastpipe.shm.conformance;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.shm.ConsumerLoop;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.shm.Transports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit of fastpipe's transports: extend it, name your transport, and JUnit 5 runs
 * every contract a transport must keep ({@code fastpipe-shm} test-jar; docs/tools.md, "Writing a
 * transport"):
 *
 * <ul>
 *   <li>order per producer, no loss and no duplication, over 100,000 checksummed records from three producers;
 *   <li>shards split between two consumers;
 *   <li>end of stream per producer: a consumer is finished only when each of its shards has ended and been drained;
 *   <li>an aborted claim is never delivered;
 *   <li>records of every size from 1 byte up to the largest the ring takes, and a larger claim refused;
 *   <li>a full ring makes the producer wait (back-pressure), nothing dropped, the wait reported as stall
 *       (transports whose provider claims {@link TransportProvider.Capabilities#bounded()});
 *   <li>a consumer slower than its producers still gets everything, in order;
 *   <li>a producer that dies mid-stream: its shard is reported (not {@link ExampleTransport#ended ended}, its
 *       commits counted), the records it committed arrive intact, and every other shard finishes;
 *   <li>producers in other processes, and one killed mid-stream ({@link TransportProvider.Capabilities#crossProcess()});
 *   <li>the consumer idle figure of each shard's stats is exactly what the {@link ConsumerLoop} driving its
 *       consumer measured ({@link ExampleConsumer#idled}): the transport measures no idle time of its own.
 * </ul>
 *
 * Tests a transport cannot claim are skipped with a message (JUnit assumptions). No test asserts a time.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public abstract class TransportConformance {
  /** Files of the transport under test go here (a fresh directory per test). */
  @TempDir protected Path dir;

  /** The {@code --transport} name of the transport under test (found through ServiceLoader). */
  protected abstract String transportName();

  /** Its options ({@code --transport-opt}); none by default. */
  protected TransportOptions options() {
    return TransportOptions.NONE;
  }

  protected final TransportProvider provider() {
    return Transports.provider(transportName());
  }

  /** The configuration every test starts from: files in {@link #dir}. */
  protected TransportConfig config(int shards, int ringBytes, int maxRecordBytes) {
    return TransportConfig.of(shards, maxRecordBytes).withDir(dir).withRingBytes(ringBytes);
  }

  protected final ExampleTransport open(int shards, int ringBytes, int maxRecordBytes) {
    ExampleTransport t = Transports.create(transportName(), config(shards, ringBytes, maxRecordBytes), options());
    assertEquals(transportName(), t.name(), "name()");
    assertEquals(shards, t.shards(), "shards()");
    return t;
  }

  private static int[] range(int from, int to) {
    int[] r = new int[to - from];
    for (int i = from; i < to; i++) r[i - from] = i;
    return r;
  }

  @Test
  void orderPerProducerNoLossNoDuplication() throws Exception {
    int shards = 3;
    long perShard = 34_000; // 102,000 records
    try (ExampleTransport t = open(shards, 64 * 1024, 96)) {
      TestRecords.Checker c = TestRecords.runThreads(t, perShard, 16, 96);
      assertEquals(shards * perShard, c.total);
      for (int s = 0; s < shards; s++) {
        TransportStats st = t.stats(s);
        assertEquals(perShard, st.recordsCommitted(), "committed, shard " + s);
        assertEquals(perShard, st.recordsConsumed(), "consumed, shard " + s);
        assertEquals(0, st.fillBytes(), "fill after draining, shard " + s);
        assertTrue(t.ended(s), "shard " + s + " ended");
      }
    }
  }

  @Test
  void twoConsumersSplitTheShardsAndEachGetsOnlyItsOwn() throws Exception {
    int shards = 4;
    long perShard = 5_000;
    try (ExampleTransport t = open(shards, 64 * 1024, 200)) {
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int s = 0; s < shards; s++) threads.add(producerThread(t, s, perShard, 16, 200, errors));
      TestRecords.Checker even = new TestRecords.Checker(shards, 16, 200), odd = new TestRecords.Checker(shards, 16, 200);
      Thread second = new Thread(() -> {
        try (ExampleConsumer c = t.consumer(1, 3)) {
          c.drain(odd, 64, TransportConfig.backoff());
        } catch (Throwable e) {
          errors.add(e);
        }
      });
      threads.forEach(Thread::start);
      second.start();
      try (ExampleConsumer c = t.consumer(0, 2)) {
        c.drain(even, 64, TransportConfig.backoff());
      }
      second.join();
      for (Thread th : threads) th.join();
      if (!errors.isEmpty()) throw new AssertionError("a thread failed", errors.get(0));
      assertArrayEquals(new long[] {perShard, 0, perShard, 0}, even.next);
      assertArrayEquals(new long[] {0, perShard, 0, perShard}, odd.next);
    }
  }

  @Test
  void endOfStreamIsPerProducer() throws Exception {
    try (ExampleTransport t = open(3, 4096, 64); ExampleConsumer c = t.consumer(0, 1, 2)) {
      TestRecords.Checker check = new TestRecords.Checker(3, 16, 64);
      TestRecords.produce(t.producer(0), 0, 5, 16, 64);
      TestRecords.produce(t.producer(1), 1, 5, 16, 64);
      assertTrue(t.ended(0) && t.ended(1));
      assertFalse(t.ended(2), "shard 2 has not ended");
      while (c.poll(check, 100) > 0) { }
      assertFalse(c.finished(), "shard 2 has not ended");
      ExampleProducer p2 = t.producer(2);
      int at = p2.claim(16);
      TestRecords.write(p2.buffer(), at, 16, 2, 0);
      p2.commit();
      if (provider().capabilities(options()).streaming()) {
        assertEquals(1, pollUntil(c, check, 1), "shard 2's record arrives before its end");
        assertFalse(c.finished(), "shard 2 committed a record but has not ended");
      }
      p2.endOfStream();
      assertTrue(t.ended(2));
      c.drain(check, 100, TransportConfig.backoff());
      assertTrue(c.finished());
      assertArrayEquals(new long[] {5, 5, 1}, check.next);
      p2.endOfStream(); // idempotent
    }
  }

  @Test
  void theConsumerIdleFigureIsWhatItsLoopMeasured() {
    try (ExampleTransport t = open(2, 4096, 64); ExampleConsumer c = t.consumer(0, 1)) {
      TestRecords.Checker check = new TestRecords.Checker(2, 16, 64);
      // Dry spells the loop sees: every empty poll parks 2 ms; shard 0's records come at the third
      // wait, shard 1's at the sixth, so the stream is empty before the first record and between the two.
      int[] waits = {0};
      IdleStrategy dry = new IdleStrategy() {
        @Override public void idle(int workCount) { if (workCount == 0) idle(); }
        @Override public void reset() { }
        @Override public void idle() {
          LockSupport.parkNanos(2_000_000L);
          waits[0]++;
          if (waits[0] == 3) TestRecords.produce(t.producer(0), 0, 5, 16, 64);
          if (waits[0] == 6) TestRecords.produce(t.producer(1), 1, 5, 16, 64);
        }
      };
      ConsumerLoop loop = new ConsumerLoop(100, dry);
      assertTrue(loop.run(c, check));
      assertArrayEquals(new long[] {5, 5}, check.next);
      assertTrue(waits[0] >= 6, "both shards were produced while the consumer waited");
      assertTrue(loop.drySpellNanos() > 0, "the loop measured the dry spells");
      assertTrue(loop.idleNanos() > 0, "the spell between the shards' records");
      for (int s = 0; s < 2; s++) {
        assertEquals(loop.drySpellNanos(), t.stats(s).consumerIdleNanos(),
            "shard " + s + " publishes the idle time its consumer's loop measured");
      }
    }
  }

  /** Polls until {@code want} records arrived (or fails after 30 s without any); returns how many. */
  private static long pollUntil(ExampleConsumer c, TestRecords.Checker check, long want) {
    long got = 0, deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (got < want && System.nanoTime() < deadline) {
      int n = c.poll(check, 100);
      got += n;
      if (n == 0) LockSupport.parkNanos(100_000);
    }
    return got;
  }

  @Test
  void anAbortedClaimIsNeverDelivered() throws Exception {
    try (ExampleTransport t = open(1, 4096, 64); ExampleConsumer consumer = t.consumer(0)) {
      ExampleProducer p = t.producer(0);
      TestRecords.Checker c = new TestRecords.Checker(1, 16, 64);
      for (long s = 0; s < 200; s++) {
        int junk = p.claim(40);
        p.buffer().putLong(junk, -1L);
        p.abort();
        int len = TestRecords.length(s, 16, 64);
        int at = p.claim(len);
        TestRecords.write(p.buffer(), at, len, 0, s);
        p.commit();
        consumer.poll(c, 100); // one thread: a ring must not fill up while nobody reads
      }
      p.endOfStream();
      consumer.drain(c, 100, TransportConfig.backoff());
      c.assertComplete(200);
      assertEquals(200, t.stats(0).recordsCommitted(), "aborted claims are not commits");
    }
  }

  @Test
  void recordsOfEverySizeUpToTheLimitAndNoLarger() throws Exception {
    int ring = 4096;
    int bound = provider().maxRecordBytes(ring);
    int limit = bound < Integer.MAX_VALUE / 2 ? bound : 512; // no ring bound: the configured record size
    try (ExampleTransport t = open(1, ring, limit); ExampleConsumer c = t.consumer(0)) {
      ExampleProducer p = t.producer(0);
      assertTrue(p.maxRecordLength() >= limit, "maxRecordLength " + p.maxRecordLength() + " < " + limit);
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      Thread producer = new Thread(() -> {
        try {
          for (int len = 1; len <= limit; len++) {
            int at = p.claim(len);
            for (int i = 0; i < len; i++) p.buffer().putByte(at + i, (byte) (len * 31 + i));
            p.commit();
          }
          assertThrows(IllegalArgumentException.class, () -> p.claim(p.maxRecordLength() + 1), "a claim above the limit");
          p.endOfStream();
        } catch (Throwable e) {
          errors.add(e);
          p.endOfStream();
        }
      });
      producer.start();
      int[] next = {1};
      c.drain((shard, b, off, len) -> {
        if (len != next[0]) fail("expected a record of " + next[0] + " bytes, got " + len);
        for (int i = 0; i < len; i++) if (b.getByte(off + i) != (byte) (len * 31 + i)) fail("record of " + len + " bytes: byte " + i);
        next[0]++;
      }, 64, TransportConfig.backoff());
      producer.join();
      if (!errors.isEmpty()) throw new AssertionError("producer failed", errors.get(0));
      assertEquals(limit + 1, next[0], "every size 1.." + limit);
    }
  }

  @Test
  void aFullRingMakesTheProducerWaitAndDropsNothing() throws Exception {
    assumeTrue(provider().capabilities(options()).bounded(), transportName() + " has no bounded ring: nothing to fill");
    long records = 1000; // 64 KiB of records through a 4 KiB ring
    try (ExampleTransport t = open(1, 4096, 64)) {
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      Thread producer = producerThread(t, 0, records, 64, 64, errors);
      producer.start();
      // Nobody reads: the producer must stop with the ring full (not drop, not overwrite, not fail).
      long committed = -1;
      for (int stable = 0; stable < 20; ) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        long now = t.stats(0).recordsCommitted();
        stable = now == committed ? stable + 1 : 0;
        committed = now;
      }
      assertTrue(producer.isAlive(), "the producer finished although nobody read the full ring");
      assertTrue(errors.isEmpty(), () -> "the producer failed on a full ring: " + errors.get(0));
      assertTrue(committed < records, "committed " + committed);
      assertFalse(t.ended(0));
      TestRecords.Checker c = new TestRecords.Checker(1, 64, 64);
      try (ExampleConsumer consumer = t.consumer(0)) {
        consumer.drain(c, 16, TransportConfig.backoff());
      }
      producer.join();
      c.assertComplete(records);
      assertTrue(t.stats(0).producerStallNanos() > 0, "the wait on the full ring is reported as producer stall");
    }
  }

  @Test
  void aConsumerSlowerThanItsProducersGetsEverythingInOrder() throws Exception {
    try (ExampleTransport t = open(2, 8192, 128)) {
      long perShard = 2_000;
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      List<Thread> threads = List.of(producerThread(t, 0, perShard, 16, 128, errors), producerThread(t, 1, perShard, 16, 128, errors));
      threads.forEach(Thread::start);
      TestRecords.Checker check = new TestRecords.Checker(2, 16, 128);
      long[] seen = {0};
      try (ExampleConsumer c = t.consumer(0, 1)) {
        c.drain((shard, b, off, len) -> {
          check.onRecord(shard, b, off, len);
          if (++seen[0] % 50 == 0) LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // slow work
        }, 16, TransportConfig.backoff());
      }
      for (Thread th : threads) th.join();
      if (!errors.isEmpty()) throw new AssertionError("producer failed", errors.get(0));
      check.assertComplete(perShard);
    }
  }

  @Test
  void aProducerThatDiesMidStreamIsReportedAndTheOthersFinish() throws Exception {
    // The dying producer's records are read only after it died, so they must fit its ring unread:
    // 100 records of at most 128 bytes in 64 KiB (341 fixed 192-byte slots for seqring).
    long perShard = 2_000, beforeDeath = 100;
    try (ExampleTransport t = open(3, 64 * 1024, 128)) {
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      ExampleProducer dying = t.producer(1);
      Thread dies = new Thread(() -> {
        for (long s = 0; s < beforeDeath; s++) {
          int len = TestRecords.length(s, 16, 128);
          int at = dying.claim(len);
          TestRecords.write(dying.buffer(), at, len, 1, s);
          dying.commit();
        }
        int at = dying.claim(100); // a claim it never commits: torn bytes must not be delivered
        dying.buffer().putLong(at, -1);
        throw new IllegalStateException("the producer of shard 1 dies here (expected by the test)");
      });
      dies.setUncaughtExceptionHandler((th, e) -> { });
      List<Thread> live = List.of(producerThread(t, 0, perShard, 16, 128, errors), producerThread(t, 2, perShard, 16, 128, errors));
      dies.start();
      live.forEach(Thread::start);
      TestRecords.Checker others = new TestRecords.Checker(3, 16, 128);
      try (ExampleConsumer c = t.consumer(0, 2)) {
        c.drain(others, 64, TransportConfig.backoff()); // the dead shard is not theirs: they finish
        assertTrue(c.finished());
      }
      for (Thread th : live) th.join();
      dies.join();
      if (!errors.isEmpty()) throw new AssertionError("a live producer failed", errors.get(0));
      assertArrayEquals(new long[] {perShard, 0, perShard}, others.next);
      // The dead shard: reported as not ended with its commits counted; what it committed arrives intact.
      assertFalse(t.ended(1), "the dead producer's shard must not look ended");
      assertTrue(t.ended(0) && t.ended(2));
      assertEquals(beforeDeath, t.stats(1).recordsCommitted(), "commits of the dead producer");
      TestRecords.Checker dead = new TestRecords.Checker(3, 16, 128);
      try (ExampleConsumer c = t.consumer(1)) {
        long got = provider().capabilities(options()).streaming() ? pollUntil(c, dead, beforeDeath) : drainNow(c, dead);
        if (provider().capabilities(options()).streaming()) assertEquals(beforeDeath, got, "the dead producer's committed records");
        assertFalse(c.finished(), "a consumer of the dead shard is never finished");
        assertEquals(0, c.poll(dead, 100), "nothing after the last commit (the torn claim)");
      }
    }
  }

  private static long drainNow(ExampleConsumer c, TestRecords.Checker check) {
    long got = 0;
    for (int n; (n = c.poll(check, 100)) > 0; ) got += n;
    return got;
  }

  @Test
  void producersInOtherProcessesAndOneKilledMidStream() throws Exception {
    assumeTrue(provider().capabilities(options()).crossProcess(), transportName() + " does not claim producers in other processes");
    int shards = 3;
    long perShard = 20_000;
    try (ExampleTransport t = open(shards, 64 * 1024, 256)) {
      List<Process> children = new ArrayList<>();
      for (int s = 0; s < shards; s++) {
        long count = s == 1 ? Long.MAX_VALUE / 2 : perShard; // shard 1 never ends: it is killed
        children.add(child(t.address(s), s, count, 16, 256));
      }
      TestRecords.Checker c = new TestRecords.Checker(shards, 16, 256);
      boolean killed = false;
      try (ExampleConsumer consumer = t.consumer(range(0, shards))) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!killed || c.next[0] < perShard || c.next[2] < perShard) {
          if (System.nanoTime() > deadline) fail("records stopped arriving: " + java.util.Arrays.toString(c.next));
          if (!killed && c.next[1] >= 1_000) {
            children.get(1).destroyForcibly().waitFor(); // kill -9 mid-stream
            killed = true;
          }
          if (consumer.poll(c, 256) == 0) {
            for (int s : new int[] {0, 2}) {
              Process p = children.get(s);
              if (!p.isAlive() && p.exitValue() != 0) fail("child producer " + s + " failed with exit " + p.exitValue());
            }
            LockSupport.parkNanos(50_000);
          }
        }
        while (consumer.poll(c, 256) > 0) { } // what the killed one committed
        assertTrue(killed, "shard 1 was killed mid-stream");
        assertFalse(consumer.finished(), "the killed producer's shard has not ended");
        for (int s : new int[] {0, 2}) {
          assertTrue(children.get(s).waitFor(1, TimeUnit.MINUTES), "child " + s + " exits");
          assertEquals(0, children.get(s).exitValue(), "child " + s + " exit status");
        }
      } finally {
        for (Process p : children) p.destroyForcibly();
      }
      assertEquals(perShard, c.next[0]);
      assertEquals(perShard, c.next[2]);
      assertTrue(c.next[1] >= 1_000, "shard 1 delivered " + c.next[1]);
      assertFalse(t.ended(1), "the killed producer's shard is reported");
      assertTrue(t.ended(0) && t.ended(2));
      // Killed between publishing a record and counting it, the counter is one behind: never more.
      long counted = t.stats(1).recordsCommitted();
      assertTrue(c.next[1] == counted || c.next[1] == counted + 1,
          "the killed producer counted " + counted + " commits, " + c.next[1] + " were delivered intact");
    }
  }

  /** A producer JVM on this test's class path, with its --add-opens flags. */
  protected Process child(String address, int shard, long count, int minLen, int maxLen) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-") || a.startsWith("-Dfastpipe.")) cmd.add(a);
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildProducer.class.getName(), transportName(), address,
        Integer.toString(shard), Long.toString(count), Integer.toString(minLen), Integer.toString(maxLen)));
    cmd.addAll(options().words());
    return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static Thread producerThread(ExampleTransport t, int shard, long count, int minLen, int maxLen, List<Throwable> errors) {
    ExampleProducer p = t.producer(shard);
    return new Thread(() -> {
      try {
        TestRecords.produce(p, shard, count, minLen, maxLen);
      } catch (Throwable e) {
        errors.add(e);
      }
    }, "producer-" + shard);
  }
}
