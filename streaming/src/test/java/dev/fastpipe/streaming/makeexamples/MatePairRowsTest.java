package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.testing.CapturingProducer;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.io.IOException;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * make_examples names, in each example, the image rows that hold the two reads of one fragment:
 * 160 bp fragments read from both ends with 100 bp reads (the mates overlap by 40 bases), half of
 * them from a haplotype with a SNP; the pairs must be exactly the fragments with both reads among
 * the rows, each pair a forward and a reverse read showing the same base at the SNP.
 */
class MatePairRowsTest {
  @TempDir Path dir;

  static final int SNP = 1500;
  static final int FRAGMENT = 160;
  static final int READ = 100;

  @Test
  void theRowsOfEachFragmentsTwoReadsArePaired() throws IOException {
    TestGenome g = new TestGenome("chrT", 3000, 7);
    char alt = g.ref[SNP] == 'A' ? 'G' : 'A';
    int expectedPairs = 0;
    int from = SNP - PileupConstants.READ_OVERLAP_BUFFER_BP;
    int to = SNP + 1 + PileupConstants.READ_OVERLAP_BUFFER_BP;
    int fragments = 0;
    for (int start = SNP - 230; start <= SNP + 30; start += 4, fragments++) {
      boolean carrier = fragments % 2 == 0;
      SAMRecord first = read(g, start, carrier, alt);
      SAMRecord second = read(g, start + FRAGMENT - READ, carrier, alt);
      second.setReadName(first.getReadName());
      pair(first, second, true);
      pair(second, first, false);
      g.add(first);
      g.add(second);
      if (overlaps(start, from, to) && overlaps(start + FRAGMENT - READ, from, to)) expectedPairs++;
    }
    for (int start = SNP - 80; start <= SNP; start += 10) g.add(g.refRead(start, READ)); // unpaired reads
    TestGenome.Written w = g.write(dir, "pairs.bam");
    CapturingProducer p = new CapturingProducer();
    MakeExamples.run(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(), p);
    ExampleRecord r = MakeExamplesTest.at(p, SNP, 0);
    assertNotNull(r, "an example of the SNP");
    assertTrue(expectedPairs >= 5, "the test's fragments overlap the SNP: " + expectedPairs);
    assertEquals(expectedPairs, r.matePairCount());
    int centre = (r.width() - 1) / 2;
    int top = PileupConstants.REFERENCE_ROWS;
    int bothAtTheSnp = 0;
    for (int k = 0; k < r.matePairCount(); k++) {
      int a = top + r.mateRow(k, 0);
      int b = top + r.mateRow(k, 1);
      assertTrue(a < b && b < r.height(), "pair " + k + ": rows " + a + ", " + b);
      assertNotEquals(r.pixel(a, centre, 3), r.pixel(b, centre, 3), "pair " + k + ": a forward and a reverse read");
      if (r.pixel(a, centre, 0) == 0 || r.pixel(b, centre, 0) == 0) continue; // a mate ends within the buffer, before the SNP
      bothAtTheSnp++;
      assertEquals(r.pixel(a, centre, 0), r.pixel(b, centre, 0), "pair " + k + ": one fragment, one base at the SNP");
    }
    assertTrue(bothAtTheSnp >= 5, "pairs with both reads over the SNP: " + bothAtTheSnp);
  }

  @Test
  void eachRowCarriesThePlaceInItsReadOfItsBaseAtTheCandidate() throws IOException {
    // The same fragments: a row's read starts inside the window where its first column is drawn, so
    // its SNP base is read base (centre - that column), sequenced from the other end on a reverse read.
    TestGenome g = new TestGenome("chrT", 3000, 7);
    char alt = g.ref[SNP] == 'A' ? 'G' : 'A';
    for (int start = SNP - 230, f = 0; start <= SNP + 30; start += 4, f++) {
      SAMRecord first = read(g, start, f % 2 == 0, alt);
      SAMRecord second = read(g, start + FRAGMENT - READ, f % 2 == 0, alt);
      second.setReadName(first.getReadName());
      pair(first, second, true);
      pair(second, first, false);
      g.add(first);
      g.add(second);
    }
    TestGenome.Written w = g.write(dir, "cycles.bam");
    CapturingProducer p = new CapturingProducer();
    MakeExamples.run(ExampleSettings.builder().reference(w.fasta()).reads(w.bam()).build(), p);
    ExampleRecord r = MakeExamplesTest.at(p, SNP, 0);
    assertNotNull(r, "an example of the SNP");
    int centre = (r.width() - 1) / 2;
    int rows = r.height() - PileupConstants.REFERENCE_ROWS;
    byte[] cycles = r.cycles(rows, null);
    assertNotNull(cycles, "the example carries its rows' cycles");
    int checked = 0, without = 0, drawn = 0;
    for (int k = 0; k < rows; k++) {
      int row = PileupConstants.REFERENCE_ROWS + k;
      int firstColumn = -1;
      for (int c = 0; c < r.width() && firstColumn < 0; c++) if (r.pixel(row, c, 3) != 0) firstColumn = c;
      if (firstColumn < 0) {
        assertEquals(BaseErrorRate.NO_CYCLE, cycles[k] & 0xFF, "row " + k + ": no read, no place");
        continue;
      }
      drawn++;
      if (r.pixel(row, centre, 0) == 0) { // a read that ends within the buffer, before the SNP, or starts after it
        assertEquals(BaseErrorRate.NO_CYCLE, cycles[k] & 0xFF, "row " + k + ": no base at the SNP");
        without++;
        continue;
      }
      if (firstColumn == 0) continue; // it starts before the window: where is not drawn
      boolean reverse = r.pixel(row, centre, 3) == PileupConstants.NEGATIVE_STRAND_COLOR;
      assertEquals(BaseErrorRate.cycle(centre - firstColumn, READ, reverse), cycles[k] & 0xFF, "row " + k);
      checked++;
    }
    assertEquals(drawn, r.cycleCount(), "one place per read row");
    assertTrue(checked >= 10 && without >= 1, "rows checked: " + checked + ", without a base at the SNP: " + without);
  }

  static boolean overlaps(int start, int from, int to) {
    return start < to && start + READ > from;
  }

  static SAMRecord read(TestGenome g, int start, boolean carrier, char alt) {
    String seq = g.refString(start, start + READ);
    if (carrier && SNP >= start && SNP < start + READ) seq = TestGenome.mutate(seq, SNP - start, alt);
    return g.read(start, READ + "M", seq);
  }

  static void pair(SAMRecord r, SAMRecord mate, boolean first) {
    r.setReadPairedFlag(true);
    r.setProperPairFlag(true);
    r.setFirstOfPairFlag(first);
    r.setSecondOfPairFlag(!first);
    r.setReadNegativeStrandFlag(!first);
    r.setMateNegativeStrandFlag(first);
    r.setMateReferenceName(mate.getReferenceName());
    r.setMateAlignmentStart(mate.getAlignmentStart());
    r.setInferredInsertSize(first ? FRAGMENT : -FRAGMENT);
  }
}
