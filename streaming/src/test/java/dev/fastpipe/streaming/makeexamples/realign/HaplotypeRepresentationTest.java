package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One haplotype sequence, two alignments: a GG insertion at the start of a G run plus a G-to-A change
 * at its end (what the reads' aligner wrote), or the single insertion "GA" near the end (what the
 * affine scoring prefers). The assembled haplotype must be written as the reads wrote it, with its
 * indels at the left end of their repeats.
 */
class HaplotypeRepresentationTest {
  static final int RUN = 500; // first base of the G run
  static final int RUN_LENGTH = 30;
  static final int RS = RUN - 40;
  static final int RE = RUN + RUN_LENGTH + 40;

  final TestGenome g = genome();

  static TestGenome genome() {
    TestGenome g = new TestGenome("chrT", 2000, 11);
    g.ref[RUN - 1] = 'A';
    for (int i = 0; i < RUN_LENGTH; i++) g.ref[RUN + i] = 'G';
    g.ref[RUN + RUN_LENGTH] = 'C';
    return g;
  }

  /** The haplotype's bases over [RS, RE): GG inserted before the run, its last G changed to A. */
  String haplotype() {
    return g.refString(RS, RUN) + "GG" + g.refString(RUN, RUN + RUN_LENGTH - 1) + "A" + g.refString(RUN + RUN_LENGTH, RE);
  }

  /** The alignment the reads give: 40 matches, 2 inserted, the run (last base a mismatch), 40 matches. */
  int[] readsForm() {
    int[] refOf = new int[RE - RS + 2];
    int j = 0;
    for (int p = RS; p < RUN; p++) refOf[j++] = p;
    refOf[j++] = -1;
    refOf[j++] = -1;
    for (int p = RUN; p < RE; p++) refOf[j++] = p;
    return refOf;
  }

  /** Reads of 150 bp spanning [RS, RE), written with the insertion at the run's start (the truth's form). */
  List<SAMRecord> reads(int n) {
    String alt = g.refString(0, RUN) + "GG" + g.refString(RUN, RUN + RUN_LENGTH - 1) + "A"
        + g.refString(RUN + RUN_LENGTH, g.ref.length);
    List<SAMRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int start = RE - 148 + i; // the read starts at or before RS and ends at or after RE
      int before = RUN - start;
      out.add(g.read(start, before + "M2I" + (148 - before) + "M", alt.substring(start, start + 150)));
    }
    return out;
  }

  Haplotype dpForm() {
    byte[] hap = haplotype().getBytes();
    return new Haplotype.Aligner().align(hap, g.ref, 0, RS, RE);
  }

  @Test
  void theScoringAloneWritesOneInsertion() {
    Haplotype h = dpForm();
    assertNotEquals(-1, h.refOf[RUN - RS], "the DP does not put the insertion at the run's start");
    assertFalse(java.util.Arrays.equals(readsForm(), h.refOf));
  }

  @Test
  void theHaplotypeIsWrittenAsTheReadsWroteIt() {
    Haplotype h = dpForm();
    List<Haplotype> out = HaplotypeAssembler.writtenAsTheReads(List.of(h), reads(4), g.ref, 0);
    assertArrayEquals(readsForm(), out.get(0).refOf);
    assertArrayEquals(h.bases, out.get(0).bases);
  }

  @Test
  void oneReadIsNotEnoughToOverrule() {
    Haplotype h = dpForm();
    List<Haplotype> out = HaplotypeAssembler.writtenAsTheReads(List.of(h), reads(1), g.ref, 0);
    assertArrayEquals(h.refOf, out.get(0).refOf);
  }

  @Test
  void readsThatDoNotSpellTheHaplotypeAreIgnored() {
    Haplotype h = dpForm();
    List<SAMRecord> refReads = new ArrayList<>();
    for (int i = 0; i < 5; i++) refReads.add(g.refRead(RE - 148 + i, 150));
    List<Haplotype> out = HaplotypeAssembler.writtenAsTheReads(List.of(h), refReads, g.ref, 0);
    assertArrayEquals(h.refOf, out.get(0).refOf);
  }

  @Test
  void readsThatEachShowOneEventAreCombined() {
    // 100 bp reads: none spans the region; the left ones show the insertion, the right ones the change.
    String alt = g.refString(0, RUN) + "GG" + g.refString(RUN, RUN + RUN_LENGTH - 1) + "A"
        + g.refString(RUN + RUN_LENGTH, g.ref.length);
    List<SAMRecord> reads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int start = RUN - 60 + i; // ends inside the run, after the insertion
      int before = RUN - start;
      reads.add(g.read(start, before + "M2I" + (98 - before) + "M", alt.substring(start, start + 100)));
      int s2 = RUN + 10 + i; // starts inside the run, after the insertion: alt offset +2
      reads.add(g.read(s2, "100M", alt.substring(s2 + 2, s2 + 102)));
    }
    Haplotype h = dpForm();
    List<Haplotype> out = HaplotypeAssembler.writtenAsTheReads(List.of(h), reads, g.ref, 0);
    assertArrayEquals(readsForm(), out.get(0).refOf);
  }

  @Test
  void anInsertionTheReadsPutAtTheRunsEndMovesToItsStart() {
    // The haplotype inserts GG into the run with no other change; the reads wrote it at the run's end.
    byte[] hap = (g.refString(RS, RUN) + "GG" + g.refString(RUN, RE)).getBytes();
    int[] right = new int[hap.length];
    int j = 0;
    for (int p = RS; p < RUN + RUN_LENGTH; p++) right[j++] = p;
    right[j++] = -1;
    right[j++] = -1;
    for (int p = RUN + RUN_LENGTH; p < RE; p++) right[j++] = p;
    int[] left = HaplotypeAssembler.leftAligned(hap, right, RS, RE, g.ref, 0);
    for (int k = 0; k < RUN - RS; k++) assertEquals(RS + k, left[k]);
    assertEquals(-1, left[RUN - RS]);
    assertEquals(-1, left[RUN - RS + 1]);
    for (int k = RUN - RS + 2; k < hap.length; k++) assertEquals(RS + k - 2, left[k]);
  }

  @Test
  void aDeletionMovesToTheLeftEndOfItsRepeatToo() {
    byte[] hap = (g.refString(RS, RUN) + g.refString(RUN + 3, RE)).getBytes(); // GGG deleted
    int[] right = new int[hap.length];
    int j = 0;
    for (int p = RS; p < RUN + RUN_LENGTH - 3; p++) right[j++] = p;
    for (int p = RUN + RUN_LENGTH; p < RE; p++) right[j++] = p;
    int[] left = HaplotypeAssembler.leftAligned(hap, right, RS, RE, g.ref, 0);
    for (int k = 0; k < RUN - RS; k++) assertEquals(RS + k, left[k]);
    for (int k = RUN - RS; k < hap.length; k++) assertEquals(RS + k + 3, left[k]);
  }
}
