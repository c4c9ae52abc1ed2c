package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner against a stand-in for bin/fastpipe: a script that writes a VCF whose header changes
 * every run (a date) and whose one record comes from the environment variable BODY, and a metrics
 * file; {@code --fail} makes it exit 3 with an error line.
 */
class BenchRunnerTest {

  static Path fakeLauncher(Path dir) throws Exception {
    Path script = dir.resolve("bin").resolve("fastpipe");
    Files.createDirectories(script.getParent());
    Files.writeString(script, """
        #!/bin/bash
        echo "$@" >> "$(dirname "$0")/commands"
        while [ $# -gt 0 ]; do
          case "$1" in
            --output) out="$2"; shift 2 ;;
            --metrics) met="$2"; shift 2 ;;
            --fail) echo "fastpipe call: something broke" >&2; exit 3 ;;
            --refuse) echo "fastpipe call: r.bam and other.fa share no contig name" >&2; exit 2 ;;
            *) shift ;;
          esac
        done
        printf '##fileformat=VCFv4.2\\n##fastpipe_date=%s\\n#CHROM\\tPOS\\nchr1\\t%s\\n' "$RANDOM$RANDOM" "${BODY:-100}" | gzip > "$out"
        printf '{"stages": [{"name": "make_examples", "wall_seconds": 1.0, "cpu_seconds": 2.0},
          {"name": "call_variants", "wall_seconds": 1.0, "cpu_seconds": 3.0}],
          "processes": [{"role": "inference", "peak_rss_bytes": 1048576}]}' > "$met"
        """);
    assertTrue(script.toFile().setExecutable(true));
    return script;
  }

  static Set<String> files(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  @Test
  void identicalRecordsPassAndEveryRunIsCollectedInTheScheduledOrder(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    Path work = dir.resolve("work");
    List<BenchConfig> configs = List.of(BenchConfig.parse("a: --shards 1"), BenchConfig.parse("b: --shards 2"));
    BenchResult r;
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of("--ref", "R.fa"), work, null)) {
      r = runner.runAll(configs, 3, 1, 5);
      assertTrue(runner.finish(r, false).isEmpty());
    }
    assertEquals(8, r.runs().size());
    assertEquals(List.of(), r.mismatches());
    assertEquals(3, r.measured("a").size());
    assertEquals(5.0, Figure.STANDARD.get(1).value().applyAsDouble(r.measured("b").get(0))); // total CPU = 2 + 3
    // Each run carries the machine's load average read just before it started (NaN only off Linux).
    boolean linux = Files.isReadable(Path.of("/proc/loadavg"));
    for (BenchRun run : r.runs()) assertTrue(linux ? run.loadBefore() >= 0 : Double.isNaN(run.loadBefore()), run.label());
    List<Schedule.Slot> slots = Schedule.interleaved(2, 1, 3, 5);
    for (int i = 0; i < slots.size(); i++) {
      assertEquals(configs.get(slots.get(i).config()).name(), r.runs().get(i).config());
      assertEquals(slots.get(i).warmup(), r.runs().get(i).warmup());
    }
    // Common options first, then the configuration's, then bench's own.
    List<String> commands = Files.readAllLines(launcher.resolveSibling("commands"));
    assertTrue(commands.get(0).matches("call --ref R\\.fa --shards [12] --output \\S+/run-1\\.vcf\\.gz --metrics \\S+/run-1\\.json --no-progress"),
        commands.get(0));
    // Only the reference run's VCF is kept while the bench runs; metrics and logs go at once.
    assertEquals(Set.of("run-1.vcf.gz"), files(work));
  }

  @Test
  void aRunWhoseRecordsDifferIsNamedAndItsVcfKept(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    List<BenchConfig> configs = List.of(BenchConfig.parse("same: BODY=100"), BenchConfig.parse("other: BODY=200"));
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of(), dir.resolve("w"), null)) {
      BenchResult r = runner.runAll(configs, 2, 0, 1);
      List<String> mismatches = r.mismatches();
      assertEquals(2, mismatches.size(), mismatches.toString());
      BenchRun ref = r.reference();
      for (String m : mismatches) {
        String expectedConfig = ref.config().equals("same") ? "other" : "same";
        assertTrue(m.matches("run \\d \\(" + expectedConfig + ", round \\d\\): VCF body md5 [0-9a-f]{32} differs from "
            + "run 1 \\(" + ref.config() + ", round 1\\)'s [0-9a-f]{32}"), m);
      }
      List<Path> kept = runner.finish(r, false);
      assertEquals(3, kept.size()); // the reference's and the two that differ
      for (Path p : kept) assertTrue(Files.exists(p), p.toString());
      assertEquals(runner.workDir().resolve("run-1.vcf.gz"), kept.get(0));
    }
  }

  @Test
  void aRunRefusingItsInputIsTheBenchsBadInputNotAFailedRun(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    List<BenchConfig> configs = List.of(BenchConfig.parse("good:"), BenchConfig.parse("bad: --refuse"));
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of(), dir.resolve("w"), null)) {
      InputException e = assertThrows(InputException.class, () -> runner.runAll(configs, 2, 0, 1));
      assertTrue(e.getMessage().matches("run \\d \\(bad, round 1\\) refused its input: fastpipe call: r.bam and other.fa"
          + " share no contig name"), e.getMessage());
    }
  }

  @Test
  void aFailedRunStopsTheBenchWithItsErrorLine(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    List<BenchConfig> configs = List.of(BenchConfig.parse("good:"), BenchConfig.parse("bad: --fail"));
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of(), dir.resolve("w"), null)) {
      BenchFailedException e = assertThrows(BenchFailedException.class, () -> runner.runAll(configs, 2, 0, 1));
      assertTrue(e.getMessage().matches("run \\d \\(bad, round 1\\) exited with status 3: fastpipe call: something broke"
          + " \\(its output: \\S+run-\\d\\.log; command: .*"), e.getMessage());
      assertFalse(runner.finish(null, false).size() > 0);
      assertTrue(Files.isDirectory(dir.resolve("w")), "kept for its log");
    }
  }

  @Test
  void aFailedBenchRemovesItsTemporaryWorkDirectoryUnlessKept(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    List<BenchConfig> configs = List.of(BenchConfig.parse("good:"), BenchConfig.parse("bad: --fail"));
    Path work;
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of(), null, false, null)) {
      work = runner.workDir();
      BenchFailedException e = assertThrows(BenchFailedException.class, () -> runner.runAll(configs, 2, 0, 1));
      assertTrue(e.getMessage().contains("(its output goes with the temporary work directory; --keep keeps it; command: "),
          e.getMessage());
      assertTrue(runner.finish(null, false).isEmpty());
    }
    assertFalse(Files.exists(work), "the temporary work directory stayed after the error: " + work);

    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of(), null, true, null)) {
      work = runner.workDir();
      BenchFailedException e = assertThrows(BenchFailedException.class, () -> runner.runAll(configs, 2, 0, 1));
      assertTrue(e.getMessage().contains("(its output: " + work + "/run-"), e.getMessage());
    }
    try {
      assertTrue(files(work).stream().anyMatch(f -> f.endsWith(".log")), "--keep: the failed run's log went");
    } finally {
      try (Stream<Path> s = Files.walk(work)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
      }
    }
  }

  /**
   * Every configuration's call is checked before the first round: one the check refuses is named and
   * no run starts; the check sees the shared options, then the configuration's, less the launcher's
   * own; another build's runs and classic or bcftools runs are not call's to check.
   */
  @Test
  void everyConfigurationIsCheckedBeforeAnyRun(@TempDir Path dir) throws Exception {
    Path launcher = fakeLauncher(dir);
    List<BenchConfig> configs = List.of(BenchConfig.parse("a: --allocator glibc --shards 1"),
        BenchConfig.parse("b: --malloc-conf=narenas:1 --bogus"),
        BenchConfig.parse("old: FASTPIPE_BUILD=" + dir + " --bogus"),
        BenchConfig.parse("peer: FASTPIPE_PIPELINE=bcftools"));
    java.util.List<List<String>> checked = new java.util.ArrayList<>();
    try (BenchRunner runner = new BenchRunner(List.of(launcher.toString()), List.of("--ref", "r.fa"), dir.resolve("w"), null)) {
      InputException e = assertThrows(InputException.class, () -> runner.checkCalls(configs, (args, output) -> {
        checked.add(args);
        assertEquals(dir.resolve("w").resolve("check.vcf.gz"), output);
        if (args.contains("--bogus")) {
          throw new InputException("fastpipe call: unknown option --bogus; see 'fastpipe call --help'");
        }
      }));
      assertEquals("configuration 'b' is refused before any run: fastpipe call: unknown option --bogus;"
          + " see 'fastpipe call --help'", e.getMessage());
    }
    assertEquals(List.of(List.of("--ref", "r.fa", "--shards", "1"), List.of("--ref", "r.fa", "--bogus")), checked);
    assertFalse(Files.exists(dir.resolve("bin").resolve("commands")), "no run started");
  }

  @Test
  void launcherOptionsNeedTheLauncherAndBenchOwnsOutput(@TempDir Path dir) {
    List<BenchConfig> configs = List.of(BenchConfig.parse("a: --allocator glibc"), BenchConfig.parse("b:"));
    try (BenchRunner runner = new BenchRunner(List.of("/usr/bin/java", "-cp", "x", "Main"), List.of(), dir, null)) {
      assertTrue(assertThrows(InputException.class, () -> runner.runAll(configs, 1, 0, 1)).getMessage()
          .contains("configuration 'a' uses --allocator, which needs runs started through bin/fastpipe"));
    }
    assertThrows(InputException.class, () -> new BenchRunner(List.of("x"), List.of("--metrics", "m.json"), dir, null));
  }

  @Test
  void aConfigurationWithFastpipeBuildRunsThatBuildsLauncher(@TempDir Path dir) throws Exception {
    Path here = fakeLauncher(dir.resolve("here"));
    Path other = fakeLauncher(dir.resolve("other"));
    List<BenchConfig> configs = List.of(BenchConfig.parse("before: FASTPIPE_BUILD=" + dir.resolve("other")),
        BenchConfig.parse("after:"));
    assertEquals(other.toAbsolutePath().normalize(), configs.get(0).build());
    BenchResult r;
    try (BenchRunner runner = new BenchRunner(List.of(here.toString()), List.of("--ref", "R.fa"), dir.resolve("work"), null)) {
      r = runner.runAll(configs, 2, 0, 1);
    }
    assertEquals(4, r.runs().size());
    // Each launcher logs the calls it started: two each, the other build's for 'before' only.
    assertEquals(2, Files.readAllLines(other.resolveSibling("commands")).size());
    assertEquals(2, Files.readAllLines(here.resolveSibling("commands")).size());
    // A build without bin/fastpipe is refused in one line naming it.
    InputException e = assertThrows(InputException.class, () -> BenchConfig.parse("x: FASTPIPE_BUILD=" + dir.resolve("none")));
    assertTrue(e.getMessage().contains("FASTPIPE_BUILD=" + dir.resolve("none") + ": no executable bin/fastpipe there"),
        e.getMessage());
  }
}
