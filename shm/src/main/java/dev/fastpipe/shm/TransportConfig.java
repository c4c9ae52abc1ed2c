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

  /** Spin, then yield, then park from 1 µs up to 100 µs: never drops, never burns a core for long. */
  public static IdleStrategy backoff() {
    return new BackoffIdleStrategy(Long.getLong("fastpipe.idle.spins", 200), Long.getLong("fastpipe.idle.yields", 2000), 1_000, 100_000);
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
