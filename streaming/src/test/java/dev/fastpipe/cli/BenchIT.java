package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fastpipe bench} for real: two allocator configurations × two runs of call on sim30x_eval. */
class BenchIT {

  @Test
  void twoConfigurationsTwoRunsEachOnSim30xEval(@TempDir Path dir) throws Exception {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    assumeTrue(LauncherIT.libraryInstalled("libjemalloc.so.2"), "libjemalloc2 not installed");
    Path json = dir.resolve("bench.json");
    LauncherIT.Result r = LauncherIT.run(Map.of(), "bench",
        "--config", "glibc: --allocator glibc", "--config", "je-shards: --shard-allocator jemalloc --allocator glibc",
        "--runs", "2", "--warmup", "0", "--seed", "3", "--json", json.toString(),
        "--", "--ref", ref.toString(), "--reads", bam.toString(), "--regions", "chr20:10200000-10250000", "--shards", "1");
    assertEquals(0, r.exit(), r.err());
    String md = r.out();
    assertTrue(md.contains("VCF body (records): identical in all 4 runs"), md);
    assertTrue(md.contains("### glibc: `--allocator glibc` (2 runs)"), md);
    assertTrue(md.contains("### je-shards vs glibc (Welch's t-test; * = Holm-adjusted p < 0.05 over the pair's figures)"), md);
    for (String figure : List.of("total wall s", "make_examples CPU s", "call_variants wall s", "postprocess wall s",
        "peak RSS inference MiB", "peak RSS shard (max) MiB")) {
      assertTrue(md.contains("| " + figure + " | "), figure + " missing:\n" + md);
    }
    assertEquals(4, r.err().lines().filter(l -> l.startsWith("bench: [")).count(), r.err());

    Object report = Json.parse(Files.readString(json));
    List<Object> runs = Json.list(report, "runs");
    assertEquals(4, runs.size());
    String md5 = (String) Json.at(runs.get(0), "vcf_body_md5");
    for (Object run : runs) {
      assertEquals(md5, Json.at(run, "vcf_body_md5"));
      // Each role runs on the allocator its configuration chose: read from /proc/PID/maps in the run.
      boolean jeShards = Json.at(run, "config").equals("je-shards");
      for (Object p : Json.list(run, "metrics", "processes")) {
        String expected = Json.at(p, "role").equals("shard") && jeShards ? "jemalloc" : "glibc";
        assertEquals(expected, Json.at(p, "allocator"), run.toString());
      }
    }
    assertEquals(Boolean.TRUE, Json.at(report, "vcf_bodies_identical"));
    assertTrue(Json.list(report, "comparisons").stream().anyMatch(c -> "total wall s".equals(Json.at(c, "figure"))
        && Json.at(c, "p") instanceof Double));
  }
}
