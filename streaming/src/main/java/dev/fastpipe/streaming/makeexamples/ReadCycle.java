package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.pileup.BaseErrorRate;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.List;

/**
 * Where a read's base sits in the order its bases were sequenced ({@link BaseErrorRate#cycle}: 0 the
 * first, {@value BaseErrorRate#LAST_CYCLE} the last): a reverse-strand read's last stored base was
 * its first, and hard-clipped bases were sequenced though the record no longer holds them.
 */
final class ReadCycle {
  private ReadCycle() {}

  /** The place of the read's stored base {@code index} (0-based into its bases, soft clips included). */
  static int of(SAMRecord read, int index) {
    List<CigarElement> cigar = read.getCigar().getCigarElements();
    int leading = 0, trailing = 0;
    if (!cigar.isEmpty()) {
      CigarElement first = cigar.get(0), last = cigar.get(cigar.size() - 1);
      if (first.getOperator() == CigarOperator.H) leading = first.getLength();
      if (cigar.size() > 1 && last.getOperator() == CigarOperator.H) trailing = last.getLength();
    }
    return BaseErrorRate.cycle(leading + index, leading + read.getReadLength() + trailing, read.getReadNegativeStrandFlag());
  }

  /**
   * The place of the read's base aligned to 1-based reference position {@code position}, or
   * {@link BaseErrorRate#NO_CYCLE} where it aligns none there (a deletion, or outside the read).
   */
  static int atReference(SAMRecord read, int position) {
    int index = read.getReadPositionAtReferencePosition(position) - 1;
    return index < 0 ? BaseErrorRate.NO_CYCLE : of(read, index);
  }
}
