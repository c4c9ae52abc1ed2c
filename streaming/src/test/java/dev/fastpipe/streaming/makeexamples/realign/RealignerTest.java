package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.makeexamples.AlleleCounter;
import dev.fastpipe.streaming.makeexamples.Candidate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A 4 bp insertion at the end of a (GATA)x6 repeat, carried by half the reads, which the aligner
 * wrote as an insertion only where it lay well inside a read: near a read's end it wrote a soft clip
 * or mismatches. The realigner must recover the insertion in those reads, so that it is one
 * candidate, left-normalised to the base before the repeat, supported by every carrier.
 */
class RealignerTest {
  static final int REP = 1000;
  static final int AFTER = REP + 24; // first reference base after the repeat; the insertion goes before it
  static final String INS = "GATA";

  final TestGenome g = genome();
  final String alt = g.refString(0, AFTER) + INS + g.refString(AFTER, g.ref.length);
  final ExampleSettings.Builder o = ExampleSettings.builder();

  static TestGenome genome() {
    TestGenome g = new TestGenome("chrT", 3000, 5);
    g.ref[REP - 1] = 'C';
    for (int i = 0; i < 24; i++) g.ref[REP + i] = (byte) "GATA".charAt(i % 4);
    g.ref[AFTER] = 'C';
    return g;
  }

  enum Style { SOFT_CLIP, MISMATCH }

  /**
   * Reads of 100 bp every 3 bp, alternating reference and carrier. A carrier with {@code d} bases
   * before the insertion is written with the insertion when 30 < d < 70 (SOFT_CLIP) or 20 < d < 80
   * (MISMATCH); otherwise soft clipped, or aligned without gaps, on the side with fewer bases.
   */
  List<SAMRecord> reads(Style style) {
    List<SAMRecord> out = new ArrayList<>();
    int i = 0;
    for (int start = REP - 200; start < REP + 150; start += 3, i++) {
      int d = AFTER - start;
      boolean carrier = i % 2 == 1 && d >= 1 && d <= 95;
      if (!carrier) {
        out.add(g.refRead(start, 100));
        continue;
      }
      String seq = alt.substring(start, start + 100);
      int lo = style == Style.SOFT_CLIP ? 30 : 20;
      int hi = style == Style.SOFT_CLIP ? 70 : 80;
      if (d > lo && d < hi) {
        out.add(g.read(start, d + "M4I" + (96 - d) + "M", seq));
      } else if (d >= hi) {
        out.add(style == Style.SOFT_CLIP ? g.read(start, d + "M" + (100 - d) + "S", seq) : g.read(start, "100M", seq));
      } else {
        out.add(style == Style.SOFT_CLIP ? g.read(AFTER, (d + 4) + "S" + (96 - d) + "M", seq)
            : g.read(start - 4, "100M", seq));
      }
    }
    return out;
  }

  /**
   * Carriers that span the repeat, with a base on each side: those a correct alignment counts (a read
   * that starts inside the repeat fits the reference as well as the insertion).
   */
  static int countableCarriers() {
    int n = 0;
    int i = 0;
    for (int start = REP - 200; start < REP + 150; start += 3, i++) {
      int d = AFTER - start;
      if (i % 2 == 1 && d >= 25 && d <= 95) n++;
    }
    return n;
  }

  List<Candidate> candidates(List<SAMRecord> reads) {
    return candidates(g, o, reads);
  }

  /** The candidates of {@code reads} over the whole of {@code g}. */
  static List<Candidate> candidates(TestGenome g, ExampleSettings.Builder o, List<SAMRecord> reads) {
    AlleleCounter c = new AlleleCounter(o.readFilters(), o.candidates());
    c.reset(0, g.contig, 0, g.ref.length, g.ref, 0);
    for (int i = 0; i < reads.size(); i++) c.add(reads.get(i), i);
    return c.candidates();
  }

  Realigner realign(List<SAMRecord> reads, Realigner.Limits limits) {
    Realigner r = new Realigner(limits);
    r.realign(new ArrayList<>(reads), reads, g.ref, 0, 0, g.ref.length, g.ref.length, 0, g.ref.length);
    return r;
  }

  void recoversTheInsertion(Style style) {
    List<SAMRecord> original = reads(style);
    List<SAMRecord> reads = new ArrayList<>(original);
    List<Candidate> before = candidates(reads);
    Realigner r = realign(reads, Realigner.Limits.DEFAULT);
    assertEquals(1, r.windowsRealigned());
    assertEquals(0, r.windowsFallenBack());
    assertTrue(r.readsRealigned() > 0);
    List<Candidate> after = candidates(reads);
    assertEquals(1, after.size(), "one candidate after realignment: " + after + " (before: " + before + ")");
    Candidate c = after.get(0);
    assertEquals(REP - 1, c.position, "left-normalised to the base before the repeat");
    assertEquals("C", c.minimalRef[0]);
    assertEquals("C" + INS, c.minimalAlt[0]);
    assertEquals(countableCarriers(), c.alleleDepths[1], "every carrier supports it");
    int beforeSupport = before.stream().filter(x -> x.position == REP - 1).mapToInt(x -> x.alleleDepths[1]).sum();
    assertTrue(beforeSupport < c.alleleDepths[1], "realignment adds support");
    for (int i = 0; i < reads.size(); i++) {
      if (reads.get(i) == original.get(i)) continue;
      assertArrayEquals(original.get(i).getReadBases(), reads.get(i).getReadBases());
      assertEquals(original.get(i).getReadName(), reads.get(i).getReadName());
      if (original.get(i).getAlignmentStart() < REP) {
        assertTrue(reads.get(i).getCigar().getCigarElements().stream().anyMatch(e -> e.getOperator() == CigarOperator.I),
            "a realigned read that spans the repeat carries the insertion: " + reads.get(i).getCigarString());
      }
    }
    // The originals are untouched.
    assertEquals(reads(style).stream().map(SAMRecord::getCigarString).toList(),
        original.stream().map(SAMRecord::getCigarString).toList());
  }

  @Test
  void recoversAnInsertionTheAlignerSoftClipped() {
    recoversTheInsertion(Style.SOFT_CLIP);
  }

  @Test
  void recoversAnInsertionTheAlignerWroteAsMismatches() {
    recoversTheInsertion(Style.MISMATCH);
  }

  void fallsBack(Realigner.Limits limits) {
    List<SAMRecord> original = reads(Style.SOFT_CLIP);
    List<SAMRecord> reads = new ArrayList<>(original);
    Realigner r = realign(reads, limits);
    assertEquals(0, r.windowsRealigned());
    assertEquals(1, r.windowsFallenBack());
    assertEquals(0, r.readsRealigned());
    for (int i = 0; i < reads.size(); i++) assertSame(original.get(i), reads.get(i));
  }

  @Test
  void aWindowWiderThanTheCapFallsBack() {
    fallsBack(new Realigner.Limits(50, Realigner.MAX_READS_PER_WINDOW, Realigner.MAX_PATHS));
  }

  @Test
  void aWindowWithMoreReadsThanTheCapFallsBack() {
    fallsBack(new Realigner.Limits(Realigner.MAX_WINDOW, 20, Realigner.MAX_PATHS));
  }

  @Test
  void aWindowWithMorePathsThanTheCapFallsBack() {
    fallsBack(new Realigner.Limits(Realigner.MAX_WINDOW, Realigner.MAX_READS_PER_WINDOW, 1));
  }

  @Test
  void aLoneSnpIsNotAWindow() {
    // Half the reads carry a SNP, each with a second mismatch 2-24 bp away, at its own position:
    // mismatch clusters, but only the SNP's position is marked by two reads.
    int snp = 1500;
    List<SAMRecord> reads = new ArrayList<>();
    int i = 0;
    int carriers = 0;
    for (int s = 1300; s < 1650; s += 3, i++) {
      String seq = g.refString(s, s + 100);
      int error = snp + 2 + carriers % 23; // a different position for each carrier
      if (i % 2 == 1 && s <= snp && s + 100 > error) {
        carriers++;
        seq = TestGenome.mutate(seq, snp - s, g.ref[snp] == 'A' ? 'C' : 'A');
        seq = TestGenome.mutate(seq, error - s, g.ref[error] == 'A' ? 'C' : 'A');
      }
      reads.add(g.read(s, "100M", seq));
    }
    List<SAMRecord> before = new ArrayList<>(reads);
    Realigner r = realign(reads, Realigner.Limits.DEFAULT);
    assertEquals(0, r.windowsRealigned() + r.windowsFallenBack() + r.readsRealigned());
    for (int k = 0; k < reads.size(); k++) assertSame(before.get(k), reads.get(k));
  }

  @Test
  void readsThatAgreeWithTheReferenceAreLeftAlone() {
    List<SAMRecord> original = new ArrayList<>();
    for (int s = REP - 200; s < REP + 150; s += 3) original.add(g.refRead(s, 100));
    List<SAMRecord> reads = new ArrayList<>(original);
    Realigner r = realign(reads, Realigner.Limits.DEFAULT);
    assertEquals(0, r.windowsRealigned() + r.windowsFallenBack() + r.readsRealigned());
    for (int i = 0; i < reads.size(); i++) assertSame(original.get(i), reads.get(i));
  }

  @Test
  void firstAtOrAfterFindsTheFirstIndexHoldingAtLeastTheKey() {
    int[] v = {3, 5, 5, 9, 0}; // only the first 4 are searched
    assertEquals(0, Realigner.firstAtOrAfter(v, 4, 1));
    assertEquals(0, Realigner.firstAtOrAfter(v, 4, 3));
    assertEquals(1, Realigner.firstAtOrAfter(v, 4, 4));
    assertEquals(1, Realigner.firstAtOrAfter(v, 4, 5));
    assertEquals(3, Realigner.firstAtOrAfter(v, 4, 6));
    assertEquals(4, Realigner.firstAtOrAfter(v, 4, 10));
    assertEquals(0, Realigner.firstAtOrAfter(v, 0, 10));
  }
}
