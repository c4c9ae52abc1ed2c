package dev.fastpipe.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Supplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * How to build a run's transport: shard count, ring size per shard, the largest record, where
 * files go, how waiting threads idle, and the disk/chronicle options.
 *
 * @param runId names shared files ({@code fastpipe-<runId>-<shard>}); letters, digits, '.', '_', '-'
 * @param shards producers, one per shard (&ge; 1)
 * @param ringBytes ring capacity per shard (power of two for shm; default 16 MiB)
 * @param maxRecordBytes the largest record the run will write; checked against the ring at creation
 * @param dir directory for ring files, queues and record files (default /dev/shm)
 * @param idle makes one idle strategy per waiting thread (full ring, empty poll)
 * @param gzip disk transport: gzip the TFRecord files (DeepVariant's .tfrecord.gz); default true
 * @param keepFiles chronicle/disk: keep files on close (for replay); default false
 */
public record TransportConfig(
    String runId,
    int shards,
    int ringBytes,
    int maxRecordBytes,
    Path dir,
    Supplier<IdleStrategy> idle,
    boolean gzip,
    boolean keepFiles) {

  public static final int DEFAULT_RING_BYTES = 16 * 1024 * 1024;

  public TransportConfig {
    if (runId == null || !runId.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("run id '" + runId + "' must be letters, digits, '.', '_' or '-'");
    }
    if (shards < 1) throw new IllegalArgumentException("shards must be >= 1, got " + shards);
    if (ringBytes < 1024) throw new IllegalArgumentException("--ring-size must be >= 1024 bytes, got " + ringBytes);
    if (maxRecordBytes < 1) throw new IllegalArgumentException("record size must be >= 1, got " + maxRecordBytes);
  }

  /** Defaults: a fresh {@link #uniqueRunId run id}, 16 MiB rings, /dev/shm, spin-yield-park idling. */
  public static TransportConfig of(int shards, int maxRecordBytes) {
    return new TransportConfig(uniqueRunId("p"),
        shards, DEFAULT_RING_BYTES, maxRecordBytes, defaultDir(), TransportConfig::backoff, true, false);
  }

  /**
   * A run id no other run shares: {@code prefix}, this pid, then 48 random bits. The pid alone
   * repeats (reused pids; containers that share /dev/shm but not their pid namespace), and so do
   * clock readings; the random part does not. Ring creation never replaces a file either, so even
   * an impossible repeat fails loudly instead of two runs sharing rings.
   */
  public static String uniqueRunId(String prefix) {
    return prefix + ProcessHandle.current().pid() + "-"
        + String.format("%012x", UUID.randomUUID().getLeastSignificantBits() & 0xffff_ffff_ffffL);
  }

  /** Busy spins before a waiting thread starts yielding ({@code -Dfastpipe.idle.spins}). */
  public static final long IDLE_SPINS = 100;
  /** Yields before it starts parking ({@code -Dfastpipe.idle.yields}). */
  public static final long IDLE_YIELDS = 10;
  /** First park, doubled on each further empty turn ({@code -Dfastpipe.idle.min-park-ns}). */
  public static final long IDLE_MIN_PARK_NANOS = 10_000;
  /**
   * Longest park ({@code -Dfastpipe.idle.max-park-ns}): the bound on how late a waiting consumer or
   * producer sees the ring change, and what keeps a long wait at about a thousand cheap wake-ups a
   * second. 1 ms is nothing beside a CNN batch (tens of ms) and costs well under 1% of a core.
   */
  public static final long IDLE_MAX_PARK_NANOS = 1_000_000;

  /**
   * Spin briefly, yield a few times, then park from 10 µs doubling up to 1 ms: never drops, never
   * burns a core while it waits. Until 2026-11 it yielded 2,000 times and parked at most 100 µs,
   * which cost a waiting thread several percent of a core in syscalls; each setting can still be
   * given as a system property (above) to measure one against the other.
   */
  public static IdleStrategy backoff() {
    return new BackoffIdleStrategy(Long.getLong("fastpipe.idle.spins", IDLE_SPINS),
        Long.getLong("fastpipe.idle.yields", IDLE_YIELDS), Long.getLong("fastpipe.idle.min-park-ns", IDLE_MIN_PARK_NANOS),
        Long.getLong("fastpipe.idle.max-park-ns", IDLE_MAX_PARK_NANOS));
  }

  /** /dev/shm where it exists (tmpfs), else java.io.tmpdir; overridable with -Dfastpipe.shm.dir. */
  public static Path defaultDir() {
    String prop = System.getProperty("fastpipe.shm.dir");
    if (prop != null) return Path.of(prop);
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
  }

  public TransportConfig withRunId(String v) { return new TransportConfig(v, shards, ringBytes, maxRecordBytes, dir, idle, gzip, keepFiles); }
  public TransportConfig withShards(int v) { return new TransportConfig(runId, v, ringBytes, maxRecordBytes, dir, idle, gzip, keepFiles); }
  public TransportConfig withRingBytes(int v) { return new TransportConfig(runId, shards, v, maxRecordBytes, dir, idle, gzip, keepFiles); }
  public TransportConfig withMaxRecordBytes(int v) { return new TransportConfig(runId, shards, ringBytes, v, dir, idle, gzip, keepFiles); }
  public TransportConfig withDir(Path v) { return new TransportConfig(runId, shards, ringBytes, maxRecordBytes, v, idle, gzip, keepFiles); }
  public TransportConfig withIdle(Supplier<IdleStrategy> v) { return new TransportConfig(runId, shards, ringBytes, maxRecordBytes, dir, v, gzip, keepFiles); }
  public TransportConfig withGzip(boolean v) { return new TransportConfig(runId, shards, ringBytes, maxRecordBytes, dir, idle, v, keepFiles); }
  public TransportConfig withKeepFiles(boolean v) { return new TransportConfig(runId, shards, ringBytes, maxRecordBytes, dir, idle, gzip, v); }
}
