package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.BedFile;
import dev.fastpipe.streaming.genome.BedInterval;
import dev.fastpipe.streaming.genome.ContigExclusion;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Parses --regions and BED files into sorted, merged regions in reference-dictionary order. */
public final class Regions {
  private Regions() {}

  /**
   * The regions to process: the union of {@code specs} and {@code bed}, or, when both are empty,
   * every contig of {@code dict} whose name is in {@code inReads}. A region on a contig that the
   * reads' header ({@code reads}) lacks is an error: no read can be there.
   */
  public static List<Region> resolve(SAMSequenceDictionary dict, Set<String> inReads, Path reads,
      List<String> specs, Path bed) {
    return resolve(dict, inReads, reads, specs, bed, ContigExclusion.none());
  }

  /**
   * {@link #resolve(SAMSequenceDictionary, Set, Path, List, Path)} less every region on a contig that
   * {@code exclude} leaves out (those of --regions and --bed too); when that leaves nothing, an error
   * naming the exclusion.
   */
  public static List<Region> resolve(SAMSequenceDictionary dict, Set<String> inReads, Path reads,
      List<String> specs, Path bed, ContigExclusion exclude) {
    List<Region> raw = new ArrayList<>();
    for (String value : specs) {
      if (isBedPath(dict, value)) {
        raw.addAll(readBed(dict, inReads, reads, Path.of(value)));
        continue;
      }
      for (String s : split(dict, value)) {
        Region r = parse(dict, s);
        if (!inReads.contains(r.contig())) throw new InputException("--regions " + s + ": " + notInReads(r.contig(), reads));
        raw.add(r);
      }
    }
    if (bed != null) raw.addAll(readBed(dict, inReads, reads, bed));
    if (specs.isEmpty() && bed == null) {
      for (SAMSequenceRecord r : dict.getSequences()) {
        if (inReads.contains(r.getSequenceName())) {
          raw.add(new Region(r.getSequenceIndex(), r.getSequenceName(), 0, r.getSequenceLength()));
        }
      }
    }
    if (!exclude.isEmpty() && !raw.isEmpty()) {
      List<Region> kept = new ArrayList<>();
      for (Region r : raw) if (!exclude.excludes(r.contig())) kept.add(r);
      if (kept.isEmpty()) {
        throw new InputException("--exclude-contigs " + exclude + " leaves out every contig of the regions"
            + " (e.g. " + raw.get(0).contig() + "): nothing to call");
      }
      raw = kept;
    }
    return merge(raw);
  }

  private static String notInReads(String contig, Path reads) {
    return "contig " + contig + " is in the reference but not in the header of " + reads + ", so no read can be there";
  }

  /**
   * True when a --regions value is a BED file's path (as DeepVariant's --regions takes one): an
   * existing regular file whose name is not a contig of {@code dict}.
   */
  public static boolean isBedPath(SAMSequenceDictionary dict, String value) {
    String v = value.strip();
    if (v.isEmpty() || dict.getSequence(v) != null) return false;
    try {
      return Files.isRegularFile(Path.of(v));
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  /** True when a --regions value that is no contig reads as a file's path: it has a '/' or a .bed or .bed.gz name. */
  private static boolean looksLikeBedPath(String value) {
    if (!value.contains("/") && !value.endsWith(".bed") && !value.endsWith(".bed.gz")) return false;
    try {
      Path.of(value);
      return true;
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  /** A piece after a comma that continues a number: three digits, then nothing or the range's dash. */
  private static final Pattern THOUSANDS = Pattern.compile("\\d{3}(-.*)?");

  /**
   * The region specs in one --regions value: separated by white space (DeepVariant's
   * {@code "chr20:1-100 chr20:200-300"}) or commas (bcftools' {@code chr20:1-100,chr20:200-300}). A
   * comma is a thousands separator where it sits between digits of a position with exactly three
   * digits after it ({@code chr20:10,000,000-10,100,000}); a contig name with a comma stays whole.
   * A piece that reads both ways (its digits are also a contig's name) is an error.
   */
  public static List<String> split(SAMSequenceDictionary dict, String value) {
    List<String> specs = new ArrayList<>();
    for (String word : value.strip().split("\\s+")) {
      if (word.isEmpty()) continue;
      if (dict.getSequence(word) != null || !word.contains(",")) {
        specs.add(word);
        continue;
      }
      String[] pieces = word.split(",", -1);
      StringBuilder current = new StringBuilder(pieces[0]);
      for (int i = 1; i < pieces.length; i++) {
        String p = pieces[i];
        boolean continuesNumber = THOUSANDS.matcher(p).matches() && inPosition(current);
        if (continuesNumber && dict.getSequence(p) != null) {
          throw new InputException("--regions " + value + ": the comma before " + p + " could separate thousands or"
              + " regions (" + p + " is also a contig); write the positions without commas or separate regions with spaces");
        }
        if (continuesNumber) {
          current.append(p);
        } else {
          specs.add(current.toString());
          current = new StringBuilder(p);
        }
      }
      specs.add(current.toString());
    }
    for (String s : specs) {
      if (s.isEmpty()) throw new InputException("--regions '" + value + "': an empty region; expected chr, chr:start-end or a BED file");
    }
    return specs;
  }

  /** True when {@code spec} so far ends in a position: {@code chr:123} or {@code chr:1-123}. */
  private static boolean inPosition(CharSequence spec) {
    String s = spec.toString();
    int colon = s.lastIndexOf(':');
    return colon > 0 && colon < s.length() - 1 && s.substring(colon + 1).matches("\\d+(-\\d+)?");
  }

  /** {@code chr}, {@code chr:start-end} or {@code chr:pos}, 1-based inclusive, commas allowed. */
  public static Region parse(SAMSequenceDictionary dict, String spec) {
    String s = spec.replace(",", "").trim();
    if (s.isEmpty()) throw new InputException("--regions '" + spec + "': empty; expected chr or chr:start-end");
    String name = s;
    int start = 0;
    Integer end = null; // null: to the end of the contig
    int colon = s.lastIndexOf(':');
    if (colon > 0 && dict.getSequence(s) == null) {
      name = s.substring(0, colon);
      String range = s.substring(colon + 1);
      try {
        int dash = range.indexOf('-');
        if (dash < 0) {
          start = Integer.parseInt(range) - 1;
          end = start + 1;
        } else {
          start = Integer.parseInt(range.substring(0, dash)) - 1;
          end = Integer.parseInt(range.substring(dash + 1));
        }
      } catch (NumberFormatException e) {
        throw new InputException("--regions " + spec + ": expected chr:start-end");
      }
    }
    SAMSequenceRecord rec = dict.getSequence(name);
    if (rec == null && end == null && looksLikeBedPath(s)) { // no chr:start-end: a path, not a contig
      throw new InputException("--regions " + spec + ": no such BED file" + (Files.isDirectory(Path.of(s)) ? " (a directory)" : ""));
    }
    if (rec == null) {
      throw new InputException("--regions " + spec + ": contig " + name + " is not in the reference (a region is chr,"
          + " chr:start-end or chr:pos; several: separated by spaces or commas; or the path of a BED file)");
    }
    if (end == null) end = rec.getSequenceLength();
    if (start < 0) throw new InputException("--regions " + spec + ": positions are 1-based; the start must be at least 1");
    if (start >= end) {
      throw new InputException("--regions " + spec + ": the start " + (start + 1) + " is after the end " + end);
    }
    if (end > rec.getSequenceLength()) {
      throw new InputException("--regions " + spec + ": the end " + end + " is past the end of contig " + name
          + " (length " + rec.getSequenceLength() + ")");
    }
    return new Region(rec.getSequenceIndex(), name, start, end);
  }

  /**
   * The intervals of {@code bed} as regions; a contig that is not in {@code dict}, or an end past
   * its contig's, is an error naming the line.
   */
  public static List<Region> readBed(SAMSequenceDictionary dict, Path bed) {
    return readBed(dict, null, null, bed);
  }

  /** {@link #readBed}; with {@code inReads}, a contig not in the header of {@code reads} is an error too. */
  private static List<Region> readBed(SAMSequenceDictionary dict, Set<String> inReads, Path reads, Path bed) {
    List<Region> out = new ArrayList<>();
    for (BedInterval iv : BedFile.read(bed)) {
      SAMSequenceRecord rec = iv.contigIn(dict, "the reference");
      if (inReads != null && !inReads.contains(iv.contig())) throw iv.problem(notInReads(iv.contig(), reads));
      if (iv.start() < iv.end()) out.add(new Region(rec.getSequenceIndex(), iv.contig(), iv.start(), iv.end()));
    }
    return out;
  }

  /** Sorts by (contig index, start) and merges overlapping or touching regions. */
  public static List<Region> merge(List<Region> in) {
    List<Region> sorted = new ArrayList<>(in);
    sorted.sort(Comparator.comparingInt(Region::contigIndex).thenComparingInt(Region::start));
    List<Region> out = new ArrayList<>();
    for (Region r : sorted) {
      Region last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.contigIndex() == r.contigIndex() && r.start() <= last.end()) {
        out.set(out.size() - 1, new Region(last.contigIndex(), last.contig(), last.start(),
            Math.max(last.end(), r.end())));
      } else {
        out.add(r);
      }
    }
    return out;
  }
}
