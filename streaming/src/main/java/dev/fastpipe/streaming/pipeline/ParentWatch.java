package dev.fastpipe.streaming.pipeline;

import java.util.Optional;

/**
 * Lets a shard worker process end itself when the process that started it is gone, so a killed
 * or crashed consumer never leaves producers blocked on a full ring forever.
 */
public final class ParentWatch {
  private ParentWatch() {}

  /**
   * Starts a daemon thread that ends this JVM with {@link System#exit System.exit(exitCode)} once
   * {@code parentPid} has exited: shutdown hooks run, other threads (one blocked on a full ring,
   * say) are not waited for.
   */
  public static void start(long parentPid, int exitCode) {
    Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
    Thread t =
        new Thread(
            () -> {
              while (true) {
                if (parent.isEmpty() || !parent.get().isAlive()) {
                  System.err.println("fastpipe shard-worker: parent process " + parentPid + " is gone; stopping");
                  // exit, not Runtime.halt: shutdown hooks still run. fastpipe registers none in a
                  // worker (ShmFiles' hook belongs to the side that creates the transport's files), so none can hang.
                  System.exit(exitCode);
                }
                try {
                  Thread.sleep(250);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "fastpipe-parent-watch");
    t.setDaemon(true);
    t.start();
  }
}
