package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults around outputs, end to end through bin/fastpipe: every output location is checked before
 * any work; a disk that fills up mid-run gives the root cause in one line and leaves nothing
 * behind; a parent killed with -9 takes its shards with it, and the next run to the same output
 * removes the temporary VCF it left.
 */
class OutputFaultsIT {
  static final String REGION = "chr20:10,000,001-10,300,000";

  @TempDir Path dir;

  static List<String> call(Path out, String... extra) {
    List<String> a = new ArrayList<>(List.of("call", "--ref", SharedData.require("ref/chr20.fa.gz").toString(),
        "--reads", SharedData.require("sim30x_eval/SIM30X_EVAL.bam").toString(), "--regions", REGION,
        "--output", out.toString(), "--shards", "2", "--no-progress"));
    a.addAll(List.of(extra));
    return a;
  }

  static LauncherIT.Result run(List<String> args) throws Exception {
    return LauncherIT.run(Map.of(), args.toArray(String[]::new));
  }

  static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Mounts a tmpfs of {@code size} (e.g. 12k) at a new directory {@code at}, for a disk that fills
   * mid-run; skips the test where that cannot be done (not root, no mount). Unmount it with
   * {@code umount} in a finally block.
   */
  static Path smallTmpfs(Path at, String size) throws Exception {
    assumeTrue(System.getProperty("user.name").equals("root"), "mounting a small tmpfs needs root");
    Path small = Files.createDirectory(at);
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", small.toString())
        .redirectErrorStream(true).start();
    String why = new String(mount.getInputStream().readAllBytes());
    assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here: " + why);
    return small;
  }

  static void assertOneLine(LauncherIT.Result r, String expected) {
    assertEquals(2, r.exit(), r.err());
    List<String> lines = r.err().lines().filter(l -> l.startsWith("fastpipe call:")).toList();
    assertEquals(1, lines.size(), r.err());
    assertTrue(lines.get(0).contains(expected), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
  }

  @Test
  void everyOutputLocationIsCheckedBeforeAnyWork() throws Exception {
    Path asDir = Files.createDirectory(dir.resolve("out.vcf.gz"));
    assertOneLine(run(call(asDir)), "is a directory");
    assertEquals(List.of(), names(asDir), "nothing written into it");

    Path out = dir.resolve("calls.vcf.gz");
    assertOneLine(run(call(out, "--metrics", dir.resolve("no/such/run.json").toString())), "does not exist");
    assertFalse(Files.exists(out), "the VCF must not be written when the metrics cannot be");
    assertOneLine(run(call(out, "--report", dir.resolve("no/such/run.html").toString())), "--report");
    assertFalse(Files.exists(out), "nor when the report cannot be");

    assertOneLine(run(call(Path.of("/proc/fastpipe-test.vcf.gz"))), "cannot create a file in /proc");
    assertEquals(List.of("out.vcf.gz"), names(dir));
  }

  @Test
  void aFullOutputDiskNamesTheCauseAndLeavesNothing() throws Exception {
    Path small = smallTmpfs(dir.resolve("small"), "12k");
    try {
      LauncherIT.Result r = run(call(small.resolve("calls.vcf.gz")));
      assertTrue(r.exit() != 0, r.err());
      assertTrue(r.err().contains("No space left on device"), r.err());
      assertTrue(r.err().contains("calls.vcf.gz"), "names the file: " + r.err());
      assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
      assertEquals(List.of(), names(small), "no temporary VCF or index left on the full disk");
    } finally {
      new ProcessBuilder("umount", small.toString()).start().waitFor();
    }
  }

  @Test
  void aParentKilledWithSignal9TakesItsShardsAndTheNextRunClearsItsTemporary() throws Exception {
    Path out = dir.resolve("killed.vcf.gz");
    List<String> cmd = new ArrayList<>(List.of(LauncherIT.LAUNCHER.toString()));
    cmd.addAll(call(out, "--ring-size", "2M", "--no-journal")); // the temporary of a run without a journal (ResumeIT: with one)
    cmd.set(cmd.indexOf(REGION), "chr20"); // long enough to be killed mid-run
    Process parent = new ProcessBuilder(cmd).redirectError(dir.resolve("killed.err").toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    List<ProcessHandle> shards = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (shards.size() < 2 && System.nanoTime() < deadline && parent.isAlive()) {
      // The worker JVMs (the launcher execs java in the same pid; its subshells are not workers).
      shards = parent.toHandle().descendants()
          .filter(h -> h.info().commandLine().orElse("").contains("dev.fastpipe.cli.Main shard-worker"))
          .toList();
      Thread.sleep(20);
    }
    assertEquals(2, shards.size(), "shards never started: " + Files.readString(dir.resolve("killed.err")));
    Thread.sleep(500); // the temporary VCF exists from before the shards start
    assertTrue(names(dir).stream().anyMatch(n -> n.startsWith(".killed.vcf.gz.tmp-")), names(dir).toString());
    parent.destroyForcibly(); // SIGKILL: no hook runs
    parent.waitFor(10, TimeUnit.SECONDS);
    for (ProcessHandle s : shards) {
      assertTrue(s.onExit().get(30, TimeUnit.SECONDS) != null, "shard " + s.pid() + " outlived its parent");
    }
    assertFalse(Files.exists(out));
    assertTrue(names(dir).stream().anyMatch(n -> n.startsWith(".killed.vcf.gz.tmp-")), "kill -9 left the temporary");

    LauncherIT.Result again = run(call(out, "--no-journal"));
    assertEquals(0, again.exit(), again.err());
    assertTrue(Files.exists(out));
    assertTrue(names(dir).stream().noneMatch(n -> n.startsWith(".killed.vcf.gz.tmp-")),
        "the next run to the same output removed the dead run's temporary: " + names(dir));
  }
}
