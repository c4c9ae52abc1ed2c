package dev.fastpipe.streaming.simulate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordCoordinateComparator;
import htsjdk.samtools.SamFileValidator;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.ValidationStringency;
import htsjdk.samtools.reference.FastaSequenceIndexCreator;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.samtools.util.BlockCompressedOutputStream;
import htsjdk.samtools.util.GZIIndex;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulationTest {
  static final long SEED = 11;
  static final int TOTAL = 120_000;

  @TempDir static Path tmp;
  static Simulation.Result genome;

  @BeforeAll
  static void writeOnce() throws IOException {
    // windows of 5 kb: every contig is drawn in several windows, so reads and mates cross seams
    genome = Simulation.synthetic(SEED, 4, TOTAL, 20).withWindowBases(5_000).writeTo(tmp.resolve("g"));
  }

  @Test
  void layoutHasContigsOfDifferentLengthsOneWithoutReadsAndAnUnplacedOne() {
    List<Simulation.Contig> l = Simulation.layout(4, TOTAL);
    assertEquals(List.of("demo1", "demo2", "demo3", Simulation.UNPLACED), l.stream().map(Simulation.Contig::name).toList());
    assertEquals(TOTAL, l.stream().mapToLong(Simulation.Contig::length).sum());
    assertEquals(4, l.stream().map(Simulation.Contig::length).distinct().count(), l.toString());
    assertFalse(l.get(1).withReads());
    assertTrue(l.get(0).withReads() && l.get(2).withReads() && l.get(3).withReads());
    assertEquals(List.of(SyntheticSample.CONTIG), Simulation.layout(1, 9_000).stream().map(Simulation.Contig::name).toList());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Simulation.layout(4, 20_000));
    assertTrue(e.getMessage().contains("at least 5000"), e.getMessage());
  }

  @Test
  void referenceIndexAndDictionaryDescribeEveryContig() throws IOException {
    Path dir = genome.files().dir();
    try (ReferenceSequenceFile fa = ReferenceSequenceFileFactory.getReferenceSequenceFile(dir.resolve("ref.fa"))) {
      var dict = fa.getSequenceDictionary();
      List<Simulation.Contig> l = Simulation.layout(4, TOTAL);
      assertEquals(4, dict.size());
      for (int i = 0; i < 4; i++) {
        assertEquals(l.get(i).name(), dict.getSequence(i).getSequenceName());
        byte[] bases = fa.getSequence(l.get(i).name()).getBases();
        assertEquals(l.get(i).length(), bases.length);
        assertEquals(Simulation.md5(bases), dict.getSequence(i).getMd5());
        // contig 0 is the single-contig sample of the same seed: its bases are unchanged
        if (i == 0) assertArrayEquals(SimulatedContig.syntheticBases(SEED, 0, bases.length), bases);
      }
    }
  }

  @Test
  void readsValidateSortedIndexedAndOnlyOnContigsWithReads() throws IOException {
    Path dir = genome.files().dir();
    SamReaderFactory f = SamReaderFactory.makeDefault().referenceSequence(dir.resolve("ref.fa"))
        .validationStringency(ValidationStringency.STRICT);
    StringWriter report = new StringWriter();
    try (SamReader r = f.open(genome.files().reads());
        ReferenceSequenceFile fa = ReferenceSequenceFileFactory.getReferenceSequenceFile(dir.resolve("ref.fa"))) {
      SamFileValidator v = new SamFileValidator(new PrintWriter(report), 100);
      v.setValidateIndex(true);
      assertTrue(v.validateSamFileVerbose(r, fa), report.toString());
    }
    assertEquals("No errors found", report.toString().trim());
    Map<String, Integer> perContig = new HashMap<>();
    List<SAMRecord> all = new ArrayList<>();
    try (SamReader r = f.open(genome.files().reads())) {
      for (SAMRecord rec : r) {
        all.add(rec);
        perContig.merge(rec.getContig(), 1, Integer::sum);
      }
    }
    assertEquals(Set.of("demo1", "demo3", Simulation.UNPLACED), perContig.keySet());
    assertEquals(genome.records(), all.size());
    var cmp = new SAMRecordCoordinateComparator();
    for (int i = 1; i < all.size(); i++) assertTrue(cmp.compare(all.get(i - 1), all.get(i)) <= 0, "sorted at " + i);
    // 20x over each contig with reads, in proportion to its length
    for (Simulation.Contig c : Simulation.layout(4, TOTAL)) {
      if (!c.withReads()) continue;
      double depth = perContig.get(c.name()) * 150.0 / c.length();
      assertTrue(depth > 19 && depth < 22, c.name() + " depth " + depth);
    }
  }

  @Test
  void everyMateFieldDescribesTheMateEvenAcrossWindowSeams() throws IOException {
    Map<String, List<SAMRecord>> byName = new HashMap<>();
    try (SamReader r = SamReaderFactory.makeDefault().open(genome.files().reads())) {
      for (SAMRecord rec : r) byName.computeIfAbsent(rec.getReadName(), k -> new ArrayList<>()).add(rec);
    }
    int crossing = 0;
    for (List<SAMRecord> pair : byName.values()) {
      assertEquals(2, pair.size(), pair.get(0).getReadName());
      for (int i = 0; i < 2; i++) {
        SAMRecord a = pair.get(i);
        SAMRecord b = pair.get(1 - i);
        assertEquals(b.getReferenceIndex(), a.getMateReferenceIndex());
        assertEquals(b.getAlignmentStart(), a.getMateAlignmentStart(), a.getReadName());
        assertEquals(b.getReadNegativeStrandFlag(), a.getMateNegativeStrandFlag());
        assertEquals(b.getCigarString(), a.getAttribute("MC"));
        assertEquals(-b.getInferredInsertSize(), a.getInferredInsertSize());
        assertTrue(a.getFirstOfPairFlag() != b.getFirstOfPairFlag());
      }
      int w0 = (pair.get(0).getAlignmentStart() - 1) / 5_000;
      int w1 = (pair.get(1).getAlignmentStart() - 1) / 5_000;
      if (w0 != w1) crossing++;
    }
    assertTrue(crossing > 50, "pairs whose mates start in different windows: " + crossing);
  }

  @Test
  void truthLiesInTheConfidentIntervalsOfContigsWithReadsAndMatchesTheReference() throws IOException {
    Path dir = genome.files().dir();
    Map<String, List<int[]>> bed = new HashMap<>();
    for (String line : Files.readAllLines(genome.files().confidentBed())) {
      String[] f = line.split("\t");
      bed.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2])});
    }
    assertEquals(Set.of("demo1", "demo3", Simulation.UNPLACED), bed.keySet());
    Set<String> seen = new HashSet<>();
    int n = 0;
    try (VCFFileReader vcf = new VCFFileReader(genome.files().truth(), true);
        ReferenceSequenceFile fa = ReferenceSequenceFileFactory.getReferenceSequenceFile(dir.resolve("ref.fa"))) {
      VariantContext prev = null;
      for (VariantContext vc : vcf) {
        n++;
        seen.add(vc.getContig());
        int start = vc.getStart() - 1;
        assertTrue(bed.get(vc.getContig()).stream().anyMatch(iv -> start >= iv[0] && vc.getEnd() <= iv[1]), vc.toString());
        String ref = new String(fa.getSubsequenceAt(vc.getContig(), vc.getStart(), vc.getEnd()).getBases(), StandardCharsets.US_ASCII);
        assertEquals(ref, vc.getReference().getBaseString());
        if (prev != null && prev.getContig().equals(vc.getContig())) assertTrue(prev.getStart() < vc.getStart());
        prev = vc;
      }
      // the tabix index answers for the unplaced contig
      assertTrue(vcf.query(Simulation.UNPLACED, 1, Integer.MAX_VALUE).hasNext());
    }
    assertEquals(seen, bed.keySet());
    assertEquals(genome.snps() + genome.indels(), n);
  }

  @Test
  void sameSeedGivesTheSameBytes() throws IOException {
    Path again = tmp.resolve("again");
    Simulation.synthetic(SEED, 4, TOTAL, 20).withWindowBases(5_000).writeTo(again);
    for (String name : List.of("ref.fa", "ref.fa.fai", "ref.dict", "reads.bam", "reads.bam.bai", "truth.vcf.gz",
        "truth.vcf.gz.tbi", "confident.bed")) {
      assertArrayEquals(Files.readAllBytes(genome.files().dir().resolve(name)), Files.readAllBytes(again.resolve(name)), name);
    }
  }

  /** A bgzipped FASTA with .fai and .gzi: chrA (60 kb, an N run at 20,000-23,000, lower case at 30,000-31,000) and chrB. */
  static Path realLikeReference(Path dir) throws IOException {
    Files.createDirectories(dir);
    byte[] a = SimulatedContig.syntheticBases(5, 0, 60_000);
    for (int i = 20_000; i < 23_000; i++) a[i] = 'N';
    for (int i = 30_000; i < 31_000; i++) a[i] = (byte) Character.toLowerCase(a[i]);
    byte[] b = SimulatedContig.syntheticBases(5, 1, 10_000);
    Path fa = dir.resolve("real.fa.gz");
    try (OutputStream out = new BlockCompressedOutputStream(fa.toFile())) {
      for (Object[] c : new Object[][] {{"chrA", a}, {"chrB", b}}) {
        out.write((">" + c[0] + " some description\n").getBytes(StandardCharsets.US_ASCII));
        byte[] bases = (byte[]) c[1];
        for (int i = 0; i < bases.length; i += 70) {
          out.write(bases, i, Math.min(70, bases.length - i));
          out.write('\n');
        }
      }
    }
    FastaSequenceIndexCreator.create(fa, true);
    GZIIndex.createIndex(fa, true);
    return fa;
  }

  @Test
  void onAReferenceReadsAndVariantsStayInTheRegionAndOffN() throws IOException {
    Path fa = realLikeReference(tmp.resolve("real"));
    Simulation sim = Simulation.onReference(3, fa, List.of("chrA:5001-55000"), null, 20);
    assertEquals(List.of("chrA", "chrB"), sim.contigs().stream().map(Simulation.Contig::name).toList());
    Simulation.Result r = sim.writeTo(tmp.resolve("onref"));
    assertFalse(Files.exists(tmp.resolve("onref/ref.fa")), "the user's reference is not copied");
    assertEquals(fa, r.files().reference());
    byte[] ref;
    try (ReferenceSequenceFile f = ReferenceSequenceFileFactory.getReferenceSequenceFile(fa)) {
      ref = f.getSequence("chrA").getBases();
    }
    int reads = 0;
    try (SamReader sr = SamReaderFactory.makeDefault().referenceSequence(fa).open(r.files().reads())) {
      assertEquals(2, sr.getFileHeader().getSequenceDictionary().size());
      for (SAMRecord rec : sr) {
        reads++;
        assertEquals("chrA", rec.getContig());
        assertTrue(rec.getAlignmentStart() > 5_000 && rec.getAlignmentEnd() <= 55_000, rec.getSAMString());
        assertTrue(rec.getAlignmentEnd() <= 20_000 || rec.getAlignmentStart() > 23_000, "no read on the N run: " + rec.getSAMString());
        assertFalse(rec.getReadString().contains("N"));
        assertNotNull(rec.getAttribute("MD"));
      }
    }
    // 20x over the 47 kb of A/C/G/T bases of the region
    assertTrue(reads > 0.9 * 20 * 47_000 / 150 && reads < 1.1 * 20 * 47_000 / 150, "reads " + reads);
    List<String> bed = Files.readAllLines(r.files().confidentBed());
    assertEquals(List.of("chrA\t6000\t19000", "chrA\t24000\t54000"), bed);
    try (VCFFileReader vcf = new VCFFileReader(r.files().truth(), true)) {
      int n = 0;
      for (VariantContext vc : vcf) {
        n++;
        int s = vc.getStart() - 1;
        assertTrue((s >= 6_000 && vc.getEnd() <= 19_000) || (s >= 24_000 && vc.getEnd() <= 54_000), vc.toString());
        String expected = new String(ref, s, vc.getReference().length(), StandardCharsets.US_ASCII).toUpperCase();
        assertEquals(expected, vc.getReference().getBaseString());
      }
      assertTrue(n > 30, "variants " + n);
    }
  }

  @Test
  void aReferenceWithoutItsIndexesIsAOneLineErrorSayingWhatToRun() throws IOException {
    Path fa = realLikeReference(tmp.resolve("noindex"));
    Files.delete(fa.resolveSibling(fa.getFileName() + ".gzi"));
    InputException e = assertThrows(InputException.class,
        () -> Simulation.onReference(1, fa, List.of(), null, 10));
    assertTrue(e.getMessage().contains("samtools faidx " + fa), e.getMessage());
    e = assertThrows(InputException.class, () -> Simulation.onReference(1, realLikeReference(tmp.resolve("short")),
        List.of("chrB:1-1000"), null, 10));
    assertTrue(e.getMessage().contains("chrB:1-1000") && e.getMessage().contains("at least 5000"), e.getMessage());
  }
}
