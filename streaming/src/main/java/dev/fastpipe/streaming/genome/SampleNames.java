package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SamReaderFactory;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The sample of a BAM/CRAM: the SM of its read groups. A file of one sample is called as that
 * sample; a file of several is called for the one named ({@code --sample}), whose read groups are
 * then the only reads used ({@link #readGroupsOf}); a file whose read groups name no sample is
 * called under the name given.
 */
public final class SampleNames {
  private SampleNames() {}

  /**
   * Checks a sample name given by the user ({@code option}, e.g. --sample) before it reaches a VCF
   * header, whose columns are tab-separated lines: empty names, leading or trailing blanks, and tabs,
   * newlines or other control characters are refused in one line that shows the name escaped.
   * Null (not given) passes. Returns {@code name}.
   */
  public static String requireVcfName(String option, String name) {
    if (name == null) return null;
    String why = name.isBlank() ? "the sample name is empty"
        : name.chars().anyMatch(Character::isISOControl)
            ? "a VCF sample name cannot hold a tab, a newline or another control character"
        : !name.strip().equals(name) ? "a VCF sample name cannot start or end with a blank"
        : null;
    if (why == null) return name;
    StringBuilder shown = new StringBuilder();
    for (char c : name.toCharArray()) {
      if (c == '\t') shown.append("\\t");
      else if (c == '\n') shown.append("\\n");
      else if (c == '\r') shown.append("\\r");
      else if (Character.isISOControl(c)) shown.append(String.format("\\u%04x", (int) c));
      else shown.append(c);
    }
    throw new InputException(option + " \"" + shown + "\": " + why);
  }

  /** The sample to call in {@code reads} (CRAM decoded with {@code ref}, may be null): see {@link #resolve}. */
  public static String fromReads(Path reads, Path ref, String requested) {
    return resolve(reads, header(reads, ref), requested);
  }

  /** The header of {@code reads} (a BAM or CRAM, decoded with {@code ref}, may be null). */
  public static SAMFileHeader header(Path reads, Path ref) {
    FileFormat.readsFormat(reads); // a missing, empty or other kind of file is named as such
    try {
      SamReaderFactory f = SamReaderFactory.makeDefault();
      if (ref != null) f = f.referenceSequence(ref);
      return f.getFileHeader(reads);
    } catch (RuntimeException e) {
      throw InputException.reading(reads, "cannot read the header", e);
    }
  }

  /** The one sample name in the read groups of {@code reads} (CRAM decoded with {@code ref}, may be null). */
  public static String fromReads(Path reads, Path ref) {
    return fromReads(reads, ref, null);
  }

  /**
   * The sample to call: {@code requested} when the read groups name it (or name no sample at all),
   * else the only sample they name; an error otherwise, listing the samples there are.
   */
  public static String resolve(Path reads, SAMFileHeader header, String requested) {
    return required(reads, select(reads, header, requested));
  }

  /** {@code selected} ({@link #select}ed from the read groups of {@code reads}), which a VCF needs: an error when null. */
  public static String required(Path reads, String selected) {
    if (selected == null) throw new InputException(reads + ": no read group with a sample name (SM); pass --sample NAME");
    return selected;
  }

  /**
   * The sample whose reads make_examples uses: {@code requested} (which the read groups must name,
   * if they name any sample), else the only sample they name; null when they name none (all reads
   * are used). Reads of several samples with none requested are an error, listing them.
   */
  public static String select(Path reads, SAMFileHeader header, String requested) {
    Set<String> names = of(header);
    if (requested != null) {
      if (requested.isBlank()) throw new InputException("--sample: the sample name is empty");
      if (names.isEmpty() || names.contains(requested)) return requested;
      throw new InputException(reads + ": no read group of sample " + requested + "; the samples of its read groups are "
          + names);
    }
    if (names.isEmpty()) return null;
    if (names.size() > 1) {
      throw new InputException(reads + ": read groups name several samples " + names + "; pass --sample NAME to call one");
    }
    return names.iterator().next();
  }

  /**
   * The IDs of the read groups of {@code sample}, when reads must be selected by read group: the
   * sample is named and the header also has read groups of other samples. Null when every read is
   * used (no sample named, or none but this one in the header).
   */
  public static Set<String> readGroupsOf(SAMFileHeader header, String sample) {
    if (sample == null) return null;
    Set<String> ids = new LinkedHashSet<>();
    boolean others = false;
    for (SAMReadGroupRecord rg : header.getReadGroups()) {
      if (sample.equals(rg.getSample())) ids.add(rg.getId());
      else others = true;
    }
    return others && !ids.isEmpty() ? ids : null;
  }

  /** The sample names (SM) of the read groups, in header order. */
  static Set<String> of(SAMFileHeader header) {
    Set<String> names = new LinkedHashSet<>();
    for (SAMReadGroupRecord rg : header.getReadGroups()) {
      if (rg.getSample() != null && !rg.getSample().isEmpty()) names.add(rg.getSample());
    }
    return names;
  }
}
