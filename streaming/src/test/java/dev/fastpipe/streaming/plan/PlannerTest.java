package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.simulate.Simulation;
import dev.fastpipe.streaming.simulate.SyntheticSample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planner resolves the sample, the contigs left out, the work and the workers' flags once, with the plan. */
class PlannerTest {
  @TempDir static Path dir;
  static Simulation.Result sample;

  @BeforeAll
  static void simulate() throws IOException {
    sample = Simulation.synthetic(5, 2, 40_000, 10).writeTo(dir.resolve("g"));
  }

  static ExampleSettings.Builder settings() {
    return ExampleSettings.builder().reference(sample.files().reference()).reads(sample.files().reads()).shards(2);
  }

  @Test
  void theSampleComesFromTheReadsUnlessTheVcfNamesOne() {
    CallPlan p = Planner.forCall(settings().build(), false, null, null, -1, 0);
    assertEquals(SyntheticSample.SAMPLE, p.sample(), "the reads' only sample");
    assertEquals(SyntheticSample.SAMPLE, p.run().sample(), "and the plan's");
    assertEquals("NA1", Planner.forCall(settings().build(), false, "NA1", null, -1, 0).sample());
  }

  @Test
  void workAndWorkerFlagsFollowThePlan() {
    CallPlan p = Planner.forCall(settings().partitionSize(5000).build(), true, null, null, -1, 0);
    assertEquals(p.run().partitions(), p.work().length, "one figure a partition");
    assertEquals(WorkerJvm.autoJavaOpts(p.run(), p.work()), p.workerJavaOpts(), "automatic flags");
    assertEquals("-Xmx1g", Planner.forCall(settings().build(), false, null, "-Xmx1g", -1, 0).workerJavaOpts(),
        "given flags are kept");
    assertEquals(List.of(), p.notes(), "nothing left out, no warning");
  }

  @Test
  void theContigsLeftOutAreNamedOnce() {
    CallPlan all = Planner.forCall(settings().build(), false, null, null, -1, 0);
    String contig = all.dictionary().getSequence(1).getSequenceName();
    CallPlan less = Planner.forCall(settings().excludeContigs(List.of(contig)).build(),
        false, null, null, -1, 0);
    assertEquals(1, less.notes().size(), less.notes().toString());
    assertTrue(less.notes().get(0).contains(contig), less.notes().get(0));
    assertTrue(less.run().bases() < all.run().bases(), "the contig's bases are not planned");
  }
}
