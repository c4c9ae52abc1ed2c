package dev.fastpipe.streaming.plan;

/** The JVM flags of a run's shard worker processes, chosen from its plan. */
public final class WorkerJvm {
  private WorkerJvm() {}

  /**
   * Below this many reads per shard (about a minute of make_examples), worker JVMs skip C2: on
   * short shards C2 compiles cost more CPU than they save.
   */
  public static final long C1_ONLY_BELOW_READS_PER_SHARD = 5_000_000L;

  /** A worker's heap is this much ... */
  static final long HEAP_BASE_MB = 512;
  /** ... plus this much per read of its fullest partition ... */
  static final long HEAP_KB_PER_READ = 4;
  /** ... and never more than this. */
  static final long HEAP_MAX_MB = 16_384;

  /**
   * The automatic worker JVM flags: C1 only ({@code -XX:TieredStopAtLevel=1}) when each shard has
   * under {@link #C1_ONLY_BELOW_READS_PER_SHARD} reads (from the BAM index; for CRAM, from the
   * bases at about 30x of 150 bp reads), where C2 compilation costs more CPU than it saves; and a
   * maximum heap ({@link #workerHeapMb}) with two thirds of it young ({@link #youngMb}) unless
   * FASTPIPE_JAVA_OPTS already sets one.
   *
   * <p>Why a heap limit: a shard holds one partition's reads at a time (about 20 MB live after a
   * collection at 30x with 100 kb partitions), but without a limit the parallel collector grows its
   * young generation to the JVM's default maximum (a quarter of the machine's memory) the longer it
   * runs: 300 MB resident after a 5 Mb run, 1.6 GB after 60 Mb. With it, a shard's memory is set
   * by the partition size and the depth of the data, not by the genome's length.
   *
   * @param work each partition's share of the run's work ({@link PartitionWork#of})
   */
  public static String autoJavaOpts(RunPlan plan, double[] work) {
    long reads = readsEstimate(plan);
    String opts = reads / plan.shards() < C1_ONLY_BELOW_READS_PER_SHARD ? "-XX:TieredStopAtLevel=1" : "";
    if (System.getenv().getOrDefault("FASTPIPE_JAVA_OPTS", "").contains("-Xmx")) return opts;
    long heap = workerHeapMb(plan, work);
    return (opts + " -Xmx" + heap + "m -Xmn" + youngMb(heap) + "m").trim();
  }

  /**
   * The young generation: two thirds of the heap. A shard's garbage is its reads (each decoded
   * record and its arrays), while what survives a collection is one partition's window of reads;
   * with the collector's default third, young collections came four times as often and each
   * copied that window again: on a 5 Mb sample a shard's CPU fell from 7.95 to 6.8 s (two runs
   * each) with 400 of 593 MiB young.
   */
  static long youngMb(long heapMb) {
    return heapMb * 2 / 3;
  }

  /**
   * {@value #HEAP_BASE_MB} MiB plus {@value #HEAP_KB_PER_READ} KiB a read of the partition with the
   * most work (the run's reads in proportion to its share of the work), at most
   * {@value #HEAP_MAX_MB} MiB: 592 MiB for 100 kb partitions at 30x.
   */
  static long workerHeapMb(RunPlan plan, double[] work) {
    double total = 0;
    double max = 0;
    for (double w : work) {
      total += w;
      max = Math.max(max, w);
    }
    long reads = readsEstimate(plan);
    long fullest = total > 0 ? (long) Math.ceil(reads * max / total) : reads;
    return Math.min(HEAP_MAX_MB, HEAP_BASE_MB + fullest * HEAP_KB_PER_READ / 1024);
  }

  /** Reads of the run: from the BAM index; for a CRAM, 30x of 150 bp reads over the plan's bases. */
  private static long readsEstimate(RunPlan plan) {
    return plan.readsEstimate() >= 0 ? plan.readsEstimate() : plan.bases() * 30 / 150;
  }
}
