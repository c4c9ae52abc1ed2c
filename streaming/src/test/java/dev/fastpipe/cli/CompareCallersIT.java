package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/compare-callers: fastpipe beside the peers on one sample, scored by the same evaluator. */
class CompareCallersIT {

  static final Path SCRIPT = LauncherIT.LAUNCHER.resolveSibling("compare-callers");

  static LauncherIT.Result run(String... args) throws Exception {
    return LauncherIT.runScript(SCRIPT, Map.of(), args);
  }

  static boolean onPath(String tool) throws Exception {
    return new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() == 0;
  }

  @Test
  void scoresFastpipeAndThePeersOnRealReads(@TempDir Path tmp) throws Exception {
    Path bam = SharedData.require("na12878_tiny/NA12878.chr22.tiny.bam");
    Path dir = bam.getParent();
    List<String> skip = new ArrayList<>();
    if (!onPath("bcftools")) skip.add("bcftools");
    if (!onPath("freebayes")) skip.add("freebayes");
    List<String> args = new ArrayList<>(List.of("--ref", dir.resolve("q.fa").toString(), "--reads", bam.toString(),
        "--truth", dir.resolve("NA12878.chr22.tiny.giab.vcf.gz").toString(), "--bed", dir.resolve("q.bed").toString(),
        "--out", tmp.toString()));
    if (!skip.isEmpty()) args.addAll(List.of("--skip", String.join(",", skip)));
    LauncherIT.Result r = run(args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.out() + r.err());
    // The shipped model calls all 14 truth SNPs of the real reads and no false SNP.
    assertTrue(r.out().lines().anyMatch(l -> l.matches("fastpipe\\s+[0-9.]+\\s+1\\.0000\\s+\\S+\\s+14/0/0\\s+.*")), r.out());
    for (String peer : List.of("bcftools", "freebayes_q20")) {
      boolean expected = !skip.contains(peer.replace("_q20", ""));
      assertEquals(expected, r.out().lines().anyMatch(l -> l.startsWith(peer + " ")), r.out());
    }
    assertTrue(tmp.resolve("fastpipe.vcf.gz").toFile().isFile());
  }

  @Test
  void missingArgumentsAreOneLineErrors(@TempDir Path tmp) throws Exception {
    LauncherIT.Result r = run("--ref", "/nonexistent/ref.fa");
    assertEquals(2, r.exit());
    assertEquals("compare-callers: --ref, --reads, --truth and --bed are required (see --help)", r.err().strip());
    Path bed = Files.writeString(tmp.resolve("x.bed"), "q\t0\t10\n");
    r = run("--ref", "/nonexistent/ref.fa", "--reads", bed.toString(), "--truth", bed.toString(), "--bed", bed.toString());
    assertEquals(2, r.exit());
    assertEquals("compare-callers: /nonexistent/ref.fa: cannot read", r.err().strip());
  }
}
