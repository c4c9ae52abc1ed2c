package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.genome.TandemRepeat;
import dev.fastpipe.streaming.pileup.PileupLikelihood.SnpInputs;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The SNP likelihoods read back from an image the encoder drew: the figures are the formula's,
 * worked by hand, so a change to the channels' scaling or to the rows counted shows here.
 */
class PileupLikelihoodTest {
  static final int H = 40;
  static final int W = 101;
  static final int SITE = 200;
  final TestGenome g = new TestGenome("chrT", 400, 11);
  final PileupImageEncoder enc = new PileupImageEncoder(PileupImageEncoder.defaultChannels(6), H, W);
  final char alt = g.ref[SITE] == 'A' ? 'C' : 'A';
  final List<SAMRecord> reads = new ArrayList<>();
  final List<Integer> support = new ArrayList<>();

  /**
   * A 100 bp read over the site with {@code base} there at base quality {@code q}, MAPQ {@code mq};
   * reads alternate between the forward strand (the first) and the reverse strand.
   */
  void read(char base, int q, int mq) {
    read(base, q, mq, reads.size() % 2 == 1);
  }

  void read(char base, int q, int mq, boolean reverse) {
    String seq = TestGenome.mutate(g.refString(SITE - 50, SITE + 50), 50, base);
    SAMRecord r = g.read(SITE - 50, "100M", seq);
    byte[] quals = new byte[100];
    Arrays.fill(quals, (byte) 35);
    quals[50] = (byte) q;
    r.setBaseQualities(quals);
    r.setMappingQuality(mq);
    r.setReadNegativeStrandFlag(reverse);
    reads.add(r);
    support.add(base == alt ? 1 : base == (char) g.ref[SITE] ? 0 : 2);
  }

  UnsafeBuffer encoded() {
    UnsafeBuffer buf = new UnsafeBuffer(new byte[H * W * 6 + 16]);
    enc.encode(buf, 8, g.ref, 0, SITE - W / 2, reads.toArray(new SAMRecord[0]),
        support.stream().mapToInt(Integer::intValue).toArray(), reads.size());
    return buf;
  }

  /** The strand artifact rate the tests call with. */
  double rate = StrandArtifactRate.DEFAULT;
  IndelErrorRate indelErrors = IndelErrorRate.assumed();

  float[] likelihoods() {
    return PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
  }

  /** A read's error at base quality {@code bq} and mapping quality {@code mq}: either kind of error. */
  static double err(int bq, int mq) {
    double b = Math.pow(10, -bq / 10.0);
    double m = Math.pow(10, -mq / 10.0);
    return b + m - b * m;
  }

  static double log10Half(double e) {
    return Math.log10((1 - e) / 2 + e / 6);
  }

  /**
   * log10 L(0/0) as the class documents it: the strands' hom-ref likelihoods, plus for each strand
   * with alt reads the artifact p_a/2 * B(alts + 1, refs + 1) * the other strand's hom-ref.
   */
  static double homRef(double[] strandHomRef, int[] alts, int[] refs, double rate) {
    double l = Math.pow(10, strandHomRef[0] + strandHomRef[1]);
    for (int s = 0; s < 2; s++) {
      if (alts[s] == 0) continue;
      double beta = factorial(alts[s]) * factorial(refs[s]) / factorial(alts[s] + refs[s] + 1);
      l += rate / 2 * beta * Math.pow(10, strandHomRef[1 - s]);
    }
    return Math.log10(l);
  }

  /** Eleven reference reads and two alt reads, all at Q37 and MAPQ 60, strands alternating. */
  void twoAltReadsOfThirteen() {
    for (int i = 0; i < 11; i++) read((char) g.ref[SITE], 37, 60);
    read(alt, 37, 60);
    read(alt, 37, 60);
  }

  /**
   * log10 L(0/0) of the tests' two alt reads of thirteen at read error {@code e}: forward, 6 ref
   * reads and the second alt; reverse, 5 ref reads and the first alt.
   */
  double homRefOfTwoInThirteen(double e) {
    double fwd = 6 * Math.log10(1 - e) + Math.log10(e / 3);
    double rev = 5 * Math.log10(1 - e) + Math.log10(e / 3);
    return homRef(new double[] {fwd, rev}, new int[] {1, 1}, new int[] {6, 5}, rate);
  }

  static double factorial(int n) {
    double f = 1;
    for (int k = 2; k <= n; k++) f *= k;
    return f;
  }

  @Test
  void twoAltReadsOfThirteenAtQ37FavourAHetByTheFormula() {
    twoAltReadsOfThirteen();
    float[] gl = likelihoods();
    double e = err(37, 60);
    double l00 = homRefOfTwoInThirteen(e);
    double l01 = 13 * log10Half(e);
    double l11 = 2 * Math.log10(1 - e) + 11 * Math.log10(e / 3);
    double max = Math.max(l00, Math.max(l01, l11));
    assertEquals(l00 - max, gl[0], 1e-4);
    assertEquals(0, gl[1], 1e-6, "het is the likeliest");
    assertEquals(l11 - max, gl[2], 1e-4);
    assertEquals(-4.43, gl[0], 0.01, "2 alt reads at Q37, one a strand, make 0/1 about 10^4.4 times likelier than 0/0");
  }

  /**
   * A read from {@code start} ({@code length} bases, Q35 but {@code q} at the site) showing {@code
   * base} at the site and {@code next} one base after it; strands alternate.
   */
  void readWithNext(char base, char next, int q, int start, int length) {
    String seq = TestGenome.mutate(TestGenome.mutate(g.refString(start, start + length), SITE - start, base), SITE + 1 - start, next);
    gaplessRead(start, seq, q, base == alt ? 1 : 0);
  }

  /** A read of {@code seq} from {@code start} without a gap, Q35 but {@code q} at the site, MAPQ 60; strands alternate. */
  void gaplessRead(int start, String seq, int q, int supports) {
    SAMRecord r = g.read(start, seq.length() + "M", seq);
    byte[] quals = new byte[seq.length()];
    Arrays.fill(quals, (byte) 35);
    quals[SITE - start] = (byte) q;
    r.setBaseQualities(quals);
    r.setMappingQuality(60);
    r.setReadNegativeStrandFlag(reads.size() % 2 == 1);
    reads.add(r);
    support.add(supports);
  }

  /**
   * Eleven reference reads showing {@code refNext} one base after the site and two alt reads from
   * {@code altStart} showing {@code altNext} there, all 100 bases at Q37 at the site.
   */
  void elevenReferenceAndTwoAltReads(char refNext, char altNext, int altStart) {
    for (int i = 0; i < 11; i++) readWithNext((char) g.ref[SITE], refNext, 37, SITE - 50, 100);
    readWithNext(alt, altNext, 37, altStart, 100);
    readWithNext(alt, altNext, 37, altStart, 100);
  }

  /** A base other than the reference's one after the site (the second base of the tests' MNP). */
  char nextAlt() {
    return g.ref[SITE + 1] == 'G' ? 'T' : 'G';
  }

  /** log10 {0/0, 0/1, 1/1} of {@code refs} reference and {@code alts} alt reads at error e, no artifact, largest 0. */
  static double[] plainLikelihoods(int refs, double eRef, int alts, double eAlt) {
    double[] l = {
        refs * Math.log10(1 - eRef) + alts * Math.log10(eAlt / 3),
        refs * log10Half(eRef) + alts * log10Half(eAlt),
        refs * Math.log10(eRef / 3) + alts * Math.log10(1 - eAlt)};
    return largestZero(l);
  }

  /** {@code l} less its largest value. */
  static double[] largestZero(double[] l) {
    double max = Math.max(l[0], Math.max(l[1], l[2]));
    for (int g = 0; g < 3; g++) l[g] -= max;
    return l;
  }

  @Test
  void aSnpsReadsAreReadWithTheSecondBaseOfAnMnpTheirAltReadsShare() {
    // blind70's ATA>CGT at 10x: A>C and A>T PASS on AD 6,2 and T>G between them RefCall, on the same
    // two reads; as one variant, two reads that carry both changed bases are two errors each under
    // hom-ref, and the reference reads that carry neither two errors each under hom-alt
    rate = 0;
    elevenReferenceAndTwoAltReads((char) g.ref[SITE + 1], nextAlt(), SITE - 50);
    float[] gl = likelihoods();
    double linked = combined(Math.pow(10, -3.7) * Math.pow(10, -3.5) / 3, Math.pow(10, -6));
    double[] expected = plainLikelihoods(11, linked, 2, linked);
    for (int g = 0; g < 3; g++) assertEquals(expected[g], gl[g], 1e-3, "genotype " + g + ": " + Arrays.toString(gl));
    double[] alone = plainLikelihoods(11, err(37, 60), 2, err(37, 60));
    assertTrue(gl[0] < alone[0] - 3, "hom-ref at least 10^3 times less likely than for a SNP alone: " + Arrays.toString(gl));
  }

  static double combined(double a, double b) {
    return a + b - a * b;
  }

  /** The column of the tests' het beside the site, and its base other than the reference's. */
  static final int HET_OFFSET = 20;

  char hetBase() {
    return g.ref[SITE + HET_OFFSET] == 'G' ? 'T' : 'G';
  }

  /** A 100 bp read from SITE - 50 showing {@code base} at the site and the het's other base beside it ({@code onA}) or the reference's. */
  void phasedRead(char base, boolean onA) {
    String seq = TestGenome.mutate(g.refString(SITE - 50, SITE + 50), 50, base);
    if (onA) seq = TestGenome.mutate(seq, 50 + HET_OFFSET, hetBase());
    gaplessRead(SITE - 50, seq, 37, base == alt ? 1 : 0);
  }

  /** A read from SITE - 50 showing {@code base} at the site that ends before the het's column. */
  void readEndingBeforeTheHet(char base) {
    gaplessRead(SITE - 50, TestGenome.mutate(g.refString(SITE - 50, SITE + HET_OFFSET - 5), 50, base), 37, base == alt ? 1 : 0);
  }

  /**
   * log10 {0/0, 0/1, 1/1}, largest 0, of reads at error e (no artifact), reference reads {@code refsOnA}
   * and {@code refsOnB} and alt reads {@code altsOnA} and {@code altsOnB} on the two haplotypes of a het
   * column whose bases err at q: hom-ref and hom-alt as unphased, het as the column's het (1 - PHASE_COLUMN_ERROR)
   * with the alt on A or B, half and half, or as unphased reads.
   */
  static double[] phasedLikelihoods(int refsOnA, int refsOnB, int altsOnA, int altsOnB, double e, double q) {
    int refs = refsOnA + refsOnB, alts = altsOnA + altsOnB;
    double homRef = refs * Math.log10(1 - e) + alts * Math.log10(e / 3);
    double homAlt = refs * Math.log10(e / 3) + alts * Math.log10(1 - e);
    double unphased = refs * log10Half(e) + alts * log10Half(e);
    // a read of P(ref hap) r and P(alt hap) o: on the alt's haplotype (1-q) o + q r, on the other (1-q) r + q o
    double refOnIts = Math.log10((1 - q) * e / 3 + q * (1 - e)), refOnOther = Math.log10((1 - q) * (1 - e) + q * e / 3);
    double altOnIts = Math.log10((1 - q) * (1 - e) + q * e / 3), altOnOther = Math.log10((1 - q) * e / 3 + q * (1 - e));
    double altOnA = refsOnA * refOnIts + refsOnB * refOnOther + altsOnA * altOnIts + altsOnB * altOnOther;
    double altOnB = refsOnB * refOnIts + refsOnA * refOnOther + altsOnB * altOnIts + altsOnA * altOnOther;
    double eps = PileupLikelihood.PHASE_COLUMN_ERROR;
    double het = Math.log10((1 - eps) * (Math.pow(10, altOnA) + Math.pow(10, altOnB)) / 2 + eps * Math.pow(10, unphased));
    return largestZero(new double[] {homRef, het, homAlt});
  }

  @Test
  void twoAltReadsOnBothHaplotypesOfAHetBesideTheSiteAreNoHetsReads() {
    // at a real het every read of the alt's haplotype shows the alt; two error reads fall on both
    // haplotypes beside reads of the same haplotype that show the reference (10-15x: 0/1 on AD 11,2)
    rate = 0;
    for (int i = 0; i < 5; i++) phasedRead((char) g.ref[SITE], true);
    for (int i = 0; i < 6; i++) phasedRead((char) g.ref[SITE], false);
    phasedRead(alt, true);
    phasedRead(alt, false);
    float[] gl = likelihoods();
    double[] expected = phasedLikelihoods(5, 6, 1, 1, err(37, 60), Math.pow(10, -3.5));
    for (int g = 0; g < 3; g++) assertEquals(expected[g], gl[g], 1e-3, "genotype " + g + ": " + Arrays.toString(gl));
    double[] plain = plainLikelihoods(11, err(37, 60), 2, err(37, 60));
    assertTrue(gl[1] - gl[0] < plain[1] - plain[0] - 1.5,
        "het at least 10^1.5 times less likely against hom-ref than unphased: " + Arrays.toString(gl) + " " + Arrays.toString(plain));
  }

  @Test
  void aHetsAltReadsAllOnOneHaplotypeOfAHetBesideItAreAHetsReads() {
    // three alt reads of twelve, all on the haplotype whose other reads are absent: a het that
    // sampled its alt's haplotype thinly, likelier than unphased reads say
    rate = 0;
    for (int i = 0; i < 9; i++) phasedRead((char) g.ref[SITE], false);
    for (int i = 0; i < 3; i++) phasedRead(alt, true);
    float[] gl = likelihoods();
    double[] expected = phasedLikelihoods(0, 9, 3, 0, err(37, 60), Math.pow(10, -3.5));
    for (int g = 0; g < 3; g++) assertEquals(expected[g], gl[g], 1e-3, "genotype " + g + ": " + Arrays.toString(gl));
    double[] plain = plainLikelihoods(9, err(37, 60), 3, err(37, 60));
    assertTrue(gl[0] < plain[0] - 2, "hom-ref at least 10^2 times less likely against het than unphased: " + Arrays.toString(gl));
  }

  @Test
  void aColumnThatIsNoClearHetOrSitsBesideASharedIndelPhasesNoRead() {
    rate = 0;
    double[] plain = plainLikelihoods(11, err(37, 60), 2, err(37, 60));
    // the other base on two reads of six only: an error pair, not a het (the other reads end before it)
    for (int i = 0; i < 2; i++) phasedRead((char) g.ref[SITE], true);
    for (int i = 0; i < 4; i++) phasedRead((char) g.ref[SITE], false);
    for (int i = 0; i < 5; i++) readEndingBeforeTheHet((char) g.ref[SITE]);
    for (int i = 0; i < 2; i++) readEndingBeforeTheHet(alt);
    assertArrayEquals(toFloats(plain), likelihoods(), 1e-3f, "two reads of the other base");
    // a clear het column, but three reads share a deletion anchored beside it
    reads.clear();
    support.clear();
    for (int i = 0; i < 5; i++) phasedRead((char) g.ref[SITE], true);
    for (int i = 0; i < 6; i++) phasedRead((char) g.ref[SITE], false);
    phasedRead(alt, true);
    phasedRead(alt, false);
    for (int i = 0; i < 3; i++) { // reads after the site whose deletion is anchored a base past the het column
      String seq = g.refString(SITE + 1, SITE + HET_OFFSET + 2) + g.refString(SITE + HET_OFFSET + 4, SITE + HET_OFFSET + 82);
      SAMRecord r = g.read(SITE + 1, (HET_OFFSET + 1) + "M2D78M", seq);
      byte[] quals = new byte[seq.length()];
      Arrays.fill(quals, (byte) 35);
      r.setBaseQualities(quals);
      r.setMappingQuality(60);
      reads.add(r);
      support.add(0);
    }
    assertArrayEquals(toFloats(plain), likelihoods(), 1e-3f,
        "the het column beside a shared deletion phases nothing");
  }

  @Test
  void aSecondChangedBaseThatTheReferenceReadsShareOrThatSitsAtAReadsEndIsNotTheSnps() {
    rate = 0;
    // a hom-alt neighbour: the reference reads show it too, so it says nothing of the SNP's reads
    elevenReferenceAndTwoAltReads(nextAlt(), nextAlt(), SITE - 50);
    assertArrayEquals(toFloats(plainLikelihoods(11, err(37, 60), 2, err(37, 60))), likelihoods(), 1e-3f);
    // the alt reads end within LINK_MARGIN bases of the changed pair: an aligner's way with a read
    // that ends in an indel, so no read is read with it
    reads.clear();
    support.clear();
    elevenReferenceAndTwoAltReads((char) g.ref[SITE + 1], nextAlt(), SITE - 96);
    assertArrayEquals(toFloats(plainLikelihoods(11, err(37, 60), 2, err(37, 60))), likelihoods(), 1e-3f);
  }

  @Test
  void changedBasesBesideAnIndelThatReadsShareAreNotOneVariantsReads() {
    // blind66-69's stutter samples: reads of a deletion in a repeat laid without its gap share changed
    // bases beside it, a false G>T at AD 10,10 two bases after a (GT)n unit's deletion, 0/1 at GQ 38
    rate = 0;
    elevenReferenceAndTwoAltReads((char) g.ref[SITE + 1], nextAlt(), SITE - 50);
    for (int i = 0; i < 3; i++) referenceReadWithADeletionBeforeTheSite();
    float[] besideADeletion = likelihoods();
    reads.clear();
    support.clear();
    elevenReferenceAndTwoAltReads((char) g.ref[SITE + 1], (char) g.ref[SITE + 1], SITE - 50);
    for (int i = 0; i < 3; i++) referenceReadWithADeletionBeforeTheSite();
    assertArrayEquals(likelihoods(), besideADeletion, 1e-4f, "as the SNP alone");
  }

  @Test
  void altReadsWhoseChangedBasesAreTheReferenceMovedAColumnAreNotOneVariantsReads() {
    // ...AAAAAA CG AAAAAA... read as ...AAAAA CGA AAAAA...: a read that lost an A before the CG, laid
    // without its gap, shows three changed bases that are the reference's one column on
    rate = 0;
    for (int i = SITE - 10; i <= SITE + 10; i++) g.ref[i] = 'A';
    g.ref[SITE] = 'C';
    g.ref[SITE + 1] = 'G';
    for (int i = 0; i < 11; i++) readWithNext('C', 'G', 37, SITE - 50, 100);
    for (int i = 0; i < 2; i++) gaplessRead(SITE - 50, g.refString(SITE - 50, SITE - 1) + "CGA" + g.refString(SITE + 2, SITE + 50), 37, 1);
    float[] gl = likelihoods();
    assertArrayEquals(toFloats(plainLikelihoods(11, err(37, 60), 2, err(37, 60))), gl, 1e-3f, "as a SNP's reads alone");
  }

  @Test
  void altReadsThatAreTheReferenceMovedOnOneSideOfAnInsertionAreNotOneVariantsReads() {
    // blind69's het insertion of AA in TG AAAAA CCTCTC..., its reads laid without the gap: TG AAAAA
    // AACTCTC..., C>A, C>A and T>C after the run, plain before it, the reference two columns back after
    rate = 0;
    String tail = "CCTCTCTCTCTCTCTC";
    g.ref[SITE - 7] = 'T';
    g.ref[SITE - 6] = 'G';
    for (int i = SITE - 5; i < SITE; i++) g.ref[i] = 'A';
    for (int i = 0; i < tail.length(); i++) g.ref[SITE + i] = (byte) tail.charAt(i);
    for (int i = 0; i < 11; i++) readWithNext('C', 'C', 37, SITE - 50, 100);
    for (int i = 0; i < 2; i++) gaplessRead(SITE - 50, g.refString(SITE - 50, SITE) + "AA" + g.refString(SITE, SITE + 48), 37, 1);
    assertArrayEquals(toFloats(plainLikelihoods(11, err(37, 60), 2, err(37, 60))), likelihoods(), 1e-3f, "as a SNP's reads alone");
  }

  static float[] toFloats(double[] d) {
    float[] f = new float[d.length];
    for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
    return f;
  }

  /** Rows {@code a[k]} and {@code b[k]} (read rows, 0 = the first) are the two mates of fragment k; every other row -1. */
  int[] mates(int[] a, int[] b) {
    int[] mate = new int[reads.size()];
    Arrays.fill(mate, -1);
    for (int k = 0; k < a.length; k++) {
      mate[a[k]] = b[k];
      mate[b[k]] = a[k];
    }
    return mate;
  }

  @Test
  void twoAltReadsWhoseMatesShowTheReferenceAreNoEvidenceOfAHet() {
    twoAltReadsOfThirteen(); // rows 11 (reverse) and 12 (forward): mates of rows 0 (forward) and 1 (reverse)
    int[] mate = mates(new int[] {0, 1}, new int[] {11, 12});
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withMates(mate));
    double e = err(37, 60);
    double l00 = homRefOfTwoInThirteen(e); // hom-ref: each read errs on its own, as without mates
    // het: nine reads apart, and two fragments each the reference's (its alt mate erred) or the alt's (its ref mate erred)
    double l01 = 9 * log10Half(e) + 2 * Math.log10(((1 - e) * (e / 3) + (e / 3) * (1 - e)) / 2);
    double l11 = 2 * Math.log10(1 - e) + 11 * Math.log10(e / 3);
    double max = Math.max(l00, Math.max(l01, l11));
    assertEquals(0, gl[0], 1e-6, "hom-ref is the likeliest");
    assertEquals(l01 - max, gl[1], 1e-4);
    assertEquals(l11 - max, gl[2], 1e-4);
    assertTrue(gl[1] < -2.5, "one mate's alt against the other's reference is an error, not a het: " + gl[1]);
    float[] apart = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
    assertEquals(0, apart[1], 1e-6, "the same reads taken apart favour a het");
  }

  @Test
  void twoMatesThatBothShowTheAltAreOneFragment() {
    twoAltReadsOfThirteen(); // rows 11 and 12, one fragment
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withMates(mates(new int[] {11}, new int[] {12})));
    double e = err(37, 60);
    double l00 = homRefOfTwoInThirteen(e);
    double l01 = 11 * log10Half(e) + Math.log10(((e / 3) * (e / 3) + (1 - e) * (1 - e)) / 2);
    double l11 = 2 * Math.log10(1 - e) + 11 * Math.log10(e / 3);
    double max = Math.max(l00, Math.max(l01, l11));
    assertEquals(0, gl[1], 1e-6, "a fragment with the alt in both reads is still a het");
    assertEquals(l00 - max, gl[0], 1e-4);
    assertEquals(l11 - max, gl[2], 1e-4);
    float[] apart = likelihoods();
    assertTrue(gl[0] < apart[0], "one fragment's two agreeing reads still outweigh hom-ref's errors: " + gl[0] + " vs " + apart[0]);
  }

  @Test
  void aMateWithoutABaseAtTheSiteLeavesItsPartnerOnItsOwn() {
    twoAltReadsOfThirteen();
    read('N', 37, 60); // row 13: no A, C, G or T at the site, so it counts for nothing
    int[] mate = mates(new int[] {12}, new int[] {13});
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withMates(mate));
    reads.remove(13);
    support.remove(13);
    assertArrayEquals(likelihoods(), gl, 1e-6f);
  }

  @Test
  void aReadsMappingErrorAddsToItsBaseError() {
    for (int i = 0; i < 5; i++) read((char) g.ref[SITE], 37, 60);
    read(alt, 37, 10);
    read(alt, 37, 10);
    float[] gl = likelihoods();
    double e10 = err(37, 10);
    double e37 = err(37, 60);
    // Forward: 3 ref reads and the second alt (read 6); reverse: 2 ref reads and the first alt.
    double fwd = 3 * Math.log10(1 - e37) + Math.log10(e10 / 3);
    double rev = 2 * Math.log10(1 - e37) + Math.log10(e10 / 3);
    double l00 = homRef(new double[] {fwd, rev}, new int[] {1, 1}, new int[] {3, 2}, rate);
    double l01 = 5 * log10Half(e37) + 2 * log10Half(e10);
    assertEquals(l00 - l01, gl[0] - gl[1], 1e-4, "the alt reads' error is their MAPQ 10's, not their base quality 37's");
  }

  @Test
  void otherBasesAndReadsWithoutABaseAtTheSiteCountForNothing() {
    for (int i = 0; i < 6; i++) read((char) g.ref[SITE], 30, 60);
    for (int i = 0; i < 6; i++) read(alt, 30, 60);
    float[] before = likelihoods();
    char other = (char) "ACGT".chars().filter(c -> c != g.ref[SITE] && c != alt).findFirst().getAsInt();
    read(other, 30, 60);
    SAMRecord deletion = g.read(SITE - 50, "50M2D50M", g.refString(SITE - 50, SITE) + g.refString(SITE + 2, SITE + 52));
    reads.add(deletion);
    support.add(0);
    reads.add(g.refRead(SITE + 1, 30)); // starts after the site
    support.add(0);
    float[] after = likelihoods();
    for (int k = 0; k < 3; k++) assertEquals(before[k], after[k], 1e-6);
    assertEquals(0, after[1], 1e-6, "six of twelve is a het");
    double e = err(30, 60);
    double strand = 3 * Math.log10(1 - e) + 3 * Math.log10(e / 3); // each strand: 3 ref and 3 alt reads
    double l00 = homRef(new double[] {strand, strand}, new int[] {3, 3}, new int[] {3, 3}, rate);
    assertEquals(l00 - 12 * log10Half(e), after[0], 1e-4);
    assertEquals(6 * Math.log10(1 - e) + 6 * Math.log10(e / 3) - 12 * log10Half(e), after[2], 1e-4, "hom-alt by the formula");
  }

  /** A read showing the reference at the site with a one-base deletion of its own three bases before it. */
  void referenceReadWithADeletionBeforeTheSite() {
    SAMRecord r = g.read(SITE - 50, "47M1D53M", g.refString(SITE - 50, SITE - 3) + g.refString(SITE - 2, SITE + 51));
    byte[] quals = new byte[100];
    Arrays.fill(quals, (byte) 35);
    r.setBaseQualities(quals);
    reads.add(r);
    support.add(0);
  }

  @Test
  void aReferenceReadWithAnIndelOfItsOwnBesideTheSiteCountsForNothing() {
    for (int i = 0; i < 12; i++) read(alt, 35, 60);
    float[] homAlt = likelihoods();
    // An aligner moves a read's own indel error so that a hom-alt SNP's base lines up as the reference.
    referenceReadWithADeletionBeforeTheSite();
    assertArrayEquals(homAlt, likelihoods(), 1e-6f, "a lone indel three columns away: the read says nothing");
    // Three reads with the same deletion are a variant's: their reference bases count.
    referenceReadWithADeletionBeforeTheSite();
    referenceReadWithADeletionBeforeTheSite();
    float[] shared = likelihoods();
    double e = err(35, 60);
    assertEquals(3 * Math.log10(e / 3) - 3 * log10Half(e) - 12 * log10Half(e) + 12 * Math.log10(1 - e), shared[2] - shared[1], 1e-4,
        "hom-alt against het by the formula, the three reference reads in");
  }

  /** Every class of repeat slipping at {@code rate} a read. */
  static IndelErrorRate slipsEverywhere(double rate) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, rate);
    return new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  float[] likelihoods(IndelErrorRate slips) {
    return PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withSlips(slips));
  }

  @Test
  void anAltReadWithAnIndelOfItsOwnWhereTheSampleSlipsCountsForNothing() {
    for (int i = 0; i < 12; i++) read((char) g.ref[SITE], 35, 60);
    float[] homRef = likelihoods(slipsEverywhere(0.05));
    // the aligner's mismatch beside its own indel (a slip it wrote as a gap and a base) is no SNP's
    // where the sample slips beyond the envelope; elsewhere it may be a het's read with an indel error
    String seq = g.refString(SITE - 50, SITE - 3) + g.refString(SITE - 2, SITE) + alt + g.refString(SITE + 1, SITE + 51);
    SAMRecord r = g.read(SITE - 50, "47M1D53M", seq);
    byte[] quals = new byte[100];
    Arrays.fill(quals, (byte) 35);
    r.setBaseQualities(quals);
    reads.add(r);
    support.add(1);
    assertArrayEquals(homRef, likelihoods(slipsEverywhere(0.05)), 1e-6f, "a lone indel three columns from an alt read: the read says nothing");
    assertTrue(likelihoods(slipsEverywhere(1e-4))[1] > homRef[1] + 1, "a clean sample's: the alt read counts");
  }

  /**
   * blind80's HSXn 20x with stutter: a hom-alt deletion of an AT in CAC(AT)n, anchored on the C two
   * columns after a SNP candidate; two reads one AT longer elsewhere, which the aligner wrote as a
   * 2-base deletion at the same anchor and a mismatch at the candidate, made a false het on AD 12,2.
   * Their indel shares the column with the variant's 12 reads, not its form: it is the reads' own.
   */
  @Test
  void anAltReadWhoseIndelSharesAVariantsAnchorButNotItsLengthIsASlipWhereTheSampleSlips() {
    byte[] ref = "CACATATATATACG".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = 0; i < ref.length; i++) g.ref[SITE + i] = ref[i]; // the candidate C>A at SITE, the anchor C at SITE + 2
    String before = g.refString(SITE - 50, SITE);
    String variant = before + "CAC" + g.refString(SITE + 7, SITE + 60); // AT AT deleted after the anchor
    String slipped = before + alt + "AC" + g.refString(SITE + 5, SITE + 60); // AT deleted, the candidate's base changed
    for (int i = 0; i < 12; i++) stutterRead(variant.substring(0, 100), "53M4D47M", 0);
    IndelErrorRate stutter = repeatSlips(9, 2, 0.06); // (AT)4 and the A after the anchor: a dinucleotide repeat of 9
    float[] without = likelihoods(stutter);
    for (int i = 0; i < 2; i++) stutterRead(slipped.substring(0, 100), "53M2D47M", 1);
    float[] clean = likelihoods(repeatSlips(9, 2, 1e-4));
    float[] slipping = likelihoods(stutter);
    assertEquals(0f, clean[1], "a clean sample's two alt reads of fourteen: a het " + Arrays.toString(clean));
    assertArrayEquals(without, slipping, 1e-6f, "the stutter sample's: the two reads' own slips count for nothing");
    assertTrue(slipping[1] < -3, "twelve reference reads against a het: " + Arrays.toString(slipping));
    // The variant's own form beside the candidate stays a variant's: alt reads that carry the 4-base
    // deletion (a SNP in phase with it) count.
    reads.clear();
    support.clear();
    String phased = before + alt + "AC" + g.refString(SITE + 7, SITE + 60);
    for (int i = 0; i < 10; i++) stutterRead(variant.substring(0, 100), "53M4D47M", 0);
    for (int i = 0; i < 8; i++) stutterRead(phased.substring(0, 100), "53M4D47M", 1);
    assertEquals(0f, likelihoods(stutter)[1], "a het in phase with the deletion " + Arrays.toString(likelihoods(stutter)));
  }

  @Test
  void aSampleWhoseQualitiesLieGivesEachBaseItsMeasuredRate() {
    // Two Q37 alt reads of thirteen, in a window of clean reads: the window's factor stays 1.
    twoAltReadsOfThirteen();
    float[] promised = likelihoods();
    // The sample's first reads showed its Q37 bases wrong 0.3 % of the time, its Q35 bases 0.2 %.
    long[] bases = new long[BaseErrorRate.qualities()];
    long[] mismatches = new long[BaseErrorRate.qualities()];
    bases[37] = 10_000_000;
    mismatches[37] = 30_000;
    bases[35] = 10_000_000;
    mismatches[35] = 20_000;
    BaseErrorRate measured = BaseErrorRate.measure(bases, mismatches);
    assertEquals(0.003, measured.at(37), 1e-5);
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(measured));
    // The window's factor is against the measured rates (its other bases are Q35, clean): 1.
    assertEquals(1.0, PileupLikelihood.errorFactor(encoded(), 8, H, W, 6, measured), 1e-9);
    double b = measured.at(37);
    double e = b + 1e-6 - b * 1e-6;
    double l00 = homRefOfTwoInThirteen(e);
    double l01 = 13 * log10Half(e);
    assertEquals(l00 - l01, gl[0] - gl[1], 1e-3);
    assertTrue(gl[0] > promised[0] + 1.5, "two alt reads weigh 10^1.5 times less where Q37 errs at 0.3 %: "
        + gl[0] + " vs " + promised[0]);
    assertArrayEquals(promised, PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate)), 0f,
        "qualities as they promise: the likelihood of old");
  }

  @Test
  void aSnpsReadsErrAtTheirBasesPlaceInTheRead() {
    // Two Q37 alt reads of thirteen, in a sample whose Q37 bases err at 0.025 % in the first fifth of a
    // read and at 0.5 % in the last (dwgsim's and Mason's grow so), 0.15 % in between.
    twoAltReadsOfThirteen();
    BaseErrorRate measured = BaseErrorRateTest.alongTheRead(37, 2_000_000, new long[] {500, 3_000, 3_000, 3_000, 10_000});
    byte[] early = new byte[H];
    byte[] late = new byte[H];
    Arrays.fill(early, (byte) 10);
    Arrays.fill(late, (byte) 240);
    float[] atEarly = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(measured).withCycles(early));
    float[] atLate = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(measured).withCycles(late));
    float[] anywhere = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(measured));
    assertTrue(measured.at(37, 240) > 10 * measured.at(37, 10), measured.describe());
    assertTrue(atLate[0] - atLate[1] > anywhere[0] - anywhere[1] + 0.5 && anywhere[0] - anywhere[1] > atEarly[0] - atEarly[1] + 0.5,
        "two late alt bases are likelier errors than two anywhere, and those than two early ones: " + Arrays.toString(atEarly)
            + ", " + Arrays.toString(anywhere) + ", " + Arrays.toString(atLate));
    byte[] unknown = new byte[H];
    Arrays.fill(unknown, (byte) BaseErrorRate.NO_CYCLE);
    assertArrayEquals(anywhere, PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(measured).withCycles(unknown)), 0f,
        "places not known: each quality's rate, as before");
  }

  @Test
  void basesThatErrMoreOftenThanTheirQualitiesSayAreTrustedLess() {
    // dwgsim-like reads: every base Q37, yet one base in fifty (away from the site) is wrong.
    twoAltReadsOfThirteen();
    float[] clean = likelihoods();
    java.util.Random rnd = new java.util.Random(5);
    int errors = 0;
    for (SAMRecord r : reads) {
      byte[] b = r.getReadBases();
      for (int k = 0; k < b.length; k++) {
        if (Math.abs(k - 50) > 1 && rnd.nextInt(50) == 0) {
          b[k] = (byte) (b[k] == 'A' ? 'C' : 'A');
          errors++;
        }
      }
      r.setReadBases(b);
    }
    float[] noisy = likelihoods();
    assertTrue(errors > 5, "errors drawn: " + errors);
    // The factor is what the window shows: mismatches against what Q35 promises, one pseudo-count each.
    double factor = PileupLikelihood.errorFactor(encoded(), 8, H, W, 6);
    double promised = 13 * 98 * Math.pow(10, -3.5);
    double all = (errors + 1) / (promised + 1);
    assertTrue(factor <= all && factor > 0.6 * all, "errors that two reads share in a column look like a variant and do"
        + " not count; the rest do: " + factor + " of " + all);
    assertTrue(factor > 10, "factor " + factor);
    double e = Math.min(0.75, factor * Math.pow(10, -3.7));
    e = e + 1e-6 - e * 1e-6;
    double expected = homRefOfTwoInThirteen(e) - 13 * log10Half(e);
    assertEquals(expected, noisy[0] - noisy[1], 1e-3);
    assertTrue(noisy[0] > clean[0] + 2, "two alt reads weigh less where the reads err often: " + noisy[0] + " vs " + clean[0]);
  }

  @Test
  void altReadsOnOneStrandOnlyAreAnArtifactWhileTheSameCountsOnBothStrandsAreAHet() {
    // An injected strand error: 8 of the 13 forward reads show the alt at Q20, no reverse read does.
    for (int i = 0; i < 13; i++) read(i < 8 ? alt : (char) g.ref[SITE], 20, 60, false);
    for (int i = 0; i < 13; i++) read((char) g.ref[SITE], 20, 60, true);
    float[] oneStrand = likelihoods();
    // The pileup's posterior odds of hom-ref over het, with the het prior 1.1e-3: about 100 to 1.
    assertTrue(oneStrand[1] - oneStrand[0] + Math.log10(1.1e-3) < -1.9, Arrays.toString(oneStrand));
    double e = err(20, 60);
    double fwd = 8 * Math.log10(e / 3) + 5 * Math.log10(1 - e);
    double rev = 13 * Math.log10(1 - e);
    double l00 = homRef(new double[] {fwd, rev}, new int[] {8, 0}, new int[] {5, 13}, rate);
    assertEquals(26 * log10Half(e) - l00, oneStrand[1] - oneStrand[0], 1e-4);
    reads.clear();
    support.clear();
    for (int i = 0; i < 13; i++) read(i < 4 ? alt : (char) g.ref[SITE], 20, 60, false);
    for (int i = 0; i < 13; i++) read(i < 4 ? alt : (char) g.ref[SITE], 20, 60, true);
    float[] bothStrands = likelihoods();
    assertEquals(0, bothStrands[1], 1e-6, "4 + 4 alt reads are a het: " + Arrays.toString(bothStrands));
    assertTrue(bothStrands[0] + Math.log10(1 / 1.1e-3) < -4, "posterior odds of hom-ref 1 in 10^4 or less: "
        + Arrays.toString(bothStrands));
  }

  @Test
  void aSampleWithoutArtifactsLeavesAOneStrandLowFractionHetToThePlainModel() {
    // 4 of 23 reads show the alt, all forward at Q37: the 5 Mb sample's missed het at 3340847.
    for (int i = 0; i < 12; i++) read(i < 4 ? alt : (char) g.ref[SITE], 37, 60, false);
    for (int i = 0; i < 11; i++) read((char) g.ref[SITE], 37, 60, true);
    double e = err(37, 60);
    double fwd = 4 * Math.log10(e / 3) + 8 * Math.log10(1 - e);
    double rev = 11 * Math.log10(1 - e);
    float[] assumed = likelihoods();
    rate = 1e-7; // what the fit gives a large sample of reads with no strand artifact
    float[] measured = likelihoods();
    for (double r : new double[] {StrandArtifactRate.DEFAULT, 1e-7}) {
      float[] gl = r == 1e-7 ? measured : assumed;
      double l00 = homRef(new double[] {fwd, rev}, new int[] {4, 0}, new int[] {8, 11}, r);
      assertEquals(23 * log10Half(e) - l00, gl[1] - gl[0], 1e-4, "rate " + r);
    }
    // With the het prior 1.1e-3: hom-ref at odds of 30 to 1 or more at the assumed rate, a het at 10 to 1 at the measured one.
    assertTrue(assumed[1] - assumed[0] + Math.log10(1.1e-3) < -1.5, Arrays.toString(assumed));
    assertTrue(measured[1] - measured[0] + Math.log10(1.1e-3) > 1, Arrays.toString(measured));
  }

  @Test
  void noReadWithTheRefOrAltBaseIsNoLikelihood() {
    reads.add(g.refRead(SITE + 1, 30));
    support.add(0);
    assertNull(likelihoods());
  }

  @Test
  void qualitiesRoundTripThroughTheChannelsScaling() {
    for (int q = 1; q <= 40; q++) {
      assertEquals(q, PileupLikelihood.quality(PileupConstants.qualityColor(q, 40), 40), "BQ " + q);
    }
    for (int mq = 1; mq <= 60; mq++) {
      assertEquals(mq, PileupLikelihood.quality(PileupConstants.scaleColor(mq, 60), 60), "MQ " + mq);
    }
  }

  /** A run of eight T after the anchor at SITE (the base before it is not a T, nor the one after). */
  void tRunAfterTheSite() {
    g.ref[SITE] = 'G';
    for (int i = 1; i <= 8; i++) g.ref[SITE + i] = 'T';
    g.ref[SITE + 9] = 'C';
  }

  /** A read carrying one more T in the run (an insertion after the anchor), on the given strand. */
  void insertionRead(boolean reverse) {
    SAMRecord r = g.read(SITE - 50, "51M1I49M", g.refString(SITE - 50, SITE + 1) + "T" + g.refString(SITE + 1, SITE + 50));
    r.setReadNegativeStrandFlag(reverse);
    reads.add(r);
    support.add(1);
  }

  /** A reference read over [start, start + 100), on the given strand. */
  void referenceRead(int start, boolean reverse) {
    SAMRecord r = g.refRead(start, 100);
    r.setReadNegativeStrandFlag(reverse);
    reads.add(r);
    support.add(0);
  }

  float[] indelLikelihoods() {
    return PileupLikelihood.indel(encoded(), 8, H, W, 6, String.valueOf((char) g.ref[SITE]), (char) g.ref[SITE] + "T", rate, indelErrors);
  }

  /** A read from SITE - 50 over the site, with the insertion of a T after it or not, and the het's other base 20 bases before it ({@code onA}) or the reference's. */
  void phasedIndelRead(boolean insertion, boolean onA) {
    String before = g.refString(SITE - 50, SITE + 1);
    if (onA) before = TestGenome.mutate(before, 50 - HET_OFFSET, g.ref[SITE - HET_OFFSET] == 'G' ? 'T' : 'G');
    SAMRecord r = insertion
        ? g.read(SITE - 50, "51M1I49M", before + "T" + g.refString(SITE + 1, SITE + 50))
        : g.read(SITE - 50, "100M", before + g.refString(SITE + 1, SITE + 50));
    r.setReadNegativeStrandFlag(reads.size() % 2 == 1);
    reads.add(r);
    support.add(insertion ? 1 : 0);
  }

  /** No T run after the site, so that an insertion of a T is told apart a base after it. */
  void noRunAfterTheSite() {
    g.ref[SITE + 1] = 'G';
    g.ref[SITE + 2] = 'C';
    g.ref[SITE + 3] = 'A';
  }

  @Test
  void anIndelsReadsOnBothHaplotypesOfAHetBesideItAreNoHetsReadsAndOnOneAHets() {
    // PCR stutter puts a repeat's slips on reads of both haplotypes; a het's alt reads sit on one
    noRunAfterTheSite();
    for (int i = 0; i < 5; i++) phasedIndelRead(false, true);
    for (int i = 0; i < 6; i++) phasedIndelRead(false, false);
    phasedIndelRead(true, true);
    phasedIndelRead(true, false);
    float[] bothHaplotypes = indelLikelihoods();
    reads.clear();
    support.clear();
    for (int i = 0; i < 11; i++) phasedIndelRead(false, false);
    for (int i = 0; i < 2; i++) phasedIndelRead(true, false);
    float[] unphased = indelLikelihoods(); // every read on the reference's side of the column: no het column
    assertTrue(bothHaplotypes[1] - bothHaplotypes[0] < unphased[1] - unphased[0] - 1.5,
        "het 10^1.5 times less likely against hom-ref: " + Arrays.toString(bothHaplotypes) + " " + Arrays.toString(unphased));
    reads.clear();
    support.clear();
    for (int i = 0; i < 9; i++) phasedIndelRead(false, false);
    for (int i = 0; i < 3; i++) phasedIndelRead(true, true);
    float[] oneHaplotype = indelLikelihoods();
    reads.clear();
    support.clear();
    for (int i = 0; i < 9; i++) phasedIndelRead(false, false);
    for (int i = 0; i < 3; i++) phasedIndelRead(true, false);
    float[] plain = indelLikelihoods();
    assertTrue(oneHaplotype[0] - oneHaplotype[1] < plain[0] - plain[1] - 2,
        "hom-ref 10^2 times less likely against het: " + Arrays.toString(oneHaplotype) + " " + Arrays.toString(plain));
  }

  /**
   * 15 reads of a sample over CCTCTCTC|TTCTCTCTTCC (the site the last C before TT), with a hom-alt
   * T>C at SITE + 2 ({@code homAlt}) or not, and 7 reads one CT short of it laid over the reference as
   * a deletion of TT after the site; the deletion's likelihoods where (CT)n of 8-11 bases slips at
   * 0.15 a read and every other class at 1e-4.
   */
  float[] deletionOfTtBesideAHomAltSnp(boolean homAlt) {
    String around = "CCTCTCTCTTCTCTCTTCC";
    for (int i = 0; i < around.length(); i++) g.ref[SITE - 7 + i] = (byte) around.charAt(i);
    String sample = g.refString(SITE - 50, SITE + 50);
    if (homAlt) sample = TestGenome.mutate(sample, 52, 'C');
    for (int i = 0; i < 15; i++) {
      reads.add(g.read(SITE - 50, "100M", sample));
      support.add(0);
    }
    for (int i = 0; i < 7; i++) {
      reads.add(g.read(SITE - 50, "51M2D49M", g.refString(SITE - 50, SITE + 1) + g.refString(SITE + 3, SITE + 52)));
      support.add(1);
    }
    return PileupLikelihood.indel(encoded(), 8, H, W, 6, "CTT", "C", rate, repeatSlips(9, 2, 0.15));
  }

  @Test
  void anIndelsReadsSlipAsTheSamplesRepeatDoesWhereAHomAltSnpMakesItAnother() {
    // blind62's MSv1 with stutter: a hom-alt T>C inside CTCTCTCTTCTCT lengthens (CT)n; its stutter
    // reads one CT short, laid over the reference, delete TT after a C, a class that hardly slips:
    // 7 such reads of 22 made a false CTT>C, PASS at GQ 25
    rate = 1e-9;
    float[] plain = deletionOfTtBesideAHomAltSnp(false);
    assertTrue(plain[0] < -5, "no SNP: seven reads of a deletion of TT are a het's " + Arrays.toString(plain));
    reads.clear();
    support.clear();
    float[] beside = deletionOfTtBesideAHomAltSnp(true);
    assertTrue(beside[0] > -1, "beside the SNP: the sample's (CT)n slips at 0.15, hom-ref as likely " + Arrays.toString(beside));
    assertEquals(new TandemRepeat.Repeat(9, 2), PileupLikelihood.indelSpan(encoded(), 8, H, W, 6, "CTT", "C").sampleAfter());
  }

  @Test
  void anIndelBesideAnotherIndelThatReadsShareIsNotPhased() {
    // a het deletion beside an insertion in one run: the deletion's haplotype slips alike, on one haplotype
    noRunAfterTheSite();
    for (int i = 0; i < 9; i++) phasedIndelRead(false, false);
    for (int i = 0; i < 3; i++) phasedIndelRead(true, true);
    for (int i = 0; i < 3; i++) { // reads of the column's other haplotype deleting two bases after the site
      String seq = TestGenome.mutate(g.refString(SITE - 50, SITE + 3), 50 - HET_OFFSET, g.ref[SITE - HET_OFFSET] == 'G' ? 'T' : 'G')
          + g.refString(SITE + 5, SITE + 52);
      reads.add(g.read(SITE - 50, "53M2D47M", seq));
      support.add(0);
    }
    float[] besideADeletion = indelLikelihoods();
    reads.clear();
    support.clear();
    for (int i = 0; i < 9; i++) phasedIndelRead(false, false);
    for (int i = 0; i < 3; i++) phasedIndelRead(true, false);
    for (int i = 0; i < 3; i++) {
      reads.add(g.read(SITE - 50, "53M2D47M", g.refString(SITE - 50, SITE + 3) + g.refString(SITE + 5, SITE + 52)));
      support.add(0);
    }
    assertArrayEquals(indelLikelihoods(), besideADeletion, 1e-4f, "as unphased");
  }

  @Test
  void readsEndingInsideTheRepeatSayNothingAboutAnInsertion() {
    tRunAfterTheSite();
    for (int i = 0; i < 6; i++) insertionRead(i % 2 == 1);
    // Four reads that end inside the T run (at SITE + 4): they match the reference, as any read of
    // either allele would; the read counts call them reference (AD 4,6: a het).
    for (int i = 0; i < 4; i++) referenceRead(SITE + 5 - 100, i % 2 == 1);
    float[] gl = indelLikelihoods();
    assertEquals(0, gl[2], 1e-6, "hom-alt: " + Arrays.toString(gl));
    double e = IndelErrorRate.FLOOR + 1e-6 - IndelErrorRate.FLOOR * 1e-6;
    assertEquals(6 * Math.log10(0.5) - 6 * Math.log10(1 - e), gl[1], 1e-4, "six alt reads, nothing else");
    assertEquals(new TandemRepeat.Repeat(8, 1), PileupLikelihood.tandemRepeat(encoded(), 8, W, 6, W / 2 + 1));
  }

  @Test
  void anInsertionsRowsSayAltReferenceOtherOrNeitherByWhatTheyShowPastTheRepeat() {
    tRunAfterTheSite();
    insertionRead(false);
    referenceRead(SITE + 5 - 100, true); // ends inside the T run
    referenceRead(SITE - 40, false); // to SITE + 59: past the run and the flank
    referenceRead(SITE + 11 - 100, true); // ends at SITE + 10, short of the flank, but shows C at SITE + 9, where the insertion's haplotype has a T
    referenceRead(SITE + 12 - 100, false); // ends at SITE + 11: the run, then the three bases of the flank
    insertionRead(2, true, 2); // another allele: two more T
    SAMRecord elsewhere = g.read(SITE - 50, "55M2I45M", g.refString(SITE - 50, SITE + 5) + "TT" + g.refString(SITE + 5, SITE + 50));
    reads.add(elsewhere); // the same allele, its insertion written inside the run
    support.add(2);
    byte[] says = PileupLikelihood.indelRowEvidence(encoded(), 8, H, W, 6, String.valueOf((char) g.ref[SITE]),
        (char) g.ref[SITE] + "T");
    assertEquals(H - PileupConstants.REFERENCE_ROWS, says.length);
    byte alt = PileupLikelihood.ALT, ref = PileupLikelihood.REFERENCE, neither = PileupLikelihood.NEITHER;
    byte other = PileupLikelihood.OTHER;
    assertArrayEquals(new byte[] {alt, neither, ref, ref, ref, other, other}, Arrays.copyOf(says, 7), Arrays.toString(says));
    for (int r = 7; r < says.length; r++) assertEquals(neither, says[r], "an empty row tells nothing: row " + r);
    assertNull(PileupLikelihood.indelRowEvidence(encoded(), 8, H, W, 6, "A", "C"), "a SNP has no such rows");
  }

  /** A read over [SITE + end - 99, SITE + end], reference bases but for {@code base} at SITE + {@code at}. */
  void readEndingAt(int end, int at, char base) {
    String seq = TestGenome.mutate(g.refString(SITE + end - 99, SITE + end + 1), at - end + 99, base);
    reads.add(g.read(SITE + end - 99, "100M", seq));
    support.add(0);
  }

  @Test
  void aReadEndingJustPastTheRepeatTellsTheAllelesApartOnlyByAReferenceBaseWhereTheAltDiffers() {
    tRunAfterTheSite(); // G, eight T, C at SITE + 9; the insertion's haplotype reads nine T, then C at SITE + 10
    readEndingAt(10, 9, 'C'); // the reference's C at SITE + 9: the reference haplotype's read
    readEndingAt(10, 9, 'T'); // the insertion's haplotype laid over without its gap (an aligner's mismatch)
    readEndingAt(9, 9, 'C'); // ends at SITE + 9 with the reference's C
    readEndingAt(8, 8, 'T'); // ends inside the run: either allele's
    String ref = String.valueOf((char) g.ref[SITE]);
    byte[] says = PileupLikelihood.indelRowEvidence(encoded(), 8, H, W, 6, ref, ref + "T");
    byte r = PileupLikelihood.REFERENCE, neither = PileupLikelihood.NEITHER;
    assertArrayEquals(new byte[] {r, neither, r, neither}, Arrays.copyOf(says, 4), Arrays.toString(says));
  }

  @Test
  void aHetInsertionWhoseOnlyReferenceReadEndsJustPastTheRunIsAHet() {
    tRunAfterTheSite();
    for (int i = 0; i < 3; i++) insertionRead(i % 2 == 1);
    for (int i = 0; i < 4; i++) referenceRead(SITE + 5 - 100, i % 2 == 1); // end inside the run: say nothing
    float[] withoutIt = indelLikelihoods();
    assertEquals(0, withoutIt[2], 1e-6, "three alt reads and nothing else: hom-alt " + Arrays.toString(withoutIt));
    readEndingAt(10, 9, 'C'); // the one read of the reference haplotype, a base past the run
    float[] gl = indelLikelihoods();
    double e = IndelErrorRate.FLOOR + 1e-6 - IndelErrorRate.FLOOR * 1e-6;
    assertEquals(0, gl[1], 1e-6, "het: " + Arrays.toString(gl));
    assertEquals(3 * Math.log10(1 - e) + Math.log10(e) - 4 * Math.log10(0.5), gl[2], 1e-4, "hom-alt: its one reference read an error");
  }

  @Test
  void readsSpanningTheRepeatAreReferenceEvidence() {
    tRunAfterTheSite();
    for (int i = 0; i < 4; i++) insertionRead(i % 2 == 1);
    for (int i = 0; i < 4; i++) referenceRead(SITE - 40, i % 2 == 1); // to SITE + 59: past the run and the flank
    float[] gl = indelLikelihoods();
    assertEquals(0, gl[1], 1e-6, "het: " + Arrays.toString(gl));
    double e = IndelErrorRate.FLOOR + 1e-6 - IndelErrorRate.FLOOR * 1e-6;
    assertEquals(4 * Math.log10(e) + 4 * Math.log10(1 - e) - 8 * Math.log10(0.5), gl[2], 1e-4, "hom-alt by the formula");
  }

  /**
   * Three C after the T run: a read of the insertion laid over it without its gap differs from the
   * reference at SITE + 9 only (its ninth T against the C) up to SITE + 11, one mismatch, cheaper
   * for an aligner than the gap (4 + 1 against 6 + 1): such a read ending there may be an alt read.
   */
  void cRunAfterTheTRun() {
    for (int i = 9; i <= 11; i++) g.ref[SITE + i] = 'C';
  }

  /**
   * A sample whose reads of the reference grow an indel in an 8-base T run at 1e-5 per read (clean
   * reads): two insertion reads of sixteen are errors at that rate under hom-ref, not at the floor,
   * which stands for what reads of an indel's allele do; the fourteen reference reads, which end at
   * the run's flank where the alt differs from them at one base (an aligner's mismatch), still err
   * at the floor under hom-alt.
   */
  @Test
  void altReadsErrUnderHomRefAtTheSamplesRateWithoutTheFloor() {
    tRunAfterTheSite();
    cRunAfterTheTRun();
    sampleSlipsInTheTRunAt(1e-5);
    for (int i = 0; i < 2; i++) insertionRead(i % 2 == 1);
    for (int i = 0; i < 14; i++) referenceRead(SITE + 12 - 100, i % 2 == 1); // to SITE + 11
    float[] gl = indelLikelihoods();
    double mapping = 1e-6;
    double alt = 1e-5 + mapping - 1e-5 * mapping;
    double ref = IndelErrorRate.FLOOR + mapping - IndelErrorRate.FLOOR * mapping;
    double homRef = 2 * Math.log10(alt) + 14 * Math.log10(1 - ref);
    double het = 16 * Math.log10(0.5);
    double homAlt = 2 * Math.log10(1 - alt) + 14 * Math.log10(ref);
    assertEquals(0, gl[1], 1e-6, "het: " + Arrays.toString(gl));
    // the strand artifact adds to hom-ref at 1e-7: below the plain term's last digit here
    assertEquals(homRef - het, gl[0], 1e-3, "hom-ref at the sample's rate: " + Arrays.toString(gl));
    assertEquals(homAlt - het, gl[2], 1e-3, "hom-alt at the floor");
    assertTrue(gl[0] < -5, "two clean reads of sixteen: a het, 10^5 times likelier");
  }

  /** Clean reads: 1e-7 strand artifacts; reads of the T run slip at {@code slip}, every other class at the floor. */
  void sampleSlipsInTheTRunAt(double slip) {
    rate = 1e-7;
    double[] rates = new double[IndelErrorRate.CLASSES];
    java.util.Arrays.fill(rates, IndelErrorRate.FLOOR);
    rates[IndelErrorRate.classOf(8, 1)] = slip;
    indelErrors = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  /**
   * Five insertion reads and seventeen reference reads spanning an eight-T run whose class slips
   * 0.013 a read: a het by 10^2.9 under one rate for every locus. Where the sample's homopolymer loci
   * spread ({@link IndelErrorRate#locusWeights}: 60 % at their class's rate, 10 % each at 2, 4, 8
   * and 16 times it), the likelihoods are summed over the spread and this locus is likelier one that
   * slips at 16 times the rate (0.21) than a het; eleven insertion reads of 22 stay a het.
   */
  @Test
  void anIndelsReadsAreWeighedOverTheSpreadOfTheSamplesLoci() {
    tRunAfterTheSite();
    sampleSlipsInTheTRunAt(0.013);
    IndelErrorRate even = indelErrors;
    double[][] weights = {{0.6, 0.1, 0.1, 0.1, 0.1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}};
    IndelErrorRate spread = new IndelErrorRate(even.rates(), even.reads(), even.errors(), weights);
    for (int i = 0; i < 5; i++) insertionRead(i % 2 == 1);
    for (int i = 0; i < 17; i++) referenceRead(SITE - 40, i % 2 == 1); // to SITE + 59: past the run and the flank
    double het = 22 * Math.log10(0.5);

    float[] one = indelLikelihoods();
    assertEquals(0, one[1], 1e-6, "one rate: a het: " + Arrays.toString(one));
    assertEquals(homRefAtLoci(new double[] {1, 0, 0, 0, 0}, 0.013, 5, 17) - het, one[0], 1e-3, "hom-ref at the class's rate");
    assertTrue(one[0] < -2.5, Arrays.toString(one));

    indelErrors = spread;
    float[] loci = indelLikelihoods();
    assertEquals(0, loci[0], 1e-6, "over the spread: hom-ref: " + Arrays.toString(loci));
    assertEquals(het - homRefAtLoci(weights[0], 0.013, 5, 17), loci[1], 1e-3, "the het by the formula");

    for (int i = 0; i < 6; i++) insertionRead(i % 2 == 1);
    reads.subList(5, 11).clear(); // eleven insertion reads and eleven reference reads
    support.subList(5, 11).clear();
    float[] half = indelLikelihoods();
    assertEquals(0, half[1], 1e-6, "half the reads: a het: " + Arrays.toString(half));
    assertTrue(half[0] < -2, Arrays.toString(half));
  }

  /** log10 of the sum over loci at {@code weights} of {@code alts} reads erring and {@code refs} not, at each locus's rate (mapping error 1e-6). */
  static double homRefAtLoci(double[] weights, double rate, int alts, int refs) {
    double sum = 0;
    for (int k = 0; k < weights.length; k++) {
      double r = Math.min(IndelErrorRate.MAX_LOCUS_RATE, IndelErrorRate.LOCUS_MULTIPLIERS[k] * rate);
      double e = r + 1e-6 - r * 1e-6;
      sum += weights[k] * Math.pow(e, alts) * Math.pow(1 - e, refs);
    }
    return Math.log10(sum);
  }

  /**
   * A het insertion with one reference read of seven that reaches 40 bases before the anchor and
   * 50 past the run: no aligner makes that of a read carrying the insertion, so under hom-alt it is
   * a read slipping at the sample's rate (1e-5), not at the floor, and the het wins by 10^2.9. The
   * same read ending at the run's flank, where the alt laid over it differs at one base, could be
   * the aligner's doing (one mismatch costs less than the gap), and hom-alt stays within a factor of
   * the het; ending two bases later, past a second base where they differ (two mismatches cost more
   * than the gap), it is no aligner's doing again.
   */
  @Test
  void aReferenceReadShowingWhatNoAlignerLeavesIsNoAlignersDoing() {
    tRunAfterTheSite();
    cRunAfterTheTRun();
    g.ref[SITE + 12] = 'A';
    g.ref[SITE + 13] = 'G';
    sampleSlipsInTheTRunAt(1e-5);
    double mapping = 1e-6;
    double slip = 1e-5 + mapping - 1e-5 * mapping;
    double floor = IndelErrorRate.FLOOR + mapping - IndelErrorRate.FLOOR * mapping;
    double het = 7 * Math.log10(0.5);

    float[] far = sixInsertionReadsAndOneReference(SITE - 40); // to SITE + 59
    assertEquals(0, far[1], 1e-6, "het: " + Arrays.toString(far));
    assertEquals(6 * Math.log10(1 - slip) + Math.log10(slip) - het, far[2], 1e-3, "hom-alt at the sample's rate");
    assertTrue(far[2] < -2.5, "hom-alt 10^2.5 below the het: " + Arrays.toString(far));

    float[] near = sixInsertionReadsAndOneReference(SITE + 12 - 100); // to SITE + 11: one base differs
    assertEquals(6 * Math.log10(1 - slip) + Math.log10(floor) - het, near[2] - near[1], 1e-3, "hom-alt at the floor");
    assertTrue(near[2] - near[1] > -1, "within a factor 10 of the het: " + Arrays.toString(near));

    float[] past = sixInsertionReadsAndOneReference(SITE + 14 - 100); // to SITE + 13: C against A, two bases differ
    assertEquals(6 * Math.log10(1 - slip) + Math.log10(slip) - het, past[2] - past[1], 1e-3, "hom-alt at the sample's rate");
  }

  float[] sixInsertionReadsAndOneReference(int referenceStart) {
    reads.clear();
    support.clear();
    for (int i = 0; i < 6; i++) insertionRead(i % 2 == 1);
    referenceRead(referenceStart, false);
    return indelLikelihoods();
  }

  /**
   * blind19's ART HS25 10x het 7-base deletion GTGTGTTT>G: one reference read of seven, ending 5
   * bases past the deleted bases, where the alt laid over it differs at 9 of its 12 bases after the
   * anchor. An aligner would have opened the 7-base gap (6 + 7) long before taking nine mismatches
   * (45), so under hom-alt that read slips at the sample's rate, not the floor: the het wins, where
   * the floored read left hom-alt within a factor of it (called 1/1 at GQ 5).
   */
  @Test
  void aReferenceReadEndingJustPastADeletionShowsTheReferenceWhereNoAlignerWouldLeaveTheAlt() {
    String site = "GTGTGTTTGGGAATCATCCAG";
    for (int i = 0; i < site.length(); i++) g.ref[SITE + i] = (byte) site.charAt(i);
    String ref = site.substring(0, 8);
    for (int i = 0; i < 6; i++) {
      String seq = g.refString(SITE - 50, SITE + 1) + g.refString(SITE + 8, SITE + 57);
      SAMRecord r = g.read(SITE - 50, "51M7D49M", seq);
      r.setReadNegativeStrandFlag(i % 2 == 1);
      reads.add(r);
      support.add(1);
    }
    referenceRead(SITE + 13 - 100, false); // to SITE + 12: 5 past the deleted bases
    rate = 1e-7;
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-5);
    indelErrors = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
    float[] gl = PileupLikelihood.indel(encoded(), 8, H, W, 6, ref, "G", rate, indelErrors);
    assertEquals(0, gl[1], 1e-6, "het: " + Arrays.toString(gl));
    assertTrue(gl[2] < -2, "hom-alt 10^2 below: " + Arrays.toString(gl));
    assertEquals(3, PileupLikelihood.basesNoAlignerLeaves(7), "three mismatches (15) cost more than the gap (13)");
  }

  /** TCTGGGGA after a C anchor at SITE: an insertion of TCT there reads like the reference for 3 bases, no unit repeating twice. */
  void tctBeforeG() {
    String after = "CTCTGGGGA";
    for (int i = 0; i < after.length(); i++) g.ref[SITE + i] = (byte) after.charAt(i);
  }

  @Test
  void aReferenceReadMustReachWhereTheAllelesDiffer() {
    tctBeforeG();
    for (int i = 0; i < 6; i++) {
      SAMRecord r = g.read(SITE - 50, "51M3I49M", g.refString(SITE - 50, SITE + 1) + "TCT" + g.refString(SITE + 1, SITE + 50));
      r.setReadNegativeStrandFlag(i % 2 == 1);
      reads.add(r);
      support.add(1);
    }
    // Ends at SITE + 3 with CTCT: the inserted TCT would read the same (as blind10's hom-alt C>CTCT called het on AD 1,6).
    referenceRead(SITE + 4 - 100, false);
    UnsafeBuffer image = encoded();
    assertEquals(0, PileupLikelihood.tandemRepeat(image, 8, W, 6, W / 2 + 1).length(), "no unit repeats twice");
    assertEquals(3, PileupLikelihood.readsAlike(image, 8, W, 6, "C", "CTCT"));
    assertEquals(1, PileupLikelihood.readsAlike(image, 8, W, 6, "CTC", "C"), "TCTG less TC: TG.. against TC..");
    float[] gl = PileupLikelihood.indel(image, 8, H, W, 6, "C", "CTCT", rate, indelErrors);
    assertEquals(0, gl[2], 1e-6, "hom-alt: the short read says nothing: " + Arrays.toString(gl));
    double e = IndelErrorRate.FLOOR + 1e-6 - IndelErrorRate.FLOOR * 1e-6;
    assertEquals(6 * Math.log10(0.5) - 6 * Math.log10(1 - e), gl[1], 1e-4, "six alt reads, nothing else");
    referenceRead(SITE - 40, true); // reaches SITE + 59: it shows G where the alt has T
    gl = PileupLikelihood.indel(encoded(), 8, H, W, 6, "C", "CTCT", rate, indelErrors);
    assertEquals(0, gl[1], 1e-6, "het once a read shows the reference past the difference: " + Arrays.toString(gl));
  }

  /**
   * blind62's Mason 20x het ATT>A, called 1/1 on AD 1,12: the one reference read, which no aligner
   * made of a read of the alt, errs under hom-alt at the rate the sample's reads slip, and a slip of
   * two T is far rarer than one of one T. Here a het insertion of TT in an eight-T run, fourteen
   * insertion reads and one reference read reaching 50 bases past the run, in a sample whose run
   * class slips 1e-3 a read, 0.005 of them by two units: the het wins by 10^0.8, where a two-unit
   * slip as likely as a one-unit slip left hom-alt 10^1.5 ahead.
   */
  @Test
  void aReferenceReadOfAHomAltNeedsASlipOfAsManyUnitsAsTheIndelHas() {
    tRunAfterTheSite();
    cRunAfterTheTRun();
    g.ref[SITE + 12] = 'A';
    g.ref[SITE + 13] = 'G';
    rate = 1e-7;
    IndelErrorRate rare = runSlipsAt(1e-3, 0.005);
    IndelErrorRate even = runSlipsAt(1e-3, 1);
    reads.clear();
    support.clear();
    for (int i = 0; i < 14; i++) insertionRead(2, i % 2 == 1, 1);
    referenceRead(SITE - 40, false); // to SITE + 59
    UnsafeBuffer image = encoded();
    float[] gl = PileupLikelihood.indel(image, 8, H, W, 6, "G", "GTT", rate, rare);
    assertEquals(0, gl[1], 1e-6, "het: " + Arrays.toString(gl));
    double mapping = 1e-6;
    double slip = 1e-3 * 0.005 + mapping - 1e-3 * 0.005 * mapping;
    double het = 15 * Math.log10(0.5);
    assertEquals(14 * Math.log10(1 - slip) + Math.log10(slip) - het, gl[2], 1e-3, "hom-alt at a two-unit slip's rate");
    assertTrue(gl[2] < -0.7, Arrays.toString(gl));
    float[] asOneUnit = PileupLikelihood.indel(image, 8, H, W, 6, "G", "GTT", rate, even);
    assertEquals(0, asOneUnit[2], 1e-6, "hom-alt where two units slip as often as one: " + Arrays.toString(asOneUnit));
    assertTrue(asOneUnit[1] < -1.4, Arrays.toString(asOneUnit));
  }

  /**
   * An indel is a slip of several units only where its bases are whole units of the repeat after
   * its anchor, in phase with it: TT or ACAC inserted or deleted in a run of T or of AC, not TGTGTGTA
   * after (TG)n (a development HSXt 25x false het on 4 reads of 24, weighed as a four-unit slip), not a
   * deletion that runs past the repeat, not one unit, not three bases of a two-base unit.
   */
  @Test
  void anIndelIsASlipOfItsUnitsOnlyWhereItsBasesAreTheRepeatsUnits() {
    byte[] t = "TTTTTTTTCCCAG".getBytes();
    TandemRepeat.Repeat run = new TandemRepeat.Repeat(8, 1);
    assertEquals(2, PileupLikelihood.slipLength(t, "G", "GTT", 1, run));
    assertEquals(3, PileupLikelihood.slipLength(t, "GTTT", "G", 4, run));
    assertEquals(0, PileupLikelihood.slipLength(t, "G", "GT", 1, run), "one unit");
    assertEquals(0, PileupLikelihood.slipLength(t, "G", "GTA", 1, run), "not the unit");
    assertEquals(0, PileupLikelihood.slipLength(t, "GTTTTTTTTCC", "G", 11, run), "past the repeat");
    byte[] tg = "TGTGTGTGTGCA".getBytes();
    TandemRepeat.Repeat str = new TandemRepeat.Repeat(10, 2);
    assertEquals(4, PileupLikelihood.slipLength(tg, "G", "GTGTG", 1, str));
    assertEquals(6, PileupLikelihood.slipLength(tg, "GTGTGTG", "G", 7, str));
    assertEquals(0, PileupLikelihood.slipLength(tg, "G", "GTGTGTGTA", 1, str), "ends off the unit");
    assertEquals(0, PileupLikelihood.slipLength(tg, "G", "GGTGT", 1, str), "out of phase");
    assertEquals(0, PileupLikelihood.slipLength(tg, "G", "GTGT", 1, new TandemRepeat.Repeat(0, 0)), "no repeat");
    assertEquals(0, PileupLikelihood.slipLength(tg, "GTGT", "G", 4, str), "three bases of a two-base unit");
    assertEquals(2, PileupLikelihood.slipLength(t, "GTT", "GTTTT", 1, run), "two insertions of a site, two T apart");
    assertEquals(2, PileupLikelihood.slipLength(t, "G", "GTT", 6, run), "two deletions of GTTTTT, two T apart");
  }

  /** A read carrying {@code extra} more T in the run (an insertion after the anchor), marked {@code supports}. */
  void insertionRead(int extra, boolean reverse, int supports) {
    String ins = "T".repeat(extra);
    SAMRecord r = g.read(SITE - 50, "51M" + extra + "I" + (49) + "M",
        g.refString(SITE - 50, SITE + 1) + ins + g.refString(SITE + 1, SITE + 50));
    r.setReadNegativeStrandFlag(reverse);
    reads.add(r);
    support.add(supports);
  }

  /** The alts of {@link #twoInsertionsExample}'s site, after the anchor G. */
  static final String[] TWO_INSERTIONS = {"GT", "GTT"};

  /** The image of a 1/2 site's example whose alt is the insertion of {@code shown} T (1 or 2). */
  UnsafeBuffer twoInsertionsExample(int shown) {
    reads.clear();
    support.clear();
    for (int i = 0; i < 6; i++) insertionRead(1, i % 2 == 1, shown == 1 ? 1 : 2);
    for (int i = 0; i < 3; i++) insertionRead(2, i % 2 == 0, shown == 2 ? 1 : 2);
    for (int i = 0; i < 4; i++) referenceRead(SITE + 5 - 100, i % 2 == 1); // end inside the run: nothing
    referenceRead(SITE - 40, false); // spans the run: one reference read
    return encoded();
  }

  @Test
  void aMultiAllelicSitesReadsGiveEveryGenotypeOfItsAlleles() {
    tRunAfterTheSite();
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, false, IndelErrorRate.assumed());
    site.add(1, twoInsertionsExample(1), 8, H, W, 6, "G", TWO_INSERTIONS);
    assertTrue(!site.complete());
    assertNull(site.likelihoods(), "not before every alt's example is in");
    site.add(2, twoInsertionsExample(2), 8, H, W, 6, "G", TWO_INSERTIONS);
    assertTrue(site.complete());
    float[] gl = site.likelihoods();
    assertEquals(6, gl.length, "0/0 0/1 1/1 0/2 1/2 2/2");
    double e = IndelErrorRate.FLOOR + 1e-6 - IndelErrorRate.FLOOR * 1e-6;
    double right = Math.log10(1 - e);
    // A wrong read shows either other allele at the whole rate, as a bi-allelic indel's wrong read
    // shows the other allele: the rate is a read's rate of one wrong allele, not split among alts.
    double wrong = Math.log10(e);
    double half = Math.log10((1 - e + e) / 2);
    double none = Math.log10(e);
    // Six +T reads, three +TT reads, one reference read; the four reads ending in the run say nothing.
    double[] l = new double[6];
    l[0] = 9 * wrong + right; // 0/0
    l[1] = 6 * half + 3 * none + half; // 0/1
    l[2] = 6 * right + 3 * wrong + wrong; // 1/1
    l[3] = 6 * none + 3 * half + half; // 0/2
    l[4] = 6 * half + 3 * half + none; // 1/2
    l[5] = 6 * wrong + 3 * right + wrong; // 2/2
    double max = Arrays.stream(l).max().getAsDouble();
    assertEquals(max, l[4], 1e-12, "1/2 is the likeliest");
    for (int k = 0; k < 6; k++) assertEquals(l[k] - max, gl[k], 1e-4, "genotype " + k + ": " + Arrays.toString(gl));
  }

  /**
   * A G anchor before seven T, in a sample whose reads slip in homopolymers of 8-11 bases (one read
   * in ten) and hardly in those of 4-7: stutter as the v3 recipe and PCR make it.
   */
  void sevenTAfterTheSiteSlippingFromEight() {
    g.ref[SITE] = 'G';
    for (int i = 1; i <= 7; i++) g.ref[SITE + i] = 'T';
    g.ref[SITE + 8] = 'C';
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-5);
    rates[IndelErrorRate.classOf(8, 1)] = 0.1;
    indelErrors = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  /**
   * blind60's stutter cells called hom-alt insertions that lengthen a run of seven to eight (A>AT,
   * C>CA) 0/1 at GQ 20-29 on AD 10,33 and 6,45: the reads of the sample's eight-base run that lost a
   * T show the reference, and were weighed at the slip rate of the reference's seven-base run. A read
   * of the alt's haplotype slips as its own repeat does.
   */
  @Test
  void aHomAltInsertionsReadsThatSlipBackToTheReferenceSlipAtTheRateOfTheLongerRun() {
    sevenTAfterTheSiteSlippingFromEight();
    for (int i = 0; i < 10; i++) insertionRead(1, i % 2 == 1, 1);
    referenceRead(SITE - 40, false);
    referenceRead(SITE - 45, true);
    UnsafeBuffer image = encoded();
    assertEquals(new TandemRepeat.Repeat(7, 1), PileupLikelihood.tandemRepeat(image, 8, W, 6, W / 2 + 1));
    assertEquals(new TandemRepeat.Repeat(8, 1), PileupLikelihood.repeatOfAllele(image, 8, W, 6, "G", "GT"));
    assertEquals(new TandemRepeat.Repeat(6, 1), PileupLikelihood.repeatOfAllele(image, 8, W, 6, "GT", "G"));
    float[] gl = PileupLikelihood.indel(image, 8, H, W, 6, "G", "GT", rate, indelErrors);
    assertEquals(0, gl[2], 1e-6, "hom-alt: two reads of ten slipped, at one in ten: " + Arrays.toString(gl));
    assertTrue(gl[1] < -1, "het ten times less likely: " + Arrays.toString(gl));
  }

  /**
   * The same sample's hom-alt G>GT (eight T) beside two reads of nine T and one of seven (blind60:
   * T>TAAA,TAAAA 1/2 at GQ 24 on AD 3,37,9): every read off the alt is a slip of its run of eight.
   */
  @Test
  void aHomAltInsertionsStutterAlleleIsItsSlipNotASecondAllele() {
    sevenTAfterTheSiteSlippingFromEight();
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, false, indelErrors);
    String[] alts = {"GT", "GTT"};
    for (int shown = 1; shown <= 2; shown++) {
      reads.clear();
      support.clear();
      for (int i = 0; i < 12; i++) insertionRead(1, i % 2 == 1, shown == 1 ? 1 : 2);
      for (int i = 0; i < 2; i++) insertionRead(2, i % 2 == 0, shown == 2 ? 1 : 2);
      referenceRead(SITE - 40, false);
      site.add(shown, encoded(), 8, H, W, 6, "G", alts);
    }
    float[] gl = site.likelihoods();
    assertEquals(0, gl[2], 1e-6, "1/1: " + Arrays.toString(gl));
    assertTrue(gl[4] < -1, "1/2 ten times less likely: " + Arrays.toString(gl));
  }

  /**
   * A multi-allelic site of one and two T more in an eight-T run whose class slips 0.013 a read: four
   * +T reads, two +TT and sixteen reference reads. Under one rate the six are no slips but a het
   * (0/1 beats 0/0 by 10^1.6); summed over the sample's spread of homopolymer loci (60 % at the
   * class's rate, 10 % each at 2-16 times it) they are a stuttering locus's (0/0 by 10^1.6).
   */
  @Test
  void aMultiAllelicIndelSitesReadsAreWeighedOverTheSpreadOfTheSamplesLoci() {
    tRunAfterTheSite();
    sampleSlipsInTheTRunAt(0.013);
    IndelErrorRate even = indelErrors;
    IndelErrorRate spread = new IndelErrorRate(even.rates(), even.reads(), even.errors(),
        new double[][] {{0.6, 0.1, 0.1, 0.1, 0.1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}});
    float[][] gl = new float[2][];
    for (int s = 0; s < 2; s++) {
      gl[s] = twoAltSiteLikelihoods(s == 0 ? even : spread, TWO_INSERTIONS, shown -> {
        for (int i = 0; i < 4; i++) insertionRead(1, i % 2 == 1, shown == 1 ? 1 : 2);
        for (int i = 0; i < 2; i++) insertionRead(2, i % 2 == 0, shown == 2 ? 1 : 2);
        for (int i = 0; i < 16; i++) referenceRead(SITE - 40, i % 2 == 1);
      });
    }
    assertEquals(0, gl[0][1], 1e-6, "one rate: 0/1: " + Arrays.toString(gl[0]));
    assertTrue(gl[0][0] < -1.5, Arrays.toString(gl[0]));
    assertEquals(0, gl[1][0], 1e-6, "over the spread: 0/0: " + Arrays.toString(gl[1]));
    assertTrue(gl[1][1] < -1.5, Arrays.toString(gl[1]));
  }

  /**
   * A multi-allelic site of two and one T more in an eight-T run whose class slips 1e-3 a read,
   * 0.005 of them by two units or more: twelve +TT reads, one +T read and one reference read that
   * no aligner made of an alt's read. Where a two-unit slip is as likely as a one-unit slip, 1/1 wins
   * by 10^0.9 (the reference read a slip of its +TT haplotype at 1e-3, the +T read one of one unit);
   * weighed at the share, the reference read is a two-unit slip's under 1/1 (5e-6) and 0/1 wins by
   * 10^1.4 over it.
   */
  @Test
  void aMultiAllelicIndelSitesReadsSlipByAsManyUnitsAsTheirAllelesDiffer() {
    tRunAfterTheSite();
    cRunAfterTheTRun();
    g.ref[SITE + 12] = 'A';
    g.ref[SITE + 13] = 'G';
    float[][] gl = new float[2][];
    for (int s = 0; s < 2; s++) {
      gl[s] = twoAltSiteLikelihoods(runSlipsAt(1e-3, s == 0 ? 1 : 0.005), new String[] {"GTT", "GT"}, shown -> {
        for (int i = 0; i < 12; i++) insertionRead(2, i % 2 == 1, shown == 1 ? 1 : 2);
        insertionRead(1, false, shown == 2 ? 1 : 2);
        referenceRead(SITE - 40, true); // to SITE + 59
      });
    }
    assertEquals(0, gl[0][2], 1e-6, "as likely as one unit: 1/1: " + Arrays.toString(gl[0]));
    assertTrue(gl[0][1] < -0.5, Arrays.toString(gl[0]));
    assertEquals(0, gl[1][1], 1e-6, "at the share: 0/1: " + Arrays.toString(gl[1]));
    assertTrue(gl[1][2] < -1, Arrays.toString(gl[1]));
  }

  /**
   * Rates at which the eight-T run's class (homopolymers of 8-11 bases) slips {@code rate} a read,
   * {@code share} of that by two units or more; every other class at the floor, slipping as often
   * by any number of units.
   */
  static IndelErrorRate runSlipsAt(double rate, double share) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, IndelErrorRate.FLOOR);
    rates[IndelErrorRate.classOf(8, 1)] = rate;
    double[][] shares = new double[IndelErrorRate.CLASSES][IndelErrorRate.MAX_UNITS + 1];
    for (double[] c : shares) Arrays.fill(c, 1);
    Arrays.fill(shares[IndelErrorRate.classOf(8, 1)], 2, IndelErrorRate.MAX_UNITS + 1, share);
    long[] none = new long[IndelErrorRate.CLASSES];
    double[] noErrors = new double[IndelErrorRate.CLASSES];
    return new IndelErrorRate(rates, none, noErrors, new IndelErrorRate(rates, none, noErrors).locusWeights(), shares);
  }

  /** The likelihoods of a two-alt indel site after G at {@code rates}, each alt's example drawn from the reads {@code readsShowing} adds for it. */
  float[] twoAltSiteLikelihoods(IndelErrorRate rates, String[] alts, java.util.function.IntConsumer readsShowing) {
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, false, rates);
    for (int shown = 1; shown <= 2; shown++) {
      reads.clear();
      support.clear();
      readsShowing.accept(shown);
      site.add(shown, encoded(), 8, H, W, 6, "G", alts);
    }
    return site.likelihoods();
  }

  @Test
  void aMultiAllelicSiteTakesEachAltOnce() {
    tRunAfterTheSite();
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, false, IndelErrorRate.assumed());
    UnsafeBuffer first = twoInsertionsExample(1);
    site.add(1, first, 8, H, W, 6, "G", TWO_INSERTIONS);
    site.add(1, first, 8, H, W, 6, "G", TWO_INSERTIONS);
    assertTrue(!site.complete(), "the same alt twice is not both alts");
  }

  /**
   * A tri-allelic SNP site (5 reads of one alt base, 4 of another, 1 reference read, all at Q30,
   * MAPQ 60): the example of alt {@code shown} marks that alt's reads as supporting, the other's as
   * other-allele reads.
   */
  UnsafeBuffer twoSnpAltsExample(char alt1, char alt2, int shown) {
    return twoSnpAltsExample(alt1, alt2, shown, false);
  }

  /** As above; with {@code ownIndel} the reference read has a deletion of its own three bases before the site. */
  UnsafeBuffer twoSnpAltsExample(char alt1, char alt2, int shown, boolean ownIndel) {
    reads.clear();
    support.clear();
    for (int i = 0; i < 5; i++) read(alt1, 30, 60);
    for (int i = 0; i < 4; i++) read(alt2, 30, 60);
    if (ownIndel) {
      referenceReadWithADeletionBeforeTheSite();
    } else {
      read((char) g.ref[SITE], 30, 60);
    }
    for (int i = 0; i < reads.size(); i++) {
      char b = (char) reads.get(i).getReadBases()[50];
      support.set(i, b == (shown == 1 ? alt1 : alt2) ? 1 : b == (char) g.ref[SITE] ? 0 : 2);
    }
    return encoded();
  }

  @Test
  void aTriAllelicSnpSitesReferenceReadWithAnIndelOfItsOwnBesideItCountsForNothing() {
    char alt1 = g.ref[SITE] == 'C' ? 'G' : 'C';
    char alt2 = g.ref[SITE] == 'T' ? 'G' : 'T';
    String[] alts = {"" + alt1, "" + alt2};
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, true, IndelErrorRate.assumed());
    site.add(1, twoSnpAltsExample(alt1, alt2, 1, true), 8, H, W, 6, String.valueOf((char) g.ref[SITE]), alts);
    site.add(2, twoSnpAltsExample(alt1, alt2, 2, true), 8, H, W, 6, String.valueOf((char) g.ref[SITE]), alts);
    float[] gl = site.likelihoods();
    double e = err(30, 60);
    double right = Math.log10(1 - e);
    double wrong = Math.log10(e / 3);
    double half = Math.log10((1 - e + e / 3) / 2);
    // The nine alt reads alone: the reference read's row adds nothing to any genotype.
    double[] l = {9 * wrong, 5 * half + 4 * wrong, 5 * right + 4 * wrong, 5 * wrong + 4 * half, 9 * half, 4 * right + 5 * wrong};
    double max = Arrays.stream(l).max().getAsDouble();
    for (int k = 0; k < 6; k++) assertEquals(l[k] - max, gl[k], 1e-3, "genotype " + k + ": " + Arrays.toString(gl));
  }

  @Test
  void aTriAllelicSnpSitesReadsGiveEveryGenotypeOfItsAlleles() {
    char alt1 = g.ref[SITE] == 'C' ? 'G' : 'C';
    char alt2 = g.ref[SITE] == 'T' ? 'G' : 'T';
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, true, IndelErrorRate.assumed());
    site.add(1, twoSnpAltsExample(alt1, alt2, 1), 8, H, W, 6, String.valueOf((char) g.ref[SITE]), new String[] {"" + alt1, "" + alt2});
    site.add(2, twoSnpAltsExample(alt1, alt2, 2), 8, H, W, 6, String.valueOf((char) g.ref[SITE]), new String[] {"" + alt1, "" + alt2});
    float[] gl = site.likelihoods();
    double e = err(30, 60); // the window's other bases all match: no error factor above 1
    double right = Math.log10(1 - e);
    double wrong = Math.log10(e / 3);
    double half = Math.log10((1 - e + e / 3) / 2);
    double none = wrong;
    double[] l = {10 * 0 + 9 * wrong + right, 5 * half + 4 * none + half, 5 * right + 5 * wrong,
        5 * none + 4 * half + half, 9 * half + none, 4 * right + 6 * wrong};
    double max = Arrays.stream(l).max().getAsDouble();
    assertEquals(max, l[4], 1e-12, "1/2 is the likeliest");
    for (int k = 0; k < 6; k++) assertEquals(l[k] - max, gl[k], 1e-3, "genotype " + k + ": " + Arrays.toString(gl));
  }

  @Test
  void aTriAllelicSnpSitesThirdAlleleReadsThatAreTheSamplesHaplotypeSlippedAreNoHet() {
    // blind59's MSv3 15x with stutter: a hom-alt GAA>TCT before nine A; reads with eight A, written
    // as a deletion of the G, show a T at the A>C's column, which came out A>C,T 1/2 on AD 0,14,2.
    byte[] ref = "ACTGAATTAAAAAAAAAG".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = 0; i < ref.length; i++) g.ref[SITE - 4 + i] = ref[i]; // the A>C at SITE, the G before it
    String sample = g.refString(SITE - 50, SITE - 1) + "TCT" + g.refString(SITE + 2, SITE + 60);
    String slipped = sample.substring(0, 57) + sample.substring(58); // one A fewer
    for (int i = 0; i < 30; i++) stutterRead(sample.substring(0, 100), "100M", 1);
    for (int i = 0; i < 3; i++) stutterRead(slipped.substring(0, 100), "49M1D51M", 0);
    UnsafeBuffer first = encoded();
    java.util.Collections.fill(support.subList(0, 30), 0);
    java.util.Collections.fill(support.subList(30, 33), 1);
    UnsafeBuffer second = encoded();
    assertEquals('T', (char) readBaseAt(second, FIRST_SLIPPED_ROW, W / 2), "the slipped read's T at the A>C's column");
    String[] alts = {"C", "T"};
    float[] clean = triAllelic(first, second, alts, homopolymerSlips(9, 1e-4));
    assertEquals(0f, clean[4], "1/2 where the run does not slip: " + Arrays.toString(clean));
    float[] slipping = triAllelic(first, second, alts, homopolymerSlips(9, 0.05));
    assertEquals(0f, slipping[2], "1/1, the T reads slipped reads of the sample's C: " + Arrays.toString(slipping));
    assertTrue(slipping[4] < -1, Arrays.toString(slipping));
  }

  /** The likelihoods of a site A>{@code alts} at SITE from its two examples' images. */
  static float[] triAllelic(UnsafeBuffer first, UnsafeBuffer second, String[] alts, IndelErrorRate slips) {
    PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, true, slips);
    site.add(1, first, 8, H, W, 6, "A", alts);
    site.add(2, second, 8, H, W, 6, "A", alts);
    return site.likelihoods();
  }

  /**
   * A sample whose bases keep their qualities' promise at Q10, Q35 and Q37, and whose Q2 bases
   * (63 % wrong) make about one base in 260 wrong overall: the mean error a wrong base's quality is
   * weighed against.
   */
  static BaseErrorRate honestSampleWithPoorTails() {
    long[] bases = new long[BaseErrorRate.qualities()];
    long[] wrong = new long[BaseErrorRate.qualities()];
    for (int q : new int[] {10, 35, 37}) {
      bases[q] = q == 10 ? 1_000_000 : 100_000_000;
      wrong[q] = Math.round(bases[q] * Math.pow(10, -q / 10.0));
    }
    bases[2] = 1_000_000;
    wrong[2] = 630_000;
    return BaseErrorRate.measure(bases, wrong);
  }

  /**
   * log10 L(0/0) as {@link #homRef} but each strand's artifact also weighed by its alt reads' odds of
   * their qualities on wrong bases: {@code altOdds[s]}, the sum of log10(e / meanError) over them.
   */
  static double homRef(double[] strandHomRef, int[] alts, int[] refs, double rate, double[] altOdds) {
    double l = Math.pow(10, strandHomRef[0] + strandHomRef[1]);
    for (int s = 0; s < 2; s++) {
      if (alts[s] == 0) continue;
      double beta = factorial(alts[s]) * factorial(refs[s]) / factorial(alts[s] + refs[s] + 1);
      l += rate / 2 * beta * Math.pow(10, altOdds[s] + strandHomRef[1 - s]);
    }
    return Math.log10(l);
  }

  @Test
  void anArtifactsWrongBasesCarryTheQualitiesWrongBasesCarry() {
    // blind42's missed MiSeq het: 4 of 14 forward reads show the alt at Q37, 1 of 15 reverse at Q10.
    for (int i = 0; i < 14; i++) read(i < 4 ? alt : (char) g.ref[SITE], 37, 60, false);
    for (int i = 0; i < 15; i++) read(i < 1 ? alt : (char) g.ref[SITE], i < 1 ? 10 : 37, 60, true);
    BaseErrorRate sample = honestSampleWithPoorTails();
    double mean = sample.meanError();
    assertEquals((100_000 + 630_000 + 31_623 + 19_953) / 202_000_000.0, mean, 1e-5);
    rate = 1e-5;
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(sample));
    double e37 = err(37, 60);
    double e10 = err(10, 60);
    assertEquals(Math.pow(10, -3.7), sample.at(37), 1e-8, "Q37 keeps its promise");
    double fwd = 4 * Math.log10(e37 / 3) + 10 * Math.log10(1 - e37);
    double rev = Math.log10(e10 / 3) + 14 * Math.log10(1 - e37);
    double l01 = 28 * log10Half(e37) + log10Half(e10);
    // the artifact's odds read the bases' own errors, without the mapping's
    double[] odds = {4 * Math.log10(sample.at(37) / mean), Math.log10(sample.at(10) / mean)};
    double l00 = homRef(new double[] {fwd, rev}, new int[] {4, 1}, new int[] {10, 14}, rate, odds);
    assertEquals(l01 - l00, gl[1] - gl[0], 1e-3);
    // Without the qualities' odds the forward strand's four reads are an artifact about as well as a het.
    double blind = homRef(new double[] {fwd, rev}, new int[] {4, 1}, new int[] {10, 14}, rate);
    assertTrue(l01 - blind + Math.log10(1.1e-3) < 1, "posterior odds of a het without them: 10^" + (l01 - blind - 2.96));
    assertTrue(gl[1] - gl[0] + Math.log10(1.1e-3) > 4, "with them, a het at odds of 10^4 or more: " + Arrays.toString(gl));
  }

  @Test
  void aReadsMappingErrorIsNoSignOfAnArtifactsWrongBase() {
    // blind74's Mason 60x: a het C>G on AD 7,15 in a paralogous stretch, every read reverse at MAPQ
    // 10-25. Weighed by its error with the mapping's (0.01 at MAPQ 20, above the sample's mean base
    // error), each Q30 alt read counted as a wrong base's, and the strand artifact made it RefCall.
    for (int i = 0; i < 22; i++) read(i < 15 ? alt : (char) g.ref[SITE], 30, 20, true);
    BaseErrorRate sample = honestSampleWithPoorTails();
    assertTrue(err(30, 20) > sample.meanError() && sample.at(30) < sample.meanError(), "MAPQ 20 errs above the mean, Q30 below");
    rate = 1e-3;
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(sample));
    assertTrue(gl[1] == 0 && gl[0] < -5, "15 alt reads of 22, all reverse: a het " + Arrays.toString(gl));
  }

  @Test
  void lowQualityAltReadsOnOneStrandAreLikelierAnArtifactThanTheirCountsSay() {
    // An injected strand error: 5 of 13 forward reads show the alt at Q10, no reverse read does.
    for (int i = 0; i < 13; i++) read(i < 5 ? alt : (char) g.ref[SITE], i < 5 ? 10 : 37, 60, false);
    for (int i = 0; i < 13; i++) read((char) g.ref[SITE], 37, 60, true);
    BaseErrorRate sample = honestSampleWithPoorTails();
    float[] weighed = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(sample));
    float[] counted = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
    double odds = 5 * Math.log10(err(10, 60) / sample.meanError());
    assertTrue(odds > 5, "five Q10 reads, each a wrong base ten or more times likelier than any base: 10^" + odds);
    assertTrue(weighed[0] - weighed[1] > counted[0] - counted[1] + 4,
        "hom-ref gains on het: " + Arrays.toString(weighed) + " against " + Arrays.toString(counted));
  }

  /**
   * A sample's bases at their promise, with {@code favoured} of every thousand wrong bases of
   * reference {@code ref} on forward reads showing {@code shown} (the rest of its errors, and every
   * other base's and strand's, spread evenly over the other bases).
   */
  static BaseErrorRate sampleWhoseForwardErrorsFavour(int ref, int shown, int favoured) {
    long[] bases = new long[BaseErrorRate.qualities()];
    long[] wrong = new long[BaseErrorRate.qualities()];
    for (int q : new int[] {20, 35}) {
      bases[q] = 100_000_000;
      wrong[q] = Math.round(bases[q] * Math.pow(10, -q / 10.0));
    }
    long[] substitutions = new long[BaseErrorRate.substitutions()];
    for (int r = 0; r < 4; r++) {
      for (boolean reverse : new boolean[] {false, true}) {
        for (int b = 0; b < 4; b++) {
          if (b == r) continue;
          boolean skewed = r == ref && !reverse;
          substitutions[BaseErrorRate.substitution(r, reverse, b)] = !skewed ? 1_000_000 / 3 : b == shown ? favoured * 1_000L : (1000 - favoured) * 500L;
        }
      }
    }
    return BaseErrorRate.measure(bases, wrong, substitutions);
  }

  @Test
  void aWrongReadShowsTheAltAsOftenAsTheSamplesErrorsOfThatBaseOnThatStrandDo() {
    // two Q20 alt reads of 20, both forward; the sample's forward errors of this reference base show this alt 9 times in 10
    for (int i = 0; i < 10; i++) read(i < 2 ? alt : (char) g.ref[SITE], i < 2 ? 20 : 35, 60, false);
    for (int i = 0; i < 10; i++) read((char) g.ref[SITE], 35, 60, true);
    int ref = "ACGT".indexOf(g.ref[SITE]);
    int shown = "ACGT".indexOf(alt);
    BaseErrorRate even = sampleWhoseForwardErrorsFavour(ref, shown, 333);
    BaseErrorRate skewed = sampleWhoseForwardErrorsFavour(ref, shown, 900);
    assertEquals(0.9, skewed.wrongShare(ref, false, shown), 1e-3);
    assertEquals(1.0 / 3, skewed.wrongShare(ref, true, shown), 1e-3, "reverse reads' errors are even");
    assertEquals(1.0 / 3, even.wrongShare(ref, false, shown), 1e-3);
    rate = 1e-9; // no strand artifact: hom-ref against het alone
    float[] a = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(even));
    float[] b = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(skewed));
    // hom-ref explains each alt read 0.9 / (1/3) times better; het gains a little (e x share of 1)
    double e = err(20, 60);
    double homRefGain = 2 * Math.log10(0.9 / (1.0 / 3));
    double hetGain = 2 * Math.log10((1 - e + e * 0.9) / (1 - e + e / 3));
    assertEquals(homRefGain - hetGain, (b[0] - b[1]) - (a[0] - a[1]), 1e-3, Arrays.toString(a) + " against " + Arrays.toString(b));
    // the same two alt reads on the reverse strand, whose errors are even, gain nothing
    reads.clear();
    support.clear();
    for (int i = 0; i < 10; i++) read((char) g.ref[SITE], 35, 60, false);
    for (int i = 0; i < 10; i++) read(i < 2 ? alt : (char) g.ref[SITE], i < 2 ? 20 : 35, 60, true);
    assertArrayEquals(PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(even)),
        PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate).withBaseErrors(skewed)), 1e-4f);
  }

  /** A read over the site whose deletion of SITE - 2 .. SITE takes the site's base, drawn from SITE - 50. */
  void deletionRead(boolean reverse) {
    String seq = g.refString(SITE - 50, SITE - 2) + g.refString(SITE + 1, SITE + 53);
    SAMRecord r = g.read(SITE - 50, "48M3D52M", seq);
    byte[] quals = new byte[100];
    Arrays.fill(quals, (byte) 35);
    r.setBaseQualities(quals);
    r.setMappingQuality(60);
    r.setReadNegativeStrandFlag(reverse);
    reads.add(r);
    support.add(2);
  }

  @Test
  void readsThatDeleteTheSitesBaseInAVariantsDeletionAreReadsWithoutTheAlt() {
    // blind44's wgsim 60x: 53 reads delete the site's base (a 1/1 deletion two bases before it),
    // 1 reference read, 2 alt reads; the SNP was called 0/1 on AD 1,2. Here 30 such reads, Q20 alts.
    rate = 1e-9;
    read((char) g.ref[SITE], 35, 60, false);
    read(alt, 20, 60, false);
    read(alt, 20, 60, true);
    float[] alone = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
    assertTrue(alone[1] - alone[0] > 3, "three reads with a base: a het " + Arrays.toString(alone));
    for (int i = 0; i < 30; i++) deletionRead(i % 2 == 1);
    float[] withDeletion = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
    // under 0/1 each of the 30 reads is a haplotype's without the alt (log10 1/2 each), under 0/0 all of them
    assertTrue(withDeletion[0] - withDeletion[1] > 4, "hom-ref against het: " + Arrays.toString(withDeletion));
    assertTrue(withDeletion[0] - withDeletion[2] > 50, "hom-alt: " + Arrays.toString(withDeletion));
    // a deletion that fewer than SHARED_INDEL_ROWS reads carry is their error, under any genotype: left out
    reads.subList(5, reads.size()).clear();
    support.subList(5, support.size()).clear();
    assertArrayEquals(alone, PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate)), 1e-6f);
  }

  @Test
  void aHetSnpBesideAHetDeletionOnTheOtherHaplotypeStaysAHet() {
    // 12 reads of the deletion's haplotype, 12 of the SNP's: half the reads without the alt, as at any het
    rate = 1e-9;
    for (int i = 0; i < 12; i++) deletionRead(i % 2 == 1);
    for (int i = 0; i < 12; i++) read(alt, 35, 60, i % 2 == 1);
    float[] gl = PileupLikelihood.snp(encoded(), 8, H, W, 6, SnpInputs.of(rate));
    assertTrue(gl[1] == 0 && gl[2] < -20 && gl[0] < -20, Arrays.toString(gl));
  }

  /** Q35 reads over the site, MAPQ 60: {@code seq} from SITE - 50 with {@code cigar}, on alternating strands. */
  void stutterRead(String seq, String cigar, int supports) {
    SAMRecord r = g.read(SITE - 50, cigar, seq);
    byte[] quals = new byte[seq.length()];
    Arrays.fill(quals, (byte) 35);
    r.setBaseQualities(quals);
    r.setMappingQuality(60);
    r.setReadNegativeStrandFlag(reads.size() % 2 == 1);
    reads.add(r);
    support.add(supports);
  }

  /** Clean reads, indels at 1e-4 a read but in homopolymers of {@code tract} bases, where they slip at {@code slip}. */
  IndelErrorRate homopolymerSlips(int tract, double slip) {
    return repeatSlips(tract, 1, slip);
  }

  /** Clean reads, indels at 1e-4 a read but in repeats of {@code tract} bases of a {@code unit}-base unit, where they slip at {@code slip}. */
  IndelErrorRate repeatSlips(int tract, int unit, double slip) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-4);
    rates[IndelErrorRate.classOf(tract, unit)] = slip;
    return new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  @Test
  void aReadWithAnInsertionNearTheSnpThatIsTheAltsHaplotypeSlippedInARepeatIsAStutterReadOfTheAlt() {
    // blind55's HS20 60x with stutter: A>G before TT and an (AC)n run, 1/1; 6 reads of the alt's
    // haplotype with one AC more in the run, which the aligner wrote as an insertion before the SNP
    // and a mismatch after it, show the reference's A at it. Called 0/1 on AD 7,60.
    rate = 1e-9;
    g.ref[SITE - 3] = 'G';
    g.ref[SITE - 2] = 'T';
    g.ref[SITE - 1] = 'T';
    g.ref[SITE] = 'A';
    g.ref[SITE + 1] = 'T';
    for (int i = 0; i < 10; i++) g.ref[SITE + 2 + i] = (byte) (i % 2 == 0 ? 'A' : 'C');
    g.ref[SITE + 12] = 'T';
    g.ref[SITE + 13] = 'G';
    String altHaplotype = haplotypeWith('G');
    // one AC more in the run: 49 bases to SITE - 2, then the haplotype's TG written as inserted, then the rest
    String slipped = altHaplotype.substring(0, 52) + "AC" + altHaplotype.substring(52);
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 6, slipped, "49M2I49M");
    assertEquals('A', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "the slipped read shows the reference's A at the SNP");
    assertHetUnlessTheReadsSlip(image, repeatSlips(10, 2, 1e-4), repeatSlips(10, 2, 0.05));
  }

  @Test
  void aReferenceReadThatShowsTheAltsBaseMovedOneColumnInARunIsAStutterReadOfTheAlt() {
    // blind57's HSXt 60x with stutter: A>G splitting a run of 24 A into 9 and 14, 1/1; reads of the
    // alt's haplotype with ten A before the G, laid without a gap, show the reference's A at the SNP
    // and the G one column on. Called 0/1 on AD 5,37.
    rate = 1e-9;
    runAroundSite('C', -9, 14, 'A', 'T');
    String altHaplotype = haplotypeWith('G');
    String slipped = altHaplotype.substring(0, 50) + "A" + altHaplotype.substring(50);
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 5, slipped, "100M");
    assertEquals('A', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2));
    assertEquals('G', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 + 1), "the alt's G one column on");
    assertHetUnlessTheReadsSlip(image, homopolymerSlips(9, 1e-4), homopolymerSlips(9, 0.05));
  }

  @Test
  void aReferenceReadThatShowsTheAltsBaseMovedARepeatsUnitIsAStutterReadOfTheAlt() {
    // blind62's MSv1 stutter cells: a hom-alt G>T inside a (TGA)n repeat (TGA to TTA), 0/1 on AD 2,16
    // at 15x and 3,19 at 20x; its reference reads are the alt's haplotype with one TGA fewer before
    // the SNP, laid without a gap: the reference's G at the SNP, the alt's T three columns back.
    rate = 1e-9;
    g.ref[SITE - 26] = 'C';
    for (int i = -25; i <= 26; i++) g.ref[SITE + i] = (byte) "TGA".charAt(Math.floorMod(i + 1, 3));
    g.ref[SITE + 27] = 'C';
    String altHaplotype = haplotypeWith('T');
    String slipped = altHaplotype.substring(0, 30) + altHaplotype.substring(33) + "CCC";
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 5, slipped, "100M");
    assertEquals('G', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "the slipped read shows the reference's G at the SNP");
    assertEquals('T', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 - 3), "and the alt's T three columns back");
    assertEquals('T', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 - 1), "the columns beside the SNP are the reference's");
    assertEquals('A', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 + 1));
    assertHetUnlessTheReadsSlip(image, repeatSlips(52, 3, 1e-4), repeatSlips(52, 3, 0.05));
  }

  @Test
  void anAltReadThatShowsTheSamplesHomAltBaseMovedOneColumnInARunIsAStutterReadOfTheSample() {
    // blind58's MSv3 60x with stutter: a hom-alt T>G splitting a run of 23 T into 7 and 15; reads of
    // the sample's haplotype with eight T before the G, laid without a gap, show the reference's T at
    // the hom-alt's column and the G one column on: a false T>G there, 0/1 on AD 44,7.
    rate = 1e-9;
    runAroundSite('C', -8, 14, 'T', 'A');
    // the example is the false site's (SITE); the sample's G is at SITE - 1
    String sample = g.refString(SITE - 50, SITE - 1) + "G" + g.refString(SITE, SITE + 60);
    String slipped = sample.substring(0, 49) + "T" + sample.substring(49);
    UnsafeBuffer image = altAndSlippedReads(sample, 5, slipped, "100M", "100M", 0, 1);
    assertEquals('T', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 - 1), "the reference's T at the hom-alt's column");
    assertEquals('G', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "the sample's G one column on");
    assertHetUnlessTheReadsSlip(image, homopolymerSlips(7, 1e-4), homopolymerSlips(7, 0.05), 0, null, null);
  }

  @Test
  void aSnpAltsReadsThatAreTheSitesInsertionsHaplotypeSlippedAreStutterReadsOfIt() {
    // blind58's MSv3 60x with stutter: a hom-alt C>CT between nine T and five; reads of the insertion's
    // haplotype with eight T before the C, laid without a gap, show the C a column back and a T at the
    // site: C>CT,T called 1/2 at GQ 1 on AD 1,54,8, the insertion's reads drawing no base at the site.
    rate = 1e-9;
    runAroundSite('G', -9, -1, 'T', 'C');
    runAroundSite('C', 1, 5, 'T', 'A');
    String insertion = g.refString(SITE - 50, SITE + 1) + "T" + g.refString(SITE + 1, SITE + 60);
    String slipped = insertion.substring(0, 41) + insertion.substring(42); // one T fewer in the first run
    UnsafeBuffer image = altAndSlippedReads(insertion, 5, slipped, "100M", "51M1I48M", 0, 1);
    assertEquals('C', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 - 1), "the insertion's C a column back");
    assertEquals('T', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "a T at the site");
    String[] indels = {"CT"};
    float[] alone = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(9, 0.05)));
    assertTrue(alone[2] == 0, "the SNP's reads alone, the insertion's drawing no base: " + Arrays.toString(alone));
    assertHetUnlessTheReadsSlip(image, homopolymerSlips(9, 1e-4), homopolymerSlips(9, 0.05), 0, "C", indels);
  }

  @Test
  void aReadOfAMixedSitesIndelAnchoredAtTheSnpIsAReadWithoutItsAltUnlessTheAltsHaplotypeSlipped() {
    // blind59's HS20 60x with stutter: a hom-alt T>G near the end of a run of 13 T (T>G,TG at the
    // site); four reads of the alt's haplotype with one T more before the G are written as the
    // reference's T and an insertion of the G, drawn as an anchor at the site: 1/1 on AD 0,48.
    rate = 1e-9;
    runAroundSite('C', -11, 1, 'T', 'G');
    String altHaplotype = haplotypeWith('G');
    String slipped = altHaplotype.substring(0, 50) + "T" + altHaplotype.substring(50);
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 4, slipped, "51M1I48M");
    String[] indels = {"TG"};
    float[] alone = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(11, 0.05)));
    assertTrue(alone[2] == 0, "a SNP site's pileup draws no base for the anchored reads: " + Arrays.toString(alone));
    // four reads of the insertion where the run does not slip; slipped reads of the alt's haplotype where it does
    assertHetUnlessTheReadsSlip(image, homopolymerSlips(11, 1e-4), homopolymerSlips(11, 0.05), 2, "T", indels);
  }

  /** {@link PileupLikelihood#altSlipRate} of a one-base deletion after {@code anchor} in {@code row}, the sample's bases with {@code alt} at the centre. */
  static double altSlipRate(UnsafeBuffer image, int row, char alt, int anchor, IndelErrorRate slips) {
    byte[] hap = PileupLikelihood.sampleBases(image, 8, H, W, 6);
    hap[W / 2] = (byte) alt;
    return PileupLikelihood.altSlipRate(image, row, W, 6, hap, anchor, 1, slips);
  }

  /** The reference from SITE - 50 to SITE + 60 with {@code base} at SITE. */
  String haplotypeWith(char base) {
    return g.refString(SITE - 50, SITE) + base + g.refString(SITE + 1, SITE + 60);
  }

  /** The reference from SITE + {@code from} to SITE + {@code to} a run of {@code base}, {@code before} and {@code after} either side. */
  void runAroundSite(char before, int from, int to, char base, char after) {
    g.ref[SITE + from - 1] = (byte) before;
    for (int i = from; i <= to; i++) g.ref[SITE + i] = (byte) base;
    g.ref[SITE + to + 1] = (byte) after;
  }

  /** Where {@link #altAndSlippedReads} puts its first slipped read: the row after 30 alt reads. */
  static final int FIRST_SLIPPED_ROW = 8 + (PileupConstants.REFERENCE_ROWS + 30) * W * 6;

  /** The image of 30 reads of {@code altHaplotype} (from SITE - 50) and {@code n} of {@code slipped}, laid as {@code cigar}. */
  UnsafeBuffer altAndSlippedReads(String altHaplotype, int n, String slipped, String cigar) {
    return altAndSlippedReads(altHaplotype, n, slipped, cigar, "100M", 1, 0);
  }

  /**
   * As {@link #altAndSlippedReads(String, int, String, String)}, the 30 reads of {@code haplotype} laid
   * as {@code haplotypeCigar}, the two kinds of read supporting the SNP as given (1: yes).
   */
  UnsafeBuffer altAndSlippedReads(String haplotype, int n, String slipped, String cigar, String haplotypeCigar, int supports,
      int slippedSupports) {
    for (int i = 0; i < 30; i++) stutterRead(haplotype.substring(0, 100), haplotypeCigar, supports);
    for (int i = 0; i < n; i++) stutterRead(slipped.substring(0, 100), cigar, slippedSupports);
    return encoded();
  }

  /** The SNP pileup of {@code image}: a het where the sample's reads do not slip ({@code clean}), hom-alt where they do. */
  void assertHetUnlessTheReadsSlip(UnsafeBuffer image, IndelErrorRate clean, IndelErrorRate slipping) {
    assertHetUnlessTheReadsSlip(image, clean, slipping, 2, null, null);
  }

  /**
   * The SNP pileup of {@code image} at a site of {@code siteRef} and indel alts {@code indelAlts}
   * besides the SNP (null: none): a het where the sample's reads do not slip ({@code clean}),
   * genotype {@code slipped} (0 hom-ref, 2 hom-alt) where they do.
   */
  void assertHetUnlessTheReadsSlip(UnsafeBuffer image, IndelErrorRate clean, IndelErrorRate slipping, int slipped,
      String siteRef, String[] indelAlts) {
    float[] c = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(clean).withSite(siteRef, indelAlts));
    assertTrue(c[1] == 0 && c[slipped] < -2, "a het where the repeat does not slip: " + Arrays.toString(c));
    float[] s = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(slipping).withSite(siteRef, indelAlts));
    assertTrue(s[slipped] == 0 && s[1] < -2, "slipped reads: " + Arrays.toString(s));
  }

  /** The base a read row starting at {@code row} shows at column {@code c}, or 0. */
  static byte readBaseAt(UnsafeBuffer image, int row, int c) {
    int pixel = image.getByte(row + c * 6) & 0xFF;
    for (byte b : new byte[] {'A', 'C', 'G', 'T'}) if (ReadBaseChannel.baseColor(b) == pixel) return b;
    return 0;
  }

  @Test
  void aReadThatDeletesAHomAltSnpsBaseWhereItExtendsARunIsAStutterReadOfTheAlt() {
    // blind51's HSXt 60x with stutter: C>T after seven T, 1/1; 8 reads of the alt's haplotype (eight T)
    // slipped one T, which the aligner writes as a deletion of the C. Called 0/1 on AD 0,55.
    rate = 1e-9;
    for (int i = 1; i <= 7; i++) g.ref[SITE - i] = 'T';
    g.ref[SITE - 8] = 'G';
    g.ref[SITE] = 'C';
    g.ref[SITE + 1] = 'A';
    String altHaplotype = g.refString(SITE - 50, SITE) + "T" + g.refString(SITE + 1, SITE + 51);
    for (int i = 0; i < 30; i++) stutterRead(altHaplotype.substring(0, 100), "100M", 1);
    for (int i = 0; i < 5; i++) stutterRead(g.refString(SITE - 50, SITE) + g.refString(SITE + 1, SITE + 51), "50M1D50M", 2);
    UnsafeBuffer image = encoded();
    float[] before = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate));
    assertTrue(before[1] == 0 && before[2] < -3, "the 5 reads as reads without the alt at Q35: " + Arrays.toString(before));
    // the alt's haplotype has a run of eight T: its reads slip there at 3 %, so 5 of 35 are its reads' slips
    // (the image's 35 read rows hold 30 + 5 reads)
    float[] stutter = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(8, 0.03)));
    assertEquals(0, stutter[2], 1e-6, Arrays.toString(stutter));
    assertTrue(stutter[1] < -2, "hom-alt over het: " + Arrays.toString(stutter));
    // the same reads where the sample does not slip in such runs: reads without the alt, as before
    float[] clean = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(8, 1e-4)));
    assertTrue(clean[1] == 0 && clean[2] < -3, Arrays.toString(clean));
    int firstDeletingRow = 8 + (PileupConstants.REFERENCE_ROWS + 30) * W * 6;
    assertEquals(0.03, altSlipRate(image, firstDeletingRow, 'T', W / 2 - 1, homopolymerSlips(8, 0.03)), 1e-12,
        "the alt T's haplotype with the C deleted: a T run of eight, left-aligned");
  }

  @Test
  void aReadWhoseSlipInARunAfterTheSnpIsWrittenAsTheSnpsDeletionAndAMismatchIsAStutterReadOfTheAlt() {
    // blind53's HSXt 60x with stutter: A>C between TT and C + fourteen A, 1/1; 5 reads of the alt's
    // haplotype (TTCC + 14 A) have one A fewer, which the aligner wrote as a deletion of the SNP's A and
    // the second C as a mismatch. Called 0/1 on AD 0,48.
    rate = 1e-9;
    g.ref[SITE - 2] = 'T';
    g.ref[SITE - 1] = 'T';
    g.ref[SITE] = 'A';
    g.ref[SITE + 1] = 'C';
    for (int i = 2; i <= 15; i++) g.ref[SITE + i] = 'A';
    g.ref[SITE + 16] = 'G';
    for (int i = 0; i < 30; i++) stutterRead(g.refString(SITE - 50, SITE) + "C" + g.refString(SITE + 1, SITE + 50), "100M", 1);
    for (int i = 0; i < 5; i++) {
      stutterRead(g.refString(SITE - 50, SITE) + "CC" + "A".repeat(13) + g.refString(SITE + 16, SITE + 51), "50M1D50M", 2);
    }
    UnsafeBuffer image = encoded();
    float[] clean = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(14, 1e-4)));
    assertTrue(clean[1] == 0 && clean[2] < -2, "reads without the alt where the run does not slip: " + Arrays.toString(clean));
    float[] stutter = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(14, 0.03)));
    assertTrue(stutter[2] == 0 && stutter[1] < -2, "slipped reads of the alt: " + Arrays.toString(stutter));
    int firstDeletingRow = 8 + (PileupConstants.REFERENCE_ROWS + 30) * W * 6;
    assertEquals(0.03, altSlipRate(image, firstDeletingRow, 'C', W / 2 - 1, homopolymerSlips(14, 0.03)), 1e-12,
        "the read's own bases: the alt's haplotype with one A of the run deleted");
    // one base error four columns on is a base error beside the slip (blind85: a read one AG short
    // with a base error ten columns before its gap was no slip, and a hom-alt 0/1 on AD 0,7) ...
    int alone = 8 + (PileupConstants.REFERENCE_ROWS + 34) * W * 6;
    image.putByte(alone + (W / 2 + 4) * 6, (byte) ReadBaseChannel.baseColor((byte) 'G'));
    assertEquals(0.03, altSlipRate(image, alone, 'C', W / 2 - 1, homopolymerSlips(14, 0.03)), 1e-12,
        "a slip one base aside");
    // ... two are no slip of the alt's haplotype: the rate of the gap's own base deleted from that
    // haplotype (CC, no repeat: the class-0 rate)
    image.putByte(alone + (W / 2 - 6) * 6, (byte) ReadBaseChannel.baseColor((byte) 'G'));
    assertEquals(1e-4, altSlipRate(image, alone, 'C', W / 2 - 1, homopolymerSlips(14, 0.03)), 1e-12,
        "two bases aside: no slip");
  }

  @Test
  void aDeletingReadsAnchorBaseIsNotKnownFromTheImageAndMayBeAnyBase() {
    // blind68's HS25 2x150 with stutter: a hom-alt MNP ACT>GGA that ends a (CA)n repeat; reads of it
    // with one CA fewer are written as a deletion of the C and the T after an anchor that shows the
    // MNP's A (its G G two columns back). The image draws no base at an anchor: taken as the sample's
    // G there, the read was no slip of the alt's haplotype, and T>A was 0/1 on AD 0,59 beside 5 of them.
    rate = 1e-9;
    g.ref[SITE - 14] = 'T';
    for (int i = 13; i >= 1; i--) g.ref[SITE - i] = (byte) (i % 2 == 1 ? 'C' : 'A'); // CACACACACACAC
    g.ref[SITE] = 'T';
    g.ref[SITE + 1] = 'T';
    g.ref[SITE + 2] = 'T';
    g.ref[SITE + 3] = 'G';
    String altHaplotype = g.refString(SITE - 50, SITE - 2) + "GGA" + g.refString(SITE + 1, SITE + 60);
    String slipped = altHaplotype.substring(0, 37) + altHaplotype.substring(39); // one CA fewer, at SITE - 13
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 5, slipped, "49M2D51M");
    assertHetUnlessTheReadsSlip(image, repeatSlips(11, 2, 1e-4), repeatSlips(11, 2, 0.05));
  }

  @Test
  void anAltReadThatIsTheReferencesHaplotypeSlippedByAUnitIsAStutterRead() {
    // blind68's MSv3 2x250 with stutter: a hom-alt T>C in a (TTTC)n repeat; reads of the sample's
    // haplotype one unit longer, laid without a gap over the repeat, show its C one unit on, where
    // they made a false T>C, 0/1 at 60x on AD 53,8. Such a read is the reference's allele's
    // haplotype (the sample's, with the reference's base at the site) slipped by a unit.
    rate = 1e-9;
    // the sample's C four columns back (SITE - 4 is a T of the repeat's unit TTTC, as SITE is)
    UnsafeBuffer image = sampleAndOneUnitLonger(-4, 30, 0, 4, 1);
    assertEquals('C', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "the slipped reads show the C at the site");
    float[] clean = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(repeatSlips(40, 4, 1e-4)));
    assertTrue(clean[1] == 0 && clean[0] < -2, "4 alt reads of 34 where the repeat does not slip: " + Arrays.toString(clean));
    float[] stutter = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(repeatSlips(40, 4, 0.1)));
    assertTrue(stutter[0] == 0 && stutter[1] < -2, "slipped reads of the reference's allele: " + Arrays.toString(stutter));
  }

  @Test
  void anAltReadThatIsTheReferencesHaplotypeSlippedByATwoBaseUnitIsAStutterRead() {
    // blind73's HS25 30x with stutter: a hom-alt C>T inside a (CA)n repeat; reads of the sample one CA
    // longer before the T, laid without a gap, show the T two columns on, where they made a false C>T,
    // 0/1 on AD 33,5 at GQ 24. Their bases beside that site are the repeat's A, not the reference's C.
    rate = 1e-9;
    g.ref[SITE - 25] = 'G';
    for (int i = -24; i <= 15; i++) g.ref[SITE + i] = (byte) "CA".charAt(Math.floorMod(i, 2)); // a C at SITE
    g.ref[SITE + 16] = 'G';
    String sample = g.refString(SITE - 50, SITE - 2) + "T" + g.refString(SITE - 1, SITE + 60); // the hom-alt T at SITE - 2
    String slipped = sample.substring(0, 30) + "CA" + sample.substring(30); // one CA more before it
    for (int i = 0; i < 30; i++) stutterRead(sample.substring(0, 100), "100M", 0);
    for (int i = 0; i < 5; i++) stutterRead(slipped.substring(0, 100), "100M", 1);
    UnsafeBuffer image = encoded();
    assertEquals('T', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2), "the slipped reads show the T at the site");
    assertEquals('A', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 - 1), "the repeat's A beside it");
    assertEquals('A', (char) readBaseAt(image, FIRST_SLIPPED_ROW, W / 2 + 1));
    float[] clean = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(unitSlips(2, 1e-4)));
    assertTrue(clean[1] == 0 && clean[0] < -2, "5 alt reads of 35 where the repeat does not slip: " + Arrays.toString(clean));
    float[] stutter = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(unitSlips(2, 0.1)));
    assertTrue(stutter[0] == 0 && stutter[1] < -2, "slipped reads of the reference's allele: " + Arrays.toString(stutter));
  }

  /** Clean reads, indels at 1e-4 a read but in every repeat of a {@code unit}-base unit, where they slip at {@code slip}. */
  IndelErrorRate unitSlips(int unit, double slip) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-4);
    for (int tract = 2 * unit; tract <= 200; tract++) rates[IndelErrorRate.classOf(tract, unit)] = slip;
    return new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  @Test
  void aMixedSitesSnpReadsAreNoSlipsOfAnIndelWithFewerReads() {
    // blind73's HS25 60x with stutter: a het T>A inside a run of 36 T, 20 alt reads of 59 beside 4 that
    // insert an A after the site (the A's haplotype with a T fewer before it). Read as the insertion's
    // haplotype slipped a T, at the run's high rate, the alt reads made it RefCall; an indel with fewer
    // reads than the SNP is the SNP's haplotype slipped, not the source of its reads.
    rate = 1e-9;
    runAroundSite('G', -17, 18, 'T', 'C');
    String alt = haplotypeWith('A');
    String insertion = g.refString(SITE - 50, SITE + 1) + "A" + g.refString(SITE + 1, SITE + 60);
    for (int i = 0; i < 15; i++) stutterRead(alt.substring(0, 100), "100M", 1);
    for (int i = 0; i < 22; i++) stutterRead(haplotypeWith('T').substring(0, 100), "100M", 0);
    for (int i = 0; i < 3; i++) stutterRead(insertion.substring(0, 100), "51M1I48M", 0);
    UnsafeBuffer image = encoded();
    String[] indels = {"TA"};
    float[] gl = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(unitSlips(1, 0.2)).withSite("T", indels));
    assertTrue(gl[1] == 0 && gl[0] < -2, "15 alt reads of 40 beside 3 of an insertion: a het " + Arrays.toString(gl));
  }

  /**
   * The image of {@code n} reads of a sample whose (TTTC)n repeat (SITE - 24 to SITE + 15) has a hom-alt
   * T>C at SITE + {@code at}, and {@code slippedReads} of it one unit longer, laid without a gap (the
   * reads supporting the SNP at SITE as {@code supports} and {@code slippedSupports} say).
   */
  UnsafeBuffer sampleAndOneUnitLonger(int at, int n, int supports, int slippedReads, int slippedSupports) {
    for (int i = -24; i <= 15; i++) g.ref[SITE + i] = (byte) "TTTC".charAt(Math.floorMod(i + 24, 4));
    g.ref[SITE + 16] = 'G';
    g.ref[SITE + 17] = 'A';
    String sample = g.refString(SITE - 50, SITE + at) + "C" + g.refString(SITE + at + 1, SITE + 60);
    String slipped = sample.substring(0, 26) + "TTTC" + sample.substring(26); // one unit more, in the repeat
    for (int i = 0; i < n; i++) stutterRead(sample.substring(0, 100), "100M", supports);
    for (int i = 0; i < slippedReads; i++) stutterRead(slipped.substring(0, 100), "100M", slippedSupports);
    return encoded();
  }

  @Test
  void aHomAltSnpsSlippedReadsAreReadOverTheSamplesSpreadOfLoci() {
    // blind68's MSv3 2x250 with stutter: a hom-alt T>C inside a (TTTC)n repeat, 11 of its 60 reads
    // one unit longer (laid without a gap, they show the reference's T at the site and the C a unit
    // on). At the class's rate those are too many slips for a hom-alt, and it stayed LowQual at GQ 2;
    // the sample's loci of longer units slip apart (a few at 16x the class's rate), as its indels show.
    rate = 1e-9;
    UnsafeBuffer image = sampleAndOneUnitLonger(0, 27, 1, 8, 0); // the image's 35 read rows
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-4);
    rates[IndelErrorRate.classOf(40, 4)] = 0.012;
    double[][] alike = {{1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}};
    double[][] apart = {{1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {0.9, 0, 0, 0, 0.1}};
    IndelErrorRate oneRate = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES], alike);
    IndelErrorRate spread = new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES], apart);
    float[] atClass = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(oneRate));
    assertTrue(atClass[1] == 0 && atClass[2] < -1, "8 slips of 35 at the class's rate: a het " + Arrays.toString(atClass));
    float[] overLoci = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(spread));
    assertTrue(overLoci[2] == 0 && overLoci[1] < -2, "a locus that slips 16 times as often: hom-alt " + Arrays.toString(overLoci));
  }

  @Test
  void aDeletingReadIsReadAgainstTheSamplesHaplotypeWithItsHomAltNeighbours() {
    // blind59's MSv3 30x with stutter: a hom-alt GAA>TCT before nine A; reads of it with eight A are
    // written as a deletion of the G and mismatches after it, which only the sample's haplotype (TCT),
    // not the reference's with the alt at the centre (TAA), gives with one A fewer. 0/1 on AD 0,28.
    rate = 1e-9;
    byte[] before = {'A', 'C', 'T'};
    for (int i = 0; i < 3; i++) g.ref[SITE - 3 + i] = before[i];
    g.ref[SITE] = 'G';
    g.ref[SITE + 1] = 'A';
    g.ref[SITE + 2] = 'A';
    runAroundSite('T', 5, 13, 'A', 'G');
    g.ref[SITE + 3] = 'T';
    String altHaplotype = g.refString(SITE - 50, SITE) + "TCT" + g.refString(SITE + 3, SITE + 60);
    String slipped = altHaplotype.substring(0, 55) + altHaplotype.substring(56); // one A fewer
    UnsafeBuffer image = altAndSlippedReads(altHaplotype, 5, slipped, "50M1D50M");
    assertHetUnlessTheReadsSlip(image, homopolymerSlips(9, 1e-4), homopolymerSlips(9, 0.05));
  }

  @Test
  void anIndelThatFewRowsShareInARepeatTheSampleSlipsInIsTheirOwn() {
    // a hom-alt SNP after a run of five T that 5 reads of 35 show one T fewer, and show the
    // reference at the site (the aligner's choice): a variant's deletion, their reference bases count
    // and the SNP is a het; as the sample's slips in that run (5 % a read) they count for nothing
    rate = 1e-9;
    g.ref[SITE - 6] = 'G';
    for (int i = 1; i <= 5; i++) g.ref[SITE - i] = 'T';
    if (g.ref[SITE] == 'T' || g.ref[SITE] == alt) g.ref[SITE] = (byte) (alt == 'G' ? 'C' : 'G');
    for (int i = 0; i < 30; i++) read(alt, 35, 60);
    for (int i = 0; i < 5; i++) stutterRead(g.refString(SITE - 50, SITE - 5) + g.refString(SITE - 4, SITE + 51), "45M1D55M", 0);
    UnsafeBuffer image = encoded();
    float[] shared = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(5, 1e-4)));
    assertTrue(shared[1] == 0 && shared[2] < -3, "5 reference reads of a variant's deletion: " + Arrays.toString(shared));
    float[] slips = PileupLikelihood.snp(image, 8, H, W, 6, SnpInputs.of(rate).withSlips(homopolymerSlips(5, 0.05)));
    assertTrue(slips[2] == 0 && slips[1] < -5, "the 5 reads left out: " + Arrays.toString(slips));
  }

  @Test
  void rowsSharingAnIndelAreSlipsWhereTheSamplesRateExplainsThemBetterThanAHet() {
    assertTrue(PileupLikelihood.slipsExplain(8, 63, 0.05), "stutter: 8 reads of 63");
    assertTrue(!PileupLikelihood.slipsExplain(8, 63, 1e-4), "8 of 63 outside a repeat: a variant's");
    assertTrue(!PileupLikelihood.slipsExplain(30, 60, 0.05), "a het's half of the reads");
    assertTrue(!PileupLikelihood.slipsExplain(3, 10, 0.05), "3 of 10 at 10x");
  }

  /** {@code reference} reads of the reference, then {@code reads} reads with {@code moved} at the site and the site's base one column on (from SITE - 50). */
  void referenceAndMovedReads(int reference, int reads, char moved) {
    for (int i = 0; i < reference; i++) stutterRead(g.refString(SITE - 50, SITE + 50), "100M", 0);
    byte[] seq = g.refString(SITE - 50, SITE + 50).getBytes();
    seq[51] = seq[50];
    seq[50] = (byte) moved;
    for (int i = 0; i < reads; i++) stutterRead(new String(seq), "100M", 1);
  }

  @Test
  void altReadsThatShowARunsBaseMovedOneColumnAreNoSnpsAlt() {
    // a dev stutter sample's 60x: a G between a run of fifteen A and one of eight; 8 of 61 reads show A
    // at the G, each with the G one column on (a slip either side of it, aligned without gaps), ending
    // at the G, or with an indel of its own beside it: called 0/1 at GQ 24
    rate = 1e-9;
    for (int i = 1; i <= 15; i++) g.ref[SITE - i] = 'A';
    g.ref[SITE] = 'G';
    for (int i = 1; i <= 8; i++) g.ref[SITE + i] = 'A';
    g.ref[SITE + 9] = 'G';
    referenceAndMovedReads(24, 4, 'A');
    SAMRecord endsAtTheG = g.read(SITE - 99, "100M", g.refString(SITE - 99, SITE) + "A");
    endsAtTheG.setBaseQualities(new byte[100]);
    Arrays.fill(endsAtTheG.getBaseQualities(), (byte) 35);
    endsAtTheG.setMappingQuality(60);
    reads.add(endsAtTheG);
    support.add(1);
    float[] shifted = likelihoods(homopolymerSlips(15, 0.03));
    assertTrue(shifted[0] == 0 && shifted[1] < -5, "24 reference reads, no SNP read: " + Arrays.toString(shifted));
    // in a sample whose reads do not slip in such runs, the same reads may be a TA>AT MNP's (validation): they count
    float[] clean = likelihoods(homopolymerSlips(15, 1e-4));
    assertTrue(clean[1] == 0, "a het: " + Arrays.toString(clean));
    // the same count of reads with the A at the G and nothing else moved: a het
    reads.subList(24, reads.size()).clear();
    support.subList(24, support.size()).clear();
    for (int i = 0; i < 5; i++) stutterRead(TestGenome.mutate(g.refString(SITE - 50, SITE + 50), 50, 'A'), "100M", 1);
    float[] snp = likelihoods(homopolymerSlips(15, 0.03));
    assertTrue(snp[1] == 0 && snp[0] < -5, "5 clean alt reads of 29: " + Arrays.toString(snp));
  }

  @Test
  void aTwoBaseSwapOutsideARunIsLeftToTheSnp() {
    // G>A after a run of three A only: the swap AG>GA could be a real MNP's, and the reads count
    rate = 1e-9;
    g.ref[SITE - 4] = 'C';
    for (int i = 1; i <= 3; i++) g.ref[SITE - i] = 'A';
    g.ref[SITE] = 'G';
    g.ref[SITE + 1] = 'C';
    referenceAndMovedReads(10, 10, 'A');
    float[] gl = likelihoods(slipsEverywhere(0.05));
    assertTrue(gl[1] == 0 && gl[0] < -5, Arrays.toString(gl));
  }

  /**
   * blind78-82's MSv1 stutter sample: a het T>A two bases after a C, before a run of T; reads of the
   * SNP's haplotype with a T more in the run are an A inserted after the C to an aligner, with no
   * mismatch, and made a false C>CA (AD 45,5, PASS). Here: C, A, eight T, C from the site on.
   */
  void cAThenEightT() {
    g.ref[SITE] = 'C';
    g.ref[SITE + 1] = 'A';
    for (int i = 2; i <= 9; i++) g.ref[SITE + i] = 'T';
    g.ref[SITE + 10] = 'C';
  }

  /** Clean reads (indels at 1e-4 a read) that slip at {@code slip} in runs of 6 to 9 T. */
  IndelErrorRate runsOfSixToNineSlip(double slip) {
    double[] rates = new double[IndelErrorRate.CLASSES];
    Arrays.fill(rates, 1e-4);
    for (int tract = 6; tract <= 9; tract++) rates[IndelErrorRate.classOf(tract, 1)] = slip;
    return new IndelErrorRate(rates, new long[IndelErrorRate.CLASSES], new double[IndelErrorRate.CLASSES]);
  }

  /** A read from SITE - 50, the reference with an A inserted after the site's C, {@code after} of its bases past the site. */
  void insertedARead(int after, int supports) {
    stutterRead(g.refString(SITE - 50, SITE + 1) + "A" + g.refString(SITE + 1, SITE + 1 + after), "51M1I" + after + "M",
        supports);
  }

  /**
   * 12 reference reads, 12 reads of the het T>A two bases after the site ({@code snp}) or 12 more of
   * the reference, on alternating strands.
   */
  void referenceAndSnpReads(boolean snp) {
    referenceAndSnpReads(snp, 12);
  }

  /** As {@link #referenceAndSnpReads(boolean)}, {@code each} reads of each kind. */
  void referenceAndSnpReads(boolean snp, int each) {
    for (int i = 0; i < each; i++) stutterRead(g.refString(SITE - 50, SITE + 50), "100M", 0);
    String snpHaplotype = TestGenome.mutate(g.refString(SITE - 50, SITE + 50), 52, 'A');
    for (int i = 0; i < each; i++) stutterRead(snp ? snpHaplotype : g.refString(SITE - 50, SITE + 50), "100M", 0);
  }

  float[] insertedALikelihoods(IndelErrorRate rates) {
    return PileupLikelihood.indel(encoded(), 8, H, W, 6, "C", "CA", 1e-9, rates);
  }

  @Test
  void anIndelsReadsThatAreANearbySnpsHaplotypeSlippedErrAtThatSlipsRate() {
    cAThenEightT();
    IndelErrorRate rates = runsOfSixToNineSlip(0.05);
    referenceAndSnpReads(true);
    for (int i = 0; i < 3; i++) insertedARead(49, 1); // the SNP's haplotype, eight T in its run of seven
    float[] besideSnp = insertedALikelihoods(rates);
    assertTrue(besideSnp[0] == 0 && besideSnp[1] < -2, "slips of the SNP's haplotype: " + Arrays.toString(besideSnp));
    reads.clear();
    support.clear();
    referenceAndSnpReads(false);
    for (int i = 0; i < 3; i++) insertedARead(49, 1); // no SNP: the A after the C is no run's slip
    float[] alone = insertedALikelihoods(rates);
    assertTrue(alone[1] == 0 && alone[0] < -2, "three reads of an insertion no repeat explains: " + Arrays.toString(alone));
  }

  @Test
  void anIndelsReadsThatAreANearbySnpsHaplotypeAsItStandsSayNothing() {
    // Mason 2x150 (validation): a hom-alt G>C inside an (AG)n, its reads that end in the run an AC
    // inserted before it to the aligner: G>GAC on 17 reads of 25. Here reads of the T>A haplotype
    // that end three bases past the site, written with the A inserted, are that haplotype exactly.
    cAThenEightT();
    IndelErrorRate rates = runsOfSixToNineSlip(1e-4);
    referenceAndSnpReads(true);
    for (int i = 0; i < 6; i++) insertedARead(3, 1);
    float[] besideSnp = insertedALikelihoods(rates);
    assertTrue(besideSnp[0] == 0 && besideSnp[1] < -2, "reads of the SNP's haplotype: " + Arrays.toString(besideSnp));
    reads.clear();
    support.clear();
    referenceAndSnpReads(false);
    for (int i = 0; i < 6; i++) insertedARead(3, 1);
    float[] alone = insertedALikelihoods(rates);
    assertTrue(alone[1] == 0 && alone[0] < -2, "six reads of the insertion: " + Arrays.toString(alone));
  }

  @Test
  void anIndelWithAsManyReadsAsTheSnpBesideItIsLeftAlone() {
    // where the indel's reads are as many as the SNP's, the SNP's column may be the indel's own reads
    // laid without the gap (without the guards on a SNP's column, the 5 Mb sample's true het GAA>G in
    // a run of 20 A, 23 reads of 33, and two true insertions fell from QUAL 100 to 20-24)
    cAThenEightT();
    IndelErrorRate rates = runsOfSixToNineSlip(0.05);
    for (int reads : new int[] {8, 10}) { // as many as the SNP's 8 and more: read as the indel's
      reads().clear();
      referenceAndSnpReads(true, 8);
      for (int i = 0; i < reads; i++) insertedARead(49, 1);
      float[] besideSnp = insertedALikelihoods(rates);
      reads().clear();
      referenceAndSnpReads(false, 8);
      for (int i = 0; i < reads; i++) insertedARead(49, 1);
      assertHomRefAgainstHetAlike(insertedALikelihoods(rates), besideSnp, reads + " insertion reads");
    }
  }

  /**
   * Hom-ref and het as likely, against each other, beside the SNP as without it (the SNP's reads,
   * reference reads to the indel either way, may weigh on hom-alt through the sample's haplotype).
   */
  static void assertHomRefAgainstHetAlike(float[] alone, float[] besideSnp, String what) {
    assertEquals(alone[1] - alone[0], besideSnp[1] - besideSnp[0], 0.01, what + ": " + Arrays.toString(alone) + " "
        + Arrays.toString(besideSnp));
  }

  /** Clears the reads and their support marks for the next image. */
  List<SAMRecord> reads() {
    support.clear();
    return reads;
  }

  /**
   * The example of alt {@code shown} (1: C>CA, 2: C>CGG) of a site whose reads are {@link
   * #referenceAndSnpReads}, five C>CA reads (the SNP's haplotype slipped where it is there) and three
   * C>CGG: 0/0 where the C>CA reads are slips, 0/1 where nothing explains them.
   */
  UnsafeBuffer slippedAndGgExample(boolean snp, int shown) {
    reads.clear();
    support.clear();
    referenceAndSnpReads(snp);
    for (int i = 0; i < 5; i++) insertedARead(49, shown == 1 ? 1 : 2);
    for (int i = 0; i < 3; i++) {
      stutterRead(g.refString(SITE - 50, SITE + 1) + "GG" + g.refString(SITE + 1, SITE + 48), "51M2I47M", shown == 2 ? 1 : 2);
    }
    return encoded();
  }

  @Test
  void aMultiAllelicIndelSitesReadsThatAreANearbySnpsHaplotypeSlippedErrAtThatSlipsRate() {
    cAThenEightT();
    String[] alts = {"CA", "CGG"};
    for (boolean snp : new boolean[] {true, false}) {
      PileupLikelihood.SiteAlleles site = new PileupLikelihood.SiteAlleles(2, false, runsOfSixToNineSlip(0.05));
      site.add(1, slippedAndGgExample(snp, 1), 8, H, W, 6, "C", alts);
      site.add(2, slippedAndGgExample(snp, 2), 8, H, W, 6, "C", alts);
      float[] gl = site.likelihoods(); // 0/0 0/1 1/1 0/2 1/2 2/2
      int best = snp ? 0 : 1;
      int other = snp ? 1 : 0;
      assertTrue(gl[best] == 0 && gl[other] < -2, (snp ? "the C>CA reads slips of the SNP's haplotype: "
          : "no SNP: five C>CA reads no repeat explains: ") + Arrays.toString(gl));
    }
  }
}
