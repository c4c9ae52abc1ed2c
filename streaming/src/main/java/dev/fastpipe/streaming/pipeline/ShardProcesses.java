package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.HeartbeatMonitor;
import dev.fastpipe.shm.ProcessStat;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.SubcommandLauncher;
import dev.fastpipe.streaming.plan.RunPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shard worker processes of one run, for the shared-memory rings. Worker i runs
 * {@code fastpipe shard-worker --task i --ring-file RING --parent-pid PID --report-file FILE}, reads
 * the {@link RunPlan} as text on its stdin (a file written once, given to every worker), so it runs
 * exactly the partitions its parent planned, and writes its {@link ShardReport} to FILE. Each is started through {@code bin/fastpipe} (the
 * launcher exports {@code FASTPIPE_LAUNCHER}), so it gets the same allocator preload and JVM
 * flags, and its command line carries {@code --task i} so operators can find it with ps.
 * A worker whose ring heartbeat ({@link HeartbeatMonitor}) stands still for the shard timeout
 * (stopped with SIGSTOP, hung) is killed and named as the failure, so the run cannot wait forever
 * on a shard that stopped without dying. All process management of the pipeline lives here.
 */
public final class ShardProcesses implements Shards {

  /** The hidden subcommand a worker runs. */
  static final String WORKER_COMMAND = "shard-worker";

  /** {@code call --shard-timeout}'s default: far beyond any healthy gap between two heartbeats. */
  public static final Duration DEFAULT_SHARD_TIMEOUT = Duration.ofMinutes(5);

  private final List<Process> processes = new ArrayList<>();
  private final SubcommandLauncher launcher;
  private final String workerJavaOpts;
  private final List<Path> stderrFiles = new ArrayList<>();
  private final List<Path> stdoutFiles = new ArrayList<>();
  private final List<Path> reportFiles = new ArrayList<>();
  private ShardReport[] reports = new ShardReport[0]; // read once each, after the worker has exited
  private final Duration shardTimeout;
  private long endNanos;
  private HeartbeatMonitor heartbeats;
  private ShmTransport rings;
  private long[] lastCpuNanos = new long[0];
  private boolean[] cpuFinal = new boolean[0]; // the worker's own figure has been read
  private ShardFailedException silent; // the shard stopped for sending no heartbeat

  /** Workers with the {@link #DEFAULT_SHARD_TIMEOUT}. */
  public ShardProcesses(SubcommandLauncher launcher, String workerJavaOpts) {
    this(launcher, workerJavaOpts, DEFAULT_SHARD_TIMEOUT);
  }

  /**
   * @param launcher starts a worker process (through bin/fastpipe when this process runs under it)
   * @param workerJavaOpts JVM flags added for the workers (after the parent's FASTPIPE_JAVA_OPTS);
   *     FASTPIPE_WORKER_JAVA_OPTS, when set, replaces them
   * @param shardTimeout a worker whose heartbeat stands still this long is killed and fails the
   *     run; zero: never
   */
  public ShardProcesses(SubcommandLauncher launcher, String workerJavaOpts, Duration shardTimeout) {
    this.launcher = java.util.Objects.requireNonNull(launcher, "launcher");
    this.workerJavaOpts = workerJavaOpts == null ? "" : workerJavaOpts;
    this.shardTimeout = shardTimeout;
  }

  @Override
  public void start(RunPlan plan, ExampleTransport transport) throws IOException {
    if (!(transport instanceof ShmTransport shm)) {
      throw new IllegalArgumentException("shard processes need shared-memory rings, not " + transport.getClass().getSimpleName());
    }
    removeDeadLogs(tmpDir());
    Path planFile = Files.createTempFile(LOG_PREFIX + "plan-" + ProcessHandle.current().pid() + "-", ".properties");
    try {
      Files.writeString(planFile, plan.toText(), StandardCharsets.UTF_8);
      String parent = Long.toString(ProcessHandle.current().pid());
      reports = new ShardReport[plan.shards()];
      for (int i = 0; i < plan.shards(); i++) {
        Path report = Files.createTempFile(logName(i), ".json");
        reportFiles.add(report);
        start(i, List.of(WORKER_COMMAND, "--task", Integer.toString(i), "--ring-file", shm.path(i).toString(),
            "--parent-pid", parent, "--report-file", report.toString()), planFile);
      }
      rings = shm;
      lastCpuNanos = new long[plan.shards()];
      cpuFinal = new boolean[plan.shards()];
      heartbeats = new HeartbeatMonitor(shm, System.nanoTime()); // silence counts from the start: a hung JVM start is a hung shard
    } finally {
      Files.deleteIfExists(planFile); // each worker holds it open as its stdin
    }
  }

  /**
   * Starts a worker as a run would (same launcher, so the same per-role allocator and MALLOC_CONF)
   * but with {@code --probe}: it prints what it runs on and exits. Returns its stdout lines.
   */
  public static List<String> probe(SubcommandLauncher launcher) throws IOException, InterruptedException {
    List<String> cmd = launcher.command("");
    cmd.addAll(List.of(WORKER_COMMAND, "--probe"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
    return out.lines().toList();
  }

  /** Starts one worker; {@code args} follow the launcher (subcommand and its options); stdin from {@code input}. */
  private void start(int shard, List<String> args, Path input) throws IOException {
    String override = System.getenv("FASTPIPE_WORKER_JAVA_OPTS");
    String extra = override != null ? override : workerJavaOpts;
    List<String> cmd = launcher.command(extra);
    cmd.addAll(args);
    Path err = Files.createTempFile(logName(shard), ".err");
    Path out = Files.createTempFile(logName(shard), ".out");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(input.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    String parent = System.getenv().getOrDefault("FASTPIPE_JAVA_OPTS", "");
    pb.environment().put("FASTPIPE_JAVA_OPTS", (parent + " " + extra).trim());
    Process p = pb.start();
    processes.add(p);
    stderrFiles.add(err);
    stdoutFiles.add(out);
  }

  /**
   * How the files a run keeps in java.io.tmpdir begin: {@code fastpipe-shard-PID-I-*.out|.err|.json}
   * (worker I's stdout, stderr and {@link ShardReport}) and {@code fastpipe-plan-PID-*.properties},
   * PID the run's.
   */
  static final String LOG_PREFIX = "fastpipe-";

  private static final Pattern LOG_NAME =
      Pattern.compile(Pattern.quote(LOG_PREFIX) + "(?:shard|plan)-(\\d+)-.*\\.(?:out|err|json|properties)");

  /** The beginning of worker {@code shard}'s files in java.io.tmpdir. */
  private static String logName(int shard) {
    return LOG_PREFIX + "shard-" + ProcessHandle.current().pid() + "-" + shard + "-";
  }

  static Path tmpDir() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * Deletes the shard logs and plan files in {@code dir} of runs whose process no longer runs (killed
   * with -9, say, so that neither {@link #close} nor a shutdown hook ran); returns how many. Those
   * of live runs are left alone.
   */
  static int removeDeadLogs(Path dir) {
    int removed = 0;
    try (var files = Files.newDirectoryStream(dir, LOG_PREFIX + "*")) {
      for (Path p : files) {
        long pid = runPid(p);
        if (pid < 0 || pid == ProcessHandle.current().pid() || running(pid)) continue;
        if (Files.deleteIfExists(p)) removed++;
      }
    } catch (IOException | RuntimeException e) {
      return removed; // best effort: a leftover log is untidy, not wrong
    }
    return removed;
  }

  /** The pid of the run a shard log or plan file belongs to, or -1 when {@code file} is none. */
  static long runPid(Path file) {
    Matcher m = LOG_NAME.matcher(file.getFileName().toString());
    try {
      return m.matches() ? Long.parseLong(m.group(1)) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static boolean running(long pid) {
    return !ProcessStat.exited(pid); // a zombie (killed, not yet reaped) counts as gone
  }

  /**
   * In a shard worker whose parent {@code parentPid} is gone: deletes this worker's own stdout and
   * stderr files (its fds 1 and 2, when they are shard logs of that parent) and its report file
   * ({@code report}, when it is one of that parent's), which nobody else would read or remove. The
   * open descriptors stay usable.
   */
  static void removeOwnLogs(long parentPid, Path report) {
    try {
      if (report != null && runPid(report) == parentPid) Files.deleteIfExists(report);
    } catch (IOException | RuntimeException e) {
      // best effort, as below
    }
    for (int fd = 1; fd <= 2; fd++) {
      try {
        Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
        if (runPid(target) == parentPid && target.getFileName().toString().startsWith(LOG_PREFIX + "shard-")) {
          Files.deleteIfExists(target);
        }
      } catch (IOException | RuntimeException e) {
        // no /proc, or not a file: nothing of ours to remove
      }
    }
  }

  /**
   * The first shard that has exited non-zero, if any: "shard i (pid P) exited with status S: what
   * its {@link ShardReport} says failed" (a worker that died without a report: its last stderr
   * line); or one it has just killed for sending no heartbeat for the shard timeout: "shard i (pid
   * P) sent no heartbeat for 30 s (--shard-timeout 30s): stopped". A report whose failure is
   * {@link ExitStatus#BAD_INPUT} makes its message the failure's cause, an {@link InputException}.
   */
  @Override
  public synchronized ShardFailedException failure() {
    if (silent != null) return silent;
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      if (!p.isAlive() && p.exitValue() != 0) {
        ShardReport report = report(i);
        String why = report != null && report.failure() != null ? report.failure().message() : stderrTail(i);
        String message = "shard " + i + " (pid " + p.pid() + ") exited with status " + p.exitValue()
            + (why.isBlank() ? "" : ": " + why);
        if (report != null && report.exitStatus() == ExitStatus.BAD_INPUT) {
          return new ShardFailedException(message, new InputException(why));
        }
        return new ShardFailedException(message);
      }
    }
    return silentShard();
  }

  /**
   * Worker {@code shard}'s report, once it has exited and written one; null before, and for a
   * worker that died without one (killed, out of memory) or left an unreadable one.
   */
  private synchronized ShardReport report(int shard) {
    if (shard >= reports.length || processes.get(shard).isAlive()) return null;
    if (reports[shard] == null) {
      try {
        reports[shard] = ShardReport.read(reportFiles.get(shard));
      } catch (IOException | RuntimeException e) {
        return null; // an empty file (no report) or a torn one: the exit status and stderr say the rest
      }
    }
    return reports[shard];
  }

  /** Kills the first live worker silent for longer than the shard timeout and returns its failure. */
  private ShardFailedException silentShard() {
    if (heartbeats == null || shardTimeout.isZero()) return null;
    heartbeats.poll(System.nanoTime());
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      long quiet = heartbeats.silentNanos(i);
      if (quiet > shardTimeout.toNanos() && p.isAlive()) {
        p.destroyForcibly(); // SIGKILL: a stopped process would not act on SIGTERM until continued
        silent = new ShardFailedException("shard " + i + " (pid " + p.pid() + ") sent no heartbeat for "
            + TimeUnit.NANOSECONDS.toSeconds(quiet) + " s (--shard-timeout " + text(shardTimeout) + "): stopped");
        return silent;
      }
    }
    return null;
  }

  /** 5m, 90s, 500ms: as the option is written. */
  private static String text(Duration d) {
    long ms = d.toMillis();
    return ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** True once every worker has exited; the first call that sees it notes the time ({@link #endNanos}). */
  @Override
  public synchronized boolean allEnded() {
    boolean ended = processes.stream().noneMatch(Process::isAlive);
    if (ended && endNanos == 0) endNanos = System.nanoTime();
    return ended;
  }

  @Override
  public synchronized long endNanos() {
    return endNanos;
  }

  public List<Process> processes() {
    return processes;
  }

  @Override
  public ShardFailedException await(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (Process p : processes) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) break;
    }
    return failure();
  }

  @Override
  public List<ShardReport> reports() {
    List<ShardReport> all = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      ShardReport r = report(i);
      if (r != null) all.add(r);
    }
    return all;
  }

  @Override
  public long examplesMade(int shard) {
    return rings == null ? 0 : rings.progress(shard);
  }

  /**
   * The worker's CPU from /proc while its process exists; once it is gone, the last figure read or
   * the one it reported itself on exit ({@link ShardReport}), whichever is larger.
   */
  @Override
  public synchronized long cpuNanos(int shard) {
    if (shard >= processes.size() || cpuFinal[shard]) return shard < lastCpuNanos.length ? lastCpuNanos[shard] : 0;
    long now = ProcessStat.cpuNanos(processes.get(shard).pid());
    if (now >= 0) {
      lastCpuNanos[shard] = Math.max(lastCpuNanos[shard], now);
    } else if (!processes.get(shard).isAlive()) {
      ShardReport r = report(shard);
      if (r != null) lastCpuNanos[shard] = Math.max(lastCpuNanos[shard], (long) (r.cpuSeconds() * 1e9));
      cpuFinal[shard] = true;
    }
    return lastCpuNanos[shard];
  }

  @Override
  public boolean inProcesses() {
    return true;
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
    logs.addAll(reportFiles);
    for (Path f : logs) {
      try {
        Files.deleteIfExists(f);
      } catch (IOException ignored) {
        // best effort: a temp log
      }
    }
  }
}
