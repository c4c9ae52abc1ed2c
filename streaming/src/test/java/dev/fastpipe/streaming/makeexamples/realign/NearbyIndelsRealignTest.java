package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.makeexamples.Candidate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two indels 80 bp apart, each in a window of its own (blind8's 20:10,457,715 and 20:10,457,795): a
 * hom-alt 3 bp insertion and, on one haplotype, a 6 bp deletion. A read of that haplotype that
 * carries the insertion well inside it and ends a few bases past the deletion is written by the
 * mapper with the insertion and with mismatches for its last bases. The deletion's window has no
 * haplotype with the insertion, so no ungapped placement fits the read there; the placement that
 * keeps the read's own insertion and places the rest on the deletion's haplotype does. Without it,
 * those reads' mismatches made a false SNP next to the deletion.
 */
class NearbyIndelsRealignTest {
  static final int INS = 1000; // the insertion goes before this reference base
  static final String INSERTED = "TTG";
  static final int DEL = 1080; // first deleted base
  static final int DEL_LENGTH = 6;

  final TestGenome g = new TestGenome("chrT", 3000, 23);
  final ExampleSettings.Builder o = ExampleSettings.builder();

  /** Haplotype 0: the insertion; haplotype 1: the insertion and the deletion. */
  String haplotype(int hap) {
    String withInsertion = g.refString(0, INS) + INSERTED;
    if (hap == 0) return withInsertion + g.refString(INS, g.ref.length);
    return withInsertion + g.refString(INS, DEL) + g.refString(DEL + DEL_LENGTH, g.ref.length);
  }

  /**
   * Reads of 100 bp from both haplotypes every 2 bp over the two indels, and five more of the
   * deletion's haplotype that end 1 to 5 bases past the deletion (the tails), aligned as a mapper
   * would; the tails are the last five.
   */
  List<SAMRecord> reads() {
    List<SAMRecord> out = new ArrayList<>();
    for (int start = INS - 150; start < DEL + 60; start += 2) out.add(aligned((start / 2) % 2, start));
    int afterDeletion = DEL + INSERTED.length(); // on haplotype 1: the first base after the deletion
    for (int k = 1; k <= 5; k++) out.add(aligned(1, afterDeletion + k - 100));
    return out;
  }

  SAMRecord aligned(int hap, int start) {
    String seq = haplotype(hap).substring(start, start + 100);
    MapperLikeAligner.Hit hit = new MapperLikeAligner().align(seq.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        g.ref, start - 40, start + 140);
    SAMRecord r = g.read(hit.start(), hit.cigar(), seq);
    r.setReadName("h" + hap + "-" + start);
    return r;
  }

  static boolean has(SAMRecord r, CigarOperator op) {
    return r.getCigar().getCigarElements().stream().anyMatch(e -> e.getOperator() == op);
  }

  /** Mismatches of the read against the reference at positions [DEL, DEL + DEL_LENGTH). */
  int mismatchesInTheDeletion(SAMRecord r) {
    int n = 0;
    for (int p = DEL; p < DEL + DEL_LENGTH; p++) {
      int at = r.getReadPositionAtReferencePosition(p + 1);
      if (at > 0 && r.getReadBases()[at - 1] != g.ref[p]) n++;
    }
    return n;
  }

  @Test
  void aReadWithTheInsertionEndingPastTheDeletionTakesTheDeletion() {
    List<SAMRecord> generated = reads();
    List<SAMRecord> tails = generated.subList(generated.size() - 5, generated.size());
    for (SAMRecord t : tails) {
      assertTrue(has(t, CigarOperator.I) && !has(t, CigarOperator.D), "the mapper missed the deletion: " + t.getCigarString());
    }
    List<SAMRecord> original = new ArrayList<>(generated);
    original.sort((a, b) -> Integer.compare(a.getAlignmentStart(), b.getAlignmentStart()));
    List<SAMRecord> reads = new ArrayList<>(original);
    Realigner r = new Realigner(Realigner.Limits.DEFAULT);
    r.realign(new ArrayList<>(original), reads, g.ref, 0, 0, g.ref.length, g.ref.length, 0, g.ref.length);
    assertEquals(2, r.windowsRealigned(), "one window per indel");
    int mismatchesBefore = 0;
    int moved = 0;
    for (int i = 0; i < reads.size(); i++) {
      int k = tails.indexOf(original.get(i)) + 1; // bases past the deletion
      // A tail whose last bases happen to match the deleted reference bases fits either way.
      if (k == 0 || g.refString(DEL, DEL + k).equals(g.refString(DEL + DEL_LENGTH, DEL + DEL_LENGTH + k))) continue;
      mismatchesBefore += mismatchesInTheDeletion(original.get(i));
      moved++;
      SAMRecord after = reads.get(i);
      assertTrue(has(after, CigarOperator.I) && has(after, CigarOperator.D),
          original.get(i).getCigarString() + " should keep its insertion and take the deletion: " + after.getCigarString());
      assertEquals(0, mismatchesInTheDeletion(after), after.getCigarString());
      assertEquals(original.get(i).getAlignmentStart(), after.getAlignmentStart());
      assertEquals(100, after.getCigar().getReadLength());
    }
    assertTrue(moved >= 4, "tails that tell the haplotypes apart: " + moved);
    assertTrue(mismatchesBefore >= 1, "the mapper wrote mismatches at the deleted bases: " + mismatchesBefore);
    for (Candidate c : RealignerTest.candidates(g, o, reads)) {
      assertTrue(c.position < DEL - 1 || c.position >= DEL + DEL_LENGTH || !c.isSnp(0),
          "no SNP candidate inside the deletion: " + c);
    }
  }
}
