package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/build-image's OCI image (mmdebstrap root + the release archive, written as a docker archive)
 * loaded by podman and run as a user runs it: {@code podman run --runtime runc --network=none -v
 * DATA:/data:ro IMAGE call ...} on sim30x_eval gives the host build's VCF records. The image is built
 * once per release archive (target/image/fastpipe-SHA.tar, keyed by the archive's SHA-256) and
 * reused while that archive stays. Skips without root, mmdebstrap, podman, runc, the release archive
 * or the data.
 */
class ImageIT {
  static final Path BUILD_IMAGE = Path.of("..", "bin", "build-image").toAbsolutePath().normalize();

  @TempDir Path tmp;

  record Result(int exit, String out) {}

  static Result run(List<String> cmd, Map<String, String> env, int timeoutSeconds) throws IOException, InterruptedException {
    Path log = Files.createTempFile("image-it", ".log");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().putAll(env);
      Process p = pb.start();
      boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
      if (!done) p.destroyForcibly().waitFor();
      String out = Files.readString(log);
      if (!done) throw new AssertionError(cmd + " did not finish in " + timeoutSeconds + " s:\n" + out);
      return new Result(p.exitValue(), out);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  static String sha256(Path file) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 20];
      for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** The image of this release archive: built by bin/build-image once, then reused. */
  static Path image(Path archive) throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "image").toAbsolutePath());
    Path image = dir.resolve("fastpipe-" + sha256(archive).substring(0, 16) + ".tar");
    if (Files.isRegularFile(image)) {
      System.out.println("ImageIT: reusing " + image + " (built from this release archive)");
      return image;
    }
    try (var old = Files.newDirectoryStream(dir, "fastpipe-*.tar")) {
      for (Path p : old) Files.delete(p); // images of earlier archives
    }
    long t0 = System.nanoTime();
    Result b = run(List.of(BUILD_IMAGE.toString(), "--output", image.toString(), "--release", archive.toString()), Map.of(), 1200);
    assertEquals(0, b.exit(), b.out());
    System.out.printf("ImageIT: bin/build-image %.0f s, %d MB: %s%n", (System.nanoTime() - t0) / 1e9,
        Files.size(image) >> 20, b.out().lines().filter(l -> l.startsWith("build-image: /")).findFirst().orElse(""));
    return image;
  }

  @Test
  void theImageCallsSim30xEvalWithTheHostBuildsRecords() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "not root: bin/build-image and podman run as root here; skipping");
    for (String tool : List.of("mmdebstrap", "podman", "runc")) {
      assumeTrue(WorkflowIT.installed("sh", "-c", "command -v " + tool), tool + " not installed (apt-get install mmdebstrap podman runc); skipping");
    }
    Path archive = ReleaseArchiveIT.ARCHIVE;
    assumeTrue(Files.isRegularFile(archive), "release archive " + archive + " not built (mvn package without -Dassembly.skipAssembly); skipping");
    Path data = SharedData.require("sim30x_eval/SIM30X_EVAL.bam").getParent().getParent();
    Path image = image(archive);

    // Debian's podman 4.3 as root here: runc (crun refuses the hybrid cgroup mount) and no
    // default ulimits (raising RLIMIT_NPROC is refused); see docs/operations.md.
    Path conf = Files.writeString(tmp.resolve("containers.conf"), "[containers]\ndefault_ulimits = []\n");
    Map<String, String> env = Map.of("CONTAINERS_CONF", conf.toString());
    Result load = run(List.of("podman", "load", "-i", image.toString()), env, 600);
    assertEquals(0, load.exit(), load.out());
    String version = archive.getFileName().toString().replaceFirst("^fastpipe-", "").replaceFirst("\\.tar\\.gz$", "");
    String tag = "localhost/fastpipe:" + version;
    assertTrue(load.out().contains(tag), "the tag carries the version: " + load.out());

    Path out = Files.createDirectories(tmp.resolve("out"));
    List<String> call = List.of("call", "--no-progress", "--ref", "/data/ref/chr20.fa.gz", "--reads", "/data/sim30x_eval/SIM30X_EVAL.bam",
        "--bed", "/data/sim30x_eval/SIM30X_EVAL.confident.bed", "--output", "/out/inside.vcf.gz");
    List<String> podman = new ArrayList<>(List.of("podman", "run", "--rm", "--runtime", "runc", "--network=none",
        "-v", data + ":/data:ro", "-v", out + ":/out", tag));
    podman.addAll(call);
    long t0 = System.nanoTime();
    Result inside = run(podman, env, 600);
    double insideWall = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, inside.exit(), inside.out());

    Path host = tmp.resolve("host.vcf.gz");
    long t1 = System.nanoTime();
    LauncherIT.Result h = LauncherIT.run(Map.of(), "call", "--no-progress", "--ref", data.resolve("ref/chr20.fa.gz").toString(),
        "--reads", data.resolve("sim30x_eval/SIM30X_EVAL.bam").toString(), "--bed",
        data.resolve("sim30x_eval/SIM30X_EVAL.confident.bed").toString(), "--output", host.toString());
    double hostWall = (System.nanoTime() - t1) / 1e9;
    assertEquals(0, h.exit(), h.err());

    List<String> expected = WorkflowIT.records(host);
    assertTrue(expected.size() > 1000, "sites to compare: " + expected.size());
    assertEquals(expected, WorkflowIT.records(out.resolve("inside.vcf.gz")), "the image's call = the host build's");
    assertTrue(Files.isRegularFile(out.resolve("inside.vcf.gz.tbi")), "indexed");
    System.out.printf("ImageIT: sim30x_eval call inside the image %.1f s wall (podman run), on the host %.1f s; %d records equal%n",
        insideWall, hostWall, expected.size());
    run(List.of("podman", "rmi", tag), env, 120);
  }
}
