package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deletion whose graph path no read is clean over, on real alignments: 1.6 kb of the vt-examples
 * chromosome 20 from 10,950,001 (shifted to start at 1) and the 218 bwa-aligned reads of blind34's
 * ART Genome Analyzer II 2x75 sample at 15x (development data since it was scored). The sample is
 * hom-alt for the deletion of AC after the T at 575 in ACATACATTTTT (ACATATTTTT); ten reads' alignments
 * carry it, three carry an error copy one base over (AT deleted after the C at 577: ACATACTTTT, a T
 * read as C beside the deletion), one a third form. GA2's qualities drop below 10 every few bases,
 * and the graph makes k-mers of bases of quality 10 or more only: none of the ten reads is clean
 * over every 15-mer across the true deletion, while one of the three is clean over the copy's and
 * the other two confirm it with their low-quality bases. The graph gave the copy as the only
 * haplotype and every read was moved onto it: fastpipe called the copy 1/1 on AD 0,9.
 */
class GraphLostIndelRealignTest {
  /** 1-based first deleted base of the true deletion, and of the error copy. */
  static final int TRUE_DELETION = 576;
  static final int COPY = 578;

  static List<Integer> twoBaseDeletions(SAMRecord r) {
    List<Integer> out = new ArrayList<>();
    int refPos = r.getAlignmentStart();
    for (CigarElement e : r.getCigar().getCigarElements()) {
      if (e.getOperator() == CigarOperator.D && e.getLength() == 2) out.add(refPos);
      if (e.getOperator().consumesReferenceBases()) refPos += e.getLength();
    }
    return out;
  }

  static int carriers(List<SAMRecord> reads, int position) {
    int n = 0;
    for (SAMRecord r : reads) if (twoBaseDeletions(r).contains(position)) n++;
    return n;
  }

  @Test
  void theReadsKeepTheDeletionTheirAlignmentsShowWhenTheGraphHasOnlyItsCopy() throws Exception {
    List<SAMRecord> reads = ReadIndelHaplotypesTest.reads("ga2-deletion");
    assertEquals(10, carriers(reads, TRUE_DELETION));
    assertEquals(3, carriers(reads, COPY));
    byte[] ref = ReadIndelHaplotypesTest.reference("ga2-deletion");
    int len = ref.length;
    List<SAMRecord> realigned = new ArrayList<>(reads);
    Realigner realigner = new Realigner(Realigner.Limits.DEFAULT);
    realigner.realign(new ArrayList<>(reads), realigned, ref, 0, 0, len, len, 0, len);
    assertTrue(carriers(realigned, TRUE_DELETION) >= 10,
        "the true deletion's carriers: " + carriers(realigned, TRUE_DELETION) + ", the copy's: " + carriers(realigned, COPY));
    assertTrue(carriers(realigned, COPY) <= 3, "the copy's carriers: " + carriers(realigned, COPY));
    assertEquals(1, realigner.windowsWithReadIndel(), "one window whose graph lost the reads' deletion");
  }

  /** The window's assembled haplotypes as the graph gives them: the reference, then the copy alone. */
  static List<Haplotype> assembledCopyOnly(byte[] ref, int rs, int re) {
    Haplotype reference = reference(ref, rs, re);
    Haplotype copy = HaplotypeAssembler.withIndel(reference,
        new ReadEvents.Event(ReadEvents.Kind.DELETION, COPY - 1, new byte[0], 2, 0), ref, 0);
    return List.of(reference, copy);
  }

  static Haplotype reference(byte[] ref, int rs, int re) {
    byte[] bases = java.util.Arrays.copyOfRange(ref, rs, re);
    int[] refOf = new int[re - rs];
    for (int i = 0; i < refOf.length; i++) refOf[i] = rs + i;
    return new Haplotype(bases, refOf, rs, re);
  }

  /**
   * The true deletion is offered beside the copy; a graph that has it (alone, or beside the copy)
   * is left as it is.
   */
  @Test
  void theReadsBestIndelIsAddedOnlyWhenTheGraphLostItAndNothingItKeptHasMoreReads() throws Exception {
    List<SAMRecord> reads = ReadIndelHaplotypesTest.reads("ga2-deletion");
    byte[] ref = ReadIndelHaplotypesTest.reference("ga2-deletion");
    int rs = 540;
    int re = 620;
    List<Haplotype> copyOnly = assembledCopyOnly(ref, rs, re);
    List<Haplotype> withTrue = HaplotypeAssembler.withReadsBestIndel(copyOnly, reads, ref, 0);
    assertEquals(3, withTrue.size());
    Haplotype added = null;
    for (Haplotype h : withTrue) if (!copyOnly.contains(h)) added = h;
    assertNotNull(added);
    assertEquals(List.of("DELETION:" + (TRUE_DELETION - 1) + "::2"), HaplotypeAssembler.eventKeys(added, ref, 0));
    assertTrue(withTrue.get(0).isReference(), "the reference stays first");

    List<Haplotype> trueOnly = List.of(copyOnly.get(0), added);
    assertSame(trueOnly, HaplotypeAssembler.withReadsBestIndel(trueOnly, reads, ref, 0));
    assertSame(withTrue, HaplotypeAssembler.withReadsBestIndel(withTrue, reads, ref, 0));
  }

  /**
   * A graph whose variant more reads show than the indel it lacks is left as it is: on a random
   * 300-base reference, a SNP that ten reads carry and a 2-base deletion 30 bases on that two
   * reads' alignments show (the graph kept the SNP); with the counts swapped the deletion is added.
   */
  @Test
  void anIndelFewerReadsShowThanTheGraphsOwnVariantIsNotAdded() {
    java.util.Random random = new java.util.Random(17);
    byte[] ref = new byte[300];
    for (int i = 0; i < ref.length; i++) ref[i] = (byte) "ACGT".charAt(random.nextInt(4));
    int snp = 140;
    int deletion = 170;
    byte alt = (byte) (ref[snp] == 'A' ? 'C' : 'A');
    htsjdk.samtools.SAMFileHeader header = new htsjdk.samtools.SAMFileHeader();
    header.addSequence(new htsjdk.samtools.SAMSequenceRecord("chrT", ref.length));
    Haplotype reference = reference(ref, 100, 220);
    byte[] snpBases = reference.bases.clone();
    snpBases[snp - 100] = alt;
    Haplotype snpHap = new Haplotype(snpBases, reference.refOf, 100, 220);
    for (int[] counts : new int[][] {{10, 2}, {2, 3}}) {
      List<SAMRecord> reads = new ArrayList<>();
      for (int i = 0; i < counts[0]; i++) reads.add(read(header, ref, 90 + i, 100, snp, alt, -1));
      for (int i = 0; i < counts[1]; i++) reads.add(read(header, ref, 95 + i, 100, -1, (byte) 0, deletion));
      List<Haplotype> assembled = List.of(reference, snpHap);
      List<Haplotype> out = HaplotypeAssembler.withReadsBestIndel(assembled, reads, ref, 0);
      if (counts[0] > counts[1]) {
        assertSame(assembled, out, "the SNP has more reads than the deletion");
      } else {
        assertEquals(3, out.size(), "the deletion has more reads than the SNP");
      }
    }
  }

  /** A read of {@code length} reference bases from 0-based {@code start}, Q30, with the SNP or the 2-base deletion given (-1: none). */
  static SAMRecord read(htsjdk.samtools.SAMFileHeader header, byte[] ref, int start, int length, int snp, byte alt,
      int deletion) {
    SAMRecord r = new SAMRecord(header);
    r.setReadName("r" + start + "-" + snp + "-" + deletion);
    r.setReferenceIndex(0);
    r.setAlignmentStart(start + 1);
    r.setMappingQuality(60);
    byte[] bases;
    if (deletion < 0) {
      bases = java.util.Arrays.copyOfRange(ref, start, start + length);
      if (snp >= 0) bases[snp - start] = alt;
      r.setCigarString(length + "M");
    } else {
      int before = deletion - start;
      bases = new byte[length];
      System.arraycopy(ref, start, bases, 0, before);
      System.arraycopy(ref, deletion + 2, bases, before, length - before);
      r.setCigarString(before + "M2D" + (length - before) + "M");
    }
    r.setReadBases(bases);
    byte[] quals = new byte[length];
    java.util.Arrays.fill(quals, (byte) 30);
    r.setBaseQualities(quals);
    return r;
  }
}
