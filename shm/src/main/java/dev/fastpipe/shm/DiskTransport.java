package dev.fastpipe.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code disk} baseline, DeepVariant's classic pipeline: each producer writes its shard to
 * {@code <dir>/fastpipe-<runId>-<shard>.tfrecord.gz} through {@link TfRecordWriter} (gzip at zlib's
 * default level, as TensorFlow's writer, unless turned off; each record is the committed bytes
 * as they are, the transport knows no tf.Example); a consumer reads a shard only after its
 * producer has finished. Files are removed on close unless {@code keepFiles}.
 */
public final class DiskTransport implements ExampleTransport {
  private final TransportConfig cfg;
  private final Shard[] shards;

  public DiskTransport(TransportConfig cfg) {
    this.cfg = cfg;
    this.shards = new Shard[cfg.shards()];
    for (int s = 0; s < shards.length; s++) {
      Path p = cfg.dir().resolve("fastpipe-" + cfg.runId() + "-" + s + (cfg.gzip() ? ".tfrecord.gz" : ".tfrecord"));
      if (!cfg.keepFiles()) ShmFiles.register(p);
      shards[s] = new Shard(s, p);
    }
  }

  /** The record file of one shard. */
  public Path path(int shard) { return shards[shard].path; }

  @Override public String name() { return "disk"; }
  @Override public int shards() { return shards.length; }

  @Override
  public synchronized ExampleProducer producer(int shard) {
    Shard s = shards[shard];
    if (s.producer == null) s.producer = new Producer(s, cfg.maxRecordBytes(), cfg.gzip());
    return s.producer;
  }

  @Override
  public ExampleConsumer consumer(int... ids) {
    Shard[] mine = new Shard[ids.length];
    for (int i = 0; i < ids.length; i++) mine[i] = shards[ids[i]];
    return new Consumer(mine, cfg.gzip());
  }

  @Override public TransportStats stats(int shard) { return shards[shard].stats(); }
  @Override public boolean ended(int shard) { return shards[shard].written; }

  @Override
  public void close() {
    for (Shard s : shards) {
      if (s.producer != null) s.producer.closeQuietly();
      if (!cfg.keepFiles()) ShmFiles.delete(s.path);
    }
  }

  private static final class Shard {
    final int id;
    final Path path;
    Producer producer;
    volatile boolean written;
    final AtomicLong committed = new AtomicLong(), consumed = new AtomicLong(), bytesIn = new AtomicLong(),
        bytesOut = new AtomicLong(), idleNanos = new AtomicLong(), writeNanos = new AtomicLong();

    Shard(int id, Path path) {
      this.id = id;
      this.path = path;
    }

    TransportStats stats() {
      long fill = bytesIn.get() - bytesOut.get();
      return new TransportStats(id, Long.MAX_VALUE, fill, bytesIn.get(), committed.get(), consumed.get(), writeNanos.get(), idleNanos.get());
    }
  }

  private static final class Producer implements ExampleProducer {
    private final Shard shard;
    private final int maxRecord;
    private final byte[] staging;
    private final UnsafeBuffer buffer;
    private TfRecordWriter writer;
    private int claimed = -1;
    private long committed;

    Producer(Shard shard, int maxRecord, boolean gzip) {
      this.shard = shard;
      this.maxRecord = maxRecord;
      this.staging = new byte[maxRecord];
      this.buffer = new UnsafeBuffer(staging);
      try {
        Files.deleteIfExists(shard.path);
        writer = gzip ? TfRecordWriter.gzipped(shard.path, Deflater.DEFAULT_COMPRESSION) : TfRecordWriter.plain(shard.path);
      } catch (IOException e) {
        throw new UncheckedIOException(shard.path + ": cannot create: " + e.getMessage(), e);
      }
    }

    @Override public int maxRecordLength() { return maxRecord; }

    @Override
    public int claim(int length) {
      if (length > maxRecord || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the configured record size " + maxRecord);
      }
      if (writer == null) throw new IllegalStateException("claim() after endOfStream()");
      claimed = length;
      return 0;
    }

    @Override public MutableDirectBuffer buffer() { return buffer; }

    @Override
    public void commit() {
      if (claimed < 0) throw new IllegalStateException("commit() without claim()");
      long t0 = System.nanoTime();
      try {
        writer.write(staging, 0, claimed);
      } catch (IOException e) {
        throw new UncheckedIOException(shard.path + ": write failed: " + e.getMessage(), e);
      }
      shard.writeNanos.lazySet(shard.writeNanos.get() + System.nanoTime() - t0);
      shard.bytesIn.lazySet(shard.bytesIn.get() + claimed);
      shard.committed.lazySet(++committed);
      claimed = -1;
    }

    @Override public void abort() { claimed = -1; }

    @Override
    public void endOfStream() {
      if (writer == null) return;
      try {
        writer.close();
      } catch (IOException e) {
        throw new UncheckedIOException(shard.path + ": close failed: " + e.getMessage(), e);
      }
      writer = null;
      shard.written = true;
    }

    void closeQuietly() {
      try {
        if (writer != null) writer.close();
      } catch (IOException ignored) {
        // the transport is being torn down
      }
    }

    @Override public void close() { endOfStream(); }
  }

  private static final class Consumer implements ExampleConsumer {
    private final Shard[] shards;
    private final boolean gzip;
    private final TfRecordReader[] readers;
    private final boolean[] done;
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);

    Consumer(Shard[] shards, boolean gzip) {
      this.shards = shards;
      this.gzip = gzip;
      this.readers = new TfRecordReader[shards.length];
      this.done = new boolean[shards.length];
    }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (int i = 0; i < shards.length && total < limit; i++) {
        Shard s = shards[i];
        if (done[i] || !s.written) continue; // read only after the producer finished
        try {
          if (readers[i] == null) readers[i] = gzip ? TfRecordReader.gzipped(s.path) : TfRecordReader.plain(s.path);
          int n = 0;
          while (total + n < limit) {
            int len = readers[i].next();
            if (len < 0) {
              readers[i].close();
              readers[i] = null;
              done[i] = true;
              break;
            }
            view.wrap(readers[i].data(), 0, len);
            handler.onRecord(s.id, view, 0, len);
            s.bytesOut.lazySet(s.bytesOut.get() + len);
            n++;
          }
          s.consumed.lazySet(s.consumed.get() + n);
          total += n;
        } catch (IOException e) {
          throw new UncheckedIOException(e.getMessage(), e);
        }
      }
      return total;
    }

    @Override
    public void idled(long nanos) {
      for (Shard s : shards) s.idleNanos.addAndGet(nanos);
    }

    @Override
    public boolean finished() {
      for (boolean d : done) if (!d) return false;
      return true;
    }

    @Override
    public void close() {
      for (TfRecordReader r : readers) {
        try {
          if (r != null) r.close();
        } catch (IOException ignored) {
          // nothing to save
        }
      }
    }
  }
}
