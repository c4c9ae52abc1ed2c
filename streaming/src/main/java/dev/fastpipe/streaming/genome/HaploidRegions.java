package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a sample has one copy of the genome ({@code --haploid-contigs}, {@code --par-bed}, as
 * DeepVariant's {@code --haploid_contigs} and {@code --par_regions_bed}): the named contigs, less
 * the pseudo-autosomal intervals of the BED, which stay diploid. As DeepVariant, a BED interval on a
 * contig that is not haploid (or not in the reference) changes nothing; unlike it, a haploid contig
 * the reference lacks is an error (a {@code X} given for a {@code chrX} reference would otherwise
 * silently call a male's X diploid). Immutable; {@link #none()} has no haploid region.
 */
public final class HaploidRegions {
  private static final HaploidRegions NONE = new HaploidRegions(new boolean[0], new int[0][], new int[0][], List.of());

  private final boolean[] haploidContig;
  /** Per contig index: sorted, disjoint PAR interval starts and ends (0-based, half-open). */
  private final int[][] parStarts;
  private final int[][] parEnds;
  private final List<String> names;

  private HaploidRegions(boolean[] haploidContig, int[][] parStarts, int[][] parEnds, List<String> names) {
    this.haploidContig = haploidContig;
    this.parStarts = parStarts;
    this.parEnds = parEnds;
    this.names = names;
  }

  /** Every region diploid. */
  public static HaploidRegions none() {
    return NONE;
  }

  /**
   * {@code contigs} of {@code dict} less the intervals of {@code parBed} (null: none); an unknown or
   * repeated contig, a PAR BED without haploid contigs, or a BED that does not parse is an
   * {@link InputException} naming the option or the file and line.
   */
  public static HaploidRegions of(List<String> contigs, Path parBed, SAMSequenceDictionary dict) {
    if (contigs.isEmpty()) {
      if (parBed != null) throw new InputException(parBed + ": --par-bed needs --haploid-contigs (the contigs it carves PARs out of)");
      return NONE;
    }
    return of(contigs, parBed == null ? List.of() : BedFile.read(parBed), dict);
  }

  /** As {@link #of(List, Path, SAMSequenceDictionary)}, with the PAR intervals already read. */
  public static HaploidRegions of(List<String> contigs, List<BedInterval> par, SAMSequenceDictionary dict) {
    if (contigs.isEmpty()) return NONE;
    boolean[] haploid = new boolean[dict.size()];
    Set<String> seen = new LinkedHashSet<>();
    for (String c : contigs) {
      String name = c.trim();
      SAMSequenceRecord r = dict.getSequence(name);
      if (r == null) {
        throw new InputException("--haploid-contigs " + (name.isEmpty() ? "(an empty name)" : name)
            + ": not a contig of the reference (it has " + describe(dict) + ")");
      }
      if (!seen.add(name)) throw new InputException("--haploid-contigs names " + name + " twice");
      haploid[r.getSequenceIndex()] = true;
    }
    List<List<int[]>> byContig = new ArrayList<>();
    for (int i = 0; i < dict.size(); i++) byContig.add(new ArrayList<>());
    for (BedInterval b : par) {
      SAMSequenceRecord r = dict.getSequence(b.contig());
      if (r == null || !haploid[r.getSequenceIndex()]) continue; // as DeepVariant: a PAR elsewhere changes nothing
      int end = Math.min(b.end(), r.getSequenceLength());
      if (b.start() < end) byContig.get(r.getSequenceIndex()).add(new int[] {b.start(), end});
    }
    int[][] starts = new int[dict.size()][];
    int[][] ends = new int[dict.size()][];
    for (int i = 0; i < dict.size(); i++) {
      List<int[]> iv = byContig.get(i);
      iv.sort((a, b) -> Integer.compare(a[0], b[0]));
      List<int[]> merged = new ArrayList<>();
      for (int[] x : iv) {
        if (!merged.isEmpty() && x[0] <= merged.get(merged.size() - 1)[1]) {
          int[] last = merged.get(merged.size() - 1);
          last[1] = Math.max(last[1], x[1]);
        } else {
          merged.add(x.clone());
        }
      }
      starts[i] = merged.stream().mapToInt(x -> x[0]).toArray();
      ends[i] = merged.stream().mapToInt(x -> x[1]).toArray();
    }
    return new HaploidRegions(haploid, starts, ends, List.copyOf(seen));
  }

  private static String describe(SAMSequenceDictionary dict) {
    List<String> n = new ArrayList<>();
    for (SAMSequenceRecord r : dict.getSequences()) {
      if (n.size() == 5) {
        n.add("... " + (dict.size() - 5) + " more");
        break;
      }
      n.add(r.getSequenceName());
    }
    return String.join(", ", n);
  }

  /** No haploid region at all. */
  public boolean isEmpty() {
    return names.isEmpty();
  }

  /** The haploid contigs, as given. */
  public List<String> contigs() {
    return names;
  }

  /** Whether contig {@code contigIndex} is one of the haploid contigs (PARs or not). */
  public boolean haploidContig(int contigIndex) {
    return contigIndex >= 0 && contigIndex < haploidContig.length && haploidContig[contigIndex];
  }

  /** Whether 0-based {@code position} of the contig has one copy. */
  public boolean isHaploid(int contigIndex, int position) {
    return isHaploid(contigIndex, position, position + 1);
  }

  /**
   * Whether the span [start, end) is haploid: on a haploid contig and overlapping no PAR interval
   * (DeepVariant keeps a variant that touches a PAR diploid).
   */
  public boolean isHaploid(int contigIndex, int start, int end) {
    if (!haploidContig(contigIndex)) return false;
    int[] s = parStarts[contigIndex];
    int[] e = parEnds[contigIndex];
    // the intervals are disjoint and sorted, so their ends are too: the first one ending after start
    // is the only one that can overlap
    int i = Arrays.binarySearch(e, start + 1);
    if (i < 0) i = -i - 1;
    while (i > 0 && e[i - 1] > start) i--;
    return i == s.length || s[i] >= end;
  }

  /**
   * The first position after {@code position} where {@link #isHaploid(int, int)} may change on the
   * contig (a PAR start or end), or {@link Integer#MAX_VALUE}.
   */
  public int nextBoundary(int contigIndex, int position) {
    if (!haploidContig(contigIndex)) return Integer.MAX_VALUE;
    int best = Integer.MAX_VALUE;
    int[] s = parStarts[contigIndex];
    int[] e = parEnds[contigIndex];
    for (int i = 0; i < s.length; i++) {
      if (s[i] > position) best = Math.min(best, s[i]);
      if (e[i] > position) best = Math.min(best, e[i]);
    }
    return best;
  }

  @Override
  public String toString() {
    return isEmpty() ? "diploid everywhere" : "haploid " + String.join(",", names) + " less their PARs";
  }
}
