package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Allele counting and candidate thresholds on hand-built reads. */
class AlleleCounterTest {
  final ExampleSettings.Builder o = ExampleSettings.builder();
  final TestGenome g = new TestGenome("chrT", 2000, 11);

  List<Candidate> count(int start, int end, SAMRecord... reads) {
    AlleleCounter c = new AlleleCounter(o.readFilters(), o.candidates());
    c.reset(0, g.contig, start, end, g.ref, 0);
    for (int i = 0; i < reads.length; i++) c.add(reads[i], i);
    return c.candidates();
  }

  char other(int pos) {
    return g.ref[pos] == 'A' ? 'C' : 'A';
  }

  SAMRecord[] withSnp(int n, int carriers, int pos) {
    SAMRecord[] r = new SAMRecord[n];
    for (int i = 0; i < n; i++) {
      String seq = g.refString(pos - 50, pos + 50);
      if (i < carriers) seq = TestGenome.mutate(seq, 50, other(pos));
      r[i] = g.read(pos - 50, "100M", seq);
    }
    return r;
  }

  @Test
  void snpNeedsTwoReadsAndTwelvePercent() {
    assertTrue(count(900, 1100, withSnp(20, 1, 1000)).isEmpty(), "one read is not enough");
    assertTrue(count(900, 1100, withSnp(20, 2, 1000)).isEmpty(), "2/20 = 0.10 < 0.12");
    List<Candidate> c = count(900, 1100, withSnp(16, 2, 1000)); // 2/16 = 0.125
    assertEquals(1, c.size());
    Candidate s = c.get(0);
    assertEquals(1000, s.position);
    assertEquals(String.valueOf((char) g.ref[1000]), s.ref);
    assertArrayEquals(new String[] {String.valueOf(other(1000))}, s.alts);
    assertArrayEquals(new int[] {14, 2}, s.alleleDepths);
    assertEquals(16, s.depth);
    assertArrayEquals(new int[] {0, 1}, s.supportingReads[0]);
  }

  @Test
  void lowBaseQualityIsNotCounted() {
    SAMRecord[] r = withSnp(10, 3, 1000);
    for (int i = 0; i < 2; i++) r[i].getBaseQualities()[50] = 9;
    assertTrue(count(900, 1100, r).isEmpty(), "only one good-quality carrier left");
  }

  /** A read without qualities ('*') has quality 0 at every base: counted only with --min-base-quality 0. */
  @Test
  void aReadWithoutQualitiesCountsOnlyWhenQualityZeroPasses() {
    SAMRecord[] r = withSnp(10, 3, 1000);
    for (SAMRecord read : r) read.setBaseQualities(SAMRecord.NULL_QUALS);
    assertTrue(count(900, 1100, r).isEmpty(), "quality 0 is below the default minimum");
    o.minBaseQuality(0);
    List<Candidate> c = count(900, 1100, r);
    assertEquals(1, c.size());
    assertArrayEquals(new int[] {7, 3}, c.get(0).alleleDepths);
    assertEquals(10, c.get(0).depth);
  }

  @Test
  void onlyPositionsInsideThePartitionAreCandidates() {
    assertTrue(count(1001, 1100, withSnp(10, 5, 1000)).isEmpty());
    assertEquals(1, count(1000, 1001, withSnp(10, 5, 1000)).size());
  }

  @Test
  void deletionIsLeftAlignedInARepeat() {
    // Make a homopolymer AAAAA at 1000..1004 preceded by C at 999; delete one A at the right end.
    byte[] ref = g.ref;
    ref[999] = 'C';
    for (int i = 1000; i < 1005; i++) ref[i] = 'A';
    ref[1005] = 'G';
    SAMRecord[] reads = new SAMRecord[6];
    for (int i = 0; i < 6; i++) {
      // 54M (950..1003) 1D (1004) 46M (1005..1050)
      reads[i] = g.read(950, "54M1D46M", g.refString(950, 1004) + g.refString(1005, 1051));
    }
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    Candidate d = c.get(0);
    assertEquals(999, d.position, "left-aligned to the base before the repeat");
    assertEquals("CA", d.ref);
    assertArrayEquals(new String[] {"C"}, d.alts);
    assertEquals("CA", d.minimalRef[0]);
    assertEquals("C", d.minimalAlt[0]);
  }

  @Test
  void insertionAndSnpAtOneSiteShareTheRef() {
    int p = 1000;
    // The base at p must differ from G (the last inserted base) so the insertion stays at p.
    g.ref[p] = 'C';
    SAMRecord[] reads = new SAMRecord[12];
    for (int i = 0; i < 12; i++) {
      if (i < 4) { // insertion of TTG after p
        reads[i] = g.read(p - 50, "51M3I49M", g.refString(p - 50, p + 1) + "TTG" + g.refString(p + 1, p + 50));
      } else if (i < 8) { // SNP C>A at p
        reads[i] = g.read(p - 50, "100M", TestGenome.mutate(g.refString(p - 50, p + 50), 50, 'A'));
      } else {
        reads[i] = g.refRead(p - 50, 100);
      }
    }
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    Candidate s = c.get(0);
    assertEquals("C", s.ref);
    assertArrayEquals(new String[] {"A", "CTTG"}, s.alts, "sorted by alt string");
    assertArrayEquals(new int[] {4, 4, 4}, s.alleleDepths);
    assertEquals(3, s.altSubsets().length, "two singles and one pair");
    assertArrayEquals(new int[] {0, 1}, s.altSubsets()[2]);
  }

  /** Reads at one site: {@code del} deleting AT after p, one per insertion given (after p), the rest reference. */
  SAMRecord[] delAndInsertions(int n, int del, String... insertions) {
    int p = 1000;
    g.ref[p] = 'C';
    g.ref[p + 1] = 'A';
    g.ref[p + 2] = 'T';
    SAMRecord[] reads = new SAMRecord[n];
    for (int i = 0; i < n; i++) {
      if (i < del) {
        reads[i] = g.read(p - 50, "51M2D49M", g.refString(p - 50, p + 1) + g.refString(p + 3, p + 52));
      } else if (i < del + insertions.length) {
        String ins = insertions[i - del];
        reads[i] = g.read(p - 50, "51M" + ins.length() + "I49M", g.refString(p - 50, p + 1) + ins + g.refString(p + 1, p + 50));
      } else {
        reads[i] = g.refRead(p - 50, 100);
      }
    }
    return reads;
  }

  /**
   * At a site that already has an indel candidate, a second indel allele needs the fraction (0.06)
   * and one read fewer than the count: a 1/2 site at 10x often has one clean read of its second allele.
   */
  @Test
  void aSecondIndelAlleleAtAnIndelCandidateNeedsOneReadAndTheFraction() {
    List<Candidate> c = count(900, 1100, delAndInsertions(10, 4, "TTG"));
    assertEquals(1, c.size());
    assertEquals("CAT", c.get(0).ref);
    assertArrayEquals(new String[] {"C", "CTTGAT"}, c.get(0).alts, "the deletion, and the insertion of one read");
    assertArrayEquals(new int[] {5, 4, 1}, c.get(0).alleleDepths);
    // One read alone is no candidate.
    assertTrue(count(900, 1100, delAndInsertions(10, 0, "TTG")).isEmpty());
    // 1 of 20 reads is below the fraction: the deletion alone.
    c = count(900, 1100, delAndInsertions(20, 8, "TTG"));
    assertArrayEquals(new String[] {"C"}, c.get(0).alts);
    assertArrayEquals(new int[] {11, 8}, c.get(0).alleleDepths);
    // Two one-read insertions: one is added, the same whatever the read order (first by name: TAG).
    SAMRecord[] two = delAndInsertions(10, 4, "TTG", "TAG");
    c = count(900, 1100, two);
    assertArrayEquals(new String[] {"C", "CTAGAT"}, c.get(0).alts);
    java.util.Collections.reverse(java.util.Arrays.asList(two));
    assertArrayEquals(new String[] {"C", "CTAGAT"}, count(900, 1100, two).get(0).alts);
    // It is one read fewer than --indel-min-count: with 3, one read is no second allele.
    o.indelMinCount(3);
    assertArrayEquals(new String[] {"C"}, count(900, 1100, delAndInsertions(10, 4, "TTG")).get(0).alts);
    assertArrayEquals(new String[] {"C", "CTTGAT"}, count(900, 1100, delAndInsertions(10, 4, "TTG", "TTG")).get(0).alts);
  }

  /**
   * The one-read second allele is chosen among the alleles that are no shadow of the site's passing
   * ones: a +4 insertion on 6 reads with a one-read error copy (GGAA, first by name) and one read of
   * a +6 insertion gives the +6 (with the shadow rule off: the copy, as before).
   */
  @Test
  void theSecondIndelAlleleIsNoShadowOfTheSitesOwn() {
    SAMRecord[] reads = delAndInsertions(12, 0, "GGAG", "GGAG", "GGAG", "GGAG", "GGAG", "GGAG", "GGAA", "GGAGAG");
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CGGAG", "CGGAGAG"}, c.get(0).alts, "the +4 and the +6, not the +4's copy");
    assertArrayEquals(new int[] {4, 6, 1}, c.get(0).alleleDepths);
    o.indelShadowRatio(0);
    assertArrayEquals(new String[] {"CGGAA", "CGGAG"}, count(900, 1100, reads).get(0).alts, "ratio 0: first by name");
    o.indelShadowRatio(7); // 6 reads are not 7 times 1: the copy is no shadow
    assertArrayEquals(new String[] {"CGGAA", "CGGAG"}, count(900, 1100, reads).get(0).alts);
  }

  /**
   * An insertion read whose inserted bases differ from another insertion allele of the same length
   * only where its own bases are below Q20 counts for that allele when it has a clean read: a het's
   * +TA at 10x read once as TA and once as TG with the G at Q9 is one allele of two reads.
   */
  @Test
  void anInsertionReadsUnsureBaseFoldsIntoTheCleanAlleleItOtherwiseMatches() {
    SAMRecord[] reads = delAndInsertions(8, 0, "TA", "TG");
    assertTrue(count(900, 1100, reads).isEmpty(), "TG at Q30: two alleles of one read each");
    reads[1].getBaseQualities()[52] = 9; // the G
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CTA"}, c.get(0).alts);
    assertArrayEquals(new int[] {6, 2}, c.get(0).alleleDepths);
    assertArrayEquals(new int[] {0, 1}, c.get(0).supportingReads[0], "both reads support it");
    // Its unsure base must be the one that differs: an unsure T (the bases agree there) folds nothing.
    reads = delAndInsertions(8, 0, "TA", "TG");
    reads[1].getBaseQualities()[51] = 9;
    assertTrue(count(900, 1100, reads).isEmpty());
    // Two unsure reads, no clean one: nothing to fold into.
    reads = delAndInsertions(8, 0, "TA", "TG");
    reads[0].getBaseQualities()[52] = 9;
    reads[1].getBaseQualities()[52] = 9;
    assertTrue(count(900, 1100, reads).isEmpty());
  }

  /**
   * Two reads of a long insertion that differ at one base, each an allele of one read, are one
   * allele of two where none of that length reaches the count alone: the one whose read shows the
   * base where they differ at the higher quality (Mason's 15x het G>GGAGGCGC, read once as GAGGGGC).
   */
  @Test
  void longInsertionReadsThatDifferAtOneBasePoolIntoTheAlleleReadAtTheHigherQuality() {
    SAMRecord[] reads = delAndInsertions(8, 0, "GAGGCGT", "GAGGGGT");
    reads[0].getBaseQualities()[55] = 40; // its C
    reads[1].getBaseQualities()[55] = 33; // its G
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CGAGGCGT"}, c.get(0).alts);
    assertArrayEquals(new int[] {6, 2}, c.get(0).alleleDepths);
    assertArrayEquals(new int[] {0, 1}, c.get(0).supportingReads[0], "both reads support it");
    reads[1].getBaseQualities()[55] = 41; // now the G is read better
    c = count(900, 1100, reads);
    assertArrayEquals(new String[] {"CGAGGGGT"}, c.get(0).alts);
    // two bases apart: two alleles, no candidate
    assertTrue(count(900, 1100, delAndInsertions(8, 0, "GAGGCGT", "GTGGGGT")).isEmpty());
    // shorter than four bases: a base in three is no error to assume
    assertTrue(count(900, 1100, delAndInsertions(8, 0, "GAT", "GGT")).isEmpty());
  }

  /**
   * Where one allele of that length has the reads alone, a read one base off stays its own: the
   * allele keeps its count (at 20 reads, where one read is no second allele either).
   */
  @Test
  void anInsertionAlleleThatReachesTheCountAlonePoolsNothing() {
    List<Candidate> c = count(900, 1100, delAndInsertions(20, 0, "GAGGCGT", "GAGGCGT", "GAGGGGT"));
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CGAGGCGT"}, c.get(0).alts);
    assertArrayEquals(new int[] {17, 2}, c.get(0).alleleDepths);
  }

  /** The unsure read stays with its own allele where that has a clean read and more reads; a tie keeps it too. */
  @Test
  void anUnsureInsertionReadStaysWithItsOwnAlleleWhenThatIsTheBetterSupported() {
    SAMRecord[] reads = delAndInsertions(12, 0, "TG", "TG", "TG", "TA");
    reads[0].getBaseQualities()[52] = 9;
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CTG"}, c.get(0).alts, "TA's one read is no second allele beside a 3-read +TG");
    assertArrayEquals(new int[] {8, 3}, c.get(0).alleleDepths, "the unsure TG read stays: 3 TG reads");
    // Two TG reads (one unsure) and two clean TA reads: a tie, and the unsure read stays.
    reads = delAndInsertions(12, 0, "TG", "TG", "TA", "TA");
    reads[0].getBaseQualities()[52] = 9;
    c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertArrayEquals(new String[] {"CTA", "CTG"}, c.get(0).alts);
    assertArrayEquals(new int[] {8, 2, 2}, c.get(0).alleleDepths);
  }

  /**
   * Left-aligning an insertion rotates its bases, and the unsure mark rotates with them: GC after a
   * C (its G at Q9) is CG after the base before, where a clean read's CT sits; the unsure base is then
   * the second, and the read folds into CT.
   */
  @Test
  void theUnsureMarkFollowsTheBasesWhenTheInsertionIsLeftAligned() {
    int p = 1000;
    g.ref[p - 1] = 'A';
    g.ref[p] = 'C';
    g.ref[p + 1] = 'A';
    SAMRecord[] reads = new SAMRecord[8];
    for (int i = 0; i < 8; i++) reads[i] = g.refRead(p - 50, 100);
    reads[0] = g.read(p - 50, "50M2I50M", g.refString(p - 50, p) + "CT" + g.refString(p, p + 50)); // CT after p - 1
    reads[1] = g.read(p - 50, "51M2I49M", g.refString(p - 50, p + 1) + "GC" + g.refString(p + 1, p + 50)); // GC after p
    assertTrue(count(900, 1100, reads).isEmpty(), "CT and CG: two alleles");
    reads[1].getBaseQualities()[51] = 9; // the G, first inserted, second once left-aligned
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size());
    assertEquals(p - 1, c.get(0).position);
    assertArrayEquals(new String[] {"ACT"}, c.get(0).alts);
    assertArrayEquals(new int[] {7, 2}, c.get(0).alleleDepths, "the GC read shows the reference at p - 1");
  }

  @Test
  void anInsertionCountsWhenItsBasesReachTheMinimumOnAverage() {
    int p = 1000;
    g.ref[p] = 'C';
    g.ref[p + 1] = 'C';
    SAMRecord[] reads = new SAMRecord[8];
    for (int i = 0; i < 8; i++) {
      if (i < 2) { // a 7 bp insertion after p whose last inserted base is Q8, as near a read's end
        reads[i] = g.read(p - 50, "51M7I49M", g.refString(p - 50, p + 1) + "CATCACT" + g.refString(p + 1, p + 50));
        reads[i].getBaseQualities()[57] = 8;
      } else {
        reads[i] = g.refRead(p - 50, 100);
      }
    }
    List<Candidate> c = count(900, 1100, reads);
    assertEquals(1, c.size(), "mean inserted quality (6 x 30 + 8) / 7 = 26.9 >= 10");
    assertArrayEquals(new String[] {"CCATCACT"}, c.get(0).alts);
    assertArrayEquals(new int[] {6, 2}, c.get(0).alleleDepths);
    // The anchor's own quality does not matter: it is a reference base the insertion leaves as it is.
    reads[1].getBaseQualities()[50] = 7;
    c = count(900, 1100, reads);
    assertEquals(1, c.size(), "an anchor at Q7 before inserted bases of Q30");
    assertArrayEquals(new int[] {6, 2}, c.get(0).alleleDepths);
    // An insertion whose bases are mostly below the minimum does not count.
    for (int k = 51; k < 56; k++) reads[0].getBaseQualities()[k] = 5;
    assertTrue(count(900, 1100, reads).isEmpty());
  }

  @Test
  void softClippedBasesAreNotCounted() {
    SAMRecord[] reads = new SAMRecord[5];
    for (int i = 0; i < 5; i++) {
      // 10S 90M starting at 1001: the clipped bases would sit over 991..1000 and disagree with it.
      reads[i] = g.read(1001, "10S90M", "TTTTTTTTTT" + g.refString(1001, 1091));
    }
    assertTrue(count(900, 1100, reads).isEmpty());
  }

  @Test
  void deletionsAndSkipsDoNotCountBases() {
    SAMRecord n = g.read(950, "40M30N40M", g.refString(950, 990) + g.refString(1020, 1060));
    AlleleCounter c = new AlleleCounter(o.readFilters(), o.candidates());
    c.reset(0, g.contig, 900, 1100, g.ref, 0);
    c.add(n, 0);
    assertEquals(1, c.depth(989));
    assertEquals(0, c.depth(1000), "N skip covers nothing");
    assertEquals(1, c.depth(1020));
  }

  @Test
  void readHangingOffTheContigEnd() {
    TestGenome small = new TestGenome("chrS", 100, 5);
    AlleleCounter c = new AlleleCounter(o.readFilters(), o.candidates());
    c.reset(0, small.contig, 0, 100, small.ref, 0);
    String seq = TestGenome.mutate(small.refString(80, 100), 15, small.ref[95] == 'A' ? 'C' : 'A');
    for (int i = 0; i < 3; i++) c.add(small.read(80, "20M10S", seq + "ACGTACGTAC"), i);
    List<Candidate> cands = c.candidates();
    assertEquals(1, cands.size());
    assertEquals(95, cands.get(0).position);
    assertEquals(3, c.depth(99));
  }
}
