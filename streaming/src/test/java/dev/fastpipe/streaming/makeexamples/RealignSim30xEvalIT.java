package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Realigned examples on real-sized data (../shared/data/sim30x_eval, 200 kb; skips without it): the
 * same records, decoded and compared byte for byte apart from the shard, sequence and partition
 * fields, for 1 shard, 3 shards, and 1 shard with 700 bp partitions; and the realigner ran.
 */
class RealignSim30xEvalIT {
  @TempDir Path dir;

  @Test
  void realignedExamplesDoNotDependOnShardsOrPartitions() throws Exception {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path bed = dir.resolve("region.bed");
    Files.writeString(bed, "chr20\t10000000\t10200000\n");
    RealignedExamplesTest.Run one = run(ref, bam, bed, 1, 1000);
    assertTrue(one.windows() > 10 && one.reads() > 0, "the realigner ran: " + one.windows() + " windows");
    RealignedExamplesTest.assertSame(one, run(ref, bam, bed, 3, 1000), "3 shards");
    RealignedExamplesTest.assertSame(one, run(ref, bam, bed, 1, 700), "700 bp partitions");
  }

  static RealignedExamplesTest.Run run(Path ref, Path bam, Path bed, int shards, int partitionSize) {
    return RealignedExamplesTest.run(shards, t -> ExampleSettings.builder().reference(ref).reads(bam).regionsBed(bed)
        .shards(shards).task(t).partitionSize(partitionSize).build());
  }
}
