package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Reads projected through a haplotype back onto the reference: the haplotype carries a 2 bp
 * insertion and a 3 bp deletion; a read that follows it comes back with the same CIGAR, position and
 * bases, whatever operations its CIGAR had (M, =, X, I, D, S, H); N (spliced) reads are not realigned.
 */
class ReadAlignerTest {
  final TestGenome g = genome();
  /** The haplotype of region [10, 60): ref[10, 30) + TT + ref[30, 45) + ref[48, 60) (ref[45, 48) deleted). */
  final byte[] hap = (g.refString(10, 30) + "TT" + g.refString(30, 45) + g.refString(48, 60)).getBytes(StandardCharsets.US_ASCII);

  static TestGenome genome() {
    TestGenome g = new TestGenome("chrT", 100, 3);
    // Make both indels' placement unique: no base next to them repeats into them.
    g.ref[29] = 'A';
    g.ref[30] = 'C';
    g.ref[44] = 'A';
    g.ref[45] = 'C';
    g.ref[46] = 'G';
    g.ref[47] = 'T';
    g.ref[48] = 'G';
    return g;
  }

  Haplotype haplotype() {
    return new Haplotype.Aligner().align(hap, g.ref, 0, 10, 60);
  }

  @Test
  void theHaplotypeAlignsWithItsIndels() {
    int[] expected = new int[hap.length];
    for (int j = 0; j < 20; j++) expected[j] = 10 + j;
    expected[20] = -1;
    expected[21] = -1;
    for (int j = 22; j < 37; j++) expected[j] = 30 + j - 22;
    for (int j = 37; j < hap.length; j++) expected[j] = 48 + j - 37;
    assertArrayEquals(expected, haplotype().refOf);
    assertFalse(haplotype().isReference());
    assertTrue(new Haplotype.Aligner().align(Arrays.copyOfRange(g.ref, 10, 60), g.ref, 0, 10, 60).isReference());
  }

  /**
   * A read of 4 soft-clipped bases, the haplotype's bases from 0, and 3 more soft-clipped bases,
   * with hard clips around, aligned as {@code cigar}; the target is the haplotype alone (no flanks), so
   * the clipped bases fall off it.
   */
  SAMRecord read(String cigar, int mismatchAt) {
    String bases = "ACGT" + new String(hap, StandardCharsets.US_ASCII) + "GGA";
    if (mismatchAt >= 0) bases = TestGenome.mutate(bases, mismatchAt, bases.charAt(mismatchAt) == 'A' ? 'C' : 'A');
    return g.read(10, cigar, bases);
  }

  ReadAligner.Target target() {
    // Only the region's reference: the target has no flanks.
    return new ReadAligner.Target(haplotype(), Arrays.copyOfRange(g.ref, 10, 60), 10);
  }

  void roundTrip(String cigar, String expected, int mismatchAt) {
    SAMRecord r = read(cigar, mismatchAt);
    byte[] basesBefore = r.getReadBases().clone();
    ReadAligner.Target t = target();
    int offset = ReadAligner.startOffset(r, t);
    assertEquals(-4, offset, "the first aligned base lands on the haplotype's first base");
    assertEquals(offset, ReadAligner.endOffset(r, t), "the last base agrees");
    ReadAligner.Alignment a = ReadAligner.project(r, t, offset);
    assertEquals(expected, a.cigar().toString());
    assertEquals(11, a.start());
    assertArrayEquals(basesBefore, r.getReadBases(), "bases are not touched");
    assertEquals(r.getReadLength(), a.cigar().getReadLength());
    assertEquals(60 - 10 - 0, a.cigar().getReferenceLength());
  }

  @Test
  void roundTripOfMAndIndelsAndClips() {
    String c = "2H4S20M2I15M3D12M3S1H";
    roundTrip(c, c, -1);
  }

  @Test
  void equalAndMismatchOperatorsComeBackAsM() {
    // A mismatch at the haplotype's 25th base (read index 4 + 24): X there, = elsewhere.
    roundTrip("2H4S20=2I2=1X12=3D12=3S1H", "2H4S20M2I15M3D12M3S1H", 4 + 24);
  }

  @Test
  void softClippedHaplotypeBasesComeBackAligned() {
    // The aligner clipped the insertion and all after it; the haplotype puts them back.
    SAMRecord r = read("2H4S20M32S1H", -1);
    ReadAligner.Target t = target();
    assertEquals(-4, ReadAligner.startOffset(r, t));
    ReadAligner.Alignment a = ReadAligner.project(r, t, -4);
    assertEquals("2H4S20M2I15M3D12M3S1H", a.cigar().toString());
    assertEquals(11, a.start());
    assertTrue(ReadAligner.ungappedScore(r, t, -4) > ReadAligner.score(r, g.ref, 0), "the haplotype scores better");
  }

  @Test
  void aReadStartingInsideTheInsertionIsClippedThere() {
    // The haplotype's bases from its 22nd (the second inserted T) on.
    String bases = new String(hap, 21, hap.length - 21, StandardCharsets.US_ASCII);
    SAMRecord r = g.read(30, bases.length() + "M", bases); // a poor alignment; we place it ourselves
    ReadAligner.Alignment a = ReadAligner.project(r, target(), 21);
    assertEquals("1S15M3D12M", a.cigar().toString());
    assertEquals(31, a.start());
  }

  @Test
  void splicedAndOverlongReadsAreNotRealigned() {
    assertFalse(ReadAligner.eligible(g.read(10, "10M20N10M", g.refString(10, 20) + g.refString(40, 50))));
    assertTrue(ReadAligner.eligible(g.read(10, "20M", g.refString(10, 30))));
    TestGenome big = new TestGenome("chrB", 1000, 1);
    assertFalse(ReadAligner.eligible(big.read(0, "301M", big.refString(0, 301))));
  }

  @Test
  void unclippedEndsAreHtsjdksWhateverTheClips() {
    String[] cigars = {"20M", "4S16M", "16M4S", "3H4S13M", "13M4S3H", "2H18M", "18M2H", "3H2S5M2I5M1D4M2S3H", "5S15M", "10M5D10M"};
    for (String cigar : cigars) {
      int readLength = htsjdk.samtools.TextCigarCodec.decode(cigar).getReadLength();
      SAMRecord r = g.read(40, cigar, g.refString(20, 20 + readLength));
      assertEquals(r.getUnclippedStart(), ReadAligner.unclippedStart(r), cigar + " start");
      assertEquals(r.getUnclippedEnd(), ReadAligner.unclippedEnd(r), cigar + " end");
    }
    SAMRecord r = g.read(40, "3H4S13M", g.refString(20, 37));
    assertEquals(41 - 7, ReadAligner.unclippedStart(r), "3 hard and 4 soft clipped bases before position 41");
    assertEquals(41 + 12, ReadAligner.unclippedEnd(r));
  }
}
