package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
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
}
