package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.nio.file.Path;

/**
 * One BED line: {@code [start, end)} on {@code contig}, 0-based and half-open as BED writes it,
 * with the file and line it came from so that a user of the interval can name it in an error.
 */
public record BedInterval(String contig, int start, int end, Path file, int line) {

  /** A one-line error {@code FILE:LINE: problem} about this interval. */
  public InputException problem(String problem) {
    return BedFile.problem(file, line, problem);
  }

  /**
   * This interval's contig in {@code dict} ({@code reference} names it in errors), which must hold the
   * interval whole: a contig it lacks, or an end past the contig's, is a one-line error naming the line.
   */
  public SAMSequenceRecord contigIn(SAMSequenceDictionary dict, String reference) {
    SAMSequenceRecord rec = dict.getSequence(contig);
    if (rec == null) throw problem("contig " + contig + " is not in " + reference);
    if (end > rec.getSequenceLength()) {
      throw problem("the end " + end + " is past the end of contig " + contig + " (length " + rec.getSequenceLength()
          + "): a BED of another reference?");
    }
    return rec;
  }
}
