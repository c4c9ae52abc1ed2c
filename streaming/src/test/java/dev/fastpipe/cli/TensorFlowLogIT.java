package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TensorFlow's native start-up lines (Abseil's "All log messages before absl::InitializeLog()" and
 * the MLIR pass's "MLIR V1 optimization pass is not enabled") stay off a real call's stderr, shard
 * workers included, unless TF_CPP_MIN_LOG_LEVEL=0 asks for them.
 */
class TensorFlowLogIT {
  @TempDir Path dir;

  /** A line in either of TensorFlow's native formats: Abseil's ("I0000 00:00:...") or tsl's ("2026-... I tensorflow/..."). */
  static final Pattern TENSORFLOW_LINE =
      Pattern.compile("absl::InitializeLog|mlir_graph_optimization_pass|^[IWEF]\\d{4} \\d\\d:\\d\\d:\\d\\d|^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d+: [IWEF] ");

  LauncherIT.Result call(Map<String, String> env, String name) throws Exception {
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path out = dir.resolve(name + ".vcf.gz");
    LauncherIT.Result r = LauncherIT.run(env, "call", "--ref", ref.toString(), "--reads", bam.toString(), "--output",
        out.toString(), "--shards", "2", "--no-progress", "--regions", "chr20:10100001-10200000");
    assertEquals(0, r.exit(), r.err());
    assertTrue(Files.exists(out));
    return r;
  }

  static List<String> tensorFlowLines(String stderr) {
    return stderr.lines().filter(l -> TENSORFLOW_LINE.matcher(l).find()).toList();
  }

  @Test
  void aCallPrintsNoTensorFlowLineByDefault() throws Exception {
    LauncherIT.Result r = call(Map.of(), "quiet");
    assertEquals(List.of(), tensorFlowLines(r.err()), r.err());
  }

  @Test
  void tfCppMinLogLevelZeroBringsThemBack() throws Exception {
    LauncherIT.Result r = call(Map.of("TF_CPP_MIN_LOG_LEVEL", "0"), "verbose");
    assertTrue(r.err().contains("MLIR V1 optimization pass is not enabled"), r.err());
    assertTrue(r.err().contains("All log messages before absl::InitializeLog() is called are written to STDERR"), r.err());
  }
}
