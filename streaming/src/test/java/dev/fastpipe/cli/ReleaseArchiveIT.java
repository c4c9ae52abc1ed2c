package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * The release archive (target/fastpipe-VERSION.tar.gz, built by {@code mvn package}) unpacked
 * outside the source tree runs as a user would run it: PATH without Maven, the working directory
 * in the unpacked tree's parent, no FASTPIPE_* variables inherited. bin/prefill-natives fills the
 * release's natives/ and the demo then calls and scores a small sample.
 */
class ReleaseArchiveIT {

  /** Set by Failsafe (streaming/pom.xml); the path Maven's assembly writes. */
  static final Path ARCHIVE = Path.of(System.getProperty("fastpipe.release.archive", "target/fastpipe-release-unset.tar.gz"));
  static final Path JAR = Path.of("target", "fastpipe.jar");

  record Result(int exit, String out) {}

  @Test
  void unpackedArchiveRunsTheDemoWithoutMavenOrTheSourceTree(@TempDir Path tmp) throws Exception {
    assumeTrue(Files.isRegularFile(ARCHIVE),
        "release archive " + ARCHIVE + " not built (run 'mvn package' without -Dassembly.skipAssembly)");
    assumeTrue(!Files.isRegularFile(JAR) || !Files.getLastModifiedTime(ARCHIVE).toInstant().isBefore(Files.getLastModifiedTime(JAR).toInstant()),
        "release archive " + ARCHIVE + " is older than " + JAR + " (built with -Dassembly.skipAssembly?)");

    Path unpack = Files.createDirectories(tmp.resolve("unpack"));
    Result tar = run(List.of("tar", "-xzf", ARCHIVE.toAbsolutePath().toString()), unpack, Map.of(), 120);
    assertEquals(0, tar.exit(), tar.out());
    List<Path> top;
    try (Stream<Path> s = Files.list(unpack)) {
      top = s.toList();
    }
    assertEquals(1, top.size(), "one top directory in the archive: " + top);
    Path release = top.get(0);
    assertTrue(release.getFileName().toString().startsWith("fastpipe-"), release.toString());
    for (String p : List.of("bin/fastpipe", "bin/prefill-natives", "lib/fastpipe.jar", "lib/deps", "README.md",
        ModelOptions.SHIPPED_MODEL + "/saved_model.pb")) {
      assertTrue(Files.exists(release.resolve(p)), "missing in the archive: " + p);
    }
    assertTrue(Files.isExecutable(release.resolve("bin/fastpipe")), "bin/fastpipe not executable");

    // The PATH's links point outside the temporary directory: kept apart and removed here (JUnit's
    // @TempDir warns about every such link it deletes).
    Path pathDir = Files.createTempDirectory("fastpipe-release-path");
    try {
      runRelease(tmp, unpack, release, Map.of("PATH", pathWithoutMaven(pathDir)));
    } finally {
      try (Stream<Path> links = Files.list(pathDir)) {
        for (Path l : (Iterable<Path>) links::iterator) Files.delete(l);
      }
      Files.delete(pathDir);
    }
  }

  private static void runRelease(Path tmp, Path unpack, Path release, Map<String, String> env) throws Exception {
    Result noMvn = run(List.of("sh", "-c", "command -v mvn"), unpack, env, 30);
    assertNotEquals(0, noMvn.exit(), "mvn still on the test's PATH: " + noMvn.out());

    Result prefill = run(List.of(release.resolve("bin/prefill-natives").toString()), unpack, env, 180);
    assertEquals(0, prefill.exit(), prefill.out());
    assertTrue(prefill.out().contains("runs load TensorFlow's natives from there"), prefill.out());

    Result demo = run(List.of(release.resolve("bin/fastpipe").toString(), "demo", "--length", "100000", "--no-progress",
        "--output-dir", tmp.resolve("demo").toString()), unpack, env, 180);
    assertEquals(0, demo.exit(), demo.out());
    assertTrue(demo.out().contains("demo: accuracy against the built-in truth"), demo.out());
    assertTrue(demo.out().lines().anyMatch(l -> l.startsWith("SNP ")), demo.out());
    assertTrue(demo.out().lines().anyMatch(l -> l.startsWith("INDEL ")), demo.out());
  }

  /**
   * A PATH of one directory holding a link to every program on this PATH except mvn (the first
   * of each name, as the shell would find it).
   */
  static String pathWithoutMaven(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      if (d.isEmpty() || !Files.isDirectory(Path.of(d))) continue;
      try (Stream<Path> s = Files.list(Path.of(d))) {
        for (Path exe : (Iterable<Path>) s::iterator) {
          String name = exe.getFileName().toString();
          if (name.startsWith("mvn") || Files.isDirectory(exe) || !Files.isExecutable(exe)) continue;
          Path link = dir.resolve(name);
          if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) Files.createSymbolicLink(link, exe);
        }
      }
    }
    return dir.toString();
  }

  /** Runs {@code cmd} in {@code cwd} with the FASTPIPE_* and allocator variables cleared, {@code env} added. */
  static Result run(List<String> cmd, Path cwd, Map<String, String> env, int timeoutSeconds)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(cwd, "run", ".log");
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(cmd)).directory(cwd.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("FASTPIPE_") || k.equals("LD_PRELOAD") || k.equals("MALLOC_CONF"));
    pb.environment().putAll(env);
    Process p = pb.start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) p.destroyForcibly().waitFor();
    String out = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    if (!done) throw new AssertionError(cmd + " did not finish in " + timeoutSeconds + " s:\n" + out);
    return new Result(p.exitValue(), out);
  }
}
