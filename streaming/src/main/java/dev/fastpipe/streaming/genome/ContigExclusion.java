package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The contigs a run leaves out ({@code --exclude-contigs}): named presets for the non-primary
 * sequences of the human references, and regular expressions, each matched against the whole
 * contig name. Off (nothing excluded) unless asked for.
 *
 * <table>
 *   <caption>Presets</caption>
 *   <tr><td>alt</td><td>alternate haplotypes (ALT contigs): {@code chr6_GL000250v2_alt}</td></tr>
 *   <tr><td>decoy</td><td>decoys: GRCh38's {@code chrUn_JTFH01000001v1_decoy}, hs37d5's {@code hs37d5}</td></tr>
 *   <tr><td>hla</td><td>HLA alleles of GRCh38 analysis sets: {@code HLA-A*01:01:01:01}</td></tr>
 *   <tr><td>ebv</td><td>Epstein-Barr virus: {@code chrEBV}, {@code EBV}, {@code NC_007605}</td></tr>
 *   <tr><td>random</td><td>unlocalised contigs: {@code chr1_KI270706v1_random}, {@code chr1_gl000191_random}</td></tr>
 *   <tr><td>un</td><td>unplaced contigs: {@code chrUn_KI270302v1}, {@code chrUn_gl000220}, b37's {@code GL000220.1}</td></tr>
 *   <tr><td>non-primary</td><td>all of the above</td></tr>
 * </table>
 */
public final class ContigExclusion {
  /** The presets' names, for help texts (a constant, so that an annotation can use it). */
  public static final String PRESET_LIST = "alt, decoy, hla, ebv, random, un, non-primary";

  /** Preset name to regular expression, in the order the help lists them ({@link #PRESET_LIST}). */
  public static final Map<String, String> PRESETS = presets();

  private static Map<String, String> presets() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("alt", ".*_alt");
    p.put("decoy", ".*_decoy|hs37d5");
    p.put("hla", "HLA-.*");
    p.put("ebv", "chrEBV|EBV|NC_007605(\\.\\d+)?");
    p.put("random", ".*_random");
    p.put("un", "(chr)?Un_.*|GL\\d+\\.\\d+|KI\\d+\\.\\d+");
    p.put("non-primary", String.join("|", p.values()));
    return Collections.unmodifiableMap(p);
  }

  private static final ContigExclusion NONE = new ContigExclusion(List.of(), null);

  private final List<String> specs;
  private final Pattern pattern;

  private ContigExclusion(List<String> specs, Pattern pattern) {
    this.specs = specs;
    this.pattern = pattern;
  }

  /** Excludes nothing. */
  public static ContigExclusion none() {
    return NONE;
  }

  /**
   * The exclusion of {@code specs}: each a preset name (any case) or a regular expression that a
   * contig's whole name must match; empty: none. A spec that is neither is an {@link InputException}.
   */
  public static ContigExclusion of(List<String> specs) {
    if (specs == null || specs.isEmpty()) return NONE;
    List<String> parts = new ArrayList<>();
    for (String spec : specs) {
      String s = spec.trim();
      if (s.isEmpty()) throw new InputException("--exclude-contigs: an empty pattern; use a preset (" + PRESET_LIST + ") or a regular expression");
      String preset = PRESETS.get(s.toLowerCase(Locale.ROOT));
      String regex = preset != null ? preset : s;
      try {
        Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new InputException("--exclude-contigs " + s + ": neither a preset (" + PRESET_LIST
            + ") nor a regular expression (" + e.getDescription() + " at index " + e.getIndex() + ")");
      }
      parts.add("(?:" + regex + ")");
    }
    return new ContigExclusion(List.copyOf(specs), Pattern.compile(String.join("|", parts)));
  }

  /** True when {@code contig} is left out. */
  public boolean excludes(String contig) {
    return pattern != null && pattern.matcher(contig).matches();
  }

  public boolean isEmpty() {
    return pattern == null;
  }

  /**
   * What this leaves out of {@code dict}, as one line: "leaves out 3 of 25 contigs (1,234,567 bp):
   * chrUn_gl000220, ..." (the first five named).
   */
  public String describeOn(htsjdk.samtools.SAMSequenceDictionary dict) {
    List<String> names = new ArrayList<>();
    long bases = 0;
    for (var r : dict.getSequences()) {
      if (!excludes(r.getSequenceName())) continue;
      names.add(r.getSequenceName());
      bases += r.getSequenceLength();
    }
    String shown = String.join(", ", names.subList(0, Math.min(5, names.size()))) + (names.size() > 5 ? ", ..." : "");
    return "--exclude-contigs " + this + " leaves out " + names.size() + " of " + dict.size() + " reference contigs ("
        + String.format("%,d", bases) + " bp)" + (names.isEmpty() ? "" : ": " + shown);
  }

  /** The specs as given, comma-separated. */
  @Override
  public String toString() {
    return String.join(",", specs);
  }
}
