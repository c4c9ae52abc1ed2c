package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.shm.ShmRingDescriptor;
import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of {@code bin/fastpipe call} with shard processes (shm rings), provoked for real: many
 * runs started at once (each run's start-up sweep must leave the others' rings alone), a shard
 * stopped with SIGSTOP (the run must not wait forever), a shared-memory directory too small for
 * the rings (one line, not a SIGBUS). Each leaves no VCF, no ring and no process behind.
 */
class ShardFaultsIT {
  static final Path SHM = Path.of("/dev/shm");
  /** Small: 96 examples, a few seconds a run. */
  static final String SMALL_REGION = "chr20:10000000-10020000";

  @TempDir static Path dir;

  static List<String> call(Path out, String region, String... extra) {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    List<String> args = new ArrayList<>(List.of(CallIT.LAUNCHER.toString(), "call", "--ref", ref.toString(),
        "--reads", bam.toString(), "--regions", region, "--shards", "2", "--output", out.toString(), "--no-progress",
        "--no-journal")); // these runs are about rings and processes; a journal a stopped run keeps is ResumeIT's
    args.addAll(List.of(extra));
    return args;
  }

  static Process start(List<String> cmd, Path err, Map<String, String> env) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().remove("FASTPIPE_ALLOCATOR");
    pb.environment().remove("LD_PRELOAD");
    pb.environment().putAll(env);
    return pb.start();
  }

  /** The ring files of the run whose parent is {@code callPid} (its run id starts with call + pid). */
  static List<Path> ringsOf(long callPid) throws IOException {
    String prefix = "fastpipe-call" + callPid + "-";
    try (Stream<Path> s = Files.list(SHM)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)
          || p.getFileName().toString().startsWith("." + prefix)).toList();
    }
  }

  static void assertNothingLeft(Process call, Path out) throws IOException {
    assertFalse(Files.exists(out), "a VCF was left under the final name");
    try (Stream<Path> s = Files.list(out.getParent())) {
      String name = out.getFileName().toString();
      assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(name)), "partial VCF left");
    }
    assertTrue(call.toHandle().descendants().noneMatch(ProcessHandle::isAlive), "shard processes left running");
    assertEquals(List.of(), ringsOf(call.pid()), "shared-memory files left");
  }

  @Test
  void twentyRunsStartedTogetherAllSucceedWithTheSameRecords() throws Exception {
    // Batches of 5 started at one instant: every start sweeps /dev/shm while the others create
    // their rings. C1 only for the parents too: this test is about starting, not speed.
    Map<String, String> env = Map.of("FASTPIPE_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
    String reference = null;
    long t0 = System.nanoTime();
    for (int batch = 0; batch < 4; batch++) {
      List<Process> calls = new ArrayList<>();
      List<Path> outs = new ArrayList<>();
      List<Path> errs = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String name = "together-" + batch + "-" + i;
        outs.add(dir.resolve(name + ".vcf.gz"));
        errs.add(dir.resolve(name + ".err"));
        calls.add(start(call(outs.get(i), SMALL_REGION), errs.get(i), env));
      }
      for (int i = 0; i < calls.size(); i++) {
        Process c = calls.get(i);
        assertTrue(c.waitFor(180, TimeUnit.SECONDS), "run " + batch + "-" + i + " did not finish");
        String err = Files.readString(errs.get(i));
        assertEquals(0, c.exitValue(), "run " + batch + "-" + i + " (pid " + c.pid() + ") of 20 failed:\n" + err);
        String body = CallIT.body(outs.get(i));
        if (reference == null) reference = body;
        assertEquals(reference, body, "run " + batch + "-" + i + " wrote other records");
        assertEquals(List.of(), ringsOf(c.pid()), "shared-memory files left by run " + batch + "-" + i);
      }
      System.err.printf("ShardFaultsIT: %d runs done in %.1f s%n", 5 * (batch + 1), (System.nanoTime() - t0) / 1e9);
    }
    assertTrue(reference.lines().count() > 50, "too few records:\n" + reference);
  }

  @Test
  void aStoppedShardFailsTheRunNamingItAndLeavesNothingButItsMetricsAndReportMarkedFailed() throws Exception {
    Path out = dir.resolve("stopped.vcf.gz");
    Path err = dir.resolve("stopped.err");
    Path metrics = dir.resolve("stopped-run.json");
    Path report = dir.resolve("stopped-run.html");
    // The whole evaluation BED region: long enough that shard 1 is still working when stopped.
    Process call = start(call(out, "chr20:10101000-11094000", "--shard-timeout", "3s", "--metrics", metrics.toString(),
        "--report", report.toString()), err, Map.of());
    Optional<ProcessHandle> shard = Optional.empty();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      Path ring = null;
      while (System.nanoTime() < deadline && call.isAlive()) {
        shard = call.toHandle().descendants()
            .filter(h -> h.info().commandLine().orElse("").contains("dev.fastpipe.cli.Main shard-worker --task 1"))
            .findFirst();
        ring = ringsOf(call.pid()).stream().filter(p -> p.getFileName().toString().endsWith("-1")).findFirst().orElse(null);
        if (shard.isPresent() && ring != null && header(ring, ShmRingDescriptor.PRODUCER_HEARTBEAT_OFFSET) > 0) break;
        Thread.sleep(20);
      }
      assertTrue(shard.isPresent() && ring != null, "shard 1 never started: " + Files.readString(err));
      assertEquals(0, header(ring, ShmRingDescriptor.END_OF_STREAM_OFFSET) & 0xffffffffL,
          "shard 1 finished before it could be stopped: use a longer region");
      long pid = shard.get().pid();
      assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor());

      assertTrue(call.waitFor(60, TimeUnit.SECONDS), "the run waited on its stopped shard");
      String message = Files.readString(err);
      assertNotEquals(0, call.exitValue(), message);
      assertTrue(message.contains("fastpipe call: shard 1 (pid " + pid + ") sent no heartbeat for ")
          && message.contains(" s (--shard-timeout 3s): stopped"), message);
      assertFalse(message.contains("Exception"), message);
      assertNothingLeft(call, out);
      // The run an operator most wants to see: its metrics and report, marked failed.
      Object json = dev.fastpipe.streaming.bench.Json.parse(Files.readString(metrics));
      assertEquals("failed", dev.fastpipe.streaming.bench.Json.at(json, "status"));
      assertTrue(((String) dev.fastpipe.streaming.bench.Json.at(json, "error")).startsWith("shard 1 (pid " + pid + ") sent no heartbeat"),
          Files.readString(metrics));
      assertEquals(2.0, dev.fastpipe.streaming.bench.Json.number(json, "settings", "shards"));
      String html = Files.readString(report);
      assertTrue(html.contains("<h1>fastpipe call: run report (FAILED)</h1>"), html);
      assertTrue(html.contains("This run failed: shard 1 (pid " + pid + ")"), html);
      try (Stream<Path> left = Files.list(dir)) {
        assertTrue(left.noneMatch(p -> p.getFileName().toString().contains("stopped-run.") && p.getFileName().toString()
            .contains(".tmp")), "no temporary of the metrics or report left");
      }
    } finally {
      shard.ifPresent(h -> {
        if (h.isAlive()) {
          try {
            new ProcessBuilder("kill", "-CONT", Long.toString(h.pid())).start().waitFor();
          } catch (IOException | InterruptedException ignored) {
            // killed below anyway
          }
          h.destroyForcibly();
        }
      });
      call.destroyForcibly();
    }
  }

  @Test
  void aSharedMemoryDirWithASpaceInJavaOptsIsUsedByTheRunAndItsShards() throws Exception {
    Path shm = Files.createDirectories(dir.resolve("shm with space"));
    Path out = dir.resolve("spaced.vcf.gz");
    Path err = dir.resolve("spaced.err");
    Process call = start(call(out, SMALL_REGION), err,
        Map.of("FASTPIPE_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -Dfastpipe.shm.dir=\"" + shm + "\""));
    try {
      boolean ringSeen = false;
      String prefix = "fastpipe-call" + call.pid() + "-";
      while (call.isAlive() && !ringSeen) {
        try (Stream<Path> s = Files.list(shm)) {
          ringSeen = s.anyMatch(p -> p.getFileName().toString().contains(prefix));
        }
        if (!ringSeen) Thread.sleep(10);
      }
      assertTrue(call.waitFor(180, TimeUnit.SECONDS), "the run did not finish");
      assertEquals(0, call.exitValue(), Files.readString(err));
      assertTrue(ringSeen, "no ring was made in " + shm);
      assertTrue(CallIT.body(out).lines().count() > 50, "too few records");
      try (Stream<Path> s = Files.list(shm)) {
        assertEquals(List.of(), s.toList(), "rings left in " + shm);
      }
    } finally {
      call.destroyForcibly();
    }
  }

  /** Shard logs and plan files in {@code tmp} (the java.io.tmpdir of one run). */
  static List<Path> logsIn(Path tmp) throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith("fastpipe-shard-")
          || p.getFileName().toString().startsWith("fastpipe-plan-")).toList();
    }
  }

  /** Starts a long call with its own java.io.tmpdir and returns once its shards run and write into their rings. */
  static Process startLongCall(Path out, Path err, Path tmp) throws Exception {
    Process call = start(call(out, "chr20:10101000-11094000"), err,
        Map.of("FASTPIPE_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && call.isAlive()) {
      List<Path> rings = ringsOf(call.pid());
      if (logsIn(tmp).size() >= 4 && rings.size() >= 2
          && rings.stream().allMatch(r -> {
            try {
              return header(r, ShmRingDescriptor.PRODUCER_HEARTBEAT_OFFSET) > 0;
            } catch (IOException e) {
              return false;
            }
          })) {
        return call;
      }
      Thread.sleep(20);
    }
    call.destroyForcibly();
    throw new AssertionError("the shards never started: " + Files.readString(err));
  }

  @Test
  void aParentKilledWithSigkillLeavesNoShardLogs() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp-kill9"));
    Path out = dir.resolve("kill9.vcf.gz");
    Process call = startLongCall(out, dir.resolve("kill9.err"), tmp);
    List<ProcessHandle> shards = call.toHandle().descendants().toList();
    try {
      assertEquals(0, new ProcessBuilder("kill", "-KILL", Long.toString(call.pid())).start().waitFor());
      assertTrue(call.waitFor(60, TimeUnit.SECONDS));
      for (ProcessHandle h : shards) h.onExit().get(60, TimeUnit.SECONDS); // they see their parent gone
      assertEquals(List.of(), logsIn(tmp), "shard logs left in java.io.tmpdir");
    } finally {
      shards.forEach(ProcessHandle::destroyForcibly);
      call.destroyForcibly();
    }
  }

  @Test
  void sigusr1StopsTheRunAsSigtermDoesAndLeavesNothing() throws Exception {
    stopsOnSignalAndLeavesNothing("USR1", 128 + 10);
  }

  @Test
  void sighupStopsTheRunAsSigtermDoesAndLeavesNothing() throws Exception {
    assumeFalse(ignoredHere(1), "SIGHUP is ignored in this test's environment (run under nohup?), so the runs it"
        + " starts ignore it too, as fastpipe keeps a signal it was started with ignored");
    stopsOnSignalAndLeavesNothing("HUP", 128 + 1);
  }

  /**
   * Whether this process was started with signal {@code number} ignored (Linux's SigIgn mask of
   * /proc/self/status; false where that cannot be read). A process it starts inherits that.
   */
  static boolean ignoredHere(int number) throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) return false;
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return new java.math.BigInteger(line.substring("SigIgn:".length()).strip(), 16).testBit(number - 1);
      }
    }
    return false;
  }

  private void stopsOnSignalAndLeavesNothing(String signal, int status) throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp-" + signal));
    Path out = dir.resolve(signal + ".vcf.gz");
    Process call = startLongCall(out, dir.resolve(signal + ".err"), tmp);
    List<ProcessHandle> shards = call.toHandle().descendants().toList();
    try {
      assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(call.pid())).start().waitFor());
      assertTrue(call.waitFor(60, TimeUnit.SECONDS), "the run went on after SIG" + signal);
      assertEquals(status, call.exitValue(), Files.readString(dir.resolve(signal + ".err")));
      for (ProcessHandle h : shards) h.onExit().get(60, TimeUnit.SECONDS);
      assertNothingLeft(call, out);
      assertEquals(List.of(), logsIn(tmp), "shard logs left in java.io.tmpdir");
    } finally {
      shards.forEach(ProcessHandle::destroyForcibly);
      call.destroyForcibly();
    }
  }

  /** The header field at {@code offset} of a ring file, as any process reads it. */
  static long header(Path ring, int offset) throws IOException {
    try (FileChannel ch = FileChannel.open(ring)) {
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
      ch.read(b, offset);
      return b.getLong(0);
    } catch (java.nio.file.NoSuchFileException gone) {
      return 0;
    }
  }

  @Test
  void aFullSharedMemoryIsOneLineWithExit2() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "mounting a small tmpfs needs root");
    Path small = Files.createDirectories(dir.resolve("small-shm"));
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", small.toString())
        .redirectErrorStream(true).start();
    assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here: " + new String(mount.getInputStream().readAllBytes()));
    try {
      Path out = dir.resolve("full.vcf.gz");
      List<String> cmd = call(out, SMALL_REGION);
      String[] args = cmd.subList(1, cmd.size()).toArray(String[]::new);
      LauncherIT.Result r = LauncherIT.run(Map.of("FASTPIPE_JAVA_OPTS", "-Dfastpipe.shm.dir=" + small), args);
      assertEquals(2, r.exit(), r.err());
      List<String> lines = r.err().lines().filter(l -> !l.contains("warning:")).toList();
      assertEquals(List.of("fastpipe call: " + small + " has 0.5 MiB free, the rings need 32 MiB (2 shards x 16 MiB):"
          + " use --ring-size or free space"), lines, r.err());
      assertFalse(Files.exists(out), "a VCF was written");
      try (Stream<Path> s = Files.list(small)) {
        assertEquals(List.of(), s.toList(), "files left in the small tmpfs");
      }
    } finally {
      new ProcessBuilder("umount", small.toString()).start().waitFor();
    }
  }
}
