package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.cli.SimulateCompareCommandTest.Result;
import dev.fastpipe.streaming.evaluate.CalibrationPair;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** calibrate on a hand-made validation pair: what it writes into the model directory, and its errors. */
class CalibrateCommandTest {
  @TempDir Path dir;

  /** 40 SNP calls at GQ 25 of which 10 are false, 60 right SNP calls at GQ 60, and 10 right indels at GQ 30. */
  private static CalibrationPair overConfidentAt25() {
    CalibrationPair p = new CalibrationPair(5);
    int pos = 100;
    for (int i = 0; i < 40; i++, pos += 20) {
      if (i < 10) {
        p.call(pos, p.base(pos), p.other(pos, 0), "0/1", "25"); // not in the truth
      } else {
        p.truth(pos, p.base(pos), p.other(pos, 0), "0/1").call(pos, p.base(pos), p.other(pos, 0), "0/1", "25");
      }
    }
    for (int i = 0; i < 60; i++, pos += 20) {
      p.truth(pos, p.base(pos), p.other(pos, 1), "1/1").call(pos, p.base(pos), p.other(pos, 1), "1/1", "60");
    }
    for (int i = 0; i < 10; i++, pos += 20) {
      String b = p.base(pos);
      p.truth(pos, b, b + "TT", "0/1").call(pos, b, b + "TT", "0/1", "30");
    }
    return p;
  }

  @Test
  void writesTheFittedCalibrationIntoTheModelDirectory() throws Exception {
    CalibrationPair.Files4 f = overConfidentAt25().write(dir.resolve("v"));
    Path model = Files.createDirectories(dir.resolve("model"));
    Path manifest = Files.writeString(dir.resolve("pairs.tsv"),
        "val\t" + f.ref() + "\t" + f.truth() + "\t" + f.calls() + "\t" + f.bed() + "\n");
    Result r = SimulateCompareCommandTest.fastpipe("calibrate", "--model", model.toString(), "--manifest", manifest.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("calibrate: 110 calls of 1 pairs"), r.out());
    GqCalibration c = GqCalibration.forModel(model);
    assertFalse(c.isIdentity());
    // GQ 25 promised 0.3 % errors and delivered 25 % (10 of 40): the upper bound of 10 of 40 is 38 % -> GQ 4.
    assertEquals((int) Math.floor(-10 * Math.log10(GqCalibration.upperBound95(10, 40))), c.gq(true, 25));
    assertEquals(4, c.gq(true, 25));
    assertEquals(0, c.gq(true, 6), "no call at or below GQ 6 vouches for it");
    // 60 SNPs at GQ 60, none wrong, vouch for 1 - 0.05^(1/60) = 4.9 % (GQ 13), not 1e-6.
    assertEquals(13, c.gq(true, 60));
    assertEquals(13, c.gq(true, 99));
    // 10 indels at GQ 30, none wrong: 1 - 0.05^(1/10) = 26 % (GQ 5).
    assertEquals(5, c.gq(false, 30));
    // Dropping the GQ-25 SNPs (30 right, 10 wrong) loses F1 (truth 90: 2*90/190 = 0.947 vs 2*60/150 = 0.8): all PASS.
    assertEquals(0, c.minPassGq(true));
    // The table beside it: from GQ 10 only the 60 GQ-60 SNPs stay, F1 2*60 / (60 + 90) = 0.8.
    assertTrue(r.out().matches("(?s).*calibrate: snp   PASS from GQ 10:\\s+60 calls,\\s+0 errors, F1 0.8\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*calibrate: snp   PASS from GQ  0:\\s+100 calls,\\s+10 errors, F1 0.947368\n.*"), r.out());
  }

  @Test
  void callsWithoutGqAndAMissingModelDirectoryAreOneLineErrors() throws Exception {
    CalibrationPair p = new CalibrationPair(6);
    p.truth(200, p.base(200), p.other(200, 0), "0/1").call(200, p.base(200), p.other(200, 0), "0/1", ".");
    CalibrationPair.Files4 f = p.write(dir.resolve("nogq"));
    Path manifest = Files.writeString(dir.resolve("pairs.tsv"),
        "val\t" + f.ref() + "\t" + f.truth() + "\t" + f.calls() + "\t" + f.bed() + "\n");
    Path model = Files.createDirectories(dir.resolve("model"));
    Result r = SimulateCompareCommandTest.fastpipe("calibrate", "--model", model.toString(), "--manifest", manifest.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(f.calls() + ": a PASS call without GQ"), r.err());
    assertFalse(Files.exists(model.resolve(GqCalibration.FILE_NAME)), "nothing written on error");
    r = SimulateCompareCommandTest.fastpipe("calibrate", "--model", dir.resolve("absent").toString(), "--manifest", manifest.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("absent: model directory not found"), r.err());
  }

  @Test
  void theCalibrationNeverOverwritesAFileItIsFittedOn() throws Exception {
    CalibrationPair.Files4 f = overConfidentAt25().write(dir.resolve("v"));
    Path model = Files.createDirectories(dir.resolve("model"));
    String line = "val\t" + f.ref() + "\t" + f.truth() + "\t" + f.calls() + "\t" + f.bed() + "\n";
    Path manifest = Files.writeString(model.resolve(GqCalibration.FILE_NAME), line); // the manifest where the output goes
    Result r = SimulateCompareCommandTest.fastpipe("calibrate", "--model", model.toString(), "--manifest", manifest.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("is the same file as --manifest"), r.err());
    assertEquals(line, Files.readString(manifest), "the manifest is untouched");
  }
}
