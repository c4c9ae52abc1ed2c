package dev.fastpipe.shm;

import java.util.concurrent.TimeUnit;

/**
 * Watches the producer heartbeats of a {@link ShmTransport} from the consumer side: for how long
 * each shard's counter ({@link ShmRingDescriptor}) has stood still. A shard whose producer has
 * marked the end of its stream is never silent. Silence is only counted while the watcher itself
 * runs: a gap between two {@link #poll polls} counts for at most {@link #MAX_GAP_NANOS}, so after a
 * Ctrl-Z of the whole process group or a suspended machine nobody is accused for the time
 * everything stood.
 */
public final class HeartbeatMonitor {
  /** The most one gap between polls adds to a shard's silence. */
  public static final long MAX_GAP_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ShmTransport transport;
  private final long[] last;
  private final long[] silent;
  private long lastPoll;

  /** Starts watching at {@code nowNanos} ({@link System#nanoTime()}); every shard starts unheard, not silent. */
  public HeartbeatMonitor(ShmTransport transport, long nowNanos) {
    this.transport = transport;
    this.last = new long[transport.shards()];
    this.silent = new long[transport.shards()];
    this.lastPoll = nowNanos;
    for (int i = 0; i < last.length; i++) last[i] = transport.heartbeat(i);
  }

  /** Reads every heartbeat at {@code nowNanos}: a counter that moved resets its shard's silence. */
  public synchronized void poll(long nowNanos) {
    long gap = Math.max(0, Math.min(nowNanos - lastPoll, MAX_GAP_NANOS));
    lastPoll = nowNanos;
    for (int i = 0; i < last.length; i++) {
      long beat = transport.heartbeat(i);
      if (beat != last[i] || transport.endOfStream(i)) {
        last[i] = beat;
        silent[i] = 0;
      } else {
        silent[i] += gap;
      }
    }
  }

  /** Nanoseconds the heartbeat of {@code shard} has stood still, as of the last {@link #poll}. */
  public synchronized long silentNanos(int shard) {
    return silent[shard];
  }
}
