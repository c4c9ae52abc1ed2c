package dev.fastpipe.shm.conformance;

import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.TransportConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Self-checking test records: shard (int), sequence (long), CRC32C of the payload (int), then a
 * payload derived from (shard, sequence) whose length varies with the sequence.
 */
public final class TestRecords {
  public static final int HEADER = 16;

  private TestRecords() {}

  public static int length(long seq, int minLen, int maxLen) {
    return minLen + (int) ((seq * 2654435761L & 0x7fffffffL) % (maxLen - minLen + 1));
  }

  /** Writes one record of {@code len} bytes (>= HEADER) at {@code at}. */
  public static void write(MutableDirectBuffer b, int at, int len, int shard, long seq) {
    b.putInt(at, shard);
    b.putLong(at + 4, seq);
    CRC32C crc = new CRC32C();
    for (int i = HEADER; i < len; i++) {
      byte v = (byte) (seq * 31 + i * 7 + shard);
      b.putByte(at + i, v);
      crc.update(v);
    }
    b.putInt(at + 12, (int) crc.getValue());
  }

  /** Produces {@code count} records through {@code p}, then ends the stream. */
  public static void produce(ExampleProducer p, int shard, long count, int minLen, int maxLen) {
    for (long s = 0; s < count; s++) {
      int len = length(s, minLen, maxLen);
      int at = p.claim(len);
      write(p.buffer(), at, len, shard, s);
      p.commit();
    }
    p.endOfStream();
  }

  /** Checks each record: checksum, shard, and sequence strictly next per shard (no loss, no dup, in order). */
  public static final class Checker implements RecordHandler {
    public final long[] next;
    public long total;
    final int minLen, maxLen;

    public Checker(int shards, int minLen, int maxLen) {
      this.next = new long[shards];
      this.minLen = minLen;
      this.maxLen = maxLen;
    }

    @Override
    public void onRecord(int shard, DirectBuffer b, int off, int len) {
      int recShard = b.getInt(off);
      long seq = b.getLong(off + 4);
      if (recShard != shard) fail("record of shard " + recShard + " delivered as shard " + shard);
      if (seq != next[shard]) fail("shard " + shard + ": expected sequence " + next[shard] + ", got " + seq);
      if (len != length(seq, minLen, maxLen)) fail("shard " + shard + " seq " + seq + ": length " + len);
      CRC32C crc = new CRC32C();
      for (int i = HEADER; i < len; i++) crc.update(b.getByte(off + i));
      if ((int) crc.getValue() != b.getInt(off + 12)) fail("shard " + shard + " seq " + seq + ": checksum mismatch");
      next[shard]++;
      total++;
    }

    public void assertComplete(long perShard) {
      for (int s = 0; s < next.length; s++) assertEquals(perShard, next[s], "records of shard " + s);
    }
  }

  /** Runs one producer thread per shard and consumes everything on the calling thread. */
  public static Checker runThreads(ExampleTransport t, long perShard, int minLen, int maxLen) throws Exception {
    int shards = t.shards();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int s = 0; s < shards; s++) {
      int shard = s;
      ExampleProducer p = t.producer(s);
      Thread th = new Thread(() -> {
        try {
          produce(p, shard, perShard, minLen, maxLen);
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "producer-" + s);
      th.start();
      threads.add(th);
    }
    int[] all = new int[shards];
    for (int s = 0; s < shards; s++) all[s] = s;
    Checker c = new Checker(shards, minLen, maxLen);
    try (ExampleConsumer consumer = t.consumer(all)) {
      consumer.drain(c, 64, TransportConfig.backoff());
    }
    for (Thread th : threads) th.join();
    if (!errors.isEmpty()) throw new AssertionError("producer failed", errors.get(0));
    c.assertComplete(perShard);
    return c;
  }
}
