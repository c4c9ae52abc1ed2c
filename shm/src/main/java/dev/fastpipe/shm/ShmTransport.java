package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;

/**
 * The {@code shm} transport: one Agrona one-to-one ring per shard over a memory-mapped file
 * {@code <dir>/fastpipe-<runId>-<shard>} (mode 0600), shared across processes the way Aeron IPC
 * shares its log buffers. The consumer side {@link #create creates} the files; a producer in
 * another process {@link #attachProducer attaches} to one by its path ({@link #path(Path, String, int)}).
 *
 * <p>At creation, leftover files of the same run id whose owner pid is dead are removed (with a
 * message on stderr); a live owner is refused. Files are deleted on {@link #close()} and by a
 * shutdown hook (normal exit, SIGINT, SIGTERM). End of stream and the counters live in the file
 * header ({@link ShmRingDescriptor}), so they are visible from every process.
 */
public final class ShmTransport implements ExampleTransport {
  static final int MSG_RECORD = 1;

  private final String runId;
  private final ShmRing[] rings;
  private final ShmProducer[] producers;
  private final Supplier<IdleStrategy> idle;
  private boolean closed;

  private ShmTransport(String runId, ShmRing[] rings, Supplier<IdleStrategy> idle) {
    this.runId = runId;
    this.rings = rings;
    this.producers = new ShmProducer[rings.length];
    this.idle = idle;
  }

  /** Creates the run's ring files (consumer side); checks the record size against the ring. */
  public static ShmTransport create(TransportConfig cfg) {
    checkCapacity(cfg.ringBytes());
    Transports.checkRecordFits("shm", cfg.ringBytes(), cfg.maxRecordBytes());
    removeStale(cfg.dir(), cfg.runId());
    ShmRing[] rings = new ShmRing[cfg.shards()];
    try {
      for (int s = 0; s < rings.length; s++) {
        Path p = path(cfg.dir(), cfg.runId(), s);
        ShmFiles.register(p);
        rings[s] = ShmRing.create(p, s, cfg.ringBytes());
      }
    } catch (RuntimeException e) {
      for (int s = 0; s < rings.length; s++) ShmFiles.delete(path(cfg.dir(), cfg.runId(), s));
      throw e;
    }
    return new ShmTransport(cfg.runId(), rings, cfg.idle());
  }

  /** The ring file of one shard. */
  public static Path path(Path dir, String runId, int shard) {
    return dir.resolve("fastpipe-" + runId + "-" + shard);
  }

  /** Attaches a producer to an existing ring file, from any process. */
  public static ShmProducer attachProducer(Path ringFile, IdleStrategy idle) {
    if (!Files.exists(ringFile)) throw new IllegalStateException(ringFile + ": no such ring (has the consumer side created the run?)");
    return new ShmProducer(ShmRing.open(ringFile), idle);
  }

  /** Reads one ring file's counters, from any process. */
  public static TransportStats stats(Path ringFile) {
    return ShmRing.open(ringFile).stats();
  }

  /**
   * Removes {@code fastpipe-<runId>-<n>} files in {@code dir} whose owner process is gone, saying
   * so on stderr; throws if a live process owns one.
   */
  public static void removeStale(Path dir, String runId) {
    String prefix = "fastpipe-" + runId + "-";
    removeDeadOwners(dir, n -> n.startsWith(prefix) && n.length() > prefix.length()
        && n.substring(prefix.length()).chars().allMatch(Character::isDigit), runId);
  }

  /**
   * Removes the ring files of every earlier run in {@code dir} ({@code fastpipe-<any id>-<n>})
   * whose owner process is gone, e.g. after a crash or kill -9; rings of live runs are left alone.
   */
  public static void removeStaleRuns(Path dir) {
    removeDeadOwners(dir, n -> n.matches("fastpipe-[A-Za-z0-9._-]+-[0-9]+"), null);
  }

  /** Deletes matching rings with a dead owner; a live owner is an error when {@code refuseRunId} is set. */
  private static void removeDeadOwners(Path dir, java.util.function.Predicate<String> name, String refuseRunId) {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(p -> name.test(p.getFileName().toString()) && Files.isRegularFile(p)).forEach(found::add);
    } catch (IOException e) {
      throw new UncheckedIOException(dir + ": cannot list: " + e.getMessage(), e);
    }
    for (Path p : found) {
      long pid;
      try {
        pid = ShmRing.readOwnerPid(p);
      } catch (RuntimeException notARing) {
        continue; // not one of our ring files (too short, another format): leave it
      }
      boolean alive = pid != 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
      if (alive) {
        if (refuseRunId == null) continue;
        throw new IllegalStateException(p + ": ring already in use by live process " + pid
            + " (another run with id '" + refuseRunId + "'?); choose another run id or stop that process");
      }
      System.err.println("fastpipe: removed stale ring " + p + (pid == 0 ? " (no owner recorded)" : " (owner pid " + pid + " has exited)"));
      ShmFiles.delete(p);
    }
  }

  public String runId() { return runId; }

  public Path path(int shard) { return rings[shard].path; }

  public int ringBytes() { return rings[0].capacity(); }

  @Override public String name() { return "shm"; }

  @Override public int shards() { return rings.length; }

  @Override
  public synchronized ShmProducer producer(int shard) {
    if (producers[shard] == null) producers[shard] = new ShmProducer(rings[shard], idle.get());
    return producers[shard];
  }

  @Override
  public ExampleConsumer consumer(int... shards) {
    ShmRing[] mine = new ShmRing[shards.length];
    for (int i = 0; i < shards.length; i++) mine[i] = rings[shards[i]];
    return new Consumer(mine);
  }

  @Override public TransportStats stats(int shard) { return rings[shard].stats(); }

  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    for (ShmRing r : rings) ShmFiles.delete(r.path);
  }

  /** Polls its shards round-robin; records are handed out in place and released after each batch. */
  private static final class Consumer implements ExampleConsumer, MessageHandler {
    private final ShmRing[] rings;
    private final long[] consumed;
    private final IdleClock clock = new IdleClock();
    private RecordHandler handler;
    private int shard;
    private int next;

    Consumer(ShmRing[] rings) {
      this.rings = rings;
      this.consumed = new long[rings.length];
      for (int i = 0; i < rings.length; i++) consumed[i] = rings[i].header.getLongVolatile(RECORDS_CONSUMED_OFFSET);
    }

    @Override
    public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
      handler.onRecord(shard, buffer, index, length);
    }

    @Override
    public int poll(RecordHandler h, int limit) {
      this.handler = h;
      int total = 0;
      for (int k = 0; k < rings.length && total < limit; k++) {
        int i = (next + k) % rings.length;
        ShmRing r = rings[i];
        shard = r.shard;
        int n = r.ring.read(this, limit - total);
        if (n > 0) {
          consumed[i] += n;
          r.header.putLongOrdered(RECORDS_CONSUMED_OFFSET, consumed[i]);
          total += n;
        }
      }
      next = (next + 1) % rings.length;
      long idleDelta = clock.polled(total);
      if (idleDelta > 0) {
        for (ShmRing r : rings) r.header.getAndAddLong(CONSUMER_IDLE_NS_OFFSET, idleDelta);
      }
      return total;
    }

    @Override
    public boolean finished() {
      for (ShmRing r : rings) {
        if (!r.endOfStream() || r.ring.size() != 0) return false; // flag first, then emptiness
      }
      return true;
    }

    @Override public void close() { }
  }

}
