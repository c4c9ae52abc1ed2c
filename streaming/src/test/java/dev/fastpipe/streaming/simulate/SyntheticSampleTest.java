package dev.fastpipe.streaming.simulate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordCoordinateComparator;
import htsjdk.samtools.SAMRecordIterator;
import htsjdk.samtools.SamFileValidator;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.ValidationStringency;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticSampleTest {

  static final int LENGTH = 20_000;
  static final long SEED = 7;

  @TempDir static Path tmp;
  static SyntheticSample.Files files;
  static SyntheticSample sample;

  @BeforeAll
  static void writeOnce() throws IOException {
    sample = SyntheticSample.generate(SEED, LENGTH, 30);
    files = sample.writeTo(tmp.resolve("a"));
  }

  @Test
  void sameSeedGivesByteIdenticalFilesAndAnotherSeedDoesNot() throws IOException {
    Path b = tmp.resolve("b");
    SyntheticSample.write(b, SEED, LENGTH, 30);
    for (String name : List.of("ref.fa", "ref.fa.fai", "ref.dict", "reads.bam", "reads.bam.bai", "truth.vcf.gz",
        "truth.vcf.gz.tbi", "confident.bed")) {
      assertArrayEquals(Files.readAllBytes(files.dir().resolve(name)), Files.readAllBytes(b.resolve(name)), name);
    }
    Path c = tmp.resolve("c");
    SyntheticSample.write(c, SEED + 1, LENGTH, 30);
    assertFalse(java.util.Arrays.equals(Files.readAllBytes(files.reads()), Files.readAllBytes(c.resolve("reads.bam"))));
    assertFalse(java.util.Arrays.equals(Files.readAllBytes(files.truth()), Files.readAllBytes(c.resolve("truth.vcf.gz"))));
    // no temporary directory is left behind
    try (var s = Files.list(b)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".")));
    }
  }

  @Test
  void referenceLooksHuman() throws IOException {
    byte[] ref = sample.reference();
    assertEquals(LENGTH, ref.length);
    long gc = 0;
    long cpg = 0;
    long c = 0;
    long g = 0;
    int longestRun = 0;
    int run = 0;
    for (int i = 0; i < ref.length; i++) {
      byte b = ref[i];
      assertTrue(b == 'A' || b == 'C' || b == 'G' || b == 'T');
      if (b == 'G' || b == 'C') gc++;
      if (b == 'C') c++;
      if (b == 'G') g++;
      if (i > 0 && ref[i - 1] == 'C' && b == 'G') cpg++;
      run = i > 0 && ref[i - 1] == b ? run + 1 : 1;
      longestRun = Math.max(longestRun, run);
    }
    double gcFraction = gc / (double) ref.length;
    assertTrue(gcFraction > 0.37 && gcFraction < 0.45, "GC " + gcFraction);
    double cpgObservedOverExpected = cpg / ((double) c * g / ref.length);
    assertTrue(cpgObservedOverExpected < 0.5, "CpG o/e " + cpgObservedOverExpected);
    assertTrue(longestRun >= 8, "homopolymer runs present, longest " + longestRun);
    // the FASTA round-trips through htsjdk's indexed reader
    try (var fa = ReferenceSequenceFileFactory.getReferenceSequenceFile(files.reference())) {
      assertArrayEquals(ref, fa.getSequence(SyntheticSample.CONTIG).getBases());
      assertEquals(LENGTH, fa.getSequenceDictionary().getSequence(0).getSequenceLength());
    }
  }

  @Test
  void truthIsLeftNormalisedMatchesTheReferenceAndRoundTrips() {
    byte[] ref = sample.reference();
    List<TruthVariant> vs = sample.variants();
    long snps = vs.stream().filter(TruthVariant::isSnp).count();
    long indels = vs.size() - snps;
    assertTrue(snps >= LENGTH / 1000 * 0.8 && snps <= LENGTH / 1000 * 1.2, "SNPs " + snps);
    assertTrue(indels >= 1, "indels " + indels);
    long homAlt = vs.stream().filter(v -> v.haplotypeAlleles()[0] == v.haplotypeAlleles()[1]).count();
    assertTrue(homAlt > 0 && homAlt < vs.size(), "both het and hom-alt present");
    for (TruthVariant v : vs) {
      String actual = new String(ref, v.start(), v.ref().length(), StandardCharsets.US_ASCII);
      assertEquals(actual, v.ref(), "REF of " + v);
      assertTrue(v.isLeftNormalised(ref), "left-normalised: " + v.vcfPosition() + " " + v.ref() + ">" + v.alts());
      if (!v.isSnp()) assertTrue(canNotShiftLeft(ref, v), "brute force: " + v.vcfPosition());
      assertTrue(v.start() >= sample.confidentStart() && v.end() <= sample.confidentEnd());
    }
    try (VCFFileReader r = new VCFFileReader(files.truth(), true)) {
      List<VariantContext> read = new ArrayList<>();
      r.iterator().forEachRemaining(read::add);
      assertEquals(vs.size(), read.size());
      for (int i = 0; i < vs.size(); i++) {
        assertEquals(vs.get(i).vcfPosition(), read.get(i).getStart());
        assertEquals(vs.get(i).ref(), read.get(i).getReference().getBaseString());
        VariantContext vc = read.get(i);
        var gt = vc.getGenotype(SyntheticSample.SAMPLE);
        assertTrue(gt.isPhased());
        assertEquals(vs.get(i).haplotypeAlleles()[0], vc.getAlleleIndex(gt.getAllele(0)));
        assertEquals(vs.get(i).haplotypeAlleles()[1], vc.getAlleleIndex(gt.getAllele(1)));
      }
      // the tabix index answers a region query
      TruthVariant mid = vs.get(vs.size() / 2);
      assertTrue(r.query(SyntheticSample.CONTIG, mid.vcfPosition(), mid.vcfPosition()).hasNext());
    }
  }

  /** Independently of the formula: the haplotype spelled after shifting one base left differs. */
  private static boolean canNotShiftLeft(byte[] ref, TruthVariant v) {
    String alt = v.alts().get(0);
    String hap = spell(ref, v.start(), v.ref(), alt);
    int s = v.start() - 1;
    String shiftedRef = (char) ref[s] + v.ref().substring(0, v.ref().length() - 1);
    String shiftedAlt = (char) ref[s] + alt.substring(0, alt.length() - 1);
    return !spell(ref, s, shiftedRef, shiftedAlt).equals(hap);
  }

  private static String spell(byte[] ref, int start, String r, String a) {
    int from = Math.max(0, start - 30);
    int to = Math.min(ref.length, start + r.length() + 30);
    return new String(ref, from, start - from, StandardCharsets.US_ASCII) + a
        + new String(ref, start + r.length(), to - start - r.length(), StandardCharsets.US_ASCII);
  }

  @Test
  void bamValidatesIsSortedAndIndexed() throws IOException {
    SamReaderFactory f = SamReaderFactory.makeDefault().referenceSequence(files.reference())
        .validationStringency(ValidationStringency.STRICT);
    StringWriter report = new StringWriter();
    try (SamReader r = f.open(files.reads())) {
      SamFileValidator v = new SamFileValidator(new PrintWriter(report), 100);
      v.setValidateIndex(true);
      boolean ok = v.validateSamFileVerbose(r,
          ReferenceSequenceFileFactory.getReferenceSequenceFile(files.reference()));
      assertTrue(ok, report.toString());
    }
    assertEquals("No errors found", report.toString().trim(), "no warnings either");
    try (SamReader r = f.open(files.reads())) {
      assertTrue(r.hasIndex());
      SAMFileHeader h = r.getFileHeader();
      assertEquals(SAMFileHeader.SortOrder.coordinate, h.getSortOrder());
      assertEquals(SyntheticSample.SAMPLE, h.getReadGroup(SyntheticSample.SAMPLE).getSample());
      List<SAMRecord> all = new ArrayList<>();
      try (SAMRecordIterator it = r.iterator()) {
        it.forEachRemaining(all::add);
      }
      int expectedPairs = (int) Math.round(30.0 * LENGTH / (2 * SyntheticSample.READ_LENGTH));
      assertEquals(2 * expectedPairs, all.stream().filter(x -> !x.getDuplicateReadFlag()).count());
      long dups = all.stream().filter(SAMRecord::getDuplicateReadFlag).count();
      assertTrue(dups > 0 && dups < 0.05 * all.size(), "a few duplicates: " + dups);
      var cmp = new SAMRecordCoordinateComparator();
      for (int i = 1; i < all.size(); i++) assertTrue(cmp.compare(all.get(i - 1), all.get(i)) <= 0);
      int from = 9_000;
      int to = 9_400;
      long brute = all.stream().filter(x -> x.getAlignmentStart() <= to && x.getAlignmentEnd() >= from).count();
      int viaIndex = 0;
      try (SAMRecordIterator it = r.queryOverlapping(SyntheticSample.CONTIG, from, to)) {
        while (it.hasNext()) {
          it.next();
          viaIndex++;
        }
      }
      assertEquals(brute, viaIndex);
      double depth = all.stream().mapToLong(x -> Math.max(0, Math.min(x.getAlignmentEnd(), to) - Math.max(x.getAlignmentStart(), from) + 1)).sum()
          / (double) (to - from + 1);
      assertTrue(depth > 20 && depth < 45, "depth " + depth);
    }
  }

  /** Haplotype offset of each reference offset (-1 where this haplotype deletes the base). */
  private static int[] referenceToHaplotype(int[] hapToRef, int refLength) {
    int[] out = new int[refLength];
    java.util.Arrays.fill(out, -1);
    for (int i = 0; i < hapToRef.length; i++) if (hapToRef[i] >= 0) out[hapToRef[i]] = i;
    return out;
  }

  @Test
  void errorFreeReadsAreExactHaplotypeSubstringsWithTheRightCigar() throws IOException {
    // windows of 2 kb: many window seams, each crossed by fragments and by indels' reads
    SyntheticSample clean = SyntheticSample.generate(SEED, LENGTH, 10).withoutSequencingErrors().withWindowBases(2_000);
    SyntheticSample.Files f = clean.writeTo(tmp.resolve("clean"));
    int[][] refToHap = new int[2][];
    for (int h = 0; h < 2; h++) refToHap[h] = referenceToHaplotype(clean.haplotypeToReference(h), LENGTH);
    int reads = 0;
    int withIndel = 0;
    try (SamReader r = SamReaderFactory.makeDefault().open(f.reads())) {
      for (SAMRecord rec : r) {
        reads++;
        byte[] bases = rec.getReadBases();
        int leadingClip = rec.getCigar().getFirstCigarElement().getOperator() == htsjdk.samtools.CigarOperator.S
            ? rec.getCigar().getFirstCigarElement().getLength() : 0;
        boolean matched = false;
        for (int h = 0; h < 2 && !matched; h++) {
          int anchor = refToHap[h][rec.getAlignmentStart() - 1];
          if (anchor < 0) continue;
          int from = anchor - leadingClip;
          byte[] hap = clean.haplotype(h);
          if (from < 0 || from + bases.length > hap.length) continue;
          if (!java.util.Arrays.equals(bases, java.util.Arrays.copyOfRange(hap, from, from + bases.length))) continue;
          // the CIGAR and start an ideal aligner would give for that haplotype window
          Haplotype.Alignment expected = Haplotype.build(clean.reference(), clean.variants(), h).align(from, from + bases.length);
          if (expected.referenceStart() + 1 == rec.getAlignmentStart() && expected.cigar().equals(rec.getCigar())) matched = true;
        }
        assertTrue(matched, "read " + rec.getReadName() + " " + rec.getCigarString() + " at " + rec.getAlignmentStart());
        if (rec.getCigar().getCigarElements().stream().map(CigarElement::getOperator)
            .anyMatch(o -> o == htsjdk.samtools.CigarOperator.I || o == htsjdk.samtools.CigarOperator.D)) withIndel++;
        // through its CIGAR the read equals the reference except at truth SNP positions
        assertEquals(0, mismatchesOutsideSnps(rec, clean), rec.getReadName());
        if (reads > 3000 && withIndel > 20) break;
      }
    }
    assertTrue(withIndel > 0, "some reads carry I/D operations");
  }

  private static int mismatchesOutsideSnps(SAMRecord rec, SyntheticSample s) {
    byte[] ref = s.reference();
    java.util.Set<Integer> snpOffsets = new java.util.HashSet<>();
    for (TruthVariant v : s.variants()) if (v.isSnp()) snpOffsets.add(v.start());
    int bad = 0;
    for (var block : rec.getAlignmentBlocks()) {
      for (int i = 0; i < block.getLength(); i++) {
        int refOff = block.getReferenceStart() - 1 + i;
        byte b = rec.getReadBases()[block.getReadStart() - 1 + i];
        if (b != ref[refOff] && !snpOffsets.contains(refOff)) bad++;
      }
    }
    return bad;
  }

  @Test
  void sequencingErrorsFollowBaseQualitiesAndRiseTowardTheThreePrimeEnd() throws IOException {
    byte[] ref = sample.reference();
    java.util.Set<Integer> variantOffsets = new java.util.HashSet<>();
    for (TruthVariant v : sample.variants()) for (int i = v.start(); i <= v.end() + 12; i++) variantOffsets.add(i);
    long[] basesByQ = new long[64];
    long[] errorsByQ = new long[64];
    long[] basesEarly = new long[2];
    long[] errorsEarly = new long[2];
    try (SamReader r = SamReaderFactory.makeDefault().open(files.reads())) {
      for (SAMRecord rec : r) {
        assertEquals(60, rec.getMappingQuality());
        assertTrue(rec.getProperPairFlag() && rec.getReadPairedFlag() && !rec.getMateUnmappedFlag());
        assertNotNull(rec.getAttribute("MC"));
        assertEquals(rec.getMateNegativeStrandFlag(), !rec.getReadNegativeStrandFlag());
        byte[] q = rec.getBaseQualities();
        for (var block : rec.getAlignmentBlocks()) {
          for (int i = 0; i < block.getLength(); i++) {
            int refOff = block.getReferenceStart() - 1 + i;
            if (variantOffsets.contains(refOff)) continue; // keep variant sites out of the error count
            int readOff = block.getReadStart() - 1 + i;
            int cycle = rec.getReadNegativeStrandFlag() ? q.length - 1 - readOff : readOff;
            boolean error = rec.getReadBases()[readOff] != ref[refOff];
            basesByQ[q[readOff]]++;
            if (error) errorsByQ[q[readOff]]++;
            int half = cycle < q.length / 3 ? 0 : cycle >= 2 * q.length / 3 ? 1 : -1;
            if (half >= 0) {
              basesEarly[half]++;
              if (error) errorsEarly[half]++;
            }
          }
        }
      }
    }
    long bases = java.util.Arrays.stream(basesByQ).sum();
    long errors = java.util.Arrays.stream(errorsByQ).sum();
    double rate = errors / (double) bases;
    assertTrue(rate > 0.001 && rate < 0.01, "overall substitution error rate " + rate);
    assertTrue(basesByQ[37] > 0.7 * bases, "Q37 typical");
    double q37 = errorsByQ[37] / (double) basesByQ[37];
    long lowBases = 0;
    long lowErrors = 0;
    for (int q = 0; q <= 20; q++) {
      lowBases += basesByQ[q];
      lowErrors += errorsByQ[q];
    }
    double low = lowErrors / (double) lowBases;
    assertTrue(q37 < 0.001, "Q37 error rate " + q37);
    assertTrue(low > 0.05, "Q<=20 error rate " + low);
    double first = errorsEarly[0] / (double) basesEarly[0];
    double last = errorsEarly[1] / (double) basesEarly[1];
    assertTrue(last > 2 * first, "3' third " + last + " vs 5' third " + first);
  }
}
