package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import htsjdk.samtools.util.BlockCompressedInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/fastpipe call} on sim30x_eval killed for real once its journal holds about half of
 * the regions (SIGKILL of the parent, whose shards then stop; SIGKILL of one shard, which fails the
 * run; SIGTERM), then {@code --resume}d:
 * the VCF and gVCF records equal an uninterrupted run's, the journal is gone, and the metrics say
 * what was resumed. Skips without ../shared/data.
 */
class ResumeIT {
  static final String REGION = "chr20:10101000-11094000";
  @TempDir static Path dir;
  static List<String> vcf;
  static List<String> gvcf;

  static List<String> call(String name, String... extra) {
    List<String> a = new ArrayList<>(ShardFaultsIT.call(dir.resolve(name + ".vcf.gz"), REGION, extra));
    a.remove("--no-journal");
    a.addAll(List.of("--gvcf", dir.resolve(name + ".g.vcf.gz").toString(), "--journal-interval", "0"));
    return a;
  }

  @BeforeAll
  static void callUninterrupted() throws Exception {
    SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Process p = ShardFaultsIT.start(call("whole"), dir.resolve("whole.err"), Map.of());
    assertEquals(0, p.waitFor(), Files.readString(dir.resolve("whole.err")));
    vcf = body(dir.resolve("whole.vcf.gz"));
    gvcf = body(dir.resolve("whole.g.vcf.gz"));
    assertFalse(Files.exists(dir.resolve("whole.vcf.gz.fastpipe-journal")), "a finished run leaves no journal");
  }

  static List<String> body(Path vcf) throws IOException {
    List<String> out = new ArrayList<>();
    try (BlockCompressedInputStream in = new BlockCompressedInputStream(Files.newInputStream(vcf))) {
      for (String l = in.readLine(); l != null; l = in.readLine()) if (!l.startsWith("#")) out.add(l);
    }
    return out;
  }

  /** The share of the bases the journal's last whole checkpoint line says are done (0 without one). */
  static double journaled(Path out) {
    try {
      String text = Files.readString(out.resolveSibling(out.getFileName() + ".fastpipe-journal").resolve("checkpoints"));
      double share = 0;
      for (String line : text.split("\n")) {
        int at = line.indexOf(" bases=");
        if (at < 0 || !line.contains(" crc32c=")) continue;
        String[] f = line.substring(at + 7, line.indexOf(' ', at + 7)).split("/");
        share = Double.parseDouble(f[0]) / Double.parseDouble(f[1]);
      }
      return share;
    } catch (IOException | RuntimeException notYet) {
      return 0;
    }
  }

  void killResumeAndCompare(String name, String signal) throws Exception {
    killResumeAndCompare(name, signal, false);
  }

  /** As above; with {@code oneShard} the signal goes to one shard process instead of the parent. */
  void killResumeAndCompare(String name, String signal, boolean oneShard) throws Exception {
    Path out = dir.resolve(name + ".vcf.gz");
    // A shard that has made all its examples exits while the consumers still work through its ring:
    // the shard is killed at the first checkpoint (and with small rings, which keep it waiting), the
    // parent once 40 % is journaled.
    // For the shard case the consumer is also slowed: batches of one example, each held 50 ms by the
    // test-only inference throttle, so that the shards wait on full rings instead of finishing
    // before the first checkpoint on a quiet machine (batch size and ring size are speed settings:
    // the resumed run uses the defaults).
    List<String> first = oneShard ? call(name, "--ring-size", "2M", "--batch-size", "1") : call(name);
    double at = oneShard ? 1e-9 : 0.4;
    Map<String, String> env = oneShard ? Map.of("FASTPIPE_JAVA_OPTS", "-Dfastpipe.test.inference-sleep-ms=50") : Map.of();
    Process p = ShardFaultsIT.start(first, dir.resolve(name + ".err"), env);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (p.isAlive() && journaled(out) < at && System.nanoTime() < deadline) Thread.sleep(5);
    assertTrue(p.isAlive(), "the run ended before it could be killed: " + Files.readString(dir.resolve(name + ".err")));
    List<ProcessHandle> shards = p.toHandle().descendants().toList();
    long target = p.pid();
    if (oneShard) {
      target = shards.stream().filter(h -> h.info().commandLine().orElse("").contains("shard-worker")).findFirst()
          .orElseThrow(() -> new AssertionError("no shard process")).pid();
    }
    assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(target)).start().waitFor());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    for (ProcessHandle h : shards) h.onExit().get(60, TimeUnit.SECONDS);
    assertFalse(Files.exists(out), "nothing under the final name after SIG" + signal);
    double kept = journaled(out);
    assertTrue(kept >= at && kept < 1, "the journal holds " + kept);

    List<String> resume = call(name, "--resume", "--metrics", dir.resolve(name + ".json").toString());
    Process r = ShardFaultsIT.start(resume, dir.resolve(name + ".resume.err"), Map.of());
    String err = "";
    assertEquals(0, r.waitFor(), err = Files.readString(dir.resolve(name + ".resume.err")));
    err = Files.readString(dir.resolve(name + ".resume.err"));
    assertTrue(err.contains("fastpipe: resuming"), err);
    assertTrue(err.contains("fastpipe call: resumed: "), err);
    assertEquals(vcf, body(out), "VCF records after SIG" + signal + " and --resume");
    assertEquals(gvcf, body(dir.resolve(name + ".g.vcf.gz")), "gVCF records after SIG" + signal + " and --resume");
    assertTrue(Files.exists(dir.resolve(name + ".vcf.gz.tbi")) && Files.exists(dir.resolve(name + ".g.vcf.gz.tbi")));
    assertFalse(Files.exists(out.resolveSibling(out.getFileName() + ".fastpipe-journal")), "journal left");
    String json = Files.readString(dir.resolve(name + ".json"));
    var resumeFigures = dev.fastpipe.streaming.pipeline.MetricsFile.parse(json).resume();
    assertTrue(resumeFigures != null && resumeFigures.resumed(), json);
  }

  @Test
  void aParentKilledWithSigkillIsResumedToTheSameRecords() throws Exception {
    killResumeAndCompare("kill9", "KILL");
  }

  @Test
  void aRunWhoseShardWasKilledIsResumedToTheSameRecords() throws Exception {
    killResumeAndCompare("shard9", "KILL", true);
  }

  @Test
  void aRunStoppedWithSigtermIsResumedToTheSameRecords() throws Exception {
    killResumeAndCompare("term", "TERM");
  }
}
