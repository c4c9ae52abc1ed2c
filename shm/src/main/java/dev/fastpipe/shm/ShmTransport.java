package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * <p>At creation, the directory must have room for every ring ({@link #checkSpace}), each file is
 * written in full before it gets its name (so its pages exist before any process maps it, and it
 * names its owner from the first moment: {@link ShmRingDescriptor}), and leftover files of the same
 * run id whose owner is provably dead are removed (with a message on stderr); a live owner is
 * refused. Files are deleted on {@link #close()} and by a shutdown hook (normal exit, SIGINT,
 * SIGTERM). End of stream, the counters and the producer's heartbeat live in the file header, so
 * they are visible from every process.
 *
 * <p>Why an owner record and not an advisory lock ({@code FileChannel.lock}) held for the ring's
 * life: Linux record locks belong to the process and are released when it closes any descriptor
 * of the file, so the creator's own {@link #stats(Path)} or a sweep in the same JVM would drop its
 * lock without a word, and a JVM cannot even test a lock it holds itself. The record is plain data
 * every process reads the same way.
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
    checkSpace(cfg.dir(), cfg.shards(), cfg.ringBytes());
    ShmRing[] rings = new ShmRing[cfg.shards()];
    try {
      for (int s = 0; s < rings.length; s++) rings[s] = ShmRing.create(path(cfg.dir(), cfg.runId(), s), s, cfg.ringBytes());
    } catch (RuntimeException e) {
      for (ShmRing r : rings) if (r != null) ShmFiles.delete(r.path); // only what this call created
      if (e.getCause() instanceof IOException io && String.valueOf(io.getMessage()).contains("No space left")) {
        throw new IllegalStateException(cfg.dir() + " ran out of space while reserving the rings ("
            + ringsNeed(cfg.shards(), cfg.ringBytes()) + "; " + mib(usableSpace(cfg.dir())) + " MiB free now):"
            + " use --ring-size or free space", e);
      }
      throw e;
    }
    return new ShmTransport(cfg.runId(), rings, cfg.idle());
  }

  /**
   * Throws, before any file is written, when {@code dir} has less free space than {@code shards}
   * rings of {@code ringBytes} take: "/dev/shm has 10 MiB free, the rings need 32 MiB (2 shards x
   * 16 MiB): use --ring-size or free space".
   */
  public static void checkSpace(Path dir, int shards, int ringBytes) {
    String shortage = spaceShortage(dir.toString(), usableSpace(dir), shards, ringBytes);
    if (shortage != null) throw new IllegalStateException(shortage);
  }

  /** The message of {@link #checkSpace}, or null when {@code usableBytes} is enough. */
  static String spaceShortage(String dir, long usableBytes, int shards, int ringBytes) {
    if (usableBytes >= shards * fileLength(ringBytes)) return null;
    return dir + " has " + mib(usableBytes) + " MiB free, the " + ringsNeed(shards, ringBytes)
        + ": use --ring-size or free space";
  }

  private static String ringsNeed(int shards, int ringBytes) {
    return "rings need " + mib(shards * fileLength(ringBytes)) + " MiB (" + shards + (shards == 1 ? " shard" : " shards")
        + " x " + mib(ringBytes) + " MiB)";
  }

  private static long usableSpace(Path dir) {
    try {
      return Files.getFileStore(dir).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException(dir + ": cannot read free space: " + e.getMessage(), e);
    }
  }

  /** Mebibytes, whole above 10, else with one decimal (0.5, 16, 32). */
  private static String mib(long bytes) {
    double m = bytes / (1024.0 * 1024.0);
    return m >= 10 || m == Math.rint(m) ? Long.toString(Math.round(m)) : String.format(java.util.Locale.ROOT, "%.1f", m);
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
   * Removes {@code fastpipe-<runId>-<n>} files in {@code dir} whose owner is provably dead, saying
   * so on stderr; throws if a live process owns one.
   */
  public static void removeStale(Path dir, String runId) {
    String prefix = "fastpipe-" + runId + "-";
    removeDeadOwners(dir, n -> n.startsWith(prefix) && n.length() > prefix.length()
        && n.substring(prefix.length()).chars().allMatch(Character::isDigit), runId);
  }

  /**
   * Removes the ring files of every earlier run in {@code dir} ({@code fastpipe-<any id>-<n>}, and
   * the {@code .creating} files of rings being written) whose owner is provably dead
   * ({@link RingOwner#provablyDead}), e.g. after a crash or kill -9. Rings of live runs, of owners
   * in another pid namespace and files that name no owner yet (another run creating them) are left
   * alone; a file with no owner is removed only once untouched for {@link #UNOWNED_GRACE}.
   */
  public static void removeStaleRuns(Path dir) {
    removeDeadOwners(dir, n -> n.matches("\\.?fastpipe-[A-Za-z0-9._-]+-[0-9]+(\\.creating)?"), null);
  }

  /** How long a file that names no owner is left alone: far longer than any creator needs to write its header. */
  static final Duration UNOWNED_GRACE = Duration.ofHours(1);

  /** Deletes matching rings whose owner is provably dead; a live owner is an error when {@code refuseRunId} is set. */
  private static void removeDeadOwners(Path dir, java.util.function.Predicate<String> name, String refuseRunId) {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(p -> name.test(p.getFileName().toString()) && Files.isRegularFile(p)).forEach(found::add);
    } catch (IOException e) {
      throw new UncheckedIOException(dir + ": cannot list: " + e.getMessage(), e);
    }
    for (Path p : found) {
      RingOwner owner = ShmRing.readOwner(p);
      String why;
      if (owner.pid() == 0) {
        Duration age = age(p);
        if (age.compareTo(UNOWNED_GRACE) < 0) continue; // being created, or not ours: leave it
        why = "no owner recorded, untouched for " + age.toMinutes() + " min";
      } else if (owner.provablyDead()) {
        why = owner.deathReason();
      } else {
        if (refuseRunId == null) continue;
        throw new IllegalStateException(p + ": ring already in use by live process " + owner.pid()
            + " (another run with id '" + refuseRunId + "'?); choose another run id or stop that process");
      }
      System.err.println("fastpipe: removed stale ring " + p + " (" + why + ")");
      ShmFiles.delete(p);
    }
  }

  private static Duration age(Path p) {
    try {
      return Duration.between(Files.getLastModifiedTime(p).toInstant(), Instant.now());
    } catch (IOException e) {
      return Duration.ZERO; // gone already, or unreadable: not provably old
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

  @Override public boolean ended(int shard) { return endOfStream(shard); }

  /** The ring file's path: what {@link #attachProducer} needs in another process. */
  @Override public String address(int shard) { return rings[shard].path.toString(); }

  /** The producer heartbeat of one shard ({@link ShmRingDescriptor}): it counts up while the producer lives. */
  public long heartbeat(int shard) { return rings[shard].heartbeat(); }

  /** The progress the producer of {@code shard} last published ({@link ExampleProducer#progress}); 0 before any. */
  public long progress(int shard) { return rings[shard].header.getLongVolatile(PRODUCER_PROGRESS_OFFSET); }

  /** True once the producer of {@code shard} has marked the end of its stream (its heartbeat may stop). */
  public boolean endOfStream(int shard) { return rings[shard].endOfStream(); }

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
      return total;
    }

    /** The loop's idle time goes into every ring's header (an atomic add: any reader of the header sees it). */
    @Override
    public void idled(long nanos) {
      for (ShmRing r : rings) r.header.getAndAddLong(CONSUMER_IDLE_NS_OFFSET, nanos);
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
