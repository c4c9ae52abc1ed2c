package dev.fastpipe.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code chronicle} transport: one Chronicle Queue per shard in
 * {@code <dir>/fastpipe-<runId>-<shard>.cq}, durable and replayable. Each document is an int
 * type (record or end of stream) followed by the record bytes. A consumer
 * {@link ChronicleConsumer#acknowledge acknowledges} what it has fully processed; a consumer
 * opened later on the same directory (same run id, {@code keepFiles}) resumes right after the
 * last acknowledged index. The producer writes into a staging buffer and appends it on commit
 * (one copy); the consumer reads in place from the queue's mapped memory.
 */
public final class ChronicleTransport implements ExampleTransport {
  static final int TYPE_RECORD = 1;
  static final int TYPE_END = 2;
  static final String ACK_FILE = "fastpipe.ack";

  private final TransportConfig cfg;
  private final Shard[] shards;

  public ChronicleTransport(TransportConfig cfg) {
    this.cfg = cfg;
    this.shards = new Shard[cfg.shards()];
    for (int s = 0; s < shards.length; s++) {
      Path dir = cfg.dir().resolve("fastpipe-" + cfg.runId() + "-" + s + ".cq");
      if (!cfg.keepFiles()) ShmFiles.register(dir);
      shards[s] = new Shard(s, dir, ChronicleQueue.singleBuilder(dir).build());
    }
  }

  /** The queue directory of one shard. */
  public Path path(int shard) { return shards[shard].dir; }

  @Override public String name() { return "chronicle"; }
  @Override public int shards() { return shards.length; }

  @Override
  public synchronized ExampleProducer producer(int shard) {
    Shard s = shards[shard];
    if (s.producer == null) s.producer = new Producer(s, cfg.maxRecordBytes());
    return s.producer;
  }

  @Override
  public ChronicleConsumer consumer(int... ids) {
    Shard[] mine = new Shard[ids.length];
    for (int i = 0; i < ids.length; i++) mine[i] = shards[ids[i]];
    return new ChronicleConsumer(mine);
  }

  @Override public TransportStats stats(int shard) { return shards[shard].stats(); }
  @Override public boolean ended(int shard) { return shards[shard].ended; }

  @Override
  public synchronized void close() {
    for (Shard s : shards) {
      s.queue.close();
      if (!cfg.keepFiles()) ShmFiles.delete(s.dir);
    }
  }

  private static final class Shard {
    final int id;
    final Path dir;
    final ChronicleQueue queue;
    Producer producer;
    volatile boolean ended;
    final AtomicLong committed = new AtomicLong(), consumed = new AtomicLong(), bytesIn = new AtomicLong(),
        bytesOut = new AtomicLong(), idleNanos = new AtomicLong();

    Shard(int id, Path dir, ChronicleQueue queue) {
      this.id = id;
      this.dir = dir;
      this.queue = queue;
    }

    TransportStats stats() {
      return new TransportStats(id, Long.MAX_VALUE, bytesIn.get() - bytesOut.get(), bytesIn.get(), committed.get(),
          consumed.get(), 0, idleNanos.get());
    }
  }

  private static final class Producer implements ExampleProducer {
    private final Shard shard;
    private final int maxRecord;
    private final BytesStore<?, ByteBuffer> store;
    private final UnsafeBuffer buffer;
    private ExcerptAppender appender; // created on the producing thread (Chronicle appenders are thread-confined)
    private int claimed = -1;
    private boolean ended;
    private long committed;

    Producer(Shard shard, int maxRecord) {
      this.shard = shard;
      this.maxRecord = maxRecord;
      ByteBuffer bb = ByteBuffer.allocateDirect(maxRecord);
      this.store = BytesStore.wrap(bb);
      this.buffer = new UnsafeBuffer(bb);
    }

    @Override public int maxRecordLength() { return maxRecord; }

    @Override
    public int claim(int length) {
      if (length > maxRecord || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the configured record size " + maxRecord);
      }
      if (ended) throw new IllegalStateException("claim() after endOfStream()");
      claimed = length;
      return 0;
    }

    @Override public MutableDirectBuffer buffer() { return buffer; }

    private ExcerptAppender appender() {
      if (appender == null) appender = shard.queue.createAppender();
      return appender;
    }

    @Override
    public void commit() {
      if (claimed < 0) throw new IllegalStateException("commit() without claim()");
      try (DocumentContext dc = appender().writingDocument()) {
        Bytes<?> b = dc.wire().bytes();
        b.writeInt(TYPE_RECORD);
        b.write(store, 0L, (long) claimed);
      }
      shard.bytesIn.lazySet(shard.bytesIn.get() + claimed);
      shard.committed.lazySet(++committed);
      claimed = -1;
    }

    @Override public void abort() { claimed = -1; }

    @Override
    public void endOfStream() {
      if (ended) return;
      ended = true;
      try (DocumentContext dc = appender().writingDocument()) {
        dc.wire().bytes().writeInt(TYPE_END);
      }
      shard.ended = true;
    }

    @Override
    public void close() {
      endOfStream();
      if (appender != null) appender.close();
    }
  }

  /** A Chronicle consumer that can acknowledge processed records and resume after them later. */
  public static final class ChronicleConsumer implements ExampleConsumer {
    private final Shard[] shards;
    private final ExcerptTailer[] tailers;
    private final boolean[] ended;
    private final long[] lastIndex;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private byte[] copy = new byte[0];

    ChronicleConsumer(Shard[] shards) {
      this.shards = shards;
      this.tailers = new ExcerptTailer[shards.length];
      this.ended = new boolean[shards.length];
      this.lastIndex = new long[shards.length];
      java.util.Arrays.fill(lastIndex, -1);
    }

    private ExcerptTailer tailer(int i) {
      if (tailers[i] == null) {
        ExcerptTailer t = shards[i].queue.createTailer();
        long ack = acknowledged(shards[i].id);
        if (ack >= 0) {
          if (!t.moveToIndex(ack)) throw new IllegalStateException(shards[i].dir + ": acknowledged index " + ack + " not in the queue");
          try (DocumentContext dc = t.readingDocument()) {
            if (!dc.isPresent()) throw new IllegalStateException(shards[i].dir + ": acknowledged index " + ack + " not readable");
          }
          lastIndex[i] = ack;
        }
        tailers[i] = t;
      }
      return tailers[i];
    }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (int i = 0; i < shards.length && total < limit; i++) {
        if (ended[i]) continue;
        ExcerptTailer t = tailer(i);
        Shard s = shards[i];
        int n = 0;
        while (total + n < limit) {
          try (DocumentContext dc = t.readingDocument()) {
            if (!dc.isPresent()) break;
            Bytes<?> b = dc.wire().bytes();
            int type = b.readInt();
            if (type == TYPE_END) {
              ended[i] = true;
              break;
            }
            int len = (int) b.readRemaining();
            if (b.isDirectMemory()) {
              view.wrap(b.addressForRead(b.readPosition()), len);
            } else {
              if (copy.length < len) copy = new byte[len];
              b.read(copy, 0, len);
              view.wrap(copy, 0, len);
            }
            handler.onRecord(s.id, view, 0, len);
            lastIndex[i] = dc.index();
            s.bytesOut.lazySet(s.bytesOut.get() + len);
            n++;
          }
        }
        s.consumed.lazySet(s.consumed.get() + n);
        total += n;
      }
      return total;
    }

    @Override
    public void idled(long nanos) {
      for (Shard s : shards) s.idleNanos.addAndGet(nanos);
    }

    /** The queue index of the last record delivered from {@code shard}, or -1. */
    public long lastIndex(int shard) {
      return lastIndex[slot(shard)];
    }

    /** Durably records that everything of {@code shard} up to {@code index} is processed. */
    public void acknowledge(int shard, long index) {
      Path f = shards[slot(shard)].dir.resolve(ACK_FILE);
      Path tmp = f.resolveSibling(ACK_FILE + ".tmp");
      try {
        Files.writeString(tmp, Long.toString(index));
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException(f + ": cannot write acknowledgement: " + e.getMessage(), e);
      }
    }

    /** Acknowledges everything delivered so far from every shard of this consumer. */
    public void acknowledgeAll() {
      for (int i = 0; i < shards.length; i++) if (lastIndex[i] >= 0) acknowledge(shards[i].id, lastIndex[i]);
    }

    /** The last acknowledged index of {@code shard}, or -1 when none. */
    public long acknowledged(int shard) {
      Path f = shards[slot(shard)].dir.resolve(ACK_FILE);
      try {
        return Files.exists(f) ? Long.parseLong(Files.readString(f).trim()) : -1;
      } catch (IOException | NumberFormatException e) {
        throw new IllegalStateException(f + ": unreadable acknowledgement: " + e.getMessage(), e);
      }
    }

    private int slot(int shard) {
      for (int i = 0; i < shards.length; i++) if (shards[i].id == shard) return i;
      throw new IllegalArgumentException("shard " + shard + " is not consumed here");
    }

    @Override
    public boolean finished() {
      for (boolean e : ended) if (!e) return false;
      return true;
    }

    @Override
    public void close() {
      for (ExcerptTailer t : tailers) if (t != null) t.close();
    }
  }
}
