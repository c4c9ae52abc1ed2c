package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.simulate.Simulation;
import java.io.IOException;
import java.nio.file.Path;

/** A simulated genome, the plan {@code call} makes of it (2 shards) and each partition's work. */
public record PlannedSample(Simulation.Result sample, RunPlan plan, double[] work) {

  public static PlannedSample of(Path dir, long seed, int contigs, int length, double coverage, int partitionSize)
      throws IOException {
    Simulation.Result g = Simulation.synthetic(seed, contigs, length, coverage).writeTo(dir);
    ExampleSettings o = ExampleSettings.builder().reference(g.files().reference()).reads(g.files().reads()).shards(2)
        .partitionSize(partitionSize).build();
    try (InputFiles in = new InputFiles(g.files().reference(), g.files().reads())) {
      RunPlan plan = RunPlan.forCall(o, in, true);
      return new PlannedSample(g, plan, PartitionWork.of(plan, in.readsIndex, in.reads.getFileHeader()));
    }
  }
}
