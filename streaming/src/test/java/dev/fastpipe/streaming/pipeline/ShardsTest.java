package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.shm.ConsumerLoop;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.Transports;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.SubcommandLauncher;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.testing.TestGenome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shard launching behind one interface: threads and processes run the same plan into a transport
 * and give the same examples; a shard that cannot run is named in the failure.
 */
class ShardsTest {
  @TempDir static Path dir;
  static ExampleSettings request;
  static final int[] SNPS = {700, 1800, 2600, 3900};

  @BeforeAll
  static void sample() throws IOException {
    TestGenome g = new TestGenome("chrT", 5000, 11);
    for (int start = 0; start + 100 <= 5000; start += 7) {
      String seq = g.refString(start, start + 100);
      for (int snp : SNPS) {
        if (snp >= start && snp < start + 100 && (start / 7) % 2 == 0) seq = TestGenome.mutate(seq, snp - start, flip(g, snp));
      }
      g.add(g.read(start, "100M", seq));
    }
    request = ExampleSettings.builder().reference(g.writeFasta(dir)).reads(g.writeBam(dir, "reads")).shards(2)
        .partitionSize(1000).build();
  }

  static char flip(TestGenome g, int pos) {
    return g.ref[pos] == 'A' ? 'C' : 'A';
  }

  /** Shard processes start the CLI's entry point, as call's do. */
  static final SubcommandLauncher LAUNCHER = new SubcommandLauncher(dev.fastpipe.cli.Main.class.getName());

  static RunPlan plan(ExampleSettings o) {
    try (InputFiles in = new InputFiles(o.inputs().reference(), o.inputs().reads())) {
      return RunPlan.forTasks(o, in);
    }
  }

  /** Runs the plan's shards into the transport; returns the example positions and partition markers seen. */
  static Set<String> run(Shards shards, RunPlan plan, ExampleTransport transport) throws Exception {
    Set<String> seen = new TreeSet<>();
    ExampleRecord r = new ExampleRecord();
    try (shards) {
      shards.start(plan, transport);
      try (ExampleConsumer c = transport.consumer(new int[] {0, 1})) {
        boolean finished = new ConsumerLoop(64, TransportConfig.backoff()).stopWhen(() -> shards.failure() != null)
            .run(c, (shard, b, off, len) -> {
              r.wrap(b, off);
              seen.add(r.isExample() ? "example " + r.position() : "done " + r.partition() + " by " + shard);
            });
        assertTrue(finished, "stopped early: " + shards.failure());
      }
      assertNull(shards.await(60, TimeUnit.SECONDS));
      assertTrue(shards.allEnded());
      assertTrue(shards.endNanos() > 0);
      List<ShardReport> reports = shards.reports();
      assertEquals(List.of(0, 1), reports.stream().map(ShardReport::shard).toList(), "one report per shard");
      assertTrue(reports.stream().allMatch(sr -> sr.failure() == null && sr.readsSeen() > 0 && sr.cpuSeconds() > 0), reports.toString());
      assertEquals(shards.inProcesses(), reports.stream().allMatch(sr -> sr.footprint() != null && sr.footprint().shard() == sr.shard()),
          "a process reports its own footprint, a thread none: " + reports);
      assertEquals(SNPS.length, ShardReport.Totals.of(reports, plan.shards()).examples());
      long made = 0;
      for (int i = 0; i < plan.shards(); i++) {
        made += shards.examplesMade(i);
        assertTrue(shards.cpuNanos(i) > 0, "no CPU time for shard " + i + " (" + shards.getClass().getSimpleName() + ")");
      }
      assertEquals(SNPS.length, made, "the examples the shards published as they went, for live metrics");
    }
    return seen;
  }

  @Test
  void threadsAndProcessesRunTheSamePlan() throws Exception {
    RunPlan plan = plan(request);
    Set<String> byThreads;
    try (ExampleTransport t = Transports.create("disruptor", TransportConfig.of(2, 200_000))) {
      byThreads = run(new ShardThreads(), plan, t);
    }
    Set<String> byProcesses;
    try (ExampleTransport t = Transports.create("shm", TransportConfig.of(2, 200_000).withDir(dir))) {
      byProcesses = run(new ShardProcesses(LAUNCHER, "-XX:TieredStopAtLevel=1"), plan, t);
    }
    assertEquals(Set.of("done 0 by 0", "done 1 by 1", "done 2 by 0", "done 3 by 1", "done 4 by 0",
        "example 700", "example 1800", "example 2600", "example 3900"), byThreads);
    assertEquals(byThreads, byProcesses);
  }

  @Test
  void aShardThatCannotRunIsNamed() throws Exception {
    Path reads = request.inputs().reads();
    Path copy = Files.copy(reads, dir.resolve("gone.bam"));
    Files.copy(Path.of(reads + ".bai"), dir.resolve("gone.bam.bai"));
    RunPlan plan = plan(ExampleSettings.builder().reference(request.inputs().reference()).reads(copy).shards(2)
        .partitionSize(1000).build());
    Files.delete(copy); // planned, then the reads went away
    for (Shards shards : new Shards[] {new ShardThreads(), new ShardProcesses(LAUNCHER, "-XX:TieredStopAtLevel=1")}) {
      String kind = shards.inProcesses() ? "shm" : "disruptor";
      try (ExampleTransport t = Transports.create(kind, TransportConfig.of(2, 200_000).withDir(dir)); shards) {
        shards.start(plan, t);
        ShardFailedException f = shards.await(60, TimeUnit.SECONDS);
        assertNotNull(f, kind);
        assertTrue(f.getMessage().startsWith("shard 0") || f.getMessage().startsWith("shard 1"), f.getMessage());
        assertTrue(f.getMessage().contains("gone.bam"), f.getMessage());
        assertTrue(f.getCause() instanceof InputException, kind + ": bad input found by a shard stays bad input");
      }
    }
  }
}
