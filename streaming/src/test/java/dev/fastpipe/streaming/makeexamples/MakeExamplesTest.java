package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.cli.Main;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import dev.fastpipe.streaming.example.TfRecordExampleReader;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** make_examples end to end on a hand-built genome written to temporary files. */
class MakeExamplesTest {
  @TempDir static Path dir;
  static TestGenome g;
  static Path fasta;
  static Path bam;
  static final int SNP = 2000;
  static final int HOM_SNP = 5300;
  static final int DEL = 7000;
  static final int DEEP = 9000;
  static final int EDGE = 50;

  @BeforeAll
  static void buildGenome() throws IOException {
    g = new TestGenome("chrT", 12000, 42);
    // Keep the deletion out of any repeat so its position is where we put it.
    g.ref[DEL] = 'C';
    g.ref[DEL + 1] = 'G';
    g.ref[DEL + 2] = 'T';
    g.ref[DEL + 3] = 'A';
    int n = 0;
    for (int start = 0; start + 100 <= g.ref.length; start += 7, n++) {
      for (int hap = 0; hap < 2; hap++) {
        String seq = g.refString(start, start + 100);
        String cigar = "100M";
        if (covers(start, SNP) && hap == 0) seq = TestGenome.mutate(seq, SNP - start, flip(SNP));
        if (covers(start, HOM_SNP)) seq = TestGenome.mutate(seq, HOM_SNP - start, flip(HOM_SNP));
        if (covers(start, EDGE) && hap == 1) seq = TestGenome.mutate(seq, EDGE - start, flip(EDGE));
        if (start < DEL - 10 && start + 100 > DEL + 12 && hap == 1) {
          int k = DEL - start + 1; // bases up to and including the anchor
          seq = g.refString(start, DEL + 1) + g.refString(DEL + 3, start + 102);
          cigar = k + "M2D" + (100 - k) + "M";
        }
        SAMRecord r = g.read(start, cigar, seq);
        r.setReadNegativeStrandFlag(hap == 1);
        g.add(r);
      }
    }
    // A pile of 150 extra reads over DEEP, a quarter of them carrying an alt.
    for (int i = 0; i < 150; i++) {
      int start = DEEP - 90 + (i % 80);
      String seq = g.refString(start, start + 100);
      if (i % 4 == 0) seq = TestGenome.mutate(seq, DEEP - start, flip(DEEP));
      g.add(g.read(start, "100M", seq));
    }
    // Reads the filters drop: a duplicate and a MAPQ-0 read carrying a fake SNP.
    for (int i = 0; i < 4; i++) {
      SAMRecord r = g.add(g.read(3000, "100M", TestGenome.mutate(g.refString(3000, 3100), 50, flip(3050))));
      if (i < 2) r.setDuplicateReadFlag(true); else r.setMappingQuality(0);
    }
    fasta = g.writeFasta(dir);
    bam = g.writeBam(dir, "reads.bam");
  }

  static boolean covers(int start, int pos) {
    return pos >= start && pos < start + 100;
  }

  static char flip(int pos) {
    return g.ref[pos] == 'A' ? 'G' : 'A';
  }

  static ExampleSettings.Builder options() {
    return ExampleSettings.builder().reference(fasta).reads(bam);
  }

  static List<byte[]> examplesWithoutShardFields(CapturingProducer p) {
    List<byte[]> out = new ArrayList<>();
    ExampleRecord r = new ExampleRecord();
    for (byte[] b : p.records) {
      UnsafeBuffer buf = new UnsafeBuffer(b);
      r.wrap(buf, 0);
      if (!r.isExample()) continue;
      buf.putInt(ExampleRecordDescriptor.SHARD_OFFSET, 0);
      buf.putLong(ExampleRecordDescriptor.SEQUENCE_OFFSET, 0);
      out.add(b);
    }
    return out;
  }

  static ExampleRecord at(CapturingProducer p, int position, int subsetFirst) {
    for (byte[] b : p.records) {
      ExampleRecord r = new ExampleRecord().wrap(new UnsafeBuffer(b), 0);
      if (r.isExample() && r.position() == position && r.altSubset(0) == subsetFirst) return r;
    }
    return null;
  }

  @Test
  void findsTheVariantsAndOnlyThem() {
    CapturingProducer p = new CapturingProducer();
    MakeExamplesStats s = MakeExamples.run(options().build(), p);
    assertTrue(p.ended, "the stream is ended on success");
    List<Integer> positions = new ArrayList<>();
    ExampleRecord r = new ExampleRecord();
    for (byte[] b : p.records) {
      r.wrap(new UnsafeBuffer(b), 0);
      if (r.isExample()) positions.add(r.position());
    }
    assertEquals(List.of(SNP, HOM_SNP, DEL, DEEP), positions, "EDGE is a candidate but too close to the start");
    assertEquals(5, s.candidates);
    assertEquals(1, s.skippedAtContigEdge);
    assertEquals(12, s.partitions);
    assertTrue(s.readsFiltered >= 4);

    ExampleRecord del = at(p, DEL, 0);
    assertEquals(g.refString(DEL, DEL + 3), del.ref());
    assertArrayEquals(new String[] {g.refString(DEL, DEL + 1)}, del.alts());
    assertEquals(-1, del.label());
    assertEquals(1, del.examplesAtSite());
    ExampleRecord snp = at(p, SNP, 0);
    assertEquals(100, snp.height());
    assertEquals(221, snp.width());
    assertEquals(6, snp.channels());
    int center = 110;
    // Every read row over the SNP: the supporting ones say so in channel 4, and differ from ref.
    int supporting = 0;
    int rows = 0;
    for (int row = 5; row < 100; row++) {
      if (snp.pixel(row, center, 0) == 0) continue;
      rows++;
      boolean alt = snp.pixel(row, center, 5) == 254;
      assertEquals(alt ? 254 : 152, snp.pixel(row, center, 4));
      if (alt) supporting++;
    }
    assertEquals(snp.alleleDepths()[1], supporting);
    assertEquals(snp.depth(), rows);
  }

  /** A small model that says het with GQ 40 whatever it sees, inside a het envelope that holds everything; SNPs taken from GQ 20, indels never. */
  static Path hetSmallModel() throws IOException {
    int f = CandidateFeatures.COUNT;
    String zeros = String.join(", ", java.util.Collections.nCopies(f, "0"));
    String ones = String.join(", ", java.util.Collections.nCopies(f, "1"));
    String lows = String.join(", ", java.util.Collections.nCopies(f, "-1000000"));
    String highs = String.join(", ", java.util.Collections.nCopies(f, "1000000"));
    String names = String.join(", ", CandidateFeatures.NAMES.stream().map(n -> "\"" + n + "\"").toList());
    Path file = dir.resolve("small_model.json");
    Files.writeString(file, "{\"format\": \"fastpipe-small-model-1\", \"features\": [" + names + "],"
        + " \"thresholds\": {\"snp\": 20, \"indel\": 1000}, \"mean\": [" + zeros + "], \"scale\": [" + ones + "],"
        + " \"hidden_weights\": [[" + zeros + "]], \"hidden_bias\": [0],"
        + " \"output_weights\": [[0], [0], [0]], \"output_bias\": [0, 10, 0],"
        + " \"envelope\": {\"hom_ref\": null, \"het\": {\"low\": [" + lows + "], \"high\": [" + highs + "]}, \"hom_alt\": null}}");
    return file;
  }

  @Test
  void theSmallModelTakesSureBiallelicSnpsWithoutAnImage() throws IOException {
    ExampleSettings o = options().smallModel(hetSmallModel()).build();
    CapturingProducer p = new CapturingProducer();
    MakeExamplesStats s = MakeExamples.run(o, p);
    List<Integer> small = new ArrayList<>();
    List<Integer> cnn = new ArrayList<>();
    ExampleRecord r = new ExampleRecord();
    for (byte[] b : p.records) {
      r.wrap(new UnsafeBuffer(b), 0);
      if (r.isSmallCall()) {
        small.add(r.position());
        float[] probs = r.floats(new float[3]);
        assertEquals(1f, probs[0] + probs[1] + probs[2], 1e-5);
        assertTrue(probs[1] > 0.999f, "het: " + probs[1]);
        assertEquals(0, r.imageLength());
      }
      if (r.isExample()) {
        cnn.add(r.position());
        assertEquals(0, r.floatCount(), "no features in examples for calling");
      }
    }
    assertEquals(List.of(SNP, HOM_SNP, DEEP), small, "the SNPs: GQ 40 >= 20");
    assertEquals(List.of(DEL), cnn, "indels are never taken");
    assertEquals(3, s.smallCalls);
    assertEquals(1, s.examples);
  }

  @Test
  void theSmallModelLeavesASnpWhoseBaseAVariantsDeletionTakesToTheNetwork(@TempDir Path own) throws IOException {
    // blind44's wgsim 60x: a SNP on 2 alt reads inside a deletion of 53 reads, taken by the small
    // model as 0/1 (its features count only the reads with a base there). Here: a het deletion of
    // 600-601 on one haplotype, a het SNP at 601 on the other, and a het SNP at 1500 far from it.
    TestGenome t = new TestGenome("chrD", 3000, 7);
    int del = 599; // the anchor; 600 and 601 deleted
    int inside = 601;
    int alone = 1500;
    for (int start = 0; start + 100 <= t.ref.length; start += 5) {
      for (int hap = 0; hap < 2; hap++) {
        String seq = t.refString(start, start + 100);
        String cigar = "100M";
        if (hap == 0 && covers(start, inside)) seq = TestGenome.mutate(seq, inside - start, t.ref[inside] == 'A' ? 'G' : 'A');
        if (hap == 0 && covers(start, alone)) seq = TestGenome.mutate(seq, alone - start, t.ref[alone] == 'A' ? 'G' : 'A');
        if (hap == 1 && start < del - 10 && start + 100 > del + 12) {
          int k = del - start + 1;
          seq = t.refString(start, del + 1) + t.refString(del + 3, start + 102);
          cigar = k + "M2D" + (100 - k) + "M";
        }
        SAMRecord r = t.read(start, cigar, seq);
        r.setReadNegativeStrandFlag((start / 5) % 2 == 1);
        t.add(r);
      }
    }
    TestGenome.Written w = t.write(own, "deleted.bam");
    ExampleSettings o = ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).smallModel(hetSmallModel()).build();
    CapturingProducer p = new CapturingProducer();
    MakeExamples.run(o, p);
    List<Integer> small = new ArrayList<>();
    List<Integer> cnn = new ArrayList<>();
    ExampleRecord r = new ExampleRecord();
    for (byte[] b : p.records) {
      r.wrap(new UnsafeBuffer(b), 0);
      if (r.isSmallCall()) small.add(r.position());
      if (r.isExample()) cnn.add(r.position());
    }
    assertEquals(List.of(alone), small, "the SNP away from the deletion");
    assertTrue(cnn.contains(inside), "the SNP under the deletion gets an image: " + cnn);
    assertTrue(cnn.contains(del), "the deletion too: " + cnn);
  }

  @Test
  void moreThan95ReadsAreDownsampledDeterministically() {
    CapturingProducer a = new CapturingProducer();
    MakeExamples.run(options().build(), a);
    ExampleRecord deep = at(a, DEEP, 0);
    assertTrue(deep.depth() > 95, "depth " + deep.depth());
    for (int row = 0; row < 100; row++) {
      boolean drawn = false;
      for (int col = 0; col < 221 && !drawn; col++) drawn = deep.pixel(row, col, 3) != 0; // strand
      assertTrue(drawn, "row " + row + " is drawn: 5 reference rows + 95 reads");
    }
    CapturingProducer b = new CapturingProducer();
    MakeExamples.run(options().build(), b);
    assertEquals(examplesWithoutShardFields(a).size(), examplesWithoutShardFields(b).size());
    for (int i = 0; i < a.records.size(); i++) assertArrayEquals(a.records.get(i), b.records.get(i));
  }

  @Test
  void threeShardsGiveTheSameExamplesAsOne() {
    CapturingProducer one = new CapturingProducer();
    MakeExamples.run(options().build(), one);
    List<byte[]> union = new ArrayList<>();
    long markers = 0;
    for (int t = 0; t < 3; t++) {
      ExampleSettings o = options().shards(3).task(t).build();
      CapturingProducer p = new CapturingProducer();
      MakeExamples.run(o, p);
      ExampleRecord r = new ExampleRecord();
      long seq = 0;
      for (byte[] b : p.records) {
        r.wrap(new UnsafeBuffer(b), 0);
        assertEquals(t, r.shard());
        assertEquals(seq++, r.sequence(), "per-shard sequence counts every record");
        if (r.isPartitionDone()) {
          markers++;
          assertEquals(t, r.partition() % 3);
        }
      }
      union.addAll(examplesWithoutShardFields(p));
    }
    assertEquals(12, markers);
    Comparator<byte[]> byPosition = Comparator.comparingInt(
        b -> new ExampleRecord().wrap(new UnsafeBuffer(b), 0).position());
    union.sort(byPosition);
    List<byte[]> expected = examplesWithoutShardFields(one);
    assertEquals(expected.size(), union.size());
    for (int i = 0; i < expected.size(); i++) assertArrayEquals(expected.get(i), union.get(i), "example " + i);
  }

  @Test
  void labelsFromTruthAndConfidentRegions() throws IOException {
    Path truth = dir.resolve("truth.vcf");
    Files.writeString(truth, String.join("\n",
        "##fileformat=VCFv4.2",
        "##contig=<ID=chrT,length=12000>",
        "##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">",
        "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS",
        "chrT\t" + (SNP + 1) + "\t.\t" + (char) g.ref[SNP] + "\t" + flip(SNP) + "\t.\tPASS\t.\tGT\t0|1",
        "chrT\t" + (HOM_SNP + 1) + "\t.\t" + (char) g.ref[HOM_SNP] + "\t" + flip(HOM_SNP) + "\t.\tPASS\t.\tGT\t1/1",
        // The deletion written with extra context, to be trimmed and matched.
        "chrT\t" + (DEL + 1) + "\t.\t" + g.refString(DEL, DEL + 4) + "\t" + g.refString(DEL, DEL + 1)
            + g.refString(DEL + 3, DEL + 4) + "\t.\tPASS\t.\tGT\t1|0",
        "") );
    Path bed = dir.resolve("confident.bed");
    Files.writeString(bed, "chrT\t1000\t8000\n");
    ExampleSettings o = options().truthVcf(truth).confidentBed(bed).build();
    CapturingProducer p = new CapturingProducer();
    MakeExamplesStats s = MakeExamples.run(o, p);
    assertEquals(1, at(p, SNP, 0).label());
    assertEquals(2, at(p, HOM_SNP, 0).label());
    assertEquals(1, at(p, DEL, 0).label());
    assertNull(at(p, DEEP, 0), "outside the confident region");
    assertEquals(1, s.skippedNotConfident);
  }

  @Test
  void cliWritesTfRecordAndCandidatesVcf() {
    Path out = dir.resolve("cli/ex.tfrecord.gz");
    Path cands = dir.resolve("cli/cands.vcf.gz");
    int rc = Main.commandLine().execute("make-examples", "--ref", fasta.toString(), "--reads",
        bam.toString(), "--output", out.toString(), "--candidates-vcf", cands.toString(),
        "--regions", "chrT:1-6000", "--channels", "7");
    assertEquals(0, rc);
    List<Integer> positions = new ArrayList<>();
    try (TfRecordExampleReader r = new TfRecordExampleReader(out)) {
      while (r.next()) {
        positions.add(r.record().position());
        assertEquals(7, r.record().channels());
      }
    }
    assertEquals(List.of(SNP, HOM_SNP), positions);
    assertTrue(Files.exists(Path.of(cands + ".tbi")));
    try (VCFFileReader v = new VCFFileReader(cands, true)) {
      List<Integer> starts = new ArrayList<>();
      v.iterator().forEachRemaining(vc -> starts.add(vc.getStart() - 1));
      assertEquals(List.of(EDGE, SNP, HOM_SNP), starts);
      assertEquals(1, v.query("chrT", SNP + 1, SNP + 1).stream().count());
    }
  }

  @Test
  void rejectsAReferenceThatDisagreesWithTheReads() throws IOException {
    Path other = Files.createDirectories(dir.resolve("other"));
    TestGenome shorter = new TestGenome("chrT", 11000, 1);
    Path fa = shorter.writeFasta(other);
    ExampleSettings o = options().reference(fa).build();
    InputException e = assertThrows(InputException.class, () -> MakeExamples.run(o, new CapturingProducer()));
    assertTrue(e.getMessage().contains("chrT") && e.getMessage().contains(bam.toString())
        && e.getMessage().contains(fa.toString()) && e.getMessage().contains("11000"), e.getMessage());
    Path out = dir.resolve("bad/ex.tfrecord.gz");
    int rc = Main.commandLine().execute("make-examples", "--ref", fa.toString(), "--reads",
        bam.toString(), "--output", out.toString());
    assertEquals(2, rc);
    assertFalse(Files.exists(out), "no output under the final name");
    assertFalse(Files.exists(dev.fastpipe.streaming.OutputFiles.temporary(out, ".tfrecord.gz")), "no temporary left");
  }

  @Test
  void cramGivesTheSameExamplesAsBam() throws IOException {
    Path cram = dir.resolve("reads.cram");
    List<SAMRecord> sorted = new ArrayList<>(g.reads);
    sorted.sort(Comparator.comparingInt(SAMRecord::getAlignmentStart));
    try (var w = new htsjdk.samtools.SAMFileWriterFactory().makeCRAMWriter(g.header, true, cram, fasta)) {
      for (SAMRecord r : sorted) w.addAlignment(r);
    }
    try (var in = new htsjdk.samtools.seekablestream.SeekablePathStream(cram);
        var out = Files.newOutputStream(Path.of(cram + ".crai"))) {
      htsjdk.samtools.CRAMCRAIIndexer.writeIndex(in, out);
    }
    CapturingProducer fromBam = new CapturingProducer();
    MakeExamples.run(options().build(), fromBam);
    ExampleSettings o = options().reads(cram).build();
    CapturingProducer fromCram = new CapturingProducer();
    MakeExamples.run(o, fromCram);
    assertEquals(fromBam.records.size(), fromCram.records.size());
    for (int i = 0; i < fromBam.records.size(); i++) {
      assertArrayEquals(fromBam.records.get(i), fromCram.records.get(i), "record " + i);
    }
  }

  @Test
  void regionsMustNameKnownContigs() {
    ExampleSettings o = options().regions(List.of("chrZ:1-100")).build();
    InputException e = assertThrows(InputException.class, () -> MakeExamples.run(o, new CapturingProducer()));
    assertTrue(e.getMessage().contains("chrZ"), e.getMessage());
  }
}
