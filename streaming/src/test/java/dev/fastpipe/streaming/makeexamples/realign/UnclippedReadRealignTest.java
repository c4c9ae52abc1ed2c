package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two windows 70 bases apart, as at blind35's MSv3 60x false SNP: a hom-alt SNP at 225, whose
 * window the mapper's clips at it make, and a hom-alt deletion of three G in a run of five at
 * 295..299. A read that covers the SNP and ends one base past the run was clipped by its mapper
 * (90M10S: its last base, a T, does not fit the reference's G there). The SNP's window places it on
 * its haplotype without a gap, the clipped end aligned on the reference flank (100M, the T a
 * mismatch at 297): more of it aligned, nothing else changed. A read one window moved is placed by
 * the next only keeping a side (an indel or clip left of its region), which this read no longer
 * has, and its mismatch stayed: with two such reads, a false SNP. A read a window only unclipped
 * stays free, and the deletion's window puts the T after the deletion.
 */
class UnclippedReadRealignTest {
  static final int SNP = 225;
  static final int RUN = 295; // GGGGG at 295..299
  static final int AFTER = 300;

  static TestGenome genome() {
    TestGenome g = new TestGenome("chrT", 600, 11);
    for (int i = RUN; i < AFTER; i++) g.ref[i] = 'G';
    g.ref[RUN - 1] = 'T';
    g.ref[AFTER] = 'T';
    g.ref[AFTER + 1] = 'C';
    g.ref[SNP] = 'C';
    return g;
  }

  @Test
  void aReadAnEarlierWindowOnlyUnclippedTakesTheDeletionFromItsOwnWindow() {
    TestGenome g = genome();
    // The sample's haplotype: A at 225, the run two G long.
    String hap = g.refString(0, SNP) + "A" + g.refString(SNP + 1, RUN + 2) + g.refString(AFTER, g.ref.length);
    List<SAMRecord> reads = new ArrayList<>();
    for (int len = 40; len <= 75; len += 5) { // ending 3 bases past the SNP, clipped from it
      reads.add(g.read(SNP + 4 - len, (len - 4) + "M4S", hap.substring(SNP + 4 - len, SNP + 4)));
    }
    for (int s = 180; s <= 200; s += 5) reads.add(g.read(s, "60M", hap.substring(s, s + 60))); // the SNP, a mismatch
    for (int s = 240; s <= 290; s += 5) { // the deletion, 3D after the run's first two G
      int before = RUN + 2 - s;
      reads.add(g.read(s, before + "M3D" + (100 - before) + "M", hap.substring(s, s + 100)));
    }
    // The haplotype from 198 to the T after the run: 90 bases aligned to 198..287, 10 clipped.
    SAMRecord clipped = g.read(198, "90M10S", hap.substring(198, RUN + 3));
    reads.add(clipped);
    reads.sort((a, b) -> Integer.compare(a.getAlignmentStart(), b.getAlignmentStart()));
    int index = reads.indexOf(clipped);

    List<SAMRecord> realigned = new ArrayList<>(reads);
    Realigner realigner = new Realigner(Realigner.Limits.DEFAULT);
    realigner.realign(new ArrayList<>(reads), realigned, g.ref, 0, 0, g.ref.length, g.ref.length, 0, g.ref.length);
    assertEquals(2, realigner.windowsRealigned(), "the SNP's window and the deletion's");
    SAMRecord r = realigned.get(index);
    assertEquals("97M3D3M", r.getCigarString(), "the clipped read takes the deletion (left-aligned in the run)");
    assertEquals(199, r.getAlignmentStart());
  }

  @Test
  void onlyUnclippedMeansClippedBasesAlignedAndNothingElse() {
    TestGenome g = genome();
    String bases = g.refString(100, 200);
    SAMRecord before = g.read(105, "5S90M5S", bases);
    assertTrue(ReadAligner.onlyUnclipped(before, g.read(100, "100M", bases)));
    assertTrue(ReadAligner.onlyUnclipped(before, g.read(100, "95M5S", bases)));
    assertTrue(ReadAligner.onlyUnclipped(before, g.read(103, "3S97M", bases)));
    assertFalse(ReadAligner.onlyUnclipped(before, g.read(105, "5S90M5S", bases)), "nothing changed");
    assertFalse(ReadAligner.onlyUnclipped(before, g.read(101, "4S96M", bases)), "the start moved with the clip");
    assertFalse(ReadAligner.onlyUnclipped(before, g.read(100, "50M2D50M", bases)), "an indel added");
    SAMRecord gapped = g.read(100, "40M3D50M10S", bases);
    assertTrue(ReadAligner.onlyUnclipped(gapped, g.read(100, "40M3D60M", bases)));
    assertFalse(ReadAligner.onlyUnclipped(gapped, g.read(100, "41M3D59M", bases)), "the deletion moved");
  }
}
