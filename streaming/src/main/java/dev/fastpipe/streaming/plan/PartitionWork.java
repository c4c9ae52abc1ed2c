package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.genome.ReadsIndex;
import htsjdk.samtools.SAMFileHeader;

/**
 * Each partition's share of a run's work: what the reads' index says its reads take in the file,
 * so a contig without reads, a centromere or an N gap counts for almost nothing and a deep region
 * for much. The progress line, the release frontier and the workers' heap read it.
 */
public final class PartitionWork {
  /** Share of a partition's weight that comes from its length rather than its reads (reference, scanning). */
  static final double BASES_SHARE = 0.05;

  private PartitionWork() {}

  /**
   * The weight of each partition of {@code plan}: the bytes of the reads file that the index places
   * in it, plus {@link #BASES_SHARE} of the run's bytes spread by length; by length alone when there
   * is no index ({@code index} null) or it places nothing.
   */
  public static double[] of(RunPlan plan, ReadsIndex index, SAMFileHeader readsHeader) {
    int n = plan.partitions();
    double[] bytes = new double[n];
    double[] bases = new double[n];
    double totalBytes = 0;
    double totalBases = 0;
    for (int i = 0; i < n; i++) {
      Partition p = plan.partition(i);
      bases[i] = p.end() - p.start();
      totalBases += bases[i];
      int ref = readsHeader.getSequenceIndex(p.contig());
      if (index != null && ref >= 0) bytes[i] = index.bytesIn(ref, p.start(), p.end());
      totalBytes += bytes[i];
    }
    if (!(totalBytes > 0)) return bases;
    double perBase = BASES_SHARE * totalBytes / Math.max(1, totalBases);
    for (int i = 0; i < n; i++) bytes[i] += perBase * bases[i];
    return bytes;
  }
}
