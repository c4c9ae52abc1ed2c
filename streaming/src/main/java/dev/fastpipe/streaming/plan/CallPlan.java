package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.genome.HaploidRegions;
import htsjdk.samtools.SAMSequenceDictionary;
import java.util.List;

/**
 * What {@link Planner} resolved, once, for a {@code call}: the {@link RunPlan} the shards get, and
 * beside it what only the parent needs: the reference's contigs, the haploid regions, the VCF's
 * sample name, each partition's share of the work (for the progress line and the release
 * frontier), the shard workers' JVM flags, and the notes to print (warnings, the contigs left out).
 */
public record CallPlan(RunPlan run, SAMSequenceDictionary dictionary, HaploidRegions haploid, String sample,
    double[] work, String workerJavaOpts, List<String> notes) {
  public CallPlan {
    notes = List.copyOf(notes);
  }
}
