package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.makeexamples.Candidate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A compound repeat, (TA)6 (TG)13 (TA)22 as at 20:11,237,230 of GRCh37, homozygous for a T-to-A
 * change inside the (TG) run and one more TA unit in the second (TA) run: the haplotype's sequence
 * is also the reference with a GA insertion in the (TG) run and a G-to-A change at the start of the
 * (TA) run, and a mapper writes some reads one way, some the other. The assembly's paths combine
 * the two changes (they lie further apart than k) into four haplotypes, two of which hold one change
 * alone; a read that covers only one change fits such a haplotype as well as the true one. After
 * realignment every read must show the one true haplotype written one way: each candidate at the
 * locus carried by (nearly) every read over it, and the candidates together spelling the haplotype.
 * Before the fix a read went to the first of equally fitting haplotypes in sequence order, and the
 * homozygous pair came out as three hets (a blind26 wgsim sample, at 60x as at 15x).
 */
class CompoundRepeatRealignTest {
  static final int LOCUS = 2000;
  static final String REPEAT = "TA".repeat(6) + "TG".repeat(13) + "TA".repeat(22);
  /** The T of the (TG) run's sixth unit (0-based in the reference). */
  static final int SNP = LOCUS + 12 + 2 * 5;
  /** Where the second (TA) run starts: its extra unit goes there, left-aligned. */
  static final int SECOND_RUN = LOCUS + 12 + 26;

  final TestGenome g = genome();

  static TestGenome genome() {
    TestGenome g = new TestGenome("chrC", 4000, 21);
    byte[] r = REPEAT.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(r, 0, g.ref, LOCUS, r.length);
    g.ref[LOCUS - 1] = 'C'; // the flanks do not continue the repeat
    g.ref[LOCUS + r.length] = 'C';
    return g;
  }

  /** The whole contig as the sample's (both) haplotypes read it. */
  String haplotype() {
    return g.refString(0, SNP) + "A" + g.refString(SNP + 1, SECOND_RUN) + "TA" + g.refString(SECOND_RUN, g.ref.length);
  }

  /** Error-free 150 bp reads of the haplotype at about 30x over the locus, aligned as a mapper would. */
  List<SAMRecord> reads() {
    String hap = haplotype();
    Random rnd = new Random(5);
    MapperLikeAligner mapper = new MapperLikeAligner();
    List<SAMRecord> out = new ArrayList<>();
    for (int k = 0; k < 90; k++) {
      int start = LOCUS - 300 + rnd.nextInt(480); // on the haplotype; the mapper looks 30 bases either side
      byte[] bases = hap.substring(start, start + 150).getBytes(StandardCharsets.US_ASCII);
      MapperLikeAligner.Hit hit = mapper.align(bases, g.ref, start - 30, start + 180);
      SAMRecord r = g.read(hit.start(), hit.cigar(), new String(bases, StandardCharsets.US_ASCII));
      r.setReadNegativeStrandFlag(rnd.nextBoolean());
      out.add(r);
    }
    out.sort((a, b) -> Integer.compare(a.getAlignmentStart(), b.getAlignmentStart()));
    return out;
  }

  /** The candidates of {@code reads} at the locus. */
  List<Candidate> candidates(List<SAMRecord> reads) {
    List<Candidate> out = new ArrayList<>();
    for (Candidate x : RealignerTest.candidates(g, ExampleSettings.builder(), reads)) {
      if (x.position >= LOCUS - 10 && x.position < LOCUS + REPEAT.length() + 10) out.add(x);
    }
    return out;
  }

  @Test
  void theMapperWritesTheHaplotypeTwoWays() {
    // The premise: the reads as given split the haplotype between two ways of writing it.
    List<Candidate> given = candidates(reads());
    assertTrue(given.size() >= 3, "candidates " + describe(given));
    boolean split = false;
    for (Candidate c : given) split |= c.alleleDepths[1] < 0.9 * c.depth;
    assertTrue(split, "no allele split between the two ways: " + describe(given));
  }

  @Test
  void everyReadShowsTheHaplotypeWrittenOneWay() {
    List<SAMRecord> reads = reads();
    List<SAMRecord> realigned = new ArrayList<>(reads);
    new Realigner(Realigner.Limits.DEFAULT).realign(new ArrayList<>(reads), realigned, g.ref, 0, 0, g.ref.length,
        g.ref.length, 0, g.ref.length);
    List<Candidate> after = candidates(realigned);
    assertFalse(after.isEmpty());
    String spelled = g.refString(0, g.ref.length);
    for (int k = after.size() - 1; k >= 0; k--) {
      Candidate c = after.get(k);
      assertEquals(1, c.alts.length, "one allele at " + (c.position + 1) + ": " + describe(after));
      assertTrue(c.alleleDepths[1] >= 0.9 * c.depth,
          "allele at " + (c.position + 1) + " in " + c.alleleDepths[1] + " of " + c.depth + " reads: " + describe(after));
      // the candidates, applied right to left, must spell the haplotype
      String ref = c.minimalRef[0];
      assertEquals(ref, spelled.substring(c.position, c.position + ref.length()));
      spelled = spelled.substring(0, c.position) + c.minimalAlt[0] + spelled.substring(c.position + ref.length());
    }
    assertEquals(haplotype(), spelled, "the candidates do not spell the haplotype: " + describe(after));
  }

  static String describe(List<Candidate> cs) {
    StringBuilder sb = new StringBuilder();
    for (Candidate c : cs) {
      sb.append(' ').append(c.position + 1).append(':').append(c.minimalRef[0]).append('>').append(String.join(",", c.minimalAlt))
          .append(" AD ").append(java.util.Arrays.toString(c.alleleDepths)).append(" DP ").append(c.depth);
    }
    return sb.toString();
  }
}
