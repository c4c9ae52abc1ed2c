package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TestRecords;
import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShmTransportTest {
  @TempDir Path dir;

  private TransportConfig cfg(int shards, int ringBytes, int maxRecord) {
    return TransportConfig.of(shards, maxRecord).withDir(dir).withRingBytes(ringBytes);
  }

  @Test
  void exactFitFillsTheRingThenWrapsAround() {
    try (ShmTransport t = ShmTransport.create(cfg(1, 1024, 128))) {
      ShmProducer p = t.producer(0);
      assertEquals(128, p.maxRecordLength());
      ExampleConsumer consumer = t.consumer(0);
      // A record of exactly the largest length is accepted and comes back intact.
      TestRecords.Checker max = new TestRecords.Checker(1, 128, 128);
      int at0 = p.claim(128);
      TestRecords.write(p.buffer(), at0, 128, 0, 0);
      p.commit();
      assertEquals(1, consumer.poll(max, 10));
      // 120 bytes + Agrona's 8-byte header = 128-byte frames: seven fit without waiting, the last
      // one after padding to the end of the ring (the ring wraps here).
      for (int i = 0; i < 7; i++) {
        int at = p.claim(120);
        TestRecords.write(p.buffer(), at, 120, 0, i);
        p.commit();
      }
      TransportStats full = t.stats(0);
      assertTrue(full.fillBytes() >= 7 * 128 && full.fillBytes() <= 1024, "fill " + full.fillBytes());
      assertEquals(full.fillBytes(), full.maxFillBytes());
      TestRecords.Checker c = new TestRecords.Checker(1, 120, 120);
      int got = 0;
      for (int i = 0; i < 3 && got < 7; i++) got += consumer.poll(c, 100); // Agrona reads up to the ring's end per call
      assertEquals(7, got);
      assertEquals(0, t.stats(0).fillBytes());
      // Odd lengths so records straddle the end of the ring and Agrona pads around it.
      TestRecords.Checker w = new TestRecords.Checker(1, 16, 120);
      w.next[0] = 7;
      for (long s = 7; s < 2000; s++) {
        int len = TestRecords.length(s, 16, 120);
        int at = p.claim(len);
        TestRecords.write(p.buffer(), at, len, 0, s);
        p.commit();
        if (s % 3 == 0) consumer.poll(w, 100);
      }
      p.endOfStream();
      consumer.drain(w, 100, TransportConfig.backoff());
      assertEquals(2000, w.next[0]);
      assertEquals(2001, t.stats(0).recordsConsumed());
      assertEquals(2001, t.stats(0).recordsCommitted());
      assertTrue(consumer.finished());
    }
  }

  @Test
  void oversizeRecordIsRejectedAtConfigurationNamingTheSizeToRaise() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShmTransport.create(cfg(1, 1 << 20, 154_700)));
    assertTrue(e.getMessage().contains("raise --ring-size to at least 2097152"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Transports.checkRecordFits("shm", 1 << 20, (1 << 17) + 1));
    Transports.checkRecordFits("shm", 16 << 20, 154_700);
    IllegalArgumentException pow2 = assertThrows(IllegalArgumentException.class, () -> ShmTransport.create(cfg(1, 3000, 10)));
    assertTrue(pow2.getMessage().contains("power of two"), pow2.getMessage());
    try (ShmTransport t = ShmTransport.create(cfg(1, 4096, 100))) {
      IllegalArgumentException c = assertThrows(IllegalArgumentException.class, () -> t.producer(0).claim(513));
      assertTrue(c.getMessage().contains("--ring-size"), c.getMessage());
    }
  }

  @Test
  void endOfStreamNeedsEveryProducer() throws Exception {
    try (ShmTransport t = ShmTransport.create(cfg(3, 4096, 64))) {
      ExampleConsumer c = t.consumer(0, 1, 2);
      TestRecords.Checker check = new TestRecords.Checker(3, 16, 64);
      TestRecords.produce(t.producer(0), 0, 5, 16, 64);
      TestRecords.produce(t.producer(1), 1, 5, 16, 64);
      while (c.poll(check, 100) > 0) { }
      assertFalse(c.finished(), "shard 2 has not ended");
      int at = t.producer(2).claim(16);
      TestRecords.write(t.producer(2).buffer(), at, 16, 2, 0);
      t.producer(2).commit();
      t.producer(2).endOfStream();
      assertFalse(c.finished(), "shard 2's record is not consumed yet");
      assertEquals(1, c.poll(check, 100));
      assertTrue(c.finished());
      assertEquals(11, check.total);
    }
  }

  @Test
  void filesAreMode0600AndDeletedOnClose() throws Exception {
    ShmTransport t = ShmTransport.create(cfg(2, 4096, 64).withRunId("perm"));
    Path p = ShmTransport.path(dir, "perm", 1);
    assertEquals(p, t.path(1));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
    t.close();
    assertFalse(Files.exists(p));
    assertFalse(Files.exists(t.path(0)));
  }

  @Test
  void liveOwnerIsRefused() {
    try (ShmTransport t = ShmTransport.create(cfg(1, 4096, 64).withRunId("busy"))) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> ShmTransport.create(cfg(1, 4096, 64).withRunId("busy")));
      assertTrue(e.getMessage().contains("live process " + ProcessHandle.current().pid()), e.getMessage());
      assertTrue(Files.exists(t.path(0)), "the live run's file is left alone");
    }
  }

  @Test
  void staleFileOfDeadOwnerIsRemoved() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(30, TimeUnit.SECONDS);
    long deadPid = gone.pid();
    Path stale = ShmTransport.path(dir, "old", 3); // a shard the new run does not even have
    ByteBuffer h = ByteBuffer.allocate(ShmRingDescriptor.HEADER_LENGTH).order(ByteOrder.nativeOrder());
    h.putLong(ShmRingDescriptor.MAGIC_OFFSET, ShmRingDescriptor.MAGIC);
    h.putLong(ShmRingDescriptor.OWNER_PID_OFFSET, deadPid);
    Files.write(stale, h.array());
    Files.write(ShmTransport.path(dir, "old", 0), h.array());
    try (ShmTransport t = ShmTransport.create(cfg(1, 4096, 64).withRunId("old"))) {
      assertFalse(Files.exists(stale));
      assertEquals(ProcessHandle.current().pid(), ShmRing.readOwnerPid(t.path(0)));
    }
  }

  @Test
  void secondLiveProducerForAShardIsRefused() throws Exception {
    try (ShmTransport t = ShmTransport.create(cfg(1, 4096, 64))) {
      t.producer(0);
      // Same process: the same producer slot is reused, never two writers from two processes.
      assertSame(t.producer(0), t.producer(0));
      assertTrue(new File(t.path(0).toString()).length() > 4096);
    }
  }

  @Test
  void tooLittleFreeSpaceFailsBeforeAnyFileIsWrittenNamingTheSizes() throws Exception {
    assertEquals("/dev/shm has 10 MiB free, the rings need 32 MiB (2 shards x 16 MiB): use --ring-size or free space",
        ShmTransport.spaceShortage("/dev/shm", 10L << 20, 2, 16 << 20));
    assertEquals("/x has 0.5 MiB free, the rings need 1.0 MiB (1 shard x 1 MiB): use --ring-size or free space",
        ShmTransport.spaceShortage("/x", 512 << 10, 1, 1 << 20));
    assertNull(ShmTransport.spaceShortage("/x", 33L << 20, 2, 16 << 20));
    int ring = 1 << 30;
    int shards = (int) (Files.getFileStore(dir).getUsableSpace() / ring) + 1;
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ShmTransport.create(cfg(shards, ring, 64)));
    assertTrue(e.getMessage().startsWith(dir + " has ") && e.getMessage().endsWith(": use --ring-size or free space"),
        e.getMessage());
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "files written before the space check");
    }
  }
}
