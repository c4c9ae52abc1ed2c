package dev.fastpipe.cli;

import dev.fastpipe.shm.ShmProducer;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesOptions;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.pipeline.ParentWatch;
import dev.fastpipe.streaming.pipeline.WorkerStats;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * One make_examples shard of {@code fastpipe call --transport shm}, in its own process: attaches
 * to the ring file its parent created in /dev/shm and writes examples into it. Started by
 * {@code call} through bin/fastpipe; not meant to be typed by hand.
 */
@Command(name = "shard-worker", hidden = true, mixinStandardHelpOptions = true,
    description = "Internal: one make_examples shard writing into a shared-memory ring (started by 'call').")
public final class ShardWorkerCommand implements Callable<Integer> {
  @Mixin ExampleInputOptions input;

  @Option(names = "--ring-file", required = true, description = "The shard's ring in /dev/shm.")
  Path ringFile;

  @Option(names = "--task", required = true) int task;
  @Option(names = "--shards", required = true) int shards;
  @Option(names = "--channels", defaultValue = "6") int channels;

  @Option(names = "--parent-pid", description = "Stop when this process is gone.")
  Long parentPid;

  @Option(names = "--fail-after-partitions", hidden = true, defaultValue = "-1",
      description = "Test hook: exit with status 3 after this many partitions.")
  int failAfterPartitions;

  @Override
  public Integer call() {
    if (parentPid != null) ParentWatch.start(parentPid, 4);
    MakeExamplesOptions o = input.applyTo(new MakeExamplesOptions());
    o.shards = shards;
    o.task = task;
    o.channels = channels;
    ShmProducer ring;
    try {
      ring = ShmTransport.attachProducer(ringFile, TransportConfig.backoff());
    } catch (IllegalStateException e) {
      throw new UserError(e.getMessage());
    }
    var producer = failAfterPartitions < 0 ? ring : new FailingProducer(ring, failAfterPartitions);
    MakeExamplesStats stats = MakeExamples.run(o, producer);
    System.out.println(WorkerStats.line(stats));
    System.out.flush();
    return 0;
  }
}
