package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import dev.fastpipe.testing.VcfText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product, run as a user runs it: {@code bin/fastpipe call} and {@code bin/fastpipe demo} as
 * subprocesses (so shard workers really start through the launcher) with the shipped model.
 */
class CallIT {
  static final Path LAUNCHER = LauncherIT.LAUNCHER;
  static final String REGION = "chr20:10,000,001-10,060,000";

  @TempDir static Path dir;

  @BeforeAll
  static void noLeftoversBefore() throws IOException {
    assertTrue(Files.isDirectory(LAUNCHER.getParent().getParent().resolve(dev.fastpipe.cli.ModelOptions.SHIPPED_MODEL)),
        "the shipped model is missing");
  }

  /** bin/fastpipe as a subprocess, as a user runs it. */
  static LauncherIT.Result fastpipe(String... args) throws Exception {
    return LauncherIT.run(Map.of(), args);
  }

  /** The VCF's records: every line but the header. */
  static String body(Path vcfGz) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(vcfGz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.startsWith("#")).reduce("", (a, b) -> a + b + "\n");
    }
  }

  /**
   * Ring files whose owning run has ended ({@code fastpipe-call<PID>-…} with PID gone): what a run
   * left behind. Rings of runs still going (another session's, on a shared machine) are not leaks.
   */
  static List<Path> shmFilesOfChildren() throws IOException {
    java.util.regex.Pattern ring = java.util.regex.Pattern.compile("fastpipe-call(\\d+)-.*");
    try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
      return s.filter(p -> {
        java.util.regex.Matcher m = ring.matcher(p.getFileName().toString());
        return m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(h -> !h.isAlive()).orElse(true);
      }).toList();
    }
  }

  Path callSim30x(String name, String... extra) throws Exception {
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path out = dir.resolve(name + ".vcf.gz");
    List<String> args = new ArrayList<>(List.of("call", "--ref", ref.toString(), "--reads", bam.toString(),
        "--regions", REGION, "--output", out.toString(), "--no-progress"));
    args.addAll(List.of(extra));
    LauncherIT.Result r = fastpipe(args.toArray(String[]::new));
    assertEquals(0, r.exit(), name + ": " + r.err());
    assertTrue(Files.isRegularFile(Path.of(out + ".tbi")), "no tabix index for " + name);
    return out;
  }

  @Test
  void everyTransportShardCountAndBatchSizeWritesTheSameVcf() throws Exception {
    List<String> reference = VcfText.withoutProvenance(callSim30x("shm-2", "--shards", "2"));
    assertTrue(reference.stream().filter(l -> !l.startsWith("#")).count() > 50, "too few records: " + reference);
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("shm-1", "--shards", "1", "--batch-size", "32")), "shm, 1 shard");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("shm-3", "--shards", "3", "--ring-size", "2M", "--consumers", "2")),
        "shm, 3 shards, small rings, 2 consumers");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("disk-2", "--shards", "2", "--transport", "disk")), "disk");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("disruptor-3", "--shards", "3", "--transport", "disruptor")), "disruptor");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("mutex-2", "--shards", "2", "--transport", "mutex", "--batch-size", "7")),
        "mutex");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("chronicle-2", "--shards", "2", "--transport", "chronicle")), "chronicle");
    assertEquals(reference, VcfText.withoutProvenance(callSim30x("seqring-2", "--shards", "2", "--transport", "seqring", "--ring-size", "2M")), "seqring");
    assertTrue(shmFilesOfChildren().isEmpty(), "shared-memory files left: " + shmFilesOfChildren());
  }

  @Test
  void aPlugInTransportOnTheLaunchersClassPathAndTransportOptionsWriteTheSameRecords() throws Exception {
    String reference = body(callSim30x("shm-ref", "--shards", "2"));
    Path jar = BenchTransportIT.examplePlugInJar(dir);
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path out = dir.resolve("example-queue.vcf.gz");
    LauncherIT.Result r = LauncherIT.run(Map.of("FASTPIPE_CLASSPATH", jar.toString()), "call", "--ref", ref.toString(),
        "--reads", SharedData.require("sim30x/SIM30X.bam").toString(), "--regions", REGION, "--output", out.toString(),
        "--no-progress", "--shards", "2", "--transport", "example-queue", "--transport-opt", "capacity=4");
    assertEquals(0, r.exit(), r.err());
    assertEquals(reference, body(out), "the example plug-in");
    assertEquals(reference, body(callSim30x("disk-plain", "--shards", "2", "--transport", "disk", "--transport-opt", "gzip=false")),
        "disk with gzip=false");
    LauncherIT.Result bad = fastpipe("call", "--ref", ref.toString(), "--reads", SharedData.require("sim30x/SIM30X.bam").toString(), "--output", dir.resolve("x.vcf.gz").toString(),
        "--transport", "shm", "--transport-opt", "gzip=false");
    assertEquals(2, bad.exit(), bad.err());
    assertEquals("fastpipe call: --transport-opt: transport shm: unknown option 'gzip' (known: dir, spill-after, spill-dir)", bad.err().strip());
  }

  @Test
  void spillingToDiskUnderAThrottledConsumerWritesTheSameRecords() throws Exception {
    String reference = body(callSim30x("seqring-ref", "--shards", "2", "--transport", "seqring", "--ring-size", "2M"));
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path out = dir.resolve("seqring-spill.vcf.gz");
    Path metrics = dir.resolve("spill-metrics.json");
    Path spillDir = Files.createDirectories(dir.resolve("spill"));
    LauncherIT.Result r = LauncherIT.run(Map.of("FASTPIPE_JAVA_OPTS", "-Dfastpipe.test.inference-sleep-ms=50"), "call",
        "--ref", ref.toString(), "--reads", SharedData.require("sim30x/SIM30X.bam").toString(), "--regions", REGION,
        "--output", out.toString(), "--no-progress", "--shards", "2", "--transport", "seqring", "--ring-size", "2M",
        "--transport-opt", "spill-after=1ms", "--transport-opt", "spill-dir=" + spillDir, "--metrics", metrics.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(reference, body(out), "seqring with spilling");
    long spilled = java.util.regex.Pattern.compile("\"spilled_records\": (\\d+)").matcher(Files.readString(metrics)).results()
        .mapToLong(m -> Long.parseLong(m.group(1))).sum();
    assertTrue(spilled > 0, "no record spilled: the throttled consumer did not fill a ring");
    try (var left = Files.list(spillDir)) {
      assertEquals(0, left.count(), "drained segments are deleted");
    }
  }

  @Test
  void everyRegionsFormGivesTheVcfOfTheBedAndPlainAndStdoutOutputsHoldTheSameLines() throws Exception {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path bed = Files.writeString(dir.resolve("two.bed"), "chr20\t10100000\t10130000\nchr20\t10140000\t10160000\n");
    List<String> common = List.of("call", "--ref", ref.toString(), "--reads", bam.toString(), "--no-progress", "--shards", "1");
    Path byBed = dir.resolve("by-bed.vcf.gz");
    List<String> args = new ArrayList<>(common);
    args.addAll(List.of("--bed", bed.toString(), "--output", byBed.toString()));
    LauncherIT.Result r = fastpipe(args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    List<String> expected = VcfText.withoutProvenance(byBed);
    assertTrue(expected.stream().filter(l -> !l.startsWith("#")).count() > 20, expected.toString());
    String[][] forms = {
      {"chr20:10100001-10130000 chr20:10140001-10160000", "by-spaces.vcf.gz"},
      {"chr20:10,100,001-10,130,000,chr20:10,140,001-10,160,000", "by-commas.vcf"},
      {bed.toString(), "by-bed-path.vcf.gz"},
    };
    for (String[] f : forms) {
      Path out = dir.resolve(f[1]);
      List<String> a = new ArrayList<>(common);
      a.addAll(List.of("--regions", f[0], "--output", out.toString()));
      r = fastpipe(a.toArray(String[]::new));
      assertEquals(0, r.exit(), f[0] + ": " + r.err());
      assertEquals(expected, VcfText.withoutProvenance(out), "--regions " + f[0]);
    }
    assertFalse(Files.exists(dir.resolve("by-commas.vcf.tbi")), "a plain VCF has no index");
    List<String> a = new ArrayList<>(common);
    a.addAll(List.of("--bed", bed.toString(), "--output", "-"));
    r = fastpipe(a.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    assertEquals(expected, r.out().lines().filter(l -> !dev.fastpipe.streaming.postprocess.VcfProvenance
        .isProvenanceLine(l)).toList(), "the VCF on stdout, nothing else there");
    assertTrue(r.err().contains("-> standard output"), r.err());
  }

  @Test
  void theHeaderRecordsTheDateVersionModelCommandAndReference() throws Exception {
    Path out = callSim30x("provenance", "--shards", "1");
    List<String> header = VcfText.lines(out).stream().filter(l -> l.startsWith("##")).toList();
    Path model = Path.of("..").resolve(ModelOptions.SHIPPED_MODEL);
    assertTrue(header.contains("##source=fastpipe-" + dev.fastpipe.streaming.FastpipeVersion.get()), header.toString());
    assertTrue(header.contains("##fastpipe_model=<ID=fastpipe-v5,SHA256="
        + dev.fastpipe.streaming.postprocess.VcfProvenance.modelSha256(model) + ">"), header.toString());
    assertTrue(header.contains("##reference=" + SharedData.require("ref/chr20.fa.gz").toAbsolutePath().normalize().toUri()),
        header.toString());
    assertTrue(header.stream().anyMatch(l -> l.startsWith("##fastpipe_command=fastpipe call --ref ")
        && l.endsWith("--shards 1")), header.toString());
    assertTrue(header.stream().anyMatch(l -> l.matches("##fileDate=20[0-9]{6}")), header.toString());
  }

  @Test
  void metricsDescribeStagesAndRings() throws Exception {
    Path metrics = dir.resolve("run.json");
    callSim30x("metrics", "--shards", "2", "--metrics", metrics.toString());
    String json = Files.readString(metrics);
    for (String key : List.of("\"make_examples\"", "\"call_variants\"", "\"postprocess\"", "\"capacity_bytes\": 16777216",
        "\"mean_fill_bytes\"", "\"max_fill_bytes\"", "\"producer_stall_ms\"", "\"consumer_idle_ms\"",
        "\"examples_per_second\"", "\"producer_stall_cpu_ms\"", "\"wait_cpu_ms\"", "\"wait_cpu_pct_of_core\"",
        "\"realignment\"", "\"intra_op_threads\"")) {
      assertTrue(json.contains(key), key + " missing from\n" + json);
    }
    // Images made all reach the CNN; the small model's calls are called without one.
    long made = number(json, "examples_made");
    long called = number(json, "examples_called");
    long small = number(json, "small_model_calls");
    long cnn = number(json, "cnn_examples");
    assertEquals(called, made, "every example made (CNN images and small-model calls) is called");
    assertEquals(called, small + cnn, "examples called = small-model calls + CNN examples");
    assertTrue(small > 0, "the shipped model's small model takes the easy sites");
    assertNotEquals(0, called);
  }

  @Test
  void aKilledShardFailsTheRunWithoutAVcfOrSharedMemoryLeftBehind() throws Exception {
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path out = dir.resolve("killed.vcf.gz");
    ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "call", "--ref", ref.toString(), "--reads",
        bam.toString(), "--output", out.toString(), "--shards", "2", "--ring-size", "2M", "--no-progress",
        "--no-journal"); // about processes and rings: the journal a failed run keeps for --resume is ResumeIT's
    Path err = dir.resolve("killed.err");
    pb.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process call = pb.start();
    Optional<ProcessHandle> shard = Optional.empty();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (shard.isEmpty() && System.nanoTime() < deadline && call.isAlive()) {
      // The launcher (bash) execs the JVM in the same process: wait for the JVM's command line.
      shard = call.toHandle().descendants()
          .filter(h -> {
            String cmd = h.info().commandLine().orElse("");
            return cmd.contains("dev.fastpipe.cli.Main shard-worker") && cmd.contains("--task 1");
          })
          .findFirst();
      Thread.sleep(20);
    }
    assertTrue(shard.isPresent(), "shard 1 never started: " + Files.readString(err));
    if (LauncherIT.libraryInstalled("libjemalloc.so.2")) {
      String maps = Files.readString(Path.of("/proc", Long.toString(shard.get().pid()), "maps"));
      assertTrue(maps.contains("libjemalloc"), "the shard worker did not get the launcher's jemalloc preload");
    }
    new ProcessBuilder("kill", "-9", Long.toString(shard.get().pid())).start().waitFor();
    assertTrue(call.waitFor(60, TimeUnit.SECONDS), "the run did not stop after its shard died");
    String message = Files.readString(err);
    assertNotEquals(0, call.exitValue(), message);
    assertTrue(message.contains("shard 1") && message.contains("137"), message);
    assertFalse(Files.exists(out), "a VCF was left under the final name");
    try (Stream<Path> s = Files.list(dir)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith("killed.vcf.gz")), "partial VCF left");
    }
    assertTrue(call.toHandle().descendants().noneMatch(ProcessHandle::isAlive), "shard processes left running");
    assertTrue(shmFilesOfChildren().isEmpty(), "shared-memory files left: " + shmFilesOfChildren());
  }

  @Test
  void badInputIsOneLineNamingTheFileWithExit2AndNoOutput() throws Exception {
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path otherRef = SharedData.require("na12878_tiny/q.fa");
    Path out = dir.resolve("bad.vcf.gz");
    String[][] cases = {
      {"--ref", dir.resolve("missing.fa").toString(), "--reads", bam.toString(), "--output", out.toString()},
      {"--ref", ref.toString(), "--reads", dir.resolve("missing.bam").toString(), "--output", out.toString()},
      {"--ref", otherRef.toString(), "--reads", bam.toString(), "--output", out.toString()},
      {"--ref", ref.toString(), "--reads", bam.toString(), "--output", dir.resolve("no/such/dir/x.vcf.gz").toString()},
      {"--ref", ref.toString(), "--reads", bam.toString(), "--output", out.toString(), "--regions", "chr99:1-100"},
      {"--ref", ref.toString(), "--reads", bam.toString(), "--output", out.toString(), "--ring-size", "3M"},
    };
    String[] named = {"missing.fa", "missing.bam", "q.fa", "no/such/dir", "chr99", "--ring-size"};
    for (int i = 0; i < cases.length; i++) {
      List<String> args = new ArrayList<>(List.of("call", "--no-progress"));
      args.addAll(List.of(cases[i]));
      LauncherIT.Result r = fastpipe(args.toArray(String[]::new));
      assertEquals(2, r.exit(), String.join(" ", cases[i]) + "\n" + r.err());
      // The error line; a warning, or the removal of a ring another run killed on this machine left, is not one.
      List<String> lines = r.err().lines().filter(l -> l.startsWith("fastpipe") && !l.startsWith("fastpipe: warning:")
          && !l.startsWith("fastpipe: removed stale ring")).toList();
      assertEquals(1, lines.size(), r.err());
      assertTrue(lines.get(0).contains(named[i]), lines.get(0));
      assertFalse(r.err().contains("Exception"), r.err());
      assertFalse(Files.exists(out), "output left for " + String.join(" ", cases[i]));
    }
  }

  @Test
  void demoCallsTheBuiltInSampleAccurately() throws Exception {
    LauncherIT.Result r = fastpipe("demo", "--output-dir", dir.resolve("demo").toString(), "--no-progress");
    assertEquals(0, r.exit(), r.err());
    assertTrue(Files.isRegularFile(dir.resolve("demo/demo.vcf.gz")), r.out());
    Matcher m = Pattern.compile("(SNP|INDEL)\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)")
        .matcher(r.out());
    int rows = 0;
    while (m.find()) {
      rows++;
      double f1 = Double.parseDouble(m.group(4));
      assertTrue(f1 >= (m.group(1).equals("SNP") ? 0.98 : 0.9), m.group(1) + " F1 " + f1 + " on the demo sample:\n" + r.out());
    }
    assertEquals(2, rows, r.out());
  }

  private static long number(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
    assertTrue(m.find(), key + " missing from\n" + json);
    return Long.parseLong(m.group(1));
  }
}
