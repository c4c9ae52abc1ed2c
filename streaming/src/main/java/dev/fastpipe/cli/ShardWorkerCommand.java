package dev.fastpipe.cli;

import dev.fastpipe.shm.ShmProducer;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.pipeline.ParentWatch;
import dev.fastpipe.streaming.pipeline.ProcessFootprint;
import dev.fastpipe.streaming.pipeline.ShardReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One make_examples shard of {@code fastpipe call --transport shm}, in its own process: reads the
 * run plan (text) on stdin, attaches to the ring file its parent created in /dev/shm and runs task
 * {@code --task} of the plan into it, then writes its {@link ShardReport} where {@code --report-file}
 * says (also when it fails: the status and the one error line). Started by {@code call} through
 * bin/fastpipe; not meant to be typed by hand.
 */
@Command(name = "shard-worker", hidden = true, mixinStandardHelpOptions = true,
    description = "Internal: one make_examples shard writing into a shared-memory ring (started by 'call'; plan on stdin).")
public final class ShardWorkerCommand implements Callable<Integer> {
  @Option(names = "--ring-file", description = "The shard's ring in /dev/shm (required unless --probe).")
  Path ringFile;

  @Option(names = "--task", description = "The task of the plan to run (required unless --probe).")
  Integer task;

  @Option(names = "--parent-pid", description = "Stop when this process is gone.")
  Long parentPid;

  @Option(names = "--report-file",
      description = "Write what the shard did (its ShardReport, JSON) here; without it, on stdout.")
  Path reportFile;

  @Option(names = "--probe",
      description = "Print the allocator mapped into this worker and its MALLOC_CONF, then exit (used by doctor).")
  boolean probe;

  @Override
  public Integer call() throws IOException {
    if (probe) {
      ProcessFootprint f = ProcessFootprint.self(ProcessFootprint.SHARD, -1);
      System.out.println("allocator: " + ProcessFootprint.mappedAllocator(Path.of("/proc/self/maps")));
      System.out.println("MALLOC_CONF: " + (f.mallocConf().isEmpty() ? "(unset)" : f.mallocConf()));
      return 0;
    }
    if (ringFile == null || task == null) throw new UserError("shard-worker needs --ring-file and --task (or --probe)");
    if (parentPid != null) ParentWatch.start(parentPid, ExitStatus.PARENT_GONE.code(), reportFile);
    ShardReport report;
    try {
      RunPlan plan = RunPlan.fromText(new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
      ShmProducer ring;
      try {
        ring = ShmTransport.attachProducer(ringFile, TransportConfig.backoff());
      } catch (IllegalStateException e) {
        throw new UserError(e.getMessage(), ExitStatus.FAILED); // not bad input: the ring is the run's
      }
      MakeExamplesStats stats = MakeExamples.run(plan, task, ring);
      ProcessFootprint self = ProcessFootprint.self(ProcessFootprint.SHARD, task);
      report = ShardReport.finished(task, stats, self.cpuSeconds(), self);
    } catch (RuntimeException | IOException e) {
      // The parent learns how it failed from the report; the error line below is for a reader of stderr.
      publish(ShardReport.failed(task, Main.exitStatus(e), Main.oneLine(e),
          ProcessFootprint.self(ProcessFootprint.SHARD, task)));
      throw e;
    }
    publish(report);
    return report.exitStatus().code();
  }

  private void publish(ShardReport report) throws IOException {
    if (reportFile != null) {
      report.write(reportFile);
    } else {
      System.out.println(report.toJson());
      System.out.flush();
    }
  }
}
