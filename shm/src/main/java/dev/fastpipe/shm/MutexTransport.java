package dev.fastpipe.shm;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code mutex} baseline, shaped like DeepVariant's fast pipeline: one bounded byte buffer per
 * shard guarded by a lock with {@code buffer_empty} and {@code items_available} conditions and a
 * {@code shard_finished} flag. The producer appends {@code [int length][data]} records and takes
 * the lock on every commit; when the buffer is full it waits until the consumer has drained all
 * of it (buffer_empty), then starts again at offset 0.
 */
public final class MutexTransport implements ExampleTransport {
  private final Shard[] shards;

  public MutexTransport(TransportConfig cfg) {
    Transports.checkRecordFits("mutex", cfg.ringBytes(), cfg.maxRecordBytes());
    shards = new Shard[cfg.shards()];
    for (int s = 0; s < shards.length; s++) shards[s] = new Shard(s, cfg.ringBytes(), cfg.ringBytes() / 8);
  }

  @Override public String name() { return "mutex"; }
  @Override public int shards() { return shards.length; }
  @Override public ExampleProducer producer(int shard) { return shards[shard]; }

  @Override
  public ExampleConsumer consumer(int... ids) {
    Shard[] mine = new Shard[ids.length];
    for (int i = 0; i < ids.length; i++) mine[i] = shards[ids[i]];
    return new Consumer(mine);
  }

  @Override public TransportStats stats(int shard) { return shards[shard].stats(); }

  @Override
  public boolean ended(int shard) {
    Shard s = shards[shard];
    s.lock.lock();
    try {
      return s.shardFinished;
    } finally {
      s.lock.unlock();
    }
  }
  @Override public void close() { }

  /** One shard's buffer; it is also the shard's producer (single-threaded use). */
  private static final class Shard implements ExampleProducer {
    final int id;
    final UnsafeBuffer buffer;
    final int maxRecord;
    final ReentrantLock lock = new ReentrantLock();
    final Condition bufferEmpty = lock.newCondition();
    final Condition itemsAvailable = lock.newCondition();
    // guarded by lock
    int committedEnd, consumedEnd;
    boolean shardFinished;
    long committed, consumed, stallNanos, idleNanos, maxFill;
    // producer-only
    int writePos, claimedAt = -1, claimedLen;

    Shard(int id, int capacity, int maxRecord) {
      this.id = id;
      this.buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
      this.maxRecord = maxRecord;
    }

    @Override public int maxRecordLength() { return maxRecord; }

    @Override
    public int claim(int length) {
      if (length > maxRecord || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the mutex buffer's largest record "
            + maxRecord + " bytes: raise --ring-size to at least " + Transports.ringSizeFor(length));
      }
      if (claimedAt >= 0) throw new IllegalStateException("claim() before the previous record was committed or aborted");
      int need = BitUtil.align(4 + length, 4);
      if (writePos + need > buffer.capacity()) {
        long t0 = System.nanoTime();
        lock.lock();
        try {
          itemsAvailable.signalAll();
          while (consumedEnd != committedEnd) bufferEmpty.awaitUninterruptibly(); // buffer_empty
          committedEnd = 0;
          consumedEnd = 0;
          stallNanos += System.nanoTime() - t0;
        } finally {
          lock.unlock();
        }
        writePos = 0;
      }
      claimedAt = writePos;
      claimedLen = length;
      return writePos + 4;
    }

    @Override public MutableDirectBuffer buffer() { return buffer; }

    @Override
    public void commit() {
      if (claimedAt < 0) throw new IllegalStateException("commit() without claim()");
      buffer.putInt(claimedAt, claimedLen);
      writePos = claimedAt + BitUtil.align(4 + claimedLen, 4);
      claimedAt = -1;
      lock.lock();
      try {
        committedEnd = writePos;
        committed++;
        maxFill = Math.max(maxFill, committedEnd - consumedEnd);
        itemsAvailable.signal(); // items_available
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void abort() {
      if (claimedAt < 0) throw new IllegalStateException("abort() without claim()");
      claimedAt = -1;
    }

    @Override
    public void endOfStream() {
      if (claimedAt >= 0) abort();
      lock.lock();
      try {
        shardFinished = true; // shard_finished
        itemsAvailable.signalAll();
      } finally {
        lock.unlock();
      }
    }

    @Override public void close() { endOfStream(); }

    TransportStats stats() {
      lock.lock();
      try {
        return new TransportStats(id, buffer.capacity(), committedEnd - consumedEnd, maxFill, committed, consumed, stallNanos, idleNanos);
      } finally {
        lock.unlock();
      }
    }
  }

  private static final class Consumer implements ExampleConsumer {
    private final Shard[] shards;

    Consumer(Shard[] shards) { this.shards = shards; }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (Shard s : shards) {
        if (total >= limit) break;
        int start, end;
        s.lock.lock();
        try {
          start = s.consumedEnd;
          end = s.committedEnd;
        } finally {
          s.lock.unlock();
        }
        int pos = start, n = 0;
        while (pos < end && total + n < limit) {
          int len = s.buffer.getInt(pos);
          handler.onRecord(s.id, s.buffer, pos + 4, len);
          pos += BitUtil.align(4 + len, 4);
          n++;
        }
        if (n > 0) {
          s.lock.lock();
          try {
            s.consumedEnd = pos;
            s.consumed += n;
            if (s.consumedEnd == s.committedEnd) s.bufferEmpty.signal();
          } finally {
            s.lock.unlock();
          }
          total += n;
        }
      }
      return total;
    }

    @Override
    public void idled(long nanos) {
      for (Shard s : shards) {
        s.lock.lock();
        try {
          s.idleNanos += nanos;
        } finally {
          s.lock.unlock();
        }
      }
    }

    @Override
    public boolean finished() {
      for (Shard s : shards) {
        s.lock.lock();
        try {
          if (!s.shardFinished || s.consumedEnd != s.committedEnd) return false;
        } finally {
          s.lock.unlock();
        }
      }
      return true;
    }

    @Override public void close() { }
  }
}
