package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every run has its own id, so a crashed run's rings are only found by sweeping all run ids. */
class StaleRunSweepTest {
  @TempDir Path dir;

  private static void writeRingHeader(Path p, long ownerPid) throws Exception {
    ByteBuffer h = ByteBuffer.allocate(ShmRingDescriptor.HEADER_LENGTH).order(ByteOrder.nativeOrder());
    h.putLong(ShmRingDescriptor.MAGIC_OFFSET, ShmRingDescriptor.MAGIC);
    h.putLong(ShmRingDescriptor.OWNER_PID_OFFSET, ownerPid);
    Files.write(p, h.array());
  }

  @Test
  void removesRingsOfDeadRunsAndKeepsLiveRunsAndOtherFiles() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(30, TimeUnit.SECONDS);
    Path crashed0 = ShmTransport.path(dir, "call123-abc", 0);
    Path crashed1 = ShmTransport.path(dir, "call123-abc", 1);
    writeRingHeader(crashed0, gone.pid());
    writeRingHeader(crashed1, gone.pid());
    Path unrelated = dir.resolve("fastpipe-notes.txt");
    Files.writeString(unrelated, "not a ring");
    try (ShmTransport live = ShmTransport.create(TransportConfig.of(1, 64).withDir(dir).withRingBytes(4096)
        .withRunId("live"))) {
      ShmTransport.removeStaleRuns(dir);
      assertFalse(Files.exists(crashed0), "ring of a dead run left");
      assertFalse(Files.exists(crashed1), "ring of a dead run left");
      assertTrue(Files.exists(live.path(0)), "a live run's ring was removed");
      assertTrue(Files.exists(unrelated), "a file that is not a ring was removed");
    }
  }
}
