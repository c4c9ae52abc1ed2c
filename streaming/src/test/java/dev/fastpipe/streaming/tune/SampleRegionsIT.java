package dev.fastpipe.streaming.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import dev.fastpipe.testing.SharedData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sample is placed by the real BAM index: sim30x_eval has reads only on chr20:9,995,001-11,095,000 of 63 Mb. */
class SampleRegionsIT {

  @Test
  void aSampleOfWholeChr20LiesWhereSim30xEvalHasReads() {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    try (InputFiles in = new InputFiles(ref, bam)) {
      List<Region> all = Regions.resolve(in.dictionary, in.readContigs, in.readsPath, List.of(), null);
      assertTrue(all.stream().mapToLong(Region::length).sum() > 60_000_000L, all.toString());
      List<Region> sample = SampleRegions.choose(in.reads, all, 400_000, 4);
      assertEquals(400_000, sample.stream().mapToLong(Region::length).sum(), sample.toString());
      for (Region r : sample) {
        assertEquals("chr20", r.contig());
        // within a 16 kb index window of the simulated span
        assertTrue(r.start() >= 9_979_000 && r.end() <= 11_112_000, "outside the reads: " + sample);
      }
      // Spread over the reads, not bunched: the first and last pieces are at least 500 kb apart.
      assertTrue(sample.get(sample.size() - 1).start() - sample.get(0).start() >= 500_000, sample.toString());
    }
  }
}
