package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shard logs carry their run's pid, so a run killed with -9 has its logs removed by the next one. */
class ShardLogsTest {
  @TempDir Path dir;

  @Test
  void logsOfDeadRunsAreRemovedAndThoseOfLiveRunsKept() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    assertTrue(ended.waitFor(30, TimeUnit.SECONDS));
    Process live = new ProcessBuilder("sleep", "60").start();
    try {
      Path deadErr = Files.createFile(dir.resolve("fastpipe-shard-" + ended.pid() + "-0-123.err"));
      Path deadOut = Files.createFile(dir.resolve("fastpipe-shard-" + ended.pid() + "-1-456.out"));
      Path deadPlan = Files.createFile(dir.resolve("fastpipe-plan-" + ended.pid() + "-789.properties"));
      Path liveErr = Files.createFile(dir.resolve("fastpipe-shard-" + live.pid() + "-0-123.err"));
      Path mine = Files.createFile(dir.resolve("fastpipe-shard-" + ProcessHandle.current().pid() + "-0-1.out"));
      Path other = Files.createFile(dir.resolve("fastpipe-launcher123.err"));

      assertEquals(3, ShardProcesses.removeDeadLogs(dir));
      assertFalse(Files.exists(deadErr));
      assertFalse(Files.exists(deadOut));
      assertFalse(Files.exists(deadPlan));
      assertTrue(Files.exists(liveErr), "a live run's log was removed");
      assertTrue(Files.exists(mine), "this run's log was removed");
      assertTrue(Files.exists(other), "a file that is no shard log was removed");
    } finally {
      live.destroyForcibly();
    }
  }

  @Test
  void theRunPidIsReadFromTheName() {
    assertEquals(4242, ShardProcesses.runPid(Path.of("/tmp/fastpipe-shard-4242-3-99.err")));
    assertEquals(4242, ShardProcesses.runPid(Path.of("fastpipe-plan-4242-99.properties")));
    assertEquals(-1, ShardProcesses.runPid(Path.of("fastpipe-shard-x-3-99.err")));
    assertEquals(-1, ShardProcesses.runPid(Path.of("fastpipe-call4242-0")));
  }
}
