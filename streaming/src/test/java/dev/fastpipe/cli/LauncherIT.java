package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs bin/fastpipe for real, as a user would, after the artifact is packaged. */
class LauncherIT {

  static final Path LAUNCHER = Path.of("..", "bin", "fastpipe").toAbsolutePath().normalize();

  record Result(int exit, String out, String err) {}

  /** Runs bin/fastpipe with {@code args}, the allocator variables cleared and {@code env} added. */
  static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    return runScript(LAUNCHER, env, args);
  }

  /** Runs {@code script} (bin/fastpipe or another script in bin/) as {@link #run} does. */
  static Result runScript(Path script, Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(script.toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("FASTPIPE_ALLOCATOR");
    for (String v : List.of("LD_PRELOAD", "MALLOC_CONF", "FASTPIPE_BASE_LD_PRELOAD", "FASTPIPE_MALLOC_CONF",
        "FASTPIPE_SHARD_ALLOCATOR", "FASTPIPE_SHARD_MALLOC_CONF")) {
      pb.environment().remove(v);
    }
    pb.environment().putAll(env);
    Path err = Files.createTempFile("fastpipe-launcher", ".err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), script.getFileName() + " did not finish");
    String e = Files.readString(err);
    Files.delete(err);
    return new Result(p.exitValue(), out, e);
  }

  /** doctor's lines without their verdict column ("OK    allocator: glibc" -> "allocator: glibc"). */
  static java.util.stream.Stream<String> facts(Result r) {
    return r.out().lines().map(l -> l.replaceFirst("^(OK|WARN|FAIL) +", ""));
  }

  static boolean libraryInstalled(String soname) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("sh", "-c", "ldconfig -p | grep -q '[[:space:]]" + soname + "[[:space:]]'").start();
    return p.waitFor() == 0;
  }

  @Test
  void defaultAllocatorIsJemallocAndItIsMapped() throws Exception {
    assumeTrue(libraryInstalled("libjemalloc.so.2"), "libjemalloc2 not installed");
    Result r = run(Map.of(), "doctor");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("allocator: jemalloc (libjemalloc.so.2 mapped)"), r.out());
    assertTrue(r.out().contains("tensorflow: 2.18"), r.out());
  }

  @Test
  void doctorGivesEveryCheckAVerdictSumsThemAndAMissingWorkflowToolOnlyWarns() throws Exception {
    // A PATH with everything of /usr/bin but the tools the workflow and the peers use.
    Path bin = Files.createTempDirectory("fastpipe-notools");
    List<String> hidden = List.of("snakemake", "bcftools", "samtools", "tabix", "bgzip", "freebayes", "bwa");
    try (var entries = Files.list(Path.of("/usr/bin"))) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (!hidden.contains(p.getFileName().toString())) Files.createSymbolicLink(bin.resolve(p.getFileName()), p);
      }
    }
    try {
      Result r = run(Map.of("PATH", bin.toString()), "doctor");
      assertEquals(0, r.exit(), "WARN does not fail: " + r.out() + r.err());
      List<String> lines = r.out().lines().toList();
      String summary = lines.get(lines.size() - 1);
      for (String l : lines.subList(0, lines.size() - 1)) assertTrue(l.matches("(OK|WARN|FAIL) +\\S.*: .*"), l);
      for (String tool : List.of("snakemake", "bcftools", "samtools", "tabix", "bgzip", "freebayes")) {
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("WARN  " + tool + ": not found on PATH")), tool + ":\n" + r.out());
      }
      assertTrue(lines.contains("OK    bwa: not installed (optional: aligning your own reads into a BAM (fastpipe starts from aligned reads))"), r.out());
      long warns = lines.stream().filter(l -> l.startsWith("WARN ")).count();
      assertTrue(summary.matches("doctor: " + (lines.size() - 1) + " checks, \\d+ OK, " + warns + " WARN, 0 FAIL"), summary);
    } finally {
      try (var entries = Files.list(bin)) {
        for (Path p : (Iterable<Path>) entries::iterator) Files.delete(p);
      }
      Files.delete(bin);
    }
  }

  @Test
  void glibcMapsNoOtherAllocator() throws Exception {
    Result r = run(Map.of(), "--allocator", "glibc", "doctor");
    assertEquals(0, r.exit(), r.err());
    assertTrue(facts(r).anyMatch(l -> l.equals("allocator: glibc")), r.out());
  }

  @Test
  void environmentChoosesTheAllocatorAndMallocConfIsPassed() throws Exception {
    assumeTrue(libraryInstalled("libjemalloc.so.2"), "libjemalloc2 not installed");
    Result r = run(Map.of("FASTPIPE_ALLOCATOR", "jemalloc", "FASTPIPE_MALLOC_CONF", "narenas:1"), "doctor");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("MALLOC_CONF: narenas:1"), r.out());
  }

  @Test
  void shardWorkersGetTheirOwnAllocatorAndMallocConf() throws Exception {
    assumeTrue(libraryInstalled("libjemalloc.so.2"), "libjemalloc2 not installed");
    assumeTrue(libraryInstalled("libtcmalloc_minimal.so.4"), "libtcmalloc-minimal4 not installed");
    Result r = run(Map.of(), "--malloc-conf", "narenas:1", "doctor", "--shard-allocator=tcmalloc",
        "--shard-malloc-conf", "");
    assertEquals(0, r.exit(), r.err());
    List<String> lines = facts(r).toList();
    assertTrue(lines.contains("allocator: jemalloc (libjemalloc.so.2 mapped)"), r.out());
    assertTrue(lines.contains("MALLOC_CONF: narenas:1"), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("shard allocator: tcmalloc (libtcmalloc_minimal.so.4")), r.out());
    assertTrue(lines.contains("shard MALLOC_CONF: (unset)"), r.out());
  }

  @Test
  void shardWorkersDropTheParentsPreloadWhenTheirsIsGlibc() throws Exception {
    assumeTrue(libraryInstalled("libjemalloc.so.2"), "libjemalloc2 not installed");
    Result r = run(Map.of("FASTPIPE_SHARD_ALLOCATOR", "glibc", "FASTPIPE_SHARD_MALLOC_CONF", "narenas:2"), "doctor");
    assertEquals(0, r.exit(), r.err());
    List<String> lines = facts(r).toList();
    assertTrue(lines.contains("allocator: jemalloc (libjemalloc.so.2 mapped)"), r.out());
    assertTrue(lines.contains("shard allocator: glibc"), r.out());
    assertTrue(lines.contains("shard MALLOC_CONF: narenas:2"), r.out());
  }

  @Test
  void unknownShardAllocatorIsAOneLineErrorWithExit2() throws Exception {
    Result r = run(Map.of(), "--shard-allocator", "hoard", "doctor");
    assertEquals(2, r.exit());
    assertEquals("fastpipe: unknown shard allocator 'hoard' (choose jemalloc, glibc, tcmalloc or mimalloc)", r.err().strip());
  }

  @Test
  void unknownAllocatorIsAOneLineErrorWithExit2() throws Exception {
    Result r = run(Map.of(), "--allocator", "hoard", "doctor");
    assertEquals(2, r.exit());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("unknown allocator 'hoard'"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
  }

  @Test
  void missingAllocatorLibraryWarnsAndContinuesOnGlibc() throws Exception {
    // Run with an empty linker cache view: point ldconfig lookups at nothing by choosing an
    // allocator that is not installed; if all are installed, hide them with a fake ldconfig.
    Path fakeBin = Files.createTempDirectory("fastpipe-fakebin");
    Path ldconfig = fakeBin.resolve("ldconfig");
    Files.writeString(ldconfig, "#!/bin/sh\necho '0 libs found in cache'\n");
    ldconfig.toFile().setExecutable(true);
    try {
      Result r = run(Map.of("PATH", fakeBin + ":" + System.getenv("PATH"), "FASTPIPE_LIB_DIRS", fakeBin.toString()),
          "--allocator", "mimalloc", "doctor");
      assertEquals(0, r.exit(), r.err());
      assertTrue(r.err().contains("warning: mimalloc requested but libmimalloc.so.2 is not installed"), r.err());
      assertTrue(facts(r).anyMatch(l -> l.equals("allocator: glibc")), r.out());
    } finally {
      Files.delete(ldconfig);
      Files.delete(fakeBin);
    }
  }

  @Test
  void javaOptsAreShellWordsWithQuotesHonouredForTheJvmAndItsShardWorkers() throws Exception {
    // doctor starts a shard worker through the launcher with the same FASTPIPE_JAVA_OPTS: a word
    // split at the quoted space would make either JVM take "b\"" as its main class.
    Result r = run(Map.of("FASTPIPE_JAVA_OPTS", "-Dfastpipe.shm.dir=\"/tmp/a b\" -Dfastpipe.x='c d'"), "doctor");
    assertEquals(0, r.exit(), r.err());
    assertFalse(r.err().contains("Could not find or load main class"), r.err());
    assertTrue(facts(r).anyMatch(l -> l.startsWith("shard allocator: ") && !l.contains("unknown")), r.out());
  }

  @Test
  void javaOptsAreNotRunAsShellCode() throws Exception {
    Path marker = Files.createTempDirectory("fastpipe-opts").resolve("ran");
    Result r = run(Map.of("FASTPIPE_JAVA_OPTS", "\"-Dfastpipe.x=$(touch " + marker + ")\""), "doctor");
    assertEquals(0, r.exit(), r.err());
    assertFalse(Files.exists(marker), "FASTPIPE_JAVA_OPTS was executed");
    Files.delete(marker.getParent());
  }

  @Test
  void javaOptsWithAnUnclosedQuoteAreAOneLineErrorWithExit2() throws Exception {
    Result r = run(Map.of("FASTPIPE_JAVA_OPTS", "-Dfastpipe.shm.dir=\"/tmp/a b"), "doctor");
    assertEquals(2, r.exit(), r.err());
    assertEquals("fastpipe: FASTPIPE_JAVA_OPTS cannot be split into words: unmatched double quote"
        + " (FASTPIPE_JAVA_OPTS=-Dfastpipe.shm.dir=\"/tmp/a b)", r.err().strip());
  }

  @Test
  void helpListsTheSubcommands() throws Exception {
    Result r = run(Map.of(), "--help");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("doctor"), r.out());
    assertTrue(r.out().contains("--allocator"), r.out());
  }
}
