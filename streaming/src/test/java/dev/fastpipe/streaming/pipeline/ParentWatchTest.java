package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.shm.ProcessStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A shard sees its parent gone as soon as it has exited, even before anyone reaps it. */
class ParentWatchTest {

  @Test
  void aLiveProcessIsAliveAndAnUnreapedOneIsNot() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc");
    ProcessHandle me = ProcessHandle.current();
    assertTrue(ParentWatch.alive(me.pid(), ProcessStat.startTicks(me.pid())));
    // bash starts a short sleep, then becomes a long sleep that never reaps it: a zombie.
    Process p = new ProcessBuilder("bash", "-c", "sleep 0.2 & exec sleep 30").start();
    try {
      ProcessHandle child = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (child == null && System.nanoTime() < deadline) {
        child = p.toHandle().children().findFirst().orElse(null);
        Thread.sleep(20);
      }
      assertTrue(child != null, "no child");
      long started = ProcessStat.startTicks(child.pid());
      boolean zombie = false;
      while (!zombie && System.nanoTime() < deadline) {
        zombie = ProcessStat.exited(child.pid());
        Thread.sleep(20);
      }
      assertTrue(zombie, "the short sleep never became a zombie");
      assertTrue(child.isAlive(), "the JDK still calls an unreaped process alive");
      assertFalse(ParentWatch.alive(child.pid(), started));
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void aReusedPidIsNotTheParent() {
    ProcessHandle me = ProcessHandle.current();
    assertFalse(ParentWatch.alive(me.pid(), ProcessStat.startTicks(me.pid()) - 1));
    assertFalse(ParentWatch.alive(Long.MAX_VALUE, 0), "no such process");
  }
}
