package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.reference.FastaSequenceIndexCreator;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.samtools.util.GZIIndex;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate --ref} on the whole GRCh37 chromosome 20 that the Debian package vt-examples
 * ships (bgzipped; its .gzi gzipped as documentation): the message says what to do about the
 * index, and once indexed, reads and truth land on the real sequence, off its N gaps. Skipped
 * when the package is not installed.
 */
class SimulateOnRealReferenceIT {
  static final Path CHR20 = Path.of("/usr/share/doc/vt/examples/ref/20.fa.gz");

  @TempDir Path dir;

  @Test
  void readsAndTruthOnGrch37Chr20AvoidTheCentromereGap() throws Exception {
    assumeTrue(Files.isReadable(CHR20), "apt-get install vt-examples for GRCh37 chr20");
    if (!Files.exists(Path.of(CHR20 + ".gzi"))) {
      LauncherIT.Result r = LauncherIT.run(Map.of(), "simulate", "--ref", CHR20.toString(), "--output",
          dir.resolve("x").toString());
      assertEquals(2, r.exit(), r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(r.err().contains("samtools faidx " + CHR20), r.err());
    }
    Path ref = dir.resolve("20.fa.gz");
    Files.copy(CHR20, ref);
    FastaSequenceIndexCreator.create(ref, true);
    GZIIndex.createIndex(ref, true);
    // 29.2-29.6 Mb: the end of the centromere gap (N to 29,419,000), then sequence
    LauncherIT.Result r = LauncherIT.run(Map.of(), "simulate", "--ref", ref.toString(), "--regions",
        "20:29,200,001-29,600,000", "--coverage", "8", "--seed", "3", "--output", dir.resolve("sim").toString());
    assertEquals(0, r.exit(), r.err());
    assertFalse(Files.exists(dir.resolve("sim/ref.fa")));
    List<String> bed = Files.readAllLines(dir.resolve("sim/confident.bed"));
    assertEquals("20", bed.get(0).split("\t")[0]);
    assertTrue(Integer.parseInt(bed.get(0).split("\t")[1]) >= 29_420_000, bed.toString());
    int reads = 0;
    try (SamReader sr = SamReaderFactory.makeDefault().referenceSequence(ref).open(dir.resolve("sim/reads.bam"))) {
      for (SAMRecord rec : sr) {
        reads++;
        assertTrue(rec.getAlignmentStart() > 29_419_000 && rec.getAlignmentEnd() <= 29_600_000, rec.getSAMString());
        assertFalse(rec.getReadString().contains("N"));
      }
    }
    assertTrue(reads > 8_000, "reads " + reads); // 8x over ~181 kb of sequence
    int variants = 0;
    try (VCFFileReader vcf = new VCFFileReader(dir.resolve("sim/truth.vcf.gz"), true);
        ReferenceSequenceFile fa = ReferenceSequenceFileFactory.getReferenceSequenceFile(ref)) {
      for (VariantContext vc : vcf) {
        variants++;
        String bases = new String(fa.getSubsequenceAt("20", vc.getStart(), vc.getEnd()).getBases(), StandardCharsets.US_ASCII);
        assertEquals(bases.toUpperCase(), vc.getReference().getBaseString(), vc.toString());
      }
    }
    assertTrue(variants > 100, "variants " + variants);
  }
}
