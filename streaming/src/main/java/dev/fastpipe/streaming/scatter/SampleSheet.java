package dev.fastpipe.streaming.scatter;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.TextInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A sample sheet: tab-separated text whose first line (after blank and {@code #} lines) is the
 * header {@code sample<TAB>reads}; then one sample a line, its name and its BAM or CRAM (indexed).
 * Columns after the second are ignored. A relative reads path is taken from the sheet's directory,
 * so a sheet travels with its data. Names are unique and made of letters, digits, {@code . _ -}:
 * they name output files and the VCF's sample column.
 *
 * <p>The workflow reads the same sheet (workflow/Snakefile); both follow these rules.
 */
public final class SampleSheet {
  /** One line of the sheet: the sample's name, its reads (absolute), and the line it came from. */
  public record Sample(String name, Path reads, int line) {}

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private SampleSheet() {}

  /** The samples of {@code sheet}, in its order; any line that breaks the rules is an error naming it. */
  public static List<Sample> read(Path sheet) {
    Path dir = sheet.toAbsolutePath().getParent();
    List<Sample> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean[] header = {false};
    TextInput.forEachLine(sheet, "sample sheet", (n, line) -> {
      if (line.isBlank() || line.startsWith("#")) return;
      String[] f = line.split("\t", -1);
      if (!header[0]) {
        if (f.length < 2 || !f[0].strip().equals("sample") || !f[1].strip().equals("reads")) {
          throw problem(sheet, n, "the first line must be the header sample<TAB>reads, found \"" + abbreviate(line) + "\"");
        }
        header[0] = true;
        return;
      }
      if (f.length < 2) throw problem(sheet, n, "expected sample<TAB>reads, found \"" + abbreviate(line) + "\"");
      String name = f[0].strip();
      String reads = f[1].strip();
      if (name.isEmpty()) throw problem(sheet, n, "the sample name is empty");
      if (!NAME.matcher(name).matches()) {
        throw problem(sheet, n, "sample name \"" + name + "\" may hold only letters, digits, '.', '_' and '-'");
      }
      Integer first = seen.putIfAbsent(name, n);
      if (first != null) throw problem(sheet, n, "sample " + name + " is named twice (first on line " + first + ")");
      if (reads.isEmpty()) throw problem(sheet, n, "sample " + name + ": the reads path is empty");
      Path path = dir.resolve(reads).normalize();
      if (!Files.exists(path)) throw problem(sheet, n, "sample " + name + ": reads " + path + " not found");
      if (!Files.isRegularFile(path)) throw problem(sheet, n, "sample " + name + ": reads " + path + " is not a file");
      out.add(new Sample(name, path, n));
    });
    if (!header[0]) throw new InputException(sheet + ": empty sample sheet; expected the header sample<TAB>reads");
    if (out.isEmpty()) throw new InputException(sheet + ": no sample (only the header)");
    return out;
  }

  private static String abbreviate(String line) {
    String s = line.replace("\t", "<TAB>");
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }

  private static InputException problem(Path sheet, int line, String what) {
    return new InputException(sheet + ":" + line + ": " + what);
  }
}
