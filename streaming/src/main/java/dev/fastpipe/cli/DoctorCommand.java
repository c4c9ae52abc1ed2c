package dev.fastpipe.cli;

import dev.fastpipe.cli.DoctorChecks.Check;
import dev.fastpipe.inference.TensorFlowLogging;
import dev.fastpipe.inference.TensorFlowNatives;
import dev.fastpipe.inference.TensorFlowRuntime;
import dev.fastpipe.streaming.pipeline.ProcessFootprint;
import dev.fastpipe.streaming.pipeline.ShardProcesses;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;

/**
 * Checks what this machine and this JVM actually have (Java, TensorFlow, cores, /dev/shm,
 * allocator, the shipped model, the tools the workflow and the peers use) and gives each an OK,
 * WARN or FAIL verdict ({@link DoctorChecks}).
 */
@Command(
    name = "doctor",
    header = "Check the runtime and the tools around it, each with an OK, WARN or FAIL verdict.",
    mixinStandardHelpOptions = true,
    description = {
      "Check the runtime: Java, TensorFlow native library (and its log level), CPU count, heap, /dev/shm,",
      "the native allocator actually mapped into this JVM (from /proc/self/maps) and its MALLOC_CONF,",
      "the same for a shard worker process started as 'call' starts them (--shard-allocator), the",
      "shipped model, and the tools the Snakemake workflow and bin/compare-callers use (snakemake,",
      "bcftools, tabix, bgzip, samtools, freebayes; bwa, optional).",
      "Each line starts with a verdict: OK, WARN (fastpipe runs, but something is slower, noisier or",
      "missing for the workflow or a comparison) or FAIL (a call cannot run). The last line sums them.",
      "Exits 1 when any check is FAIL, else 0."
    })
public final class DoctorCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    List<Check> checks = new ArrayList<>();
    var out = System.out;
    java.util.function.Consumer<Check> report = c -> {
      checks.add(c);
      out.println(c.line());
      out.flush();
    };
    boolean launcher = System.getenv("FASTPIPE_LAUNCHER") != null;
    boolean jemalloc = jemallocInstalled();
    report.accept(DoctorChecks.java(System.getProperty("java.version"), System.getProperty("java.vm.name")));
    report.accept(DoctorChecks.cpus(Runtime.getRuntime().availableProcessors()));
    report.accept(DoctorChecks.heap(Runtime.getRuntime().maxMemory() >> 20));
    report.accept(shm(Path.of("/dev/shm")));
    report.accept(DoctorChecks.allocator("allocator", ProcessFootprint.mappedAllocator(Path.of("/proc/self/maps")), jemalloc, launcher));
    String conf = System.getenv("MALLOC_CONF");
    report.accept(new Check(DoctorChecks.Verdict.OK, "MALLOC_CONF", conf == null || conf.isEmpty() ? "(unset)" : conf));
    shardChecks(jemalloc).forEach(report);
    String home = System.getenv("FASTPIPE_HOME");
    Path model = home == null || home.isEmpty() ? null : Path.of(home).resolve(ModelOptions.SHIPPED_MODEL);
    report.accept(DoctorChecks.model(model, model != null && Files.isRegularFile(model.resolve("saved_model.pb"))
        && Files.isRegularFile(model.resolve("variables").resolve("variables.index"))));
    String version = null;
    Throwable failure = null;
    try {
      version = TensorFlowRuntime.version();
    } catch (Throwable t) {
      failure = t;
    }
    report.accept(DoctorChecks.tensorflow(version, failure));
    if (failure == null) {
      report.accept(DoctorChecks.natives(TensorFlowNatives.source()));
      report.accept(DoctorChecks.tensorflowLog(TensorFlowLogging.state()));
    }
    for (DoctorChecks.Tool tool : DoctorChecks.TOOLS) {
      Optional<Path> path = onPath(tool.name());
      report.accept(DoctorChecks.tool(tool, path.map(Path::toString), path.flatMap(DoctorCommand::versionOf)));
    }
    out.println(DoctorChecks.summary(checks));
    return DoctorChecks.exitCode(checks);
  }

  static Check shm(Path shm) {
    try {
      FileStore store = Files.getFileStore(shm);
      return DoctorChecks.shm(store.type(), store.getTotalSpace() >> 20, store.getUsableSpace() >> 20, null);
    } catch (IOException e) {
      return DoctorChecks.shm("", 0, 0, e.getMessage());
    }
  }

  /** libjemalloc.so.2 in one of the usual library directories (as the launcher looks when ldconfig cannot say). */
  static boolean jemallocInstalled() {
    for (String d : List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
        "/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib")) {
      if (Files.exists(Path.of(d, "libjemalloc.so.2"))) return true;
    }
    return false;
  }

  /** The first executable named {@code name} in a PATH directory. */
  static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) return Optional.empty();
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path p = Path.of(dir, name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
    }
    return Optional.empty();
  }

  /** The version a tool prints for --version (bwa: with no argument, in its usage), waiting at most 20 s. */
  static Optional<String> versionOf(Path tool) {
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    if (!tool.getFileName().toString().equals("bwa")) cmd.add("--version");
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      byte[] text = p.getInputStream().readNBytes(8192);
      if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
      return DoctorChecks.version(new String(text, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * What a shard worker process runs on, from a worker started as {@code call} starts them (through
   * the launcher, so with the shard role's allocator and MALLOC_CONF): "shard allocator" and
   * "shard MALLOC_CONF" checks.
   */
  static List<Check> shardChecks(boolean jemalloc) {
    if (System.getenv("FASTPIPE_LAUNCHER") == null) {
      return List.of(new Check(DoctorChecks.Verdict.WARN, "shard allocator", "as this process (not started through bin/fastpipe)"));
    }
    String why;
    try {
      List<String> lines = ShardProcesses.probe(Main.LAUNCHER);
      Optional<String> allocator = lines.stream().filter(l -> l.startsWith("allocator: ")).map(l -> l.substring(11)).findFirst();
      Optional<String> conf = lines.stream().filter(l -> l.startsWith("MALLOC_CONF: ")).map(l -> l.substring(13)).findFirst();
      if (allocator.isPresent() && conf.isPresent()) {
        return List.of(DoctorChecks.allocator("shard allocator", allocator.get(), jemalloc, true),
            new Check(DoctorChecks.Verdict.OK, "shard MALLOC_CONF", conf.get()));
      }
      why = "unknown (the probe worker printed no answer)";
    } catch (IOException e) {
      why = "unknown (cannot start a worker: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      why = "unknown (interrupted)";
    }
    return List.of(new Check(DoctorChecks.Verdict.WARN, "shard allocator", why));
  }
}
