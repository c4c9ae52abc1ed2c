package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TestRecords;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronicleReplayTest {
  @TempDir Path dir;

  @Test
  void consumerResumesAfterTheLastAcknowledgedIndexAfterCloseAndReopen() {
    TransportConfig cfg = TransportConfig.of(1, 64).withDir(dir).withRunId("replay").withKeepFiles(true);
    TestRecords.Checker c = new TestRecords.Checker(1, 16, 64);
    try (ChronicleTransport t = new ChronicleTransport(cfg)) {
      TestRecords.produce(t.producer(0), 0, 1000, 16, 64);
      try (ChronicleTransport.ChronicleConsumer consumer = t.consumer(0)) {
        int got = 0;
        while (got < 400) got += consumer.poll(c, 400 - got);
        assertEquals(400, c.next[0]);
        consumer.acknowledgeAll();
        assertEquals(consumer.lastIndex(0), consumer.acknowledged(0));
        consumer.poll(c, 50); // delivered but never acknowledged: must come again
        assertEquals(450, c.next[0]);
      }
    }
    assertTrue(Files.isDirectory(dir.resolve("fastpipe-replay-0.cq")), "queue kept for replay");
    TestRecords.Checker again = new TestRecords.Checker(1, 16, 64);
    again.next[0] = 400;
    try (ChronicleTransport t = new ChronicleTransport(cfg.withKeepFiles(false));
        ExampleConsumer consumer = t.consumer(0)) {
      consumer.drain(again, 100, TransportConfig.backoff());
      assertEquals(1000, again.next[0]);
      assertEquals(600, again.total);
    }
    assertFalse(Files.exists(dir.resolve("fastpipe-replay-0.cq")), "queue removed when not kept");
  }
}
