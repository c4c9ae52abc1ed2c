package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** VCF checks of a bench: across every run, or (--calls-may-differ, two models) within each configuration. */
class BenchResultTest {
  private static BenchRun run(int seq, String config, String md5) {
    return new BenchRun(seq, config, seq / 2, false, 0, 1.0, md5, dev.fastpipe.streaming.pipeline.MetricsFile.parse("{}"), "");
  }

  @Test
  void twoModelsDifferAcrossConfigurationsButEachMustRepeatItself() {
    BenchResult twoModels = new BenchResult(List.of(), List.of(), 2, 0, 1,
        List.of(run(1, "v4", "aa"), run(2, "v5", "bb"), run(3, "v5", "bb"), run(4, "v4", "aa")), null);
    assertEquals(2, twoModels.mismatches().size(), "across configurations both v5 runs differ from run 1");
    assertTrue(twoModels.mismatchesWithinConfigurations().isEmpty());
    BenchResult unstable = new BenchResult(List.of(), List.of(), 2, 0, 1,
        List.of(run(1, "v4", "aa"), run(2, "v5", "bb"), run(3, "v5", "cc"), run(4, "v4", "aa")), null);
    assertEquals(List.of("run 3 (v5, round 2): VCF body md5 cc differs from run 2 (v5, round 2)'s bb"),
        unstable.mismatches(true));
  }
}
