package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/fastpipe simulate --contigs} then {@code call} as a user runs them, shard processes
 * and shared-memory rings included: a genome of several contigs (one without reads, an unplaced
 * one) gives the same records in reference order through shm and through the disk baseline, and
 * the metrics carry each process's peak memory. Needs no shared data.
 */
class WholeGenomeCallIT {
  @TempDir static Path dir;
  static Path genome;

  @BeforeAll
  static void simulate() throws Exception {
    genome = dir.resolve("genome");
    LauncherIT.Result r = LauncherIT.run(Map.of(), "simulate", "--output", genome.toString(), "--contigs", "4",
        "--length", "120000", "--coverage", "20", "--seed", "8");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("on 3 of 4 contigs"), r.out());
    assertTrue(r.err().contains("simulate: chrUn_gl000220: "), r.err());
  }

  static String call(String name, String... extra) throws Exception {
    Path out = dir.resolve(name + ".vcf.gz");
    List<String> args = new ArrayList<>(List.of("call", "--ref", genome.resolve("ref.fa").toString(), "--reads",
        genome.resolve("reads.bam").toString(), "--output", out.toString(), "--shards", "2", "--no-progress"));
    args.addAll(List.of(extra));
    LauncherIT.Result r = LauncherIT.run(Map.of(), args.toArray(String[]::new));
    assertEquals(0, r.exit(), name + ": " + r.err());
    return CallIT.body(out);
  }

  @Test
  void shmAndDiskWriteTheSameRecordsInReferenceOrderAndMetricsGivePeakMemory() throws Exception {
    Path metrics = dir.resolve("shm.json");
    String shm = call("shm", "--metrics", metrics.toString());
    assertEquals(shm, call("disk", "--transport", "disk"), "disk baseline");
    List<String> order = List.of("demo1", "demo2", "demo3", "chrUn_gl000220");
    int lastContig = 0;
    int lastPos = 0;
    List<String> seen = new ArrayList<>();
    for (String line : shm.lines().toList()) {
      String[] f = line.split("\t");
      int c = order.indexOf(f[0]);
      int pos = Integer.parseInt(f[1]);
      assertTrue(c > lastContig || (c == lastContig && pos >= lastPos), "out of reference order: " + line);
      lastContig = c;
      lastPos = pos;
      if (!seen.contains(f[0])) seen.add(f[0]);
    }
    assertEquals(List.of("demo1", "demo3", "chrUn_gl000220"), seen, "demo2 has no reads");
    String json = Files.readString(metrics);
    // Read as the typed metrics file (Jackson), not by pattern: the layout of the JSON is not the contract.
    var peak = dev.fastpipe.streaming.pipeline.MetricsFile.parse(json).peakRssMb();
    assertTrue(peak != null && peak.parent() > 10, json);
    assertEquals(2, peak.shards().size(), json);
    for (double shard : peak.shards()) assertTrue(shard > 10, json);
    assertTrue(json.contains("\"max_pending_sites\""), json);
  }

  @Test
  void excludedContigsAreNamedAndLeftOut() throws Exception {
    Path out = dir.resolve("no-un.vcf.gz");
    LauncherIT.Result r = LauncherIT.run(Map.of(), "call", "--ref", genome.resolve("ref.fa").toString(), "--reads",
        genome.resolve("reads.bam").toString(), "--output", out.toString(), "--shards", "2", "--no-progress",
        "--exclude-contigs", "un");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.err().contains("--exclude-contigs un leaves out 1 of 4 reference contigs"), r.err());
    assertFalse(CallIT.body(out).contains("chrUn_gl000220"));
  }
}
