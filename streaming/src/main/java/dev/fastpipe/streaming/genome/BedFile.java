package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the intervals of a BED file (plain or gzipped, see {@link TextInput}), in file order.
 * Blank, comment ({@code #}), {@code track} and {@code browser} lines are skipped; columns past
 * the third are ignored. What the intervals mean (which contigs exist, clipping, merging) is the
 * caller's business: make_examples and the evaluator read the same file with different rules.
 */
public final class BedFile {
  private BedFile() {}

  /**
   * The intervals of {@code bed}; a line that is not {@code chrom<TAB>start<TAB>end}, whose start is
   * negative or after its end, is an error naming the file and line.
   */
  public static List<BedInterval> read(Path bed) {
    List<BedInterval> out = new ArrayList<>();
    TextInput.forEachLine(bed, "BED file", (n, line) -> {
      if (line.isBlank() || line.startsWith("#") || line.startsWith("track") || line.startsWith("browser")) return;
      String[] f = line.split("\t");
      if (f.length < 3) throw problem(bed, n, "expected chrom, start, end");
      int start;
      int end;
      try {
        start = Integer.parseInt(f[1].trim());
        end = Integer.parseInt(f[2].trim());
      } catch (NumberFormatException e) {
        throw problem(bed, n, "start and end must be integers");
      }
      if (start < 0) throw problem(bed, n, "the start " + start + " is negative (BED starts are 0-based, 0 or more)");
      if (start > end) throw problem(bed, n, "the start " + start + " is after the end " + end);
      out.add(new BedInterval(f[0], start, end, bed, n));
    });
    return out;
  }

  static InputException problem(Path bed, int line, String problem) {
    return new InputException(bed + ":" + line + ": " + problem);
  }
}
