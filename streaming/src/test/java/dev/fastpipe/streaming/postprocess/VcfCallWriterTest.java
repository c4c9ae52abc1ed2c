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
