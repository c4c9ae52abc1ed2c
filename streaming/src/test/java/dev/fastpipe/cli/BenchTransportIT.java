package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.bench.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench-transport through the launcher: every transport plus shm producer processes, small and quick; a plug-in jar. */
class BenchTransportIT {
  @TempDir Path dir;

  @Test
  void reportsEveryTransportAndBothLimitsAsJsonAndMarkdown() throws Exception {
    Path json = dir.resolve("bench.json"), md = dir.resolve("bench.md");
    LauncherIT.Result r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--record-bytes", "256",
        "--records", "3000", "--producers", "2", "--processes", "--repeat", "2", "--warmup", "0", "--json", json.toString(),
        "--markdown", md.toString());
    assertEquals(0, r.exit(), r.err());
    Object doc = Json.parse(Files.readString(json));
    List<Object> summary = Json.list(doc, "summary");
    assertEquals(11, summary.size(), "limit, limit+zero, memcpy, six transports in threads, shm and seqring in processes: " + summary);
    assertEquals(22, Json.list(doc, "runs").size());
    for (String t : List.of("limit", "limit+zero", "memcpy", "shm", "disruptor", "chronicle", "mutex", "disk", "seqring")) {
      assertTrue(summary.stream().anyMatch(s -> t.equals(Json.at(s, "transport"))), t + " missing: " + summary);
    }
    assertTrue(summary.stream().anyMatch(s -> "processes".equals(Json.at(s, "mode"))), summary.toString());
    String table = Files.readString(md);
    assertTrue(table.contains("| limit: copy through ring-sized working set | 2 |"), table);
    assertTrue(table.contains("| memcpy, cache-hot (not a limit) |"), table);
    assertTrue(table.contains("| shm, processes | 2 | 1 | 256 | 2 |"), table);
    assertTrue(r.out().contains(table), "the table is printed too");
  }

  @Test
  void oversizeRecordNamesTheRingSizeToRaise() throws Exception {
    LauncherIT.Result r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--transport", "shm",
        "--ring-size", "1048576");
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("raise --ring-size to at least 2097152"), r.err());
  }

  @Test
  void unknownTransportsAndOptionsAreOneLineErrors() throws Exception {
    LauncherIT.Result r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--transport", "nope");
    assertEquals(2, r.exit(), r.err());
    assertEquals("fastpipe bench-transport: --transport: unknown transport 'nope' (available: shm, disruptor, chronicle, mutex, disk, seqring)",
        r.err().strip());
    r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--transport", "disk", "--transport-opt", "gzip=maybe");
    assertEquals(2, r.exit(), r.err());
    assertEquals("fastpipe bench-transport: --transport-opt: transport disk: option gzip=maybe: expected true or false", r.err().strip());
  }

  /** The example plug-in's classes from the shm module's test build, in a jar of its own with its service file. */
  static Path examplePlugInJar(Path dir) throws IOException {
    Path classes = Path.of("..", "shm", "target", "test-classes").toAbsolutePath().normalize();
    Path pkg = classes.resolve("dev/fastpipe/shm/example");
    assumeTrue(Files.isDirectory(pkg), "the shm module's test classes are not built: " + pkg);
    Path jar = dir.resolve("example-queue-transport.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.list(pkg)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("QueueTransport")).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString()));
        Files.copy(f, out);
        out.closeEntry();
      }
      out.putNextEntry(new JarEntry("META-INF/services/dev.fastpipe.shm.TransportProvider"));
      OutputStream o = out;
      o.write("dev.fastpipe.shm.example.QueueTransport$Provider\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return jar;
  }

  @Test
  void aTransportJarOnFastpipeClasspathIsFoundByName() throws Exception {
    Path jar = examplePlugInJar(dir);
    LauncherIT.Result without = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--transport", "example-queue");
    assertEquals(2, without.exit(), without.err());
    assertTrue(without.err().contains("unknown transport 'example-queue'"), without.err());
    LauncherIT.Result r = LauncherIT.run(Map.of("FASTPIPE_CLASSPATH", jar.toString()), "--allocator", "glibc", "bench-transport",
        "--transport", "example-queue,mutex", "--transport-opt", "example-queue.capacity=64", "--record-bytes", "256",
        "--records", "2000", "--repeat", "2", "--warmup", "0");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("| example-queue, threads | 1 | 1 | 256 | 2 |"), r.out());
    LauncherIT.Result bad = LauncherIT.run(Map.of("FASTPIPE_CLASSPATH", jar.toString()), "--allocator", "glibc", "bench-transport",
        "--transport", "example-queue", "--transport-opt", "capacity=0");
    assertEquals(2, bad.exit(), bad.err());
    assertEquals("fastpipe bench-transport: --transport-opt: transport example-queue: option capacity=0: must be in 1..16777216",
        bad.err().strip());
    assertFalse(bad.err().contains("Exception"), bad.err());
  }
}
