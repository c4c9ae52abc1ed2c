package dev.fastpipe.streaming.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The shard worker processes of one run. Each is started through {@code bin/fastpipe} (the
 * launcher exports {@code FASTPIPE_LAUNCHER}), so it gets the same allocator preload and JVM
 * flags, and its command line carries {@code --task i} so operators can find it with ps.
 * All process management of the pipeline lives here.
 */
public final class ShardProcesses implements AutoCloseable {

  /** A shard that ended badly. */
  public record Failure(int shard, long pid, int exitStatus, String stderrTail) {
    public String message() {
      return "shard " + shard + " (pid " + pid + ") exited with status " + exitStatus
          + (stderrTail.isBlank() ? "" : ": " + stderrTail);
    }
  }

  private final List<Process> processes = new ArrayList<>();
  private final String workerJavaOpts;

  /**
   * @param workerJavaOpts JVM flags added for the workers (after the parent's FASTPIPE_JAVA_OPTS);
   *     FASTPIPE_WORKER_JAVA_OPTS, when set, replaces them
   */
  public ShardProcesses(String workerJavaOpts) {
    this.workerJavaOpts = workerJavaOpts == null ? "" : workerJavaOpts;
  }
  private final List<Path> stderrFiles = new ArrayList<>();
  private final List<Path> stdoutFiles = new ArrayList<>();

  /**
   * The command that starts a fastpipe subcommand in a new process: the launcher if known, else
   * this JVM's binary and class path; {@code javaOpts} are added directly when there is no launcher.
   */
  public static List<String> launcherCommand(String javaOpts) {
    String launcher = System.getenv("FASTPIPE_LAUNCHER");
    List<String> cmd = new ArrayList<>();
    if (launcher != null && Files.isExecutable(Path.of(launcher))) {
      cmd.add(launcher);
    } else {
      // Started outside the launcher (tests, IDE): same JVM binary and class path.
      cmd.add(ProcessHandle.current().info().command().orElse("java"));
      cmd.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
          .filter(a -> a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Xmx"))
          .toList());
      if (!javaOpts.isBlank()) cmd.addAll(List.of(javaOpts.trim().split("\\s+")));
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add("dev.fastpipe.cli.Main");
    }
    return cmd;
  }

  /** Starts one worker; {@code args} follow the launcher (subcommand and its options). */
  public Process start(int shard, List<String> args) throws IOException {
    String override = System.getenv("FASTPIPE_WORKER_JAVA_OPTS");
    String extra = override != null ? override : workerJavaOpts;
    List<String> cmd = launcherCommand(extra);
    cmd.addAll(args);
    Path err = Files.createTempFile("fastpipe-shard-" + shard + "-", ".err");
    Path out = Files.createTempFile("fastpipe-shard-" + shard + "-", ".out");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    String parent = System.getenv().getOrDefault("FASTPIPE_JAVA_OPTS", "");
    pb.environment().put("FASTPIPE_JAVA_OPTS", (parent + " " + extra).trim());
    Process p = pb.start();
    processes.add(p);
    stderrFiles.add(err);
    stdoutFiles.add(out);
    return p;
  }

  /** The first shard that has exited non-zero, if any. */
  public Failure firstFailure() {
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      if (!p.isAlive() && p.exitValue() != 0) {
        return new Failure(i, p.pid(), p.exitValue(), stderrTail(i));
      }
    }
    return null;
  }

  public boolean allExited() {
    return processes.stream().noneMatch(Process::isAlive);
  }

  public List<Process> processes() {
    return processes;
  }

  /** Waits for all workers to end; returns the first failure or null. */
  public Failure awaitAll(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (Process p : processes) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) break;
    }
    return firstFailure();
  }

  /** What worker {@code shard} printed on stdout (its stats line), once it has exited. */
  public List<String> stdout(int shard) {
    try {
      return Files.readAllLines(stdoutFiles.get(shard));
    } catch (IOException e) {
      return List.of();
    }
  }

  private String stderrTail(int shard) {
    try {
      List<String> lines = Files.readAllLines(stderrFiles.get(shard)).stream()
          .filter(l -> !l.isBlank()).toList();
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** Stops every worker still running (TERM, then KILL after a grace period) and removes logs. */
  @Override
  public void close() {
    for (Process p : processes) if (p.isAlive()) p.destroy();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    for (Process p : processes) {
      try {
        long left = deadline - System.nanoTime();
        if (left > 0) p.waitFor(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (p.isAlive()) p.destroyForcibly();
    }
    List<Path> logs = new ArrayList<>(stderrFiles);
    logs.addAll(stdoutFiles);
    for (Path f : logs) {
      try {
        Files.deleteIfExists(f);
      } catch (IOException ignored) {
        // best effort: a temp log
      }
    }
  }
}
