package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.ValidationStringency;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Haplotypes made of the reads' own indels ({@link HaplotypeAssembler#readIndels}) on real
 * alignments, 1.6 kb of the vt-examples chromosome 20 and the bwa-aligned reads there, shifted to
 * start at 1: (1) at 10,520,001, a (TTCC)n repeat at 10,520,740-10,520,830 and the 152 reads of a
 * blind17 development sample (ART HiSeq 2000 2x100, 15x): a 16-base TTCC insertion sits in the
 * repeat; 45 bases before it a window whose graph gives only the reference has two reads with a
 * 1-base deletion and two with a 3-base insertion; (2) at 52,137,801, off the evaluation band, a
 * (GGAA)n repeat of 90 bases and the 101 reads of a validation sample (ART MiSeq v3 2x250, 40x): an
 * 8-base insertion, longer than k = 75 in a repeat, so no graph, that bwa wrote at ten places.
 */
class ReadIndelHaplotypesTest {
  static byte[] reference(String name) throws Exception {
    try (InputStream in = ReadIndelHaplotypesTest.class.getResourceAsStream("/realign/" + name + ".fa")) {
      String text = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)).lines()
          .filter(l -> !l.startsWith(">")).collect(Collectors.joining());
      return text.getBytes(StandardCharsets.US_ASCII);
    }
  }

  static List<SAMRecord> reads(String name) throws Exception {
    List<SAMRecord> out = new ArrayList<>();
    try (InputStream in = ReadIndelHaplotypesTest.class.getResourceAsStream("/realign/" + name + ".sam");
        SamReader r = SamReaderFactory.makeDefault().validationStringency(ValidationStringency.SILENT)
            .open(htsjdk.samtools.SamInputResource.of(in))) {
      for (SAMRecord rec : r) out.add(rec);
    }
    return out;
  }

  static int longestInsertion(SAMRecord r) {
    int longest = 0;
    for (CigarElement e : r.getCigar().getCigarElements()) {
      if (e.getOperator() == CigarOperator.I) longest = Math.max(longest, e.getLength());
    }
    return longest;
  }

  /**
   * The read that carries the 16-base insertion would score above its alignment on the other
   * window's 1-base deletion haplotype, its 22-point gap saved against a few mismatches in the
   * repeat, and was moved there (21M1D79M, 17 bases left) when such haplotypes were offered to every
   * read: they go to reads without an indel of their own there, or with one as long as a
   * haplotype's.
   */
  @Test
  void aReadWithAnIndelOfItsOwnKeepsItWhereTheOtherWindowHasOnlyTheReadsIndels() throws Exception {
    List<SAMRecord> reads = reads("ttcc-insertion");
    List<SAMRecord> realigned = realigned("ttcc-insertion", reads);
    int carriers = 0;
    for (int i = 0; i < reads.size(); i++) {
      if (longestInsertion(reads.get(i)) != 16) continue;
      carriers++;
      SAMRecord r = realigned.get(i);
      assertEquals(16, longestInsertion(r), r.getReadName() + " lost its insertion: " + r.getCigarString());
    }
    assertEquals(1, carriers);
  }

  /** The realigned copies of {@code reads} over the whole stretch; at least one window realigned to the reads' own indels. */
  static List<SAMRecord> realigned(String name, List<SAMRecord> reads) throws Exception {
    byte[] ref = reference(name);
    int len = ref.length;
    List<SAMRecord> realigned = new ArrayList<>(reads);
    Realigner realigner = new Realigner(Realigner.Limits.DEFAULT);
    realigner.realign(new ArrayList<>(reads), realigned, ref, 0, 0, len, len, 0, len);
    assertTrue(realigner.windowsFromReadIndels() > 0, "a window realigned to the reads' own indels");
    return realigned;
  }

  /** The 0-based reference positions of the read's insertions of {@code length} bases (the base after each). */
  static List<Integer> insertionsOf(SAMRecord r, int length) {
    List<Integer> out = new ArrayList<>();
    int refPos = r.getAlignmentStart() - 1;
    for (CigarElement e : r.getCigar().getCigarElements()) {
      if (e.getOperator() == CigarOperator.I && e.getLength() == length) out.add(refPos);
      if (e.getOperator().consumesReferenceBases()) refPos += e.getLength();
    }
    return out;
  }

  /**
   * The ten reads whose alignments carry the 8-base insertion, at ten places in the repeat (a read
   * with it near its end has it where its bases ran out), all carry it at the repeat's left end
   * once realigned, where the candidate is counted: their indel is as long as the haplotype's, the
   * same allele written elsewhere. Offered to ungapped reads only, they stayed at four places.
   */
  @Test
  void readsThatWriteTheHaplotypesIndelElsewhereInItsRepeatAreMovedOntoIt() throws Exception {
    List<SAMRecord> reads = reads("ggaa-insertion");
    List<SAMRecord> realigned = realigned("ggaa-insertion", reads);
    java.util.Set<List<Integer>> places = new java.util.TreeSet<>(java.util.Comparator.comparing(Object::toString));
    int carriers = 0;
    for (int i = 0; i < reads.size(); i++) {
      if (insertionsOf(reads.get(i), 8).isEmpty()) continue;
      carriers++;
      places.add(insertionsOf(realigned.get(i), 8));
    }
    assertEquals(10, carriers);
    assertEquals(1, places.size(), "one place: " + places);
  }
}
