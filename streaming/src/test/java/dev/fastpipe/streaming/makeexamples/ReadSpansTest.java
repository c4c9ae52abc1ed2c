package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMSequenceRecord;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadSpansTest {
  private static final SAMFileHeader HEADER = new SAMFileHeader();

  static {
    HEADER.addSequence(new SAMSequenceRecord("chrT", 10_000));
  }

  /** A read aligned at 1-based {@code start} with an all-match CIGAR of {@code length}. */
  private static SAMRecord read(String name, int start, int length) {
    SAMRecord r = new SAMRecord(HEADER);
    r.setReadName(name);
    r.setReferenceName("chrT");
    r.setAlignmentStart(start);
    r.setCigarString(length + "M");
    return r;
  }

  @Test
  void coveringFindsOverlapsInListOrderEvenWhenTheRealignerMovedAStart() {
    // The third read starts before the second (a realigned read): the index still finds it, and
    // the rows come back in list order.
    List<SAMRecord> reads = List.of(read("a", 101, 50), read("b", 181, 100), read("c", 121, 200), read("d", 2001, 100));
    ReadSpans spans = new ReadSpans();
    spans.index(reads);
    int n = spans.covering(170, 180); // 0-based [170, 180): a ends at 150, b starts at 180
    assertArrayEquals(new int[] {2}, Arrays.copyOf(spans.rows(), n));
    n = spans.covering(140, 200);
    assertArrayEquals(new int[] {0, 1, 2}, Arrays.copyOf(spans.rows(), n));
    n = spans.covering(5000, 6000);
    assertArrayEquals(new int[0], Arrays.copyOf(spans.rows(), n));
    assertTrue(spans.touches(3, 2099, 2200)); // d covers 0-based [2000, 2100)
    assertFalse(spans.touches(3, 2100, 2300));
    assertTrue(spans.touches(3, 1900, 2000)); // the range end is inclusive: position 2000 is d's first
    assertFalse(spans.touches(3, 1900, 1999));
  }
}
