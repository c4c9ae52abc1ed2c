package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A shard worker's heap limit follows its fullest partition's reads, not the genome's size. */
class WorkerHeapTest {
  @TempDir Path dir;

  @Test
  void theHeapIsSetByTheFullestPartitionNotByTheRun() throws IOException {
    PlannedSample s = PlannedSample.of(dir.resolve("g"), 6, 1, 60_000, 30, 10_000);
    RunPlan plan = s.plan();
    double[] work = s.work();
    long reads = plan.readsEstimate();
    assertEquals(s.sample().records(), reads);
    long even = WorkerJvm.workerHeapMb(plan, work);
    // six even partitions of ~2,000 reads: the base plus a few MiB
    assertTrue(even >= WorkerJvm.HEAP_BASE_MB && even <= WorkerJvm.HEAP_BASE_MB + 10, "heap " + even);
    // the same run with all reads in one partition (a pile-up) needs room for all of them at once
    double[] piled = new double[work.length];
    piled[3] = 1;
    assertEquals(WorkerJvm.HEAP_BASE_MB + reads * WorkerJvm.HEAP_KB_PER_READ / 1024,
        WorkerJvm.workerHeapMb(plan, piled));
    String opts = WorkerJvm.autoJavaOpts(plan, work);
    if (!System.getenv().getOrDefault("FASTPIPE_JAVA_OPTS", "").contains("-Xmx")) {
      assertTrue(opts.endsWith("-Xmx" + even + "m -Xmn" + even * 2 / 3 + "m"), opts);
    }
    assertTrue(opts.startsWith("-XX:TieredStopAtLevel=1"), opts);
  }
}
