package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.makeexamples.realign.StrLocus.SimRead;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tandem repeat longer than the assembler's largest k (75): (TCTT)22, 88 bases, with a two-unit
 * deletion on both haplotypes (80 bases left). No k gives a graph without a cycle, so the window has
 * no assembled haplotype; the reads whose alignments carry the deletion name it
 * ({@link HaplotypeAssembler#readIndels}), and the reads the mapper left without it (clipped, or
 * with mismatches against the longer reference repeat: those that end a few bases past the repeat)
 * are placed on it. Before, every such read kept its alignment: at 15x, 4 reads that span the
 * repeat by 6 bases or more stayed soft clipped (143M7S, 7S143M), without the deletion.
 */
class LongRepeatRealignTest {
  static StrLocus locus() {
    return new StrLocus("(TCTT)22 -2 hom", "TCTT", 22, 901).repeatChange(0, -2).repeatChange(1, -2);
  }

  /** The reads that span the shortened repeat by {@code margin} bases on each side and do not carry the deletion after realignment. */
  static List<String> spanningWithoutTheDeletion(StrLocus l, StrLocus.Reads s, int margin) {
    List<SimRead> sim = l.reads(s);
    List<SAMRecord> reads = new ArrayList<>();
    for (SimRead r : sim) reads.add(r.record());
    byte[] ref = l.g.ref;
    int len = ref.length;
    List<SAMRecord> realigned = new ArrayList<>(reads);
    new Realigner(Realigner.Limits.DEFAULT).realign(new ArrayList<>(reads), realigned, ref, 0, 0, len, len, 0, len);
    // On the haplotype the repeat is 80 bases from the anchor's next base: a read spans it when it
    // starts margin bases before the anchor and ends margin bases past those 80.
    int repeatOnHaplotype = 4 * 20;
    List<String> out = new ArrayList<>();
    for (int i = 0; i < sim.size(); i++) {
      SimRead r = sim.get(i);
      int anchorOnHap = l.anchor(); // no variant before the anchor: haplotype and reference agree there
      if (r.hapStart() > anchorOnHap - margin || r.hapEnd() < anchorOnHap + 1 + repeatOnHaplotype + margin) continue;
      SAMRecord a = realigned.get(i);
      if (!deletes(a, l.anchor() + 1, 8)) out.add(a.getAlignmentStart() + " " + a.getCigarString());
    }
    return out;
  }

  /** True when the read's alignment deletes {@code length} bases from 0-based {@code pos}. */
  static boolean deletes(SAMRecord r, int pos, int length) {
    int refPos = r.getAlignmentStart() - 1;
    for (CigarElement e : r.getCigar().getCigarElements()) {
      if (e.getOperator() == CigarOperator.D && refPos == pos && e.getLength() == length) return true;
      if (e.getOperator().consumesReferenceBases()) refPos += e.getLength();
    }
    return false;
  }

  @Test
  void noGraphAtAnyKStillPlacesTheReadsOnTheirIndel() {
    StrLocus l = locus();
    assertEquals(List.of(), spanningWithoutTheDeletion(l, new StrLocus.Reads(15, 150, 0, 31), 6));
    assertEquals(List.of(), spanningWithoutTheDeletion(l, new StrLocus.Reads(30, 150, 0, 32), 6));
  }

  /** With 1 % errors at 30x (this draw came out right before as well: it guards the errors' case). */
  @Test
  void withSequencingErrorsTheReadsStillFindTheirIndel() {
    assertEquals(List.of(), spanningWithoutTheDeletion(locus(), new StrLocus.Reads(30, 150, 0.01, 33), 6));
  }
}
