package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The selector's per-read facts: kept for the reads a sliding window passes again, and found per read. */
class WindowSelectorTest {
  final TestGenome g = new TestGenome("chrT", 3000, 7);

  /** 40 reads of 100 bp every 20 bp; every fourth carries two mismatches 10 bp apart (a cluster: marks). */
  List<SAMRecord> reads() {
    List<SAMRecord> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      int start = 100 + 20 * i;
      String seq = g.refString(start, start + 100);
      if (i % 4 == 0) {
        seq = TestGenome.mutate(seq, 40, g.ref[start + 40] == 'A' ? 'C' : 'A');
        seq = TestGenome.mutate(seq, 50, g.ref[start + 50] == 'A' ? 'C' : 'A');
      }
      out.add(g.read(start, "100M", seq));
    }
    return out;
  }

  static void assertSameFacts(WindowSelector.ReadFacts a, WindowSelector.ReadFacts b) {
    assertArrayEquals(a.marks(), b.marks());
    assertEquals(Arrays.asList(a.start(), a.end(), a.unclippedStart(), a.unclippedEnd(), a.firstBase(), a.eligible()),
        Arrays.asList(b.start(), b.end(), b.unclippedStart(), b.unclippedEnd(), b.firstBase(), b.eligible()));
  }

  @Test
  void theReadsASlidingWindowPassesAgainKeepTheirFactsAndNewOnesGetTheirOwn() {
    List<SAMRecord> r = reads();
    WindowSelector s = new WindowSelector();
    List<SAMRecord> first = r.subList(0, 30);
    s.select(first, g.ref, 0, 100, 800, g.ref.length);
    WindowSelector.ReadFacts[] before = s.factsOf(first);
    assertEquals(2, before[0].marks().length, "read 0's two clustered mismatches");
    // The next partition: the reads that stay (10..29) first, in order, then new ones (30..39).
    List<SAMRecord> second = r.subList(10, 40);
    s.select(second, g.ref, 0, 300, 1000, g.ref.length);
    WindowSelector fresh = new WindowSelector();
    fresh.select(second, g.ref, 0, 300, 1000, g.ref.length);
    for (int i = 0; i < second.size(); i++) {
      if (i < 20) assertSame(before[i + 10], s.factsAt(i), "read " + (i + 10) + " kept its facts");
      assertSameFacts(fresh.factsAt(i), s.factsAt(i));
    }
    // A subset in order, out of order, and a read that was not passed.
    List<SAMRecord> sub = List.of(second.get(3), second.get(7), second.get(25));
    WindowSelector.ReadFacts[] f = s.factsOf(sub);
    assertSame(s.factsAt(3), f[0]);
    assertSame(s.factsAt(25), f[2]);
    assertSame(s.factsAt(7), s.factsOf(List.of(second.get(25), second.get(7)))[1]);
    assertSame(s.factsAt(12), s.facts(second.get(12)));
    assertThrows(IllegalArgumentException.class, () -> s.factsOf(List.of(r.get(0))));
  }

  @Test
  void aListThatIsNotASlideIsWorkedOutAfresh() {
    List<SAMRecord> r = reads();
    WindowSelector s = new WindowSelector();
    s.select(r.subList(20, 40), g.ref, 0, 500, 1000, g.ref.length);
    List<SAMRecord> other = r.subList(0, 20);
    s.select(other, g.ref, 0, 100, 600, g.ref.length);
    WindowSelector fresh = new WindowSelector();
    fresh.select(other, g.ref, 0, 100, 600, g.ref.length);
    for (int i = 0; i < other.size(); i++) assertSameFacts(fresh.factsAt(i), s.factsAt(i));
  }
}
