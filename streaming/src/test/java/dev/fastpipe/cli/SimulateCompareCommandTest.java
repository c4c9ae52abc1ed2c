package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCompareCommandTest {

  @TempDir Path dir;

  record Result(int exit, String out, String err) {}

  static Result fastpipe(String... args) {
    CommandLine cl = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  @Test
  void simulateThenCompareTheTruthWithItself() throws Exception {
    Path out = dir.resolve("sample");
    Result sim = fastpipe("simulate", "--output", out.toString(), "--seed", "5", "--length", "20000", "--coverage", "8");
    assertEquals(0, sim.exit(), sim.err());
    for (String f : new String[] {"ref.fa", "ref.fa.fai", "ref.dict", "reads.bam", "reads.bam.bai", "truth.vcf.gz",
        "truth.vcf.gz.tbi", "confident.bed"}) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    assertTrue(sim.out().contains("20000 bp"), sim.out());
    Result cmp = fastpipe("compare", "--ref", out.resolve("ref.fa").toString(), "--truth", out.resolve("truth.vcf.gz").toString(),
        "--calls", out.resolve("truth.vcf.gz").toString(), "--bed", out.resolve("confident.bed").toString());
    assertEquals(0, cmp.exit(), cmp.err());
    String[] lines = cmp.out().strip().split("\n");
    assertTrue(lines[1].startsWith("SNP") && lines[1].trim().endsWith("1.0000"), cmp.out());
    assertTrue(lines[2].startsWith("INDEL") && lines[2].trim().endsWith("1.0000"), cmp.out());
    // then the GQ and depth tables, whose rows never start with SNP or INDEL (bin/compare-callers reads those)
    assertTrue(lines[3].isEmpty() && lines[4].startsWith("GQ calibration"), cmp.out());
    for (int i = 3; i < lines.length; i++) assertFalse(lines[i].startsWith("SNP") || lines[i].startsWith("INDEL"), lines[i]);
  }

  @Test
  void badOptionsAndFilesAreOneLineErrors() throws Exception {
    Result r = fastpipe("simulate", "--output", dir.resolve("x").toString(), "--length", "100");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--length"), r.err());
    assertFalse(Files.exists(dir.resolve("x")));
    Path notDir = Files.writeString(dir.resolve("file"), "x");
    r = fastpipe("simulate", "--output", notDir.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(notDir.toString()), r.err());
    Path missing = dir.resolve("missing.vcf.gz");
    r = fastpipe("compare", "--ref", missing.toString(), "--truth", missing.toString(), "--calls", missing.toString());
    assertEquals(2, r.exit());
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertTrue(r.err().contains(missing.toString()), r.err());
  }

  @Test
  void severalContigsAndTheirBadCombinationsOfOptions() throws Exception {
    Path out = dir.resolve("genome");
    Result sim = fastpipe("simulate", "--output", out.toString(), "--contigs", "3", "--length", "60000", "--coverage", "4");
    assertEquals(0, sim.exit(), sim.err());
    assertTrue(sim.out().contains("on 2 of 3 contigs"), sim.out());
    assertTrue(sim.err().contains("simulate: chrUn_gl000220: "), sim.err());
    assertEquals(3, Files.readAllLines(out.resolve("ref.fa.fai")).size());
    Result r = fastpipe("simulate", "--output", dir.resolve("y").toString(), "--contigs", "4", "--length", "10000");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--length/--contigs: length 10000 is too short for 4 contigs"), r.err());
    r = fastpipe("simulate", "--output", dir.resolve("y").toString(), "--ref", out.resolve("ref.fa").toString(),
        "--length", "20000");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--ref: the reference sets the contigs and lengths"), r.err());
    r = fastpipe("simulate", "--output", dir.resolve("y").toString(), "--regions", "demo1:1-10000");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--regions and --bed go with --ref"), r.err());
    // on the reference just written: its contigs and lengths, reads only in the region asked for
    Path on = dir.resolve("onref");
    r = fastpipe("simulate", "--output", on.toString(), "--ref", out.resolve("ref.fa").toString(), "--regions",
        "demo1:20001-30000", "--coverage", "4", "--quiet");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("10000 bp on 1 of 3 contigs"), r.out());
    assertEquals("", r.err());
    assertFalse(Files.exists(on.resolve("ref.fa")));
  }
}
