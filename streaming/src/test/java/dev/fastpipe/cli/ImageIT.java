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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/build-image's OCI image (mmdebstrap root + the release archive, written as a docker archive)
 * loaded by podman and run as a user runs it: {@code podman run --runtime runc --network=none -v
 * DATA:/data:ro IMAGE call ...} on sim30x_eval gives the host build's VCF records. The image is built
 * once per release archive (target/image/fastpipe-SHA.tar, keyed by the archive's SHA-256) and
 * reused while that archive stays; its Debian root layer is kept in ~/.cache/fastpipe/image-root. The workflow with {@code --use-singularity} runs every rule in the
 * same image, through a stand-in for singularity that runs {@code singularity exec} with podman
 * (Debian 12 packages no Singularity or Apptainer): the gathered VCF is the host call's. Skips
 * without root, mmdebstrap, podman, runc, the release archive or the data.
 */
class ImageIT {
  static final Path BUILD_IMAGE = Path.of("..", "bin", "build-image").toAbsolutePath().normalize();
  /** The Debian root layer, kept across runs on this machine (bin/build-image renews it weekly). */
  static final Path ROOT_CACHE = Path.of(System.getProperty("user.home"), ".cache", "fastpipe", "image-root");

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
    Result b = run(List.of(BUILD_IMAGE.toString(), "--output", image.toString(), "--release", archive.toString(),
        "--root-cache", ROOT_CACHE.toString()), Map.of(), 1200);
    assertEquals(0, b.exit(), b.out());
    System.out.printf("ImageIT: bin/build-image %.0f s, %d MB: %s%n", (System.nanoTime() - t0) / 1e9,
        Files.size(image) >> 20, b.out().lines().filter(l -> l.startsWith("build-image: /")).findFirst().orElse(""));
    return image;
  }

  static Path data;
  static String tag;
  static Map<String, String> env;

  @BeforeAll
  static void load(@TempDir Path conf) throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "not root: bin/build-image and podman run as root here; skipping");
    for (String tool : List.of("mmdebstrap", "podman", "runc")) {
      assumeTrue(WorkflowIT.installed("sh", "-c", "command -v " + tool), tool + " not installed (apt-get install mmdebstrap podman runc); skipping");
    }
    Path archive = ReleaseArchiveIT.ARCHIVE;
    assumeTrue(Files.isRegularFile(archive), "release archive " + archive + " not built (mvn package without -Dassembly.skipAssembly); skipping");
    data = SharedData.require("sim30x_eval/SIM30X_EVAL.bam").getParent().getParent();
    Path image = image(archive);

    // Debian's podman 4.3 as root here: runc (crun refuses the hybrid cgroup mount) and no
    // default ulimits (raising RLIMIT_NPROC is refused); see docs/operations.md.
    Path containersConf = Files.writeString(conf.resolve("containers.conf"), "[containers]\ndefault_ulimits = []\n");
    env = Map.of("CONTAINERS_CONF", containersConf.toString());
    Result load = run(List.of("podman", "load", "-i", image.toString()), env, 600);
    assertEquals(0, load.exit(), load.out());
    String version = archive.getFileName().toString().replaceFirst("^fastpipe-", "").replaceFirst("\\.tar\\.gz$", "");
    tag = "localhost/fastpipe:" + version;
    assertTrue(load.out().contains(tag), "the tag carries the version: " + load.out());
  }

  @AfterAll
  static void remove() throws Exception {
    if (tag != null) run(List.of("podman", "rmi", tag), env, 120);
  }

  @Test
  void theImageCallsSim30xEvalWithTheHostBuildsRecords() throws Exception {
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
  }

  /**
   * A stand-in for {@code singularity} (Snakemake 7.21 calls {@code singularity --version} and
   * {@code singularity [--quiet --silent] exec [--home D] [--bind A[:B]] [--pwd D] IMAGE CMD...}):
   * runs CMD in the podman image {@code tag} with the working directory and the binds mounted at the
   * same paths, no network. The IMAGE file is Snakemake's and only has to exist.
   */
  static Path singularityOverPodman(Path bin, String tag, Path conf) throws IOException {
    Files.createDirectories(bin);
    Path script = bin.resolve("singularity");
    Files.writeString(script, """
        #!/bin/bash
        # test stand-in: singularity exec over podman (ImageIT)
        set -euo pipefail
        [ "${1:-}" = --version ] && { echo "singularity version 3.11.0"; exit 0; }
        mounts=(-v "$PWD:$PWD")
        while [ "${1:-}" = --quiet ] || [ "${1:-}" = --silent ]; do shift; done
        [ "${1:-}" = exec ] || { echo "stand-in singularity: only exec" >&2; exit 2; }
        shift
        workdir="$PWD"
        while [ $# -gt 0 ]; do
          case "$1" in
            --home) shift 2 ;;
            --pwd) workdir="$2"; shift 2 ;;
            --bind|-B) IFS=, read -r -a binds <<<"$2"; for b in "${binds[@]}"; do src="${b%%:*}"; dst="${b#*:}"; mounts+=(-v "$src:${dst:-$src}:ro"); done; shift 2 ;;
            -*) echo "stand-in singularity: unknown option $1" >&2; exit 2 ;;
            *) break ;;
          esac
        done
        shift  # the image file
        cmd="$1"; shift
        CONTAINERS_CONF=%s exec podman run --rm --runtime runc --network=none "${mounts[@]}" -w "$workdir" --entrypoint "$cmd" %s "$@"
        """.formatted(conf, tag));
    assertTrue(script.toFile().setExecutable(true));
    return bin;
  }

  @Test
  void theWorkflowWithUseSingularityRunsEveryRuleInTheImage() throws Exception {
    assumeTrue(WorkflowIT.installed("snakemake", "--version"), "snakemake not installed; skipping");
    Path bin = singularityOverPodman(tmp.resolve("bin"), tag, Path.of(env.get("CONTAINERS_CONF")));
    // The container sees the working directory and the data (--bind), so the sheet and the BED sit in the former.
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path bed = Files.writeString(work.resolve("regions.bed"), "chr20\t10200000\t10260000\n");
    Path bam = data.resolve("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = data.resolve("ref/chr20.fa.gz");
    Path sheet = Files.writeString(work.resolve("samples.tsv"), "sample\treads\nSIM30X_EVAL\t" + bam + "\n");
    String version = tag.substring(tag.indexOf(':') + 1);
    Files.writeString(work.resolve("fastpipe-" + version + ".sif"), ""); // the stand-in runs the podman image instead
    // Nothing of fastpipe on the PATH or at the host's launcher path is used: config fastpipe is the image's default.
    List<String> cmd = List.of("snakemake", "-s", WorkflowIT.SNAKEFILE.toString(), "-d", work.toString(), "--cores", "2",
        "--use-singularity", "--singularity-args", "--bind " + data, "-p", "--config", "samples=" + sheet, "ref=" + ref,
        "bed=" + bed, "chunks=2", "outdir=out", "threads=1");
    Map<String, String> path = Map.of("PATH", bin + ":" + System.getenv("PATH"));
    Result r = run(cmd, path, 900);
    assertEquals(0, r.exit(), r.out());
    assertTrue(r.out().contains("Activating singularity image " + work.resolve("fastpipe-" + version + ".sif"))
        && r.out().contains("/opt/fastpipe/bin/fastpipe call"), "the rules run the image's launcher in the container: " + r.out());
    assertTrue(!Files.exists(Path.of("/opt/fastpipe/bin/fastpipe")), "no such launcher on the host: the calls ran in the image");
    assertEquals(2, WorkflowIT.jobs(new WorkflowIT.Run(r.exit(), r.out()), "call_chunk"), r.out());

    Path host = tmp.resolve("host.vcf.gz");
    LauncherIT.Result h = LauncherIT.run(Map.of(), "call", "--no-progress", "--ref", ref.toString(), "--reads", bam.toString(),
        "--bed", bed.toString(), "--output", host.toString());
    assertEquals(0, h.exit(), h.err());
    List<String> expected = WorkflowIT.records(host);
    assertTrue(expected.size() > 20, "sites to compare: " + expected.size());
    assertEquals(expected, WorkflowIT.records(work.resolve("out/SIM30X_EVAL.vcf.gz")), "2 chunks in the image = one host call");
  }
}
