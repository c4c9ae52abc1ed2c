package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every transport moves >= 100,000 checksummed records from several producers: no loss, no duplicate, order kept per producer. */
class TransportIntegrityTest {
  @TempDir Path dir;

  static java.util.List<String> names() { return Transports.NAMES; }

  @ParameterizedTest
  @MethodSource("names")
  void hundredThousandRecordsArriveIntactAndInOrder(String name) throws Exception {
    int shards = 3;
    long perShard = 34_000; // 102,000 records
    TransportConfig cfg = TransportConfig.of(shards, 96).withDir(dir).withRingBytes(64 * 1024);
    try (ExampleTransport t = Transports.create(name, cfg)) {
      assertEquals(name, t.name());
      TestRecords.Checker c = TestRecords.runThreads(t, perShard, 16, 96);
      assertEquals(shards * perShard, c.total);
      for (int s = 0; s < shards; s++) {
        TransportStats st = t.stats(s);
        assertEquals(perShard, st.recordsCommitted(), name + " committed, shard " + s);
        assertEquals(perShard, st.recordsConsumed(), name + " consumed, shard " + s);
        assertEquals(0, st.fillBytes(), name + " fill after draining, shard " + s);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("names")
  void abortedRecordsAreNeverDelivered(String name) throws Exception {
    TransportConfig cfg = TransportConfig.of(1, 64).withDir(dir).withRingBytes(4096);
    try (ExampleTransport t = Transports.create(name, cfg)) {
      ExampleProducer p = t.producer(0);
      TestRecords.Checker c = new TestRecords.Checker(1, 16, 64);
      try (ExampleConsumer consumer = t.consumer(0)) {
        for (long s = 0; s < 200; s++) {
          int junk = p.claim(40);
          p.buffer().putLong(junk, -1L);
          p.abort();
          int len = TestRecords.length(s, 16, 64);
          int at = p.claim(len);
          TestRecords.write(p.buffer(), at, len, 0, s);
          p.commit();
          consumer.poll(c, 100); // single thread: the mutex buffer must drain fully before it is reused
        }
        p.endOfStream();
        consumer.drain(c, 100, TransportConfig.backoff());
      }
      c.assertComplete(200);
    }
  }

  @ParameterizedTest
  @MethodSource("names")
  void unknownOrOversizeIsRejectedBeforeAnythingIsCreated(String name) {
    if (Transports.maxRecordBytes(name, 4096) < Integer.MAX_VALUE / 2) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Transports.create(name, TransportConfig.of(1, 4097).withDir(dir).withRingBytes(4096)));
      assertTrue(e.getMessage().contains("raise --ring-size to at least 65536"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Transports.create(name + "x", TransportConfig.of(1, 10).withDir(dir)));
  }
}
