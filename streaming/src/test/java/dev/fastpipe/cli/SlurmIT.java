package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * workflow/Snakefile through workflow/profiles/slurm on a real one-node SLURM cluster started here
 * (bin/slurm-localhost: munged, slurmctld -D, slurmd -D; stopped after): two samples of
 * ../shared/data on 60 kb of chr20, two chunks each, gvcf=true. The gathered VCFs have exactly a
 * single {@code call}'s records (and the gVCFs its variant records and bases); every job went through
 * sbatch (the jobcomp log, {@code sacct -c}); a chunk job killed by {@code scancel} is retried (and
 * its retry cancelled too, so the chunk fails while the rest finish); the same command again runs
 * only that chunk and the gathers after it. Skips without
 * root, slurm-wlm, munge, snakemake, bcftools or the data.
 */
class SlurmIT {
  static final Path HELPER = Path.of("..", "bin", "slurm-localhost").toAbsolutePath().normalize();
  static final Path PROFILE = Path.of("..", "workflow", "profiles", "slurm").toAbsolutePath().normalize();
  static final String BED = "chr20\t10200000\t10260000\n";
  static final List<String> SAMPLES = List.of("SIM30X", "SIM30X_EVAL");

  @TempDir static Path dir;
  static Path cluster;
  static Map<String, String> env;
  static boolean started;

  @BeforeAll
  static void startCluster() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "not root: a SLURM node runs jobs as their users; skipping");
    for (String tool : List.of("slurmctld", "slurmd", "sbatch", "munged")) {
      assumeTrue(WorkflowIT.installed("sh", "-c", "command -v " + tool), tool + " not installed (apt-get install slurm-wlm munge); skipping");
    }
    assumeTrue(WorkflowIT.installed("snakemake", "--version"), "snakemake not installed (apt-get install snakemake); skipping");
    assumeTrue(WorkflowIT.installed("bcftools", "--version") && WorkflowIT.installed("tabix", "--version"), "bcftools/tabix not installed; skipping");
    SharedData.require("sim30x/SIM30X.bam");
    SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    cluster = dir.resolve("cluster");
    env = new HashMap<>(Map.of("SLURM_CONF", cluster.resolve("slurm.conf").toString(), "USER", "root",
        "SLURM_LOCALHOST_PORT", Integer.toString(freePortPair())));
    started = true;
    Result r = run(List.of(HELPER.toString(), "start", cluster.toString()), dir, 120);
    assertEquals(0, r.exit(), r.out());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (started) run(List.of(HELPER.toString(), "stop", cluster.toString()), dir, 60);
  }

  record Result(int exit, String out) {}

  static Result run(List<String> cmd, Path cwd, int timeoutSeconds) throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "run", ".log");
    try {
      return finish(start(cmd, cwd, log), cmd, timeoutSeconds);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static final Map<Process, Path> LOGS = new HashMap<>();

  static Process start(List<String> cmd, Path cwd, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    LOGS.put(p, log);
    return p;
  }

  static Result finish(Process p, List<String> cmd, int timeoutSeconds) throws IOException, InterruptedException {
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) p.destroyForcibly().waitFor();
    String out = Files.readString(LOGS.remove(p));
    if (!done) throw new AssertionError(cmd + " did not finish in " + timeoutSeconds + " s:\n" + out);
    return new Result(p.exitValue(), out);
  }

  /** A port p with p and p + 1 free (slurmctld and slurmd). */
  static int freePortPair() throws IOException {
    for (int tries = 0; tries < 50; tries++) {
      try (ServerSocket a = new ServerSocket(0)) {
        int p = a.getLocalPort();
        if (p >= 65535) continue;
        try (ServerSocket b = new ServerSocket(p + 1)) {
          return p;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    throw new IOException("no two adjacent free ports");
  }

  /** The jobcomp log's jobs: SLURM job id -> "NAME STATE". */
  static Map<String, String> jobs() throws IOException {
    Map<String, String> out = new HashMap<>();
    Path log = cluster.resolve("jobcomp.log");
    if (!Files.exists(log)) return out;
    Pattern p = Pattern.compile("JobId=(\\d+) .*?Name=(\\S+) JobState=(\\S+)");
    for (String line : Files.readAllLines(log)) {
      Matcher m = p.matcher(line);
      if (m.find()) out.put(m.group(1), m.group(2) + " " + m.group(3));
    }
    return out;
  }

  static List<String> snakemakeCommand(Path bed, Path sheet) {
    return List.of("snakemake", "-s", WorkflowIT.SNAKEFILE.toString(), "--profile", PROFILE.toString(), "--config",
        "samples=" + sheet, "ref=" + SharedData.require("ref/chr20.fa.gz"), "bed=" + bed, "chunks=2", "outdir=out",
        "gvcf=true", "threads=1", "mem_mb=1500", "retries=1");
  }

  /**
   * Waits for a call_chunk job named {@code name} (any, when null) other than {@code except} to run,
   * then scancels it; its SLURM job id and name.
   */
  static String[] cancelRunningChunk(Process snakemake, String name, String except) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (System.nanoTime() < deadline && snakemake.isAlive()) {
      Result q = run(List.of("squeue", "-h", "-o", "%i %j %T"), dir, 30);
      for (String line : q.out().lines().toList()) {
        String[] f = line.trim().split("\\s+");
        if (f.length == 3 && f[1].startsWith("snakejob_call_chunk_") && (name == null || f[1].equals(name))
            && !f[0].equals(except) && f[2].equals("RUNNING")) {
          Result c = run(List.of("scancel", f[0]), dir, 60);
          assertEquals(0, c.exit(), c.out());
          return new String[] {f[0], f[1]};
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no call_chunk job " + (name == null ? "" : name + " ") + "seen running");
  }

  /** The wildcards (sample, chunk) of Snakemake job {@code jobid}'s call_chunk block in a run's output. */
  static String[] wildcards(String output, String jobid) {
    for (String block : output.split("\n\\s*\n")) {
      if (block.contains("rule call_chunk:") && block.contains("\n    jobid: " + jobid + "\n")) {
        Matcher m = Pattern.compile("wildcards: sample=([^,\\s]+), chunk=(\\S+)").matcher(block);
        if (m.find()) return new String[] {m.group(1), m.group(2)};
      }
    }
    throw new AssertionError("no call_chunk block of job " + jobid + ":\n" + output);
  }

  @Test
  void twoSamplesRunAsSlurmJobsWithACancelledChunkRetriedAndARerunOfOnlyTheMissingChunk() throws Exception {
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path bed = Files.writeString(dir.resolve("regions.bed"), BED);
    Path sheet = Files.writeString(dir.resolve("samples.tsv"), "sample\treads\n"
        + "SIM30X\t" + SharedData.require("sim30x/SIM30X.bam") + "\n"
        + "SIM30X_EVAL\t" + SharedData.require("sim30x_eval/SIM30X_EVAL.bam") + "\n");
    // One call per sample over the same regions, on this machine (not through SLURM).
    Map<String, List<String>> whole = new HashMap<>();
    Map<String, Path> wholeGvcf = new HashMap<>();
    for (String s : SAMPLES) {
      Path vcf = dir.resolve(s + ".whole.vcf.gz");
      Path gvcf = dir.resolve(s + ".whole.g.vcf.gz");
      LauncherIT.Result c = LauncherIT.run(Map.of(), "call", "--no-progress", "--ref", ref.toString(), "--reads",
          SharedData.require(s.equals("SIM30X") ? "sim30x/SIM30X.bam" : "sim30x_eval/SIM30X_EVAL.bam").toString(),
          "--bed", bed.toString(), "--sample", s, "--output", vcf.toString(), "--gvcf", gvcf.toString());
      assertEquals(0, c.exit(), c.err());
      whole.put(s, WorkflowIT.records(vcf));
      wholeGvcf.put(s, gvcf);
      assertTrue(whole.get(s).size() > 20, s + ": variants to compare: " + whole.get(s).size());
    }

    // First run: one chunk job is cancelled, retried (retries=1), and its retry cancelled too; the
    // other chunks and the other sample finish (keep-going); the run fails naming the chunk's log.
    Path work = Files.createDirectories(dir.resolve("work"));
    List<String> cmd = snakemakeCommand(bed, sheet);
    long t0 = System.nanoTime();
    Process first = start(cmd, work, dir.resolve("first.log"));
    String[] cancelled = cancelRunningChunk(first, null, null);
    String[] retry = cancelRunningChunk(first, cancelled[1], cancelled[0]);
    Result r1 = finish(first, cmd, 900);
    double wall = (System.nanoTime() - t0) / 1e9;
    assertTrue(r1.exit() != 0, r1.out());
    WorkflowIT.Run run1 = new WorkflowIT.Run(r1.exit(), r1.out());
    assertEquals(4, WorkflowIT.jobs(run1, "call_chunk"), r1.out());
    for (String id : List.of(cancelled[0], retry[0])) {
      assertTrue(r1.out().contains("SLURM-job '" + id + "' failed, SLURM status is: 'CANCELLED'"), r1.out());
    }
    String[] w = wildcards(r1.out(), cancelled[1].substring("snakejob_call_chunk_".length()));
    String sample = w[0];
    String other = SAMPLES.get(0).equals(sample) ? SAMPLES.get(1) : SAMPLES.get(0);
    String chunkLog = "out/logs/" + sample + "/chunk-" + w[1] + ".log";
    assertTrue(r1.out().contains("log: " + chunkLog), "the cancelled chunk's log path is shown: " + r1.out());
    assertTrue(Files.exists(work.resolve("out/" + other + ".g.vcf.gz")), "the other sample is gathered");
    assertTrue(!Files.exists(work.resolve("out/" + sample + ".vcf.gz")), "the cancelled chunk's sample is not gathered");

    // Every job went through sbatch: 2 plan + 4 call_chunk + the retry + 2 gathers of the other
    // sample, in the jobcomp log; sacct -c reads the same log.
    Map<String, String> jobs = jobs();
    List<String> snake = jobs.values().stream().filter(j -> j.startsWith("snakejob_")).toList();
    assertEquals(List.of(cancelled[1] + " CANCELLED", cancelled[1] + " CANCELLED"),
        List.of(jobs.get(cancelled[0]), jobs.get(retry[0])), "the cancelled job and its retry: " + jobs);
    assertEquals(9, snake.size(), "jobcomp: " + jobs);
    assertEquals(7, snake.stream().filter(j -> j.endsWith(" COMPLETED")).count(), "jobcomp: " + jobs);
    Result sacct = run(List.of("sacct", "-c", "-n", "-j", cancelled[0] + "," + retry[0]), dir, 30);
    assertEquals(0, sacct.exit(), sacct.out());
    assertEquals(2, sacct.out().lines().filter(l -> l.contains("CANCELLED")).count(), sacct.out());

    // The same command again runs only the missing chunk, its sample's gathers and the cohort.
    Path chunks = work.resolve("out/chunks/" + sample);
    Map<Path, FileTime> kept = new HashMap<>();
    for (String s : SAMPLES) {
      for (String c : List.of("0001-of-0002", "0002-of-0002")) {
        Path f = work.resolve("out/chunks/" + s + "/chunk-" + c + ".vcf.gz");
        if (Files.exists(f)) kept.put(f, Files.getLastModifiedTime(f));
      }
    }
    assertEquals(3, kept.size(), kept.toString());
    long t1 = System.nanoTime();
    Result r2 = run(cmd, work, 900);
    double rerunWall = (System.nanoTime() - t1) / 1e9;
    assertEquals(0, r2.exit(), r2.out());
    WorkflowIT.Run run2 = new WorkflowIT.Run(r2.exit(), r2.out());
    assertEquals(1, WorkflowIT.jobs(run2, "call_chunk"), r2.out());
    assertEquals(0, WorkflowIT.jobs(run2, "plan"), r2.out());
    assertEquals(1, WorkflowIT.jobs(run2, "gather"), r2.out());
    assertEquals(1, WorkflowIT.jobs(run2, "gather_gvcf"), r2.out());
    assertEquals(1, WorkflowIT.jobs(run2, "cohort"), r2.out());
    assertTrue(Files.exists(chunks.resolve("chunk-" + w[1] + ".vcf.gz")));
    for (var e : kept.entrySet()) assertEquals(e.getValue(), Files.getLastModifiedTime(e.getKey()), "not rerun: " + e.getKey());
    List<String> after = jobs().values().stream().filter(j -> j.startsWith("snakejob_")).toList();
    assertEquals(9 + 4, after.size(), "4 more sbatch jobs: " + jobs());

    for (String s : SAMPLES) {
      assertEquals(whole.get(s), WorkflowIT.records(work.resolve("out/" + s + ".vcf.gz")), s + ": 2 SLURM chunks = one call");
      assertEquals(WorkflowIT.variantRecords(wholeGvcf.get(s)), WorkflowIT.variantRecords(work.resolve("out/" + s + ".g.vcf.gz")), s);
      assertEquals(WorkflowIT.basesStated(wholeGvcf.get(s)), WorkflowIT.basesStated(work.resolve("out/" + s + ".g.vcf.gz")), s);
    }
    assertTrue(Files.exists(work.resolve("out/cohort.g.vcf.gz.tbi")));
    System.out.printf("SlurmIT: first run %.1f s wall, %d SLURM jobs (chunk %s/%s cancelled as job %s and its retry %s);"
        + " rerun %.1f s wall, 4 SLURM jobs%n", wall, snake.size(), sample, w[1], cancelled[0], retry[0], rerunWall);
  }
}
