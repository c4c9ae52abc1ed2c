package dev.fastpipe.streaming.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

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
   * zombie its own parent has not reaped yet, and so does a pid reused by another process.
   */
  public static void start(long parentPid, int exitCode) {
    Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
    Optional<java.time.Instant> started = parent.flatMap(p -> p.info().startInstant());
    Thread t =
        new Thread(
            () -> {
              while (true) {
                if (!alive(parent, started)) {
                  System.err.println("fastpipe shard-worker: parent process " + parentPid + " is gone; stopping");
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

  static boolean alive(Optional<ProcessHandle> parent, Optional<java.time.Instant> started) {
    if (parent.isEmpty() || !parent.get().isAlive()) return false;
    if (isZombie(parent.get().pid())) return false;
    Optional<java.time.Instant> now = parent.get().info().startInstant();
    return started.isEmpty() || now.isEmpty() || started.equals(now);
  }

  /** True when /proc says the process has exited and waits to be reaped (state Z or X). */
  static boolean isZombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int close = stat.lastIndexOf(')');
      char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
      return state == 'Z' || state == 'X';
    } catch (IOException | RuntimeException e) {
      return false; // no /proc (not Linux): rely on isAlive
    }
  }
}
