package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
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

  /** The intervals of {@code bed}; a line that is not {@code chrom<TAB>start<TAB>end} is an error. */
  public static List<BedInterval> read(Path bed) {
    if (!Files.isRegularFile(bed)) throw new InputException(bed + ": BED file not found");
    List<BedInterval> out = new ArrayList<>();
    try (BufferedReader in = TextInput.open(bed)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank() || line.startsWith("#") || line.startsWith("track") || line.startsWith("browser")) continue;
        String[] f = line.split("\t");
        if (f.length < 3) throw problem(bed, n, "expected chrom, start, end");
        try {
          out.add(new BedInterval(f[0], Integer.parseInt(f[1].trim()), Integer.parseInt(f[2].trim()), bed, n));
        } catch (NumberFormatException e) {
          throw problem(bed, n, "start and end must be integers");
        }
      }
    } catch (IOException e) {
      throw new InputException(bed + ": cannot read (" + e.getMessage() + ")", e);
    }
    return out;
  }

  static InputException problem(Path bed, int line, String problem) {
    return new InputException(bed + ":" + line + ": " + problem);
  }
}
