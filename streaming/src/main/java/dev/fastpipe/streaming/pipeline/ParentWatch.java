package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ProcessStat;

/**
 * Lets a shard worker process end itself when the process that started it is gone, so a killed
 * or crashed consumer never leaves producers blocked on a full ring forever.
 */
public final class ParentWatch {
  /** How often the parent is looked at. */
  static final long POLL_MILLIS = 100;

  private ParentWatch() {}

  /**
   * Starts a daemon thread that ends this JVM with {@link System#exit System.exit(exitCode)} once
   * {@code parentPid} has exited: shutdown hooks run, other threads (one blocked on a full ring,
   * say) are not waited for. A parent killed with -9 counts as gone at once, even while it is a
   * zombie its own parent has not reaped yet, and so does a pid reused by another process. The
   * worker's logs and {@code report} file (null: none) are removed first, as nobody else would.
   */
  public static void start(long parentPid, int exitCode, java.nio.file.Path report) {
    long startTicks = ProcessStat.startTicks(parentPid);
    Thread t =
        new Thread(
            () -> {
              while (true) {
                if (!alive(parentPid, startTicks)) {
                  System.err.println("fastpipe shard-worker: parent process " + parentPid + " is gone; stopping");
                  ShardProcesses.removeOwnLogs(parentPid, report); // no parent left to read or remove them
                  // exit, not Runtime.halt: shutdown hooks still run. fastpipe registers none in a
                  // worker (ShmFiles' hook belongs to the side that creates the transport's files), so none can hang.
                  System.exit(exitCode);
                }
                try {
                  Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "fastpipe-parent-watch");
    t.setDaemon(true);
    t.start();
  }

  /** True while {@code pid} runs the process that started at {@code startTicks} ({@link ProcessStat}). */
  static boolean alive(long pid, long startTicks) {
    return !ProcessStat.gone(pid, startTicks);
  }
}
