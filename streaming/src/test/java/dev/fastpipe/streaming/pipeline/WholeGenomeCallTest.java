package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.simulate.Simulation;
import dev.fastpipe.streaming.simulate.SyntheticSample;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriter;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code call} over a genome of several contigs, end to end with the shipped model: records in
 * reference order across contigs, a contig without reads, an unplaced contig, contigs left out
 * by --exclude-contigs, and a contig of the reference that the reads' header lacks.
 */
class WholeGenomeCallTest {
  @TempDir static Path dir;
  static Simulation.Result sample;
  static List<VariantContext> all;
  static SAMSequenceDictionary dict;

  @BeforeAll
  static void simulateAndCallOnce() throws IOException {
    sample = Simulation.synthetic(21, 4, 100_000, 20).writeTo(dir.resolve("genome"));
    all = records(call("all", sample.files().reads(), List.of(), List.of()));
  }

  /** Calls {@code reads} against the sample's reference (two shards, threads); returns the VCF. */
  static Path call(String name, Path reads, List<String> regions, List<String> exclude) {
    CallRequest.Builder s = CallRequest.builder();
    s.examples().reference(sample.files().reference()).reads(reads).shards(2).regions(regions).excludeContigs(exclude);
    s.output(dir.resolve(name + ".vcf.gz"));
    s.transport("disruptor");
    s.progress(false);
    s.sample(SyntheticSample.SAMPLE);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    // the run loads the shipped model and closes it at the end
    StreamingCall.run(s.build(), () -> GenotypeModel.load(Path.of("..", "models", "fastpipe-v2")),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return vcfOf(s);
  }

  static List<VariantContext> records(Path vcf) {
    try (VCFFileReader r = new VCFFileReader(vcf, false)) {
      dict = r.getFileHeader().getSequenceDictionary();
      List<VariantContext> out = new ArrayList<>();
      r.iterator().forEachRemaining(out::add);
      return out;
    }
  }

  static Set<String> contigs(List<VariantContext> vcs) {
    Set<String> s = new HashSet<>();
    vcs.forEach(v -> s.add(v.getContig()));
    return s;
  }

  @Test
  void recordsComeInReferenceOrderOnEveryContigWithReadsAndFindTheTruth() throws IOException {
    assertEquals(List.of("demo1", "demo2", "demo3", Simulation.UNPLACED),
        dict.getSequences().stream().map(r -> r.getSequenceName()).toList(), "the header lists every reference contig");
    assertEquals(Set.of("demo1", "demo3", Simulation.UNPLACED), contigs(all), "demo2 has no reads, so no records");
    for (int i = 1; i < all.size(); i++) {
      VariantContext a = all.get(i - 1);
      VariantContext b = all.get(i);
      int ca = dict.getSequenceIndex(a.getContig());
      int cb = dict.getSequenceIndex(b.getContig());
      assertTrue(ca < cb || (ca == cb && a.getStart() <= b.getStart()), "out of order: " + a + " then " + b);
    }
    Set<String> called = new HashSet<>();
    for (VariantContext v : all) if (v.isNotFiltered()) called.add(v.getContig() + ":" + v.getStart());
    int truth = 0;
    int found = 0;
    try (VCFFileReader t = new VCFFileReader(sample.files().truth(), false)) {
      for (VariantContext v : t) {
        truth++;
        if (called.contains(v.getContig() + ":" + v.getStart())) found++;
      }
    }
    assertTrue(truth > 80 && found >= 0.9 * truth, found + " of " + truth + " truth variants called");
  }

  @Test
  void excludedContigsGetNoRecordsAndTheOthersKeepTheirs() {
    List<VariantContext> kept = records(call("no-un", sample.files().reads(), List.of(), List.of("un")));
    assertEquals(Set.of("demo1", "demo3"), contigs(kept));
    List<String> expected = all.stream().filter(v -> !v.getContig().equals(Simulation.UNPLACED)).map(VariantContext::toStringDecodeGenotypes).toList();
    assertEquals(expected, kept.stream().map(VariantContext::toStringDecodeGenotypes).toList());
    InputException e = assertThrows(InputException.class,
        () -> call("only-un", sample.files().reads(), List.of(Simulation.UNPLACED), List.of("non-primary")));
    assertTrue(e.getMessage().contains("leaves out every contig"), e.getMessage());
  }

  @Test
  void aContigInTheReferenceButNotInTheReadsIsSkippedOrNamed() throws IOException {
    // the reads without chrUn_gl000220: neither in their header nor among them
    Path reads = dir.resolve("no-unplaced.bam");
    try (SamReader in = SamReaderFactory.makeDefault().open(sample.files().reads())) {
      SAMFileHeader h = in.getFileHeader().clone();
      SAMSequenceDictionary d = new SAMSequenceDictionary(h.getSequenceDictionary().getSequences().subList(0, 3));
      h.setSequenceDictionary(d);
      try (SAMFileWriter w = new SAMFileWriterFactory().setCreateIndex(true).makeBAMWriter(h, true, reads)) {
        for (SAMRecord r : in) {
          if (r.getContig().equals(Simulation.UNPLACED)) continue;
          r.setHeader(h);
          w.addAlignment(r);
        }
      }
    }
    Files.move(dir.resolve("no-unplaced.bai"), dir.resolve("no-unplaced.bam.bai"));
    List<VariantContext> vcs = records(call("ref-only-contig", reads, List.of(), List.of()));
    assertEquals(Set.of("demo1", "demo3"), contigs(vcs));
    assertEquals(4, dict.size(), "the VCF header still lists the reference's contigs");
    InputException e = assertThrows(InputException.class,
        () -> call("ask-for-it", reads, List.of(Simulation.UNPLACED + ":1-5000"), List.of()));
    assertTrue(e.getMessage().contains("contig " + Simulation.UNPLACED + " is in the reference but not in the header of "
        + reads), e.getMessage());
    assertFalse(Files.exists(dir.resolve("ask-for-it.vcf.gz")));
  }

  /** The VCF {@code s} writes. */
  static Path vcfOf(CallRequest.Builder s) {
    return s.build().output();
  }
}
