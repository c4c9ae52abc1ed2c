package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run has its own id, so a crashed run's rings are only found by sweeping all run ids; the
 * sweep removes a file only when its owner is provably dead, since another run may be starting.
 */
class StaleRunSweepTest {
  @TempDir Path dir;

  private static void writeRingHeader(Path p, long ownerPid) throws Exception {
    writeRingHeader(p, new RingOwner(ownerPid, 0, 0));
  }

  private static void writeRingHeader(Path p, RingOwner owner) throws Exception {
    ByteBuffer h = ByteBuffer.allocate(ShmRingDescriptor.HEADER_LENGTH).order(ByteOrder.nativeOrder());
    h.putLong(ShmRingDescriptor.MAGIC_OFFSET, ShmRingDescriptor.MAGIC);
    h.putLong(ShmRingDescriptor.OWNER_PID_OFFSET, owner.pid());
    h.putLong(ShmRingDescriptor.OWNER_START_OFFSET, owner.startTicks());
    h.putLong(ShmRingDescriptor.OWNER_PID_NS_OFFSET, owner.pidNamespace());
    Files.write(p, h.array());
  }

  private static long deadPid() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(30, TimeUnit.SECONDS);
    return gone.pid();
  }

  private List<String> files() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
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

  @Test
  void keepsRingsOfLiveOwnersAndRemovesOnesWhosePidWasReused() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    try {
      RingOwner live = new RingOwner(child.pid(), RingOwner.startTicks(child.pid()), RingOwner.current().pidNamespace());
      assertTrue(live.startTicks() > 0, "no /proc start time for " + child.pid());
      Path alive = ShmTransport.path(dir, "alive", 0);
      Path reused = ShmTransport.path(dir, "reused", 0);
      writeRingHeader(alive, live);
      // Same pid, another start time: the pid now belongs to a later process; the owner is gone.
      writeRingHeader(reused, new RingOwner(child.pid(), live.startTicks() - 1, live.pidNamespace()));
      ShmTransport.removeStaleRuns(dir);
      assertTrue(Files.exists(alive), "a live owner's ring was removed");
      assertFalse(Files.exists(reused), "a ring whose owner's pid was reused was left");
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void keepsFilesThatNameNoOwnerYetUntilLongUntouched() throws Exception {
    Path empty = ShmTransport.path(dir, "starting", 0); // as another run's file looks for a moment
    Path zeros = ShmTransport.path(dir, "starting", 1);
    Path creating = ShmRing.creatingPath(ShmTransport.path(dir, "starting", 2));
    Files.write(empty, new byte[0]);
    Files.write(zeros, new byte[ShmRingDescriptor.HEADER_LENGTH]);
    Files.write(creating, new byte[0]);
    List<String> before = files();
    ShmTransport.removeStaleRuns(dir);
    assertEquals(before, files(), "a file naming no owner yet was removed");
    FileTime old = FileTime.from(Instant.now().minus(ShmTransport.UNOWNED_GRACE).minusSeconds(60));
    for (Path p : List.of(empty, zeros, creating)) Files.setLastModifiedTime(p, old);
    ShmTransport.removeStaleRuns(dir);
    assertEquals(List.of(), files(), "files naming no owner, untouched for longer than the grace, were left");
  }

  @Test
  void keepsRingsOfOwnersInAnotherPidNamespace() throws Exception {
    long ns = RingOwner.current().pidNamespace();
    Path foreign = ShmTransport.path(dir, "container", 0);
    writeRingHeader(foreign, new RingOwner(deadPid(), 1, ns + 1)); // its pid means nothing here
    Path creatingOfDead = ShmRing.creatingPath(ShmTransport.path(dir, "crashed", 0));
    writeRingHeader(creatingOfDead, new RingOwner(deadPid(), 1, ns));
    ShmTransport.removeStaleRuns(dir);
    assertTrue(Files.exists(foreign) || ns == 0, "the ring of another pid namespace's process was removed");
    assertFalse(Files.exists(creatingOfDead), "a half-written ring of a dead creator was left");
  }

  @Test
  void aRingAppearsCompleteNamingItsOwnerAndNeverReplacesAFile() throws Exception {
    try (ShmTransport t = ShmTransport.create(TransportConfig.of(2, 64).withDir(dir).withRingBytes(1 << 16))) {
      assertEquals(List.of(t.path(0).getFileName().toString(), t.path(1).getFileName().toString()), files(),
          "only the rings, no .creating file left");
      assertEquals(RingOwner.current(), ShmRing.readOwner(t.path(0)));
      assertTrue(RingOwner.current().startTicks() > 0);
      assertEquals(ShmRingDescriptor.fileLength(1 << 16), Files.size(t.path(1)));
      byte[] before = Files.readAllBytes(t.path(0));
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> ShmRing.create(t.path(0), 0, 1 << 16));
      assertTrue(e.getMessage().contains("already exists"), e.getMessage());
      assertEquals(java.util.Arrays.hashCode(before), java.util.Arrays.hashCode(Files.readAllBytes(t.path(0))),
          "an existing ring was touched");
    }
    assertEquals(List.of(), files());
  }

  @Test
  void runIdsDoNotRepeat() {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (int i = 0; i < 10_000; i++) assertTrue(ids.add(TransportConfig.uniqueRunId("call")));
    assertTrue(ids.iterator().next().matches("call" + ProcessHandle.current().pid() + "-[0-9a-f]{12}"));
  }
}
