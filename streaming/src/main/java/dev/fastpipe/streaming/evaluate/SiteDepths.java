package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.evaluate.VcfComparison.Locus;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.makeexamples.ReadFilter;
import htsjdk.samtools.AlignmentBlock;
import htsjdk.samtools.QueryInterval;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
import htsjdk.samtools.SAMSequenceDictionary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many reads cover each of a set of positions, as {@code samtools depth -Q 5} counts them: a read
 * counts at a position when one of its bases is aligned there (a deletion or skip over it does not
 * count, soft clips do not) and it passes the caller's own read filter ({@link ReadFilter} with
 * make-examples' defaults: mapped, MAPQ ≥ 5, not secondary, supplementary, QC-failed or duplicate).
 * The reads must be indexed; only the reads overlapping the positions are read.
 */
public final class SiteDepths {
  private SiteDepths() {}

  /** Depth at every locus of {@code loci} (0 where no read covers it, or its contig has no reads). */
  public static Map<Locus, Integer> count(Path reference, Path reads, Collection<Locus> loci) {
    Map<Locus, Integer> out = new HashMap<>();
    for (Locus l : loci) out.put(l, 0);
    if (loci.isEmpty()) return out;
    try (InputFiles in = new InputFiles(reference, reads)) {
      SAMSequenceDictionary dict = in.reads.getFileHeader().getSequenceDictionary();
      Map<String, List<Integer>> byContig = new HashMap<>();
      for (Locus l : loci) byContig.computeIfAbsent(l.chrom(), c -> new ArrayList<>()).add(l.pos());
      Map<String, int[]> positions = new HashMap<>();
      Map<String, int[]> depths = new HashMap<>();
      List<QueryInterval> intervals = new ArrayList<>();
      for (Map.Entry<String, List<Integer>> e : byContig.entrySet()) {
        int index = dict.getSequenceIndex(e.getKey());
        if (index < 0) continue; // no reads on this contig
        int[] p = e.getValue().stream().mapToInt(Integer::intValue).sorted().toArray();
        positions.put(e.getKey(), p);
        depths.put(e.getKey(), new int[p.length]);
        for (int pos : p) intervals.add(new QueryInterval(index, pos, pos));
      }
      if (intervals.isEmpty()) return out;
      if (!in.reads.hasIndex()) throw new InputException(reads + ": not indexed; index it with samtools index");
      ReadFilter filter = new ReadFilter(ExampleSettings.builder().readFilters(), null, in.reads.getFileHeader());
      QueryInterval[] query = QueryInterval.optimizeIntervals(intervals.toArray(new QueryInterval[0]));
      try (SAMRecordIterator it = in.reads.query(query, false)) {
        while (it.hasNext()) {
          SAMRecord r = it.next();
          if (!filter.accept(r)) continue;
          int[] p = positions.get(r.getContig());
          if (p == null) continue;
          int[] d = depths.get(r.getContig());
          for (AlignmentBlock b : r.getAlignmentBlocks()) {
            int from = b.getReferenceStart();
            int to = from + b.getLength() - 1;
            int i = Arrays.binarySearch(p, from);
            if (i < 0) i = -i - 1;
            for (; i < p.length && p[i] <= to; i++) d[i]++;
          }
        }
      } catch (RuntimeException e) {
        throw InputException.reading(reads, "cannot read the reads", e);
      }
      for (Map.Entry<String, int[]> e : positions.entrySet()) {
        int[] p = e.getValue();
        int[] d = depths.get(e.getKey());
        for (int i = 0; i < p.length; i++) out.put(new Locus(e.getKey(), p[i]), d[i]);
      }
    }
    return out;
  }
}
