package dev.fastpipe.streaming.callvariants;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordEncoder;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.pileup.IndelErrorRate;
import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.postprocess.CallResult;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The consumer loop body: partition markers must reach the listener only after every example
 * before them was classified, and must not cut batches short while the stream is busy.
 */
class ExampleClassifierTest {
  static GenotypeModel model;

  @BeforeAll
  static void loadShippedModel() {
    model = GenotypeModel.load(Path.of("..", "models", "fastpipe-v2"));
  }

  @AfterAll
  static void close() {
    model.close();
  }

  final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 20]);
  final ExampleRecordEncoder encoder = new ExampleRecordEncoder();
  final List<String> events = new ArrayList<>();

  int example(int at, int position) {
    int imageAt = encoder.wrap(buffer, at).origin(0, position, 0).example(0, position, -1).site(1, 30)
        .alleles("A", new String[] {"G"}, new int[] {15, 15}).altSubset(new int[] {0}).image(100, 221, model.channels());
    for (int i = 0; i < 100 * 221 * model.channels(); i++) buffer.putByte(imageAt + i, (byte) (i * 31 + position));
    return ExampleRecord.encodedLength("A", new String[] {"G"}, 100, 221, model.channels());
  }

  void feed(ExampleClassifier c, int position) {
    int len = example(0, position);
    c.onRecord(0, buffer, 0, len);
  }

  void marker(ExampleClassifier c, long partition) {
    encoder.wrap(buffer, 0).origin(0, 0, partition).partitionDone(0, (int) (partition + 1) * 1000);
    c.onRecord(0, buffer, 0, ExampleRecordDescriptor.PARTITION_DONE_LENGTH);
  }

  @Test
  void markersWaitForTheExamplesBeforeThemAndDoNotCutBatches() {
    try (ExampleClassifier c = new ExampleClassifier(model, 3, ReadErrors.assumed(),
        (CallResult r) -> events.add("call " + r.position()),
        partition -> events.add("done " + partition))) {
      marker(c, 0); // nothing batched: delivered at once
      assertEquals(List.of("done 0"), events);
      feed(c, 1010);
      marker(c, 1);
      feed(c, 2010);
      assertEquals(List.of("done 0"), events, "a marker must not flush a partial batch or overtake its examples");
      assertTrue(c.hasPending());
      feed(c, 2020); // batch of 3 is full: classified, then the marker that followed its first example
      assertEquals(List.of("done 0", "call 1010", "call 2010", "call 2020", "done 1"), events);
      feed(c, 3010);
      marker(c, 3);
      c.flush(); // end of stream or idle ring
      assertEquals(List.of("done 0", "call 1010", "call 2010", "call 2020", "done 1", "call 3010", "done 3"), events);
      assertEquals(2, c.batches());
      assertEquals(4, c.examples());
    }
  }

  @Test
  void theBatchWaitCountsFromItsFirstExample() {
    try (ExampleClassifier c = new ExampleClassifier(model, 3, ReadErrors.assumed(), r -> events.add("call"), partition -> {})) {
      long before = System.nanoTime();
      assertEquals(Long.MAX_VALUE, c.batchWaitNanos(before), "an empty batch has nothing to wait for");
      marker(c, 0);
      assertEquals(Long.MAX_VALUE, c.batchWaitNanos(System.nanoTime()), "markers alone are not a batch");
      feed(c, 1010);
      long first = System.nanoTime();
      feed(c, 2010);
      long later = first + 5_000_000_000L;
      long wait = c.batchWaitNanos(later);
      assertTrue(wait >= later - first && wait <= later - before, "from the first example: " + wait);
      c.flush();
      assertEquals(Long.MAX_VALUE, c.batchWaitNanos(later), "classified: nothing waits");
      assertEquals(List.of("call", "call"), events);
    }
  }

  @Test
  void smallCallsPassThroughWithTheirProbabilitiesAndBeforeTheirMarker() {
    List<CallResult> results = new ArrayList<>();
    try (ExampleClassifier c = new ExampleClassifier(model, 3, ReadErrors.assumed(), (CallResult r) -> {
      results.add(r);
      events.add("call " + r.position());
    }, partition -> events.add("done " + partition))) {
      feed(c, 1010);
      encoder.wrap(buffer, 0).origin(0, 1, 1).smallCall(0, 1500, 30).alleles("C", new String[] {"T"}, new int[] {14, 16})
          .probabilities(new float[] {0.01f, 0.98f, 0.01f});
      c.onRecord(0, buffer, 0, ExampleRecordDescriptor.smallCallLength("C", new String[] {"T"}));
      marker(c, 1);
      assertEquals(List.of("call 1500"), events, "a small call needs no batch");
      c.flush();
      assertEquals(List.of("call 1500", "call 1010", "done 1"), events, "the marker after both");
      CallResult small = results.get(0);
      assertEquals(List.of("T"), small.alts());
      assertEquals(30, small.depth());
      assertEquals(List.of(14, 16), List.of(small.alleleDepths()[0], small.alleleDepths()[1]));
      assertEquals(0.98f, small.probabilities()[1]);
      assertEquals(1, c.examples(), "the CNN saw one example");
      assertEquals(1, c.smallCalls());
    }
  }

  @Test
  void anImageOfAnotherShapeIsRefusedNamingBothShapes() {
    int imageAt = encoder.wrap(buffer, 0).origin(0, 10, 0).example(0, 10, -1).site(1, 30)
        .alleles("A", new String[] {"G"}, new int[] {15, 15}).altSubset(new int[] {0}).image(100, 200, model.channels());
    int len = imageAt + 100 * 200 * model.channels();
    try (ExampleClassifier c = new ExampleClassifier(model, 2, ReadErrors.assumed(), r -> events.add("call"), null)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.onRecord(0, buffer, 0, len));
      assertEquals("example image is 100x200x" + model.channels() + " but the model takes 100x221x" + model.channels(),
          e.getMessage());
    }
    assertEquals(List.of(), events);
  }

  @Test
  void resultsDoNotDependOnTheBatchTheyWereIn() {
    List<float[]> alone = new ArrayList<>();
    List<float[]> together = new ArrayList<>();
    try (ExampleClassifier one = new ExampleClassifier(model, 1, ReadErrors.assumed(), r -> alone.add(r.probabilities()), null);
        ExampleClassifier many = new ExampleClassifier(model, 4, ReadErrors.assumed(), r -> together.add(r.probabilities()), null)) {
      for (int p : new int[] {11, 12, 13, 14}) {
        feed(one, p);
        feed(many, p);
      }
      one.flush();
      many.flush();
    }
    assertEquals(4, alone.size());
    for (int i = 0; i < 4; i++) {
      for (int g = 0; g < 3; g++) {
        assertEquals(Float.floatToIntBits(alone.get(i)[g]), Float.floatToIntBits(together.get(i)[g]),
            "example " + i + " genotype " + g + ": batch size changed the probability bits");
      }
    }
  }

  /**
   * Every example gets the same probability bits whatever the batch size and however full its
   * batch was: 10 examples through batches of 1, 4 (two full, one partial), 7 (one full, one
   * partial) and 256 (one partial). See GenotypeModel.CHUNK_IMAGES.
   */
  @Test
  void batchSizes1_4_7_256GiveTheSameProbabilityBits() {
    int[] sizes = {1, 4, 7, 256};
    List<List<float[]>> results = new ArrayList<>();
    for (int size : sizes) {
      List<float[]> got = new ArrayList<>();
      try (ExampleClassifier c = new ExampleClassifier(model, size, ReadErrors.assumed(), r -> got.add(r.probabilities()), null)) {
        for (int p = 21; p <= 30; p++) feed(c, p);
        c.flush();
      }
      assertEquals(10, got.size(), "batch size " + size);
      results.add(got);
    }
    for (int k = 1; k < sizes.length; k++) {
      for (int i = 0; i < 10; i++) {
        for (int g = 0; g < 3; g++) {
          assertEquals(Float.floatToIntBits(results.get(0).get(i)[g]), Float.floatToIntBits(results.get(k).get(i)[g]),
              "batch size " + sizes[k] + " vs 1, example " + i + " genotype " + g);
        }
      }
    }
  }

  /** An insertion of one T after the anchor G at SITE, before a run of eight T. */
  static final int SITE = 200;
  final TestGenome g = tRun(new TestGenome("chrT", 400, 11));

  static TestGenome tRun(TestGenome g) {
    g.ref[SITE] = 'G';
    for (int i = 1; i <= 8; i++) g.ref[SITE + i] = 'T';
    g.ref[SITE + 9] = 'C';
    return g;
  }

  SAMRecord insertionRead() {
    return g.read(SITE - 50, "51M1I49M", g.refString(SITE - 50, SITE + 1) + "T" + g.refString(SITE + 1, SITE + 50));
  }

  /** The insertion's example at {@code at}, its image drawn from {@code reads} (the first {@code alt} of them carry it). */
  int insertionExample(int at, int alt, SAMRecord... reads) {
    return insertionExample(at, new String[] {"GT"}, alt, reads);
  }

  /** As {@link #insertionExample(int, int, SAMRecord...)} for a site of {@code alts}, the example showing the first. */
  int insertionExample(int at, String[] alts, int alt, SAMRecord... reads) {
    int[] support = new int[reads.length];
    Arrays.fill(support, 0, alt, 1);
    int[] depths = new int[alts.length + 1];
    depths[0] = reads.length - alt;
    depths[1] = alt;
    int examples = alts.length + alts.length * (alts.length - 1) / 2;
    int imageAt = encoder.wrap(buffer, at).origin(0, SITE, 0).example(0, SITE, -1).site(examples, reads.length)
        .alleles("G", alts, depths).altSubset(new int[] {0})
        .image(100, 221, model.channels());
    new PileupImageEncoder(PileupImageEncoder.defaultChannels(model.channels()), 100, 221)
        .encode(buffer, imageAt, g.ref, 0, SITE - 110, reads, support, reads.length);
    return ExampleRecord.encodedLength("G", alts, 100, 221, model.channels());
  }

  float[] classify(int alt, SAMRecord... reads) {
    List<float[]> got = new ArrayList<>();
    try (ExampleClassifier c = new ExampleClassifier(model, 1, ReadErrors.assumed(), r -> got.add(r.probabilities()), null)) {
      c.onRecord(0, buffer, 0, insertionExample(0, alt, reads));
      c.flush();
    }
    return got.get(0);
  }

  /**
   * Reads that end inside the insertion's T run show the reference whichever allele they came from:
   * where every read that reaches past the run carries the insertion, the model sees the example
   * without them (the same probability bits as an image drawn without them); one reference read
   * that spans the run, or one with another insertion written inside the run, keeps every row.
   */
  @Test
  void anIndelsReadsThatCannotTellTheAllelesApartAreLeftOutWhereEveryReadThatCanShowsTheAlt() {
    SAMRecord[] alts = {insertionRead(), insertionRead(), insertionRead()};
    SAMRecord endsInRun = g.refRead(SITE + 5 - 100, 100);
    SAMRecord spans = g.refRead(SITE - 40, 100);
    float[] withoutThem = classify(3, alts);
    float[] withThem = classify(3, alts[0], alts[1], alts[2], endsInRun, g.refRead(SITE + 3 - 100, 100));
    assertArrayEquals(withoutThem, withThem, "two reads ending inside the run: left out");
    float[] spanning = classify(3, alts[0], alts[1], alts[2], spans);
    float[] spanningAndInRun = classify(3, alts[0], alts[1], alts[2], spans, endsInRun);
    assertFalse(Arrays.equals(spanning, spanningAndInRun), "a spanning reference read: every row stays");
    SAMRecord twoMoreInTheRun = g.read(SITE - 50, "55M2I45M", g.refString(SITE - 50, SITE + 5) + "TT" + g.refString(SITE + 5, SITE + 50));
    float[] another = classify(3, alts[0], alts[1], alts[2], twoMoreInTheRun);
    float[] anotherAndInRun = classify(3, alts[0], alts[1], alts[2], twoMoreInTheRun, endsInRun);
    assertFalse(Arrays.equals(another, anotherAndInRun), "a read with another insertion inside the run: every row stays");
  }

  /**
   * The insertion before the run of eight T: its result carries the slips flag where the sample's
   * reads slip in homopolymers of 8-11 bases beyond the envelope (0.06 a read, as PCR stutter makes
   * them), and not where they slip at the floor or only in another class.
   */
  @Test
  void anIndelExampleIsFlaggedWhereTheSamplesReadsSlipInItsRepeatBeyondTheEnvelope() {
    SAMRecord[] reads = {insertionRead(), insertionRead(), g.refRead(SITE - 40, 100), g.refRead(SITE - 45, 100)};
    assertFalse(indelResult(ReadErrors.assumed(), reads).slipsBeyondEnvelope());
    assertTrue(indelResult(slipping(IndelErrorRate.classOf(8, 1)), reads).slipsBeyondEnvelope());
    assertFalse(indelResult(slipping(IndelErrorRate.classOf(8, 2)), reads).slipsBeyondEnvelope(),
        "slippage in dinucleotide repeats says nothing of a homopolymer");
    // A site of two insertions (one T, two T: stutter both ways) is flagged alike; blind48's stutter
    // cells kept such sites' low-GQ calls PASS once postprocess had pruned the weaker alt.
    List<CallResult> got = new ArrayList<>();
    try (ExampleClassifier c = new ExampleClassifier(model, 1, slipping(IndelErrorRate.classOf(8, 1)), got::add, null)) {
      c.onRecord(0, buffer, 0, insertionExample(0, new String[] {"GT", "GTT"}, 2, reads));
      c.flush();
    }
    assertTrue(got.get(0).slipsBeyondEnvelope(), "a multi-allelic indel site");
  }

  /**
   * Every result carries whether the sample's reads slip within the envelope in every class, which
   * picks the indel pileup's weight in postprocess: at the floor they do; slipping beyond it in one
   * class (dinucleotide repeats), even where the site's own repeat is a homopolymer, they do not.
   */
  @Test
  void everyResultSaysWhetherTheSamplesReadsSlipWithinTheEnvelopeInEveryClass() {
    SAMRecord[] reads = {insertionRead(), insertionRead(), g.refRead(SITE - 40, 100), g.refRead(SITE - 45, 100)};
    assertTrue(indelResult(ReadErrors.assumed(), reads).sampleWithinEnvelope());
    CallResult elsewhere = indelResult(slipping(IndelErrorRate.classOf(8, 2)), reads);
    assertFalse(elsewhere.slipsBeyondEnvelope());
    assertFalse(elsewhere.sampleWithinEnvelope());
  }

  /**
   * Every result carries whether the sample's bases of Q30 and above err at three times their promise
   * or more (BaseErrorRate#qualitiesOverpromise), which picks the SNP pileup's weight in postprocess:
   * a sample measured like Mason's reads says so, one at its promise does not.
   */
  @Test
  void everyResultSaysWhetherTheSamplesGoodBasesOverpromise() {
    SAMRecord[] reads = {insertionRead(), insertionRead(), g.refRead(SITE - 40, 100), g.refRead(SITE - 45, 100)};
    assertFalse(indelResult(ReadErrors.assumed(), reads).sampleQualitiesOverpromise());
    long[] bases = new long[BaseErrorRate.qualities()];
    long[] wrong = new long[bases.length];
    bases[40] = 10_000_000;
    wrong[40] = 22_000;
    ReadErrors mason = new ReadErrors(StrandArtifactRate.assumed(), IndelErrorRate.assumed(), BaseErrorRate.measure(bases, wrong));
    CallResult r = indelResult(mason, reads);
    assertTrue(r.sampleQualitiesOverpromise());
    assertTrue(r.sampleWithinEnvelope(), "the indel envelope's flag stays its own");
  }

  /**
   * A site of a SNP G>T and an insertion GT (a SNP in a repeat whose stutter reads make an indel
   * candidate), six reads of the SNP and six of the reference: the SNP's example carries the pileup
   * likelihoods a bi-allelic G>T site's example of the same reads carries, at 0/0, 0/1 and 1/1, and
   * every genotype with the insertion that of its copies of the SNP's alt (the pileup measures those
   * alone, the insertion's reads as the reference's); the insertion's example carries none.
   */
  @Test
  void aSnpAtASiteWithAnIndelAltCarriesTheSnpsPileupLikelihoods() {
    List<SAMRecord> reads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int start = SITE - 30 - 7 * i;
      reads.add(g.read(start, "100M", g.refString(start, SITE) + "T" + g.refString(SITE + 1, start + 100)));
    }
    for (int i = 0; i < 6; i++) reads.add(g.refRead(SITE - 60 + 9 * i, 100));
    SAMRecord[] rows = reads.toArray(new SAMRecord[0]);
    float[] biallelic = siteExample(new String[] {"T"}, 0, rows).pileupLikelihoods();
    float[] mixed = siteExample(new String[] {"T", "GT"}, 0, rows).pileupLikelihoods();
    assertEquals(3, biallelic.length);
    assertEquals(6, mixed.length, "0/0 0/1 1/1 0/2 1/2 2/2");
    assertArrayEquals(biallelic, Arrays.copyOf(mixed, 3), "the SNP's genotypes as at a bi-allelic site");
    assertEquals(mixed[0], mixed[3], "0/2 as 0/0");
    assertEquals(mixed[1], mixed[4], "1/2 as 0/1");
    assertEquals(mixed[0], mixed[5], "2/2 as 0/0");
    assertTrue(biallelic[1] == 0f && biallelic[0] < -3, "six alt reads of twelve: a het, " + Arrays.toString(biallelic));
    assertEquals(null, siteExample(new String[] {"T", "GT"}, 1, rows).pileupLikelihoods(), "the insertion's example");
  }

  /** The result of the single-alt example of alt {@code alt} of a site G>{@code alts} at SITE whose first six reads carry alt 0. */
  CallResult siteExample(String[] alts, int alt, SAMRecord... reads) {
    int[] support = new int[reads.length];
    if (alt == 0) Arrays.fill(support, 0, 6, 1);
    int[] depths = new int[alts.length + 1];
    depths[0] = reads.length - 6;
    depths[1] = 6;
    int examples = alts.length + alts.length * (alts.length - 1) / 2;
    int imageAt = encoder.wrap(buffer, 0).origin(0, SITE, 0).example(0, SITE, -1).site(examples, reads.length)
        .alleles("G", alts, depths).altSubset(new int[] {alt}).image(100, 221, model.channels());
    new PileupImageEncoder(PileupImageEncoder.defaultChannels(model.channels()), 100, 221)
        .encode(buffer, imageAt, g.ref, 0, SITE - 110, reads, support, reads.length);
    List<CallResult> got = new ArrayList<>();
    try (ExampleClassifier c = new ExampleClassifier(model, 1, ReadErrors.assumed(), got::add, null)) {
      c.onRecord(0, buffer, 0, ExampleRecord.encodedLength("G", alts, 100, 221, model.channels()));
      c.flush();
    }
    return got.get(0);
  }

  /** Read errors whose indel rate is 0.06 in {@code slippingClass} and the floor elsewhere. */
  static ReadErrors slipping(int slippingClass) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, IndelErrorRate.FLOOR);
    rates[slippingClass] = 0.06;
    IndelErrorRate indels = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
    return new ReadErrors(StrandArtifactRate.assumed(), indels);
  }

  CallResult indelResult(ReadErrors errors, SAMRecord... reads) {
    List<CallResult> got = new ArrayList<>();
    try (ExampleClassifier c = new ExampleClassifier(model, 1, errors, got::add, null)) {
      c.onRecord(0, buffer, 0, insertionExample(0, 2, reads));
      c.flush();
    }
    return got.get(0);
  }
}
