package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.TextInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pairs {@code compare --manifest} pools: a tab-separated file, one pair a line,
 * {@code NAME REF TRUTH CALLS [BED [READS]]} ({@code -} for no BED or no reads); blank lines and
 * lines starting with {@code #} are skipped; relative paths are relative to the manifest's folder.
 */
public final class ComparisonManifest {
  private ComparisonManifest() {}

  /** One pair to compare: its name, reference, truth, calls, BED (null: everywhere) and reads (null: none). */
  public record Pair(String name, Path ref, Path truth, Path calls, Path bed, Path reads) {}

  /** The pairs of {@code manifest}, in its order; a one-line InputException naming the line where one is malformed. */
  public static List<Pair> read(Path manifest) {
    Path base = manifest.toAbsolutePath().getParent();
    List<Pair> pairs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    TextInput.forEachLine(manifest, "manifest", (n, line) -> {
      if (line.isBlank() || line.startsWith("#")) return;
      String[] f = line.split("\t", -1);
      if (f.length < 4 || f.length > 6) {
        throw new InputException(manifest + ": line " + n + ": " + f.length
            + " tab-separated fields; expected NAME REF TRUTH CALLS [BED [READS]]");
      }
      for (int i = 0; i < f.length; i++) {
        if (f[i].isBlank()) throw new InputException(manifest + ": line " + n + ": field " + (i + 1) + " is empty (use - for none)");
        if (i < 4 && f[i].equals("-")) throw new InputException(manifest + ": line " + n + ": field " + (i + 1) + " is required");
      }
      if (!names.add(f[0])) throw new InputException(manifest + ": line " + n + ": pair name '" + f[0] + "' used twice");
      pairs.add(new Pair(f[0], path(base, f[1]), path(base, f[2]), path(base, f[3]),
          f.length > 4 ? path(base, f[4]) : null, f.length > 5 ? path(base, f[5]) : null));
    });
    if (pairs.isEmpty()) throw new InputException(manifest + ": no pairs (NAME REF TRUTH CALLS [BED [READS]] per line)");
    return List.copyOf(pairs);
  }

  private static Path path(Path base, String field) {
    if (field.equals("-")) return null;
    Path p = Path.of(field);
    return p.isAbsolute() || base == null ? p : base.resolve(p);
  }
}
