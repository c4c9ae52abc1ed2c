package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.pileup.BaseErrorRate;
import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;

/**
 * Where a read's base sits in the order its bases were sequenced ({@link BaseErrorRate#cycle}: 0 the
 * first, {@value BaseErrorRate#LAST_CYCLE} the last): a reverse-strand read's last stored base was
 * its first, and hard-clipped bases were sequenced though the record no longer holds them.
 */
final class ReadCycle {
  private ReadCycle() {}

  /** The place of the read's stored base {@code index} (0-based into its bases, soft clips included). */
  static int of(SAMRecord read, int index) {
    int leading = leadingHardClip(read);
    return BaseErrorRate.cycle(leading + index, leading + read.getReadLength() + trailingHardClip(read),
        read.getReadNegativeStrandFlag());
  }

  /** The bases the read had when sequenced: its stored bases and its hard clips. */
  static int sequencedLength(SAMRecord read) {
    return leadingHardClip(read) + read.getReadLength() + trailingHardClip(read);
  }

  /** The hard-clipped bases before the read's first stored base (0: none). */
  static int leadingHardClip(SAMRecord read) {
    CigarElement first = read.getCigar().getFirstCigarElement();
    return first != null && first.getOperator() == CigarOperator.H ? first.getLength() : 0;
  }

  /** The hard-clipped bases after the read's last stored base (0: none; a CIGAR of one H is leading). */
  private static int trailingHardClip(SAMRecord read) {
    Cigar cigar = read.getCigar();
    return cigar.numCigarElements() > 1 && cigar.getLastCigarElement().getOperator() == CigarOperator.H
        ? cigar.getLastCigarElement().getLength() : 0;
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
