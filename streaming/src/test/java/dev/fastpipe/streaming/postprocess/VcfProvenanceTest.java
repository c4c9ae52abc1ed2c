package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.FastpipeVersion;
import dev.fastpipe.testing.VcfText;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.variant.vcf.VCFFileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VcfProvenanceTest {

  private static Path model(Path dir) throws Exception {
    Path m = Files.createDirectories(dir.resolve("my-model"));
    Files.writeString(m.resolve("saved_model.pb"), "graph");
    Files.createDirectories(m.resolve("variables"));
    Files.writeString(m.resolve("variables/variables.index"), "index");
    Files.writeString(m.resolve("calibration.json"), "{}");
    return m;
  }

  @Test
  void theVcfAndTheGvcfHeaderNameTheDateVersionModelCommandAndReference(@TempDir Path tmp) throws Exception {
    Path m = model(tmp);
    Path ref = Files.writeString(tmp.resolve("ref.fa"), ">chrA\nACGT\n");
    VcfProvenance p = new VcfProvenance("9.9.9", LocalDate.of(2026, 3, 4),
        new VcfProvenance.Model("my-model", VcfProvenance.modelSha256(m)), "fastpipe call --ref 'a b.fa'", ref);
    SAMSequenceDictionary dict = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chrA", 4)));
    for (boolean gvcf : new boolean[] {false, true}) {
      Path out = tmp.resolve(gvcf ? "x.g.vcf.gz" : "x.vcf.gz");
      new VcfCallWriter(out, dict, "S", 1.0, gvcf, p).close();
      List<String> lines = VcfText.lines(out);
      assertTrue(lines.contains("##fileDate=20260304"), lines.toString());
      assertTrue(lines.contains("##source=fastpipe-9.9.9"), lines.toString());
      assertTrue(lines.contains("##fastpipe_model=<ID=my-model,SHA256=" + p.model().sha256() + ">"), lines.toString());
      assertTrue(lines.contains("##fastpipe_command=fastpipe call --ref 'a b.fa'"), lines.toString());
      assertTrue(lines.contains("##reference=file://" + ref.toAbsolutePath()), lines.toString());
      assertEquals(5, lines.stream().filter(VcfProvenance::isProvenanceLine).count(), lines.toString());
      try (VCFFileReader r = new VCFFileReader(out, true)) { // htsjdk reads the header back
        assertEquals("fastpipe-9.9.9", r.getFileHeader().getOtherHeaderLine("source").getValue());
      }
    }
  }

  @Test
  void aWriterWithoutProvenanceStillNamesTheDateAndThisVersion(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("x.vcf.gz");
    new VcfCallWriter(out, new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chrA", 4))), "S", 1.0).close();
    List<String> provenance = VcfText.lines(out).stream().filter(VcfProvenance::isProvenanceLine).toList();
    assertEquals(2, provenance.size(), provenance.toString());
    assertTrue(provenance.get(0).startsWith("##fileDate=20"), provenance.toString());
    assertEquals("##source=fastpipe-" + FastpipeVersion.get(), provenance.get(1));
    assertFalse(FastpipeVersion.get().equals("unknown"), "the version resource is filtered by the build");
  }

  @Test
  void onlyTheProvenanceLinesAreProvenance() {
    assertTrue(VcfProvenance.isProvenanceLine("##fastpipe_command=fastpipe call"));
    assertTrue(VcfProvenance.isProvenanceLine("##reference=file:///r.fa"));
    assertFalse(VcfProvenance.isProvenanceLine("##contig=<ID=chr1,length=5>"));
    assertFalse(VcfProvenance.isProvenanceLine("##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">"));
    assertFalse(VcfProvenance.isProvenanceLine("chr1\t5\t.\tA\tC"));
    assertFalse(VcfProvenance.isProvenanceLine("##sourceX=1"));
  }

  @Test
  void theModelChecksumIsWhatSha256sumOfItsFileListGives(@TempDir Path tmp) throws Exception {
    Path m = model(tmp);
    String sha = VcfProvenance.modelSha256(m);
    assertEquals(64, sha.length());
    Files.writeString(m.resolve("calibration.json"), "{\"changed\": 1}");
    String changed = VcfProvenance.modelSha256(m);
    assertFalse(sha.equals(changed), "a changed file changes the checksum");
    // Documentation and the recipe that rebuilds the model do not make calls: editing them keeps it.
    Files.writeString(m.resolve("MODEL.md"), "# notes\n");
    Files.createDirectories(m.resolve("recipe"));
    Files.writeString(m.resolve("recipe").resolve("train.sh"), "echo train\n");
    assertEquals(changed, VcfProvenance.modelSha256(m), "MODEL.md and recipe/ are not part of the checksum");
    Process check;
    try {
      check = new ProcessBuilder("bash", "-c", "cd \"$1\" && (find . -type f ! -name '*.md' ! -path './recipe/*' | LC_ALL=C sort | xargs sha256sum) | sha256sum",
          "-", m.toString()).redirectErrorStream(true).start();
    } catch (java.io.IOException noBash) {
      assumeTrue(false, "no bash: " + noBash.getMessage());
      return;
    }
    String out = new String(check.getInputStream().readAllBytes()).strip();
    assertTrue(check.waitFor(30, TimeUnit.SECONDS));
    assumeTrue(check.exitValue() == 0, "sha256sum not available: " + out);
    assertEquals(VcfProvenance.modelSha256(m), out.split("\\s+")[0], "the recipe documented in docs/call.md");
  }
}
