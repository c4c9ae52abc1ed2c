package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.cli.SimulateCompareCommandTest.Result;
import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.streaming.evaluate.CalibrationPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare's GQ calibration and depth tables, --json and --manifest, on the hand-made pair of CalibrationTest. */
class CompareCommandTest {

  @TempDir Path dir;

  static Result fastpipe(String... args) {
    return SimulateCompareCommandTest.fastpipe(args);
  }

  static String line(String out, String regex) {
    return out.lines().filter(l -> l.matches(regex)).findFirst().orElse(null);
  }

  @Test
  void onePairPrintsTheCountsThenTheTablesAndWritesThemAsJson() throws Exception {
    CalibrationPair.Files4 f = CalibrationPair.gqBins().write(dir.resolve("p"));
    Path json = dir.resolve("c.json");
    Result r = fastpipe("compare", "--ref", f.ref().toString(), "--truth", f.truth().toString(), "--calls", f.calls().toString(),
        "--bed", f.bed().toString(), "--json", json.toString());
    assertEquals(0, r.exit(), r.err());
    String[] lines = r.out().split("\n");
    assertTrue(lines[1].matches("SNP\\s+26\\s+20\\s+5\\s+6\\s.*"), r.out());
    assertTrue(lines[2].matches("INDEL\\s+7\\s+4\\s+3\\s+3\\s.*"), r.out());
    assertTrue(line(r.out(), "10-19\\s+SNP\\s+10\\s+1\\s+0\\.10000\\s+\\S+\\s+0\\.10000\\s+yes\\s+\\|\\s+20\\s+2\\s+0\\.10000\\s+0\\.6923") != null,
        r.out());
    assertTrue(line(r.out(), "40-49\\s+INDEL\\s+1\\s+1\\s+1\\.00000\\s+1\\.00000\\s+0\\.00010\\s+no\\s.*") != null, r.out());
    assertTrue(line(r.out(), "unknown\\s+SNP\\s+26\\s+20\\s+6\\s+5\\s+0\\.7692\\s+0\\.8000") != null, r.out());
    Object root = Json.parse(Files.readString(json));
    assertEquals(1, Json.list(root, "pairs").size());
    assertEquals(20.0, Json.number(root, "SNP", "tp"));
    assertEquals(3.0, Json.number(root, "INDEL", "fp"));
    assertEquals(Boolean.FALSE, Json.at(root, "alleles_only"));
    Object bin = Json.list(root, "gq_calibration").get(1);
    assertEquals("10-19", Json.at(bin, "gq"));
    assertEquals(10.0, Json.number(bin, "calls"));
    assertEquals(Boolean.TRUE, Json.at(bin, "within_promise"));
  }

  @Test
  void aManifestPoolsItsPairs() throws Exception {
    CalibrationPair.Files4 a = CalibrationPair.gqBins().write(dir.resolve("a"));
    CalibrationPair.gqBins().write(dir.resolve("b"));
    Path manifest = dir.resolve("pairs.tsv");
    Files.writeString(manifest, "# name ref truth calls bed reads\n"
        + "first\t" + a.ref() + "\t" + a.truth() + "\t" + a.calls() + "\t" + a.bed() + "\t-\n"
        + "\n"
        + "second\tb/chrC.fa\tb/truth.vcf\tb/calls.vcf\tb/confident.bed\n"); // relative to the manifest
    Path json = dir.resolve("pooled.json");
    Result r = fastpipe("compare", "--manifest", manifest.toString(), "--json", json.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(line(r.out(), "first\\s+SNP\\s+26\\s+20\\s+5\\s+6\\s.*") != null, r.out());
    assertTrue(line(r.out(), "second\\s+INDEL\\s+7\\s+4\\s+3\\s+3\\s.*") != null, r.out());
    assertTrue(r.out().contains("pooled over 2 pairs:"), r.out());
    assertTrue(line(r.out(), "SNP\\s+52\\s+40\\s+10\\s+12\\s.*") != null, r.out());
    assertTrue(line(r.out(), "30-39\\s+SNP\\s+4\\s+2\\s+0\\.50000\\s.*") != null, r.out());
    assertTrue(line(r.out(), "0-9\\s+INDEL\\s+4\\s+4\\s+1\\.00000\\s.*") != null, r.out());
    Object root = Json.parse(Files.readString(json));
    List<Object> pairs = Json.list(root, "pairs");
    assertEquals(2, pairs.size());
    assertEquals("second", Json.at(pairs.get(1), "name"));
    assertEquals(dir.resolve("b/calls.vcf").toString(), Json.at(pairs.get(1), "calls"));
    assertEquals(null, Json.at(pairs.get(1), "reads"));
    assertEquals(20.0, Json.number(pairs.get(1), "SNP", "tp"));
    assertEquals(40.0, Json.number(root, "SNP", "tp"));
    assertEquals(20.0, Json.number(Json.list(root, "gq_calibration").get(1), "calls"));
  }

  @Test
  void badOptionsAndManifestsAreOneLineErrors() throws Exception {
    CalibrationPair.Files4 f = CalibrationPair.gqBins().write(dir.resolve("p"));
    Path manifest = dir.resolve("m.tsv");
    Files.writeString(manifest, "x\t" + f.ref() + "\t" + f.truth() + "\t" + f.calls() + "\n");
    Result r = fastpipe("compare", "--manifest", manifest.toString(), "--truth", f.truth().toString());
    assertEquals(2, r.exit());
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertTrue(r.err().contains("--manifest"), r.err());
    r = fastpipe("compare", "--ref", f.ref().toString(), "--calls", f.calls().toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--truth"), r.err());
    Files.writeString(manifest, "x\t" + f.ref() + "\t" + f.truth() + "\n");
    r = fastpipe("compare", "--manifest", manifest.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(manifest + ": line 1: 3 tab-separated fields"), r.err());
    Files.writeString(manifest, "x\t-\t" + f.truth() + "\t" + f.calls() + "\n");
    r = fastpipe("compare", "--manifest", manifest.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("line 1: field 2 is required"), r.err());
    r = fastpipe("compare", "--manifest", dir.resolve("none.tsv").toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("none.tsv"), r.err());
  }
}
