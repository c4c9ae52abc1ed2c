package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VcfCallWriterTest {

  private static List<GenotypeCall> calls() {
    SiteAssembler a = new SiteAssembler(new GenotypeCombiner());
    List<String> two = List.of("G", "T");
    a.add(new CallResult(1, 9, "A", List.of("C"), new int[] {0}, new float[] {0.001f, 0.01f, 0.989f}, 1, 30, new int[] {0, 30}));
    a.add(new CallResult(0, 99, "A", two, new int[] {0, 1}, new float[] {0.001f, 0.04f, 0.959f}, 3, 25, new int[] {1, 12, 12}));
    a.add(new CallResult(0, 99, "A", two, new int[] {0}, new float[] {0.01f, 0.90f, 0.09f}, 3, 25, new int[] {1, 12, 12}));
    a.add(new CallResult(0, 99, "A", two, new int[] {1}, new float[] {0.02f, 0.88f, 0.10f}, 3, 25, new int[] {1, 12, 12}));
    a.add(new CallResult(0, 49, "AC", List.of("A"), new int[] {0}, new float[] {0.999f, 0.001f, 0f}, 1, 28, new int[] {27, 1}));
    return a.finish();
  }

  private static SAMSequenceDictionary dict() {
    return new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chrA", 1000), new SAMSequenceRecord("chrB", 500),
        new SAMSequenceRecord("chrEmpty", 10)));
  }

  /** A gVCF is bgzipped and indexed: any .vcf.gz name is one (OUT.g.vcf.gz by custom), nothing else. */
  @Test
  void aGvcfNameMustEndWithVcfGzAndTheMessageSaysSo() {
    VcfCallWriter.checkGvcfName(Path.of("out/x.g.vcf.gz"));
    VcfCallWriter.checkGvcfName(Path.of("out/x.vcf.gz"));
    for (String bad : List.of("out/g.txt", "out/g.vcf", "-")) {
      assertEquals("--gvcf " + bad + ": must end with .vcf.gz: the gVCF is written bgzipped with a .tbi index"
          + " (name it like OUT.g.vcf.gz)",
          assertThrows(dev.fastpipe.streaming.InputException.class, () -> VcfCallWriter.checkGvcfName(Path.of(bad))).getMessage());
    }
  }

  @Test
  void writesAnIndexedSortedVcfThatHtsjdkReadsBack(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("calls.vcf.gz");
    try (VcfCallWriter w = new VcfCallWriter(out, dict(), "NA12878", 1.0)) {
      for (GenotypeCall c : calls()) w.write(c);
    }
    assertTrue(Files.isRegularFile(Path.of(out + ".tbi")));
    try (Stream files = new Stream(tmp)) {
      assertEquals(List.of("calls.vcf.gz", "calls.vcf.gz.tbi"), files.names());
    }
    try (VCFFileReader r = new VCFFileReader(out, true)) {
      assertEquals(List.of("NA12878"), r.getFileHeader().getGenotypeSamples());
      assertEquals(3, r.getFileHeader().getSequenceDictionary().size());
      List<VariantContext> vcs = r.iterator().toList();
      assertEquals(3, vcs.size());
      assertEquals(50, vcs.get(0).getStart());
      assertTrue(vcs.get(0).getFilters().contains("RefCall"));
      assertEquals(100, vcs.get(1).getStart());
      assertEquals("G/T", vcs.get(1).getGenotype(0).getGenotypeString(false).replace('|', '/'));
      assertEquals(6, vcs.get(1).getGenotype(0).getPL().length);
      assertFalse(vcs.get(1).isFiltered());
      assertEquals("chrB", vcs.get(2).getContig());
      assertEquals(30, vcs.get(2).getGenotype(0).getDP());
      assertEquals(30.0, vcs.get(2).getPhredScaledQual(), 0.01);
      // the index answers a region query
      assertEquals(1, r.query("chrB", 1, 100).toList().size());
    }
    if (new File("/usr/bin/bcftools").canExecute() || onPath("bcftools")) {
      Process p = new ProcessBuilder("bcftools", "view", "-H", out.toString()).redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes());
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), text);
      assertEquals(3, text.lines().count(), text);
    }
  }

  @Test
  void theTabixIndexCountsTheRecordsOfEveryContig(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("calls.vcf.gz");
    try (VcfCallWriter w = new VcfCallWriter(out, dict(), "S", 1.0)) {
      for (GenotypeCall c : calls()) w.write(c);
    }
    Path tbi = Path.of(out + ".tbi");
    java.util.Map<String, long[]> counts = TabixRecordCounts.read(tbi);
    assertEquals(List.of("chrA", "chrB"), List.copyOf(counts.keySet()), "contigs with records only");
    assertEquals(2, counts.get("chrA")[0]);
    assertEquals(0, counts.get("chrA")[1]);
    assertEquals(1, counts.get("chrB")[0]);
    assertTrue(counts.get("chrA")[2] < counts.get("chrA")[3], "first record before the end of the last");
    assertTrue(counts.get("chrA")[3] <= counts.get("chrB")[2], "chrB's records after chrA's");
    byte[] before = Files.readAllBytes(tbi);
    TabixRecordCounts.add(tbi, java.util.Map.of("chrA", new TabixRecordCounts.Span(0, 1, 99)));
    assertEquals(2, TabixRecordCounts.read(tbi).get("chrA")[0], "an index with the pseudo-bin keeps it");
    assertEquals(before.length, Files.readAllBytes(tbi).length);
    try (VCFFileReader r = new VCFFileReader(out, true)) { // htsjdk still reads the index
      assertEquals(2, r.query("chrA", 1, 1000).toList().size());
      assertEquals(1, r.query("chrB", 1, 500).toList().size());
    }
  }

  @Test
  void bcftoolsIndexCountsTheRecordsFromTheIndex(@TempDir Path tmp) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(onPath("bcftools"), "bcftools not installed; skipping");
    for (boolean gvcf : new boolean[] {false, true}) {
      Path out = tmp.resolve(gvcf ? "calls.g.vcf.gz" : "calls.vcf.gz");
      try (VcfCallWriter w = new VcfCallWriter(out, dict(), "S", 1.0, gvcf)) {
        if (gvcf) w.write(new RefBlock(0, 0, 9, (byte) 'A', 30, 12, new int[] {0, 30, 300}, 6, true));
        for (GenotypeCall c : calls()) w.write(c);
      }
      assertEquals(gvcf ? "4" : "3", bcftools("index", "-n", out.toString()).strip());
      assertEquals(List.of("chrA\t1000\t" + (gvcf ? 3 : 2), "chrB\t500\t1"),
          bcftools("index", "-s", out.toString()).lines().toList());
    }
  }

  private static String bcftools(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("bcftools"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + text);
    return text;
  }

  @Test
  void aFailedWriteLeavesNothingUnderTheFinalName(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("x.vcf.gz");
    VcfCallWriter w = new VcfCallWriter(out, dict(), "S", 1.0);
    List<GenotypeCall> cs = calls();
    w.write(cs.get(2));
    assertThrows(IllegalStateException.class, () -> w.write(cs.get(0))); // out of order
    w.abort();
    try (Stream files = new Stream(tmp)) {
      assertEquals(List.of(), files.names());
    }
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) return false;
    for (String d : path.split(":")) if (Files.isExecutable(Path.of(d, tool))) return true;
    return false;
  }

  /** Lists file names in a directory, sorted. */
  private record Stream(Path dir) implements AutoCloseable {
    List<String> names() throws java.io.IOException {
      try (var s = Files.list(dir)) {
        return s.map(p -> p.getFileName().toString()).sorted().toList();
      }
    }

    @Override
    public void close() {}
  }
}
