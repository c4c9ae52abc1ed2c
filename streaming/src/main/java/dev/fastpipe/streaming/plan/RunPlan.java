package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.genome.ReadsIndex;
import dev.fastpipe.streaming.genome.SampleNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a make_examples run does, computed once by whoever starts the run ({@code call}'s parent,
 * or {@code make-examples} for its own task) and handed to every shard as it is: a thread shard
 * gets this object, a process shard reads {@link #toText()} on its stdin. Shards never plan; they
 * run {@link #partitionsOf task i} of it, and the ordered VCF release reads the same partition
 * table, so the two cannot disagree.
 *
 * <pre>
 *   settings    inputs, read filters, candidate thresholds, image shape and channels (= the model's),
 *               and the shard count and partition size the table was cut with
 *   partitions  the regions cut into pieces of partitionSize, in reference order; partition i is
 *               (contig[i], start[i], end[i]) 0-based half-open, run by shard[i] (round robin,
 *               as DeepVariant's --task)
 *   readsEstimate  aligned reads on the regions' contigs from the BAM index (-1: unknown, CRAM)
 *   readsAt     a span in the regions where the reads' index says reads start (null: it promises none);
 *               a run that reads no read at all then has an index of another file
 *               ({@link #requireReadsSeen})
 *   readsExpected  when every region is a whole contig: the reads the index counts on them, which a run
 *               reads exactly (-1: no such count); fewer means a damaged file that htsjdk stopped
 *               reading early, or a stale index
 * </pre>
 *
 * <p>The table is held as parallel int arrays (16 bytes a partition) so that a whole genome cut
 * into 1 kb partitions stays small in memory and on the wire.
 */
public final class RunPlan {
  /** A partition larger than this is never chosen automatically (see {@link #autoPartitionSize}). */
  static final int MAX_AUTO_PARTITION = 100_000;

  private final ExampleSettings settings;
  private final List<String> contigNames;
  private final int[] contig;
  private final int[] start;
  private final int[] end;
  private final int[] shard;
  private final long readsEstimate;
  private final String readsAt;
  private final long readsExpected;
  private final String sample;

  RunPlan(ExampleSettings settings, List<String> contigNames, int[] contig, int[] start, int[] end, int[] shard,
      long readsEstimate, String readsAt, long readsExpected, String sample) {
    this.sample = sample;
    this.settings = settings;
    this.contigNames = List.copyOf(contigNames);
    this.contig = contig;
    this.start = start;
    this.end = end;
    this.shard = shard;
    this.readsEstimate = readsEstimate;
    this.readsAt = readsAt;
    this.readsExpected = readsExpected;
  }

  /**
   * The plan of {@code fastpipe call}: the partition size is {@link #autoPartitionSize automatic}
   * unless {@code partitionSizeGiven}, and a shard that would get no partition is not started.
   */
  public static RunPlan forCall(ExampleSettings request, InputFiles in, boolean partitionSizeGiven) {
    return forCall(request, in, partitionSizeGiven, -1, 0);
  }

  /**
   * The plan of a resumed {@code fastpipe call} ({@code call --resume}): the regions as
   * {@link #forCall(ExampleSettings, InputFiles, boolean)} resolves them, less everything before
   * 0-based {@code fromPosition} of contig index {@code fromContig} (the first partition the
   * interrupted run had not finished), cut afresh. Examples do not depend on the partition table, so
   * the rest of the regions gives the same records whatever the shard count. {@code fromContig} -1:
   * all of the regions.
   */
  public static RunPlan forCall(ExampleSettings request, InputFiles in, boolean partitionSizeGiven, int fromContig,
      int fromPosition) {
    return forCall(request, in, ContigExclusion.of(request.inputs().excludeContigs()), partitionSizeGiven, fromContig,
        fromPosition);
  }

  /** As {@link #forCall(ExampleSettings, InputFiles, boolean, int, int)}, with the contigs left out resolved already. */
  static RunPlan forCall(ExampleSettings request, InputFiles in, ContigExclusion excluded, boolean partitionSizeGiven,
      int fromContig, int fromPosition) {
    String sample = SampleNames.select(in.readsPath, in.reads.getFileHeader(), request.inputs().sample());
    List<Region> regions = from(resolve(request, in, excluded), fromContig, fromPosition);
    long bases = regions.stream().mapToLong(r -> (long) r.end() - r.start()).sum();
    int size = partitionSizeGiven ? request.sharding().partitionSize() : autoPartitionSize(bases, request.sharding().shards());
    return cut(request, in, regions, size, true, sample);
  }

  /**
   * The plan of {@code make-examples --task i --shards N}: the partition size and shard count as
   * given, so that N separate invocations agree on every partition.
   */
  public static RunPlan forTasks(ExampleSettings request, InputFiles in) {
    String sample = SampleNames.select(in.readsPath, in.reads.getFileHeader(), request.inputs().sample());
    return cut(request, in, resolve(request, in, ContigExclusion.of(request.inputs().excludeContigs())),
        request.sharding().partitionSize(), false, sample);
  }

  private static List<Region> resolve(ExampleSettings request, InputFiles in, ContigExclusion excluded) {
    ExampleSettings.Inputs i = request.inputs();
    return Regions.resolve(in.dictionary, in.readContigs, in.readsPath, i.regions(), i.regionsBed(), excluded);
  }

  /** {@code regions} (sorted, in reference order) less everything before (contig, position); contig -1: all. */
  static List<Region> from(List<Region> regions, int contig, int position) {
    if (contig < 0) return regions;
    List<Region> out = new ArrayList<>();
    for (Region r : regions) {
      if (r.contigIndex() < contig || (r.contigIndex() == contig && r.end() <= position)) continue;
      if (r.contigIndex() == contig && r.start() < position) out.add(new Region(contig, r.contig(), position, r.end()));
      else out.add(r);
    }
    return out;
  }

  /** The one place partitions are laid out and assigned to shards. */
  private static RunPlan cut(ExampleSettings request, InputFiles in, List<Region> regions, int size,
      boolean dropIdleShards, String sample) {
    if (size < 1) throw new InputException("--partition-size must be >= 1, got " + size);
    long count = 0;
    for (Region r : regions) count += ((long) r.end() - r.start() + size - 1) / size;
    if (count == 0) {
      Path bed = request.inputs().regionsBed();
      throw new InputException((request.inputs().regions().isEmpty() && bed != null ? bed + ": " : "")
          + "no region to call: the regions are empty");
    }
    if (count > Integer.MAX_VALUE) {
      throw new InputException("--partition-size " + size + " cuts the regions into " + count + " partitions; use a larger size");
    }
    int n = (int) count;
    int shards = dropIdleShards ? (int) Math.min(request.sharding().shards(), n) : request.sharding().shards();
    int[] contig = new int[n];
    int[] start = new int[n];
    int[] end = new int[n];
    int[] shard = new int[n];
    int i = 0;
    for (Region r : regions) {
      for (int s = r.start(); s < r.end(); s += size, i++) {
        contig[i] = r.contigIndex();
        start[i] = s;
        end[i] = (int) Math.min(r.end(), (long) s + size);
        shard[i] = i % shards;
      }
    }
    List<String> names = new ArrayList<>();
    in.dictionary.getSequences().forEach(rec -> names.add(rec.getSequenceName()));
    ExampleSettings settings = PlanText.withAbsolutePaths(request) // a worker may run elsewhere
        .withSharding(new ExampleSettings.Sharding(shards, 0, size));
    in.probeReadsIndex(regions);
    in.requireSameBases(regions);
    return new RunPlan(settings, names, contig, start, end, shard, in.alignedReadsOn(regions),
        in.readsWithin(regions), in.readsOnWholeContigs(regions), sample);
  }

  /**
   * About 8 partitions per shard, in whole kb, between 1 kb and 100 kb. Round-robin 1 kb partitions
   * (DeepVariant's default) make every shard decode nearly every BAM block, since a compressed
   * block spans far more than 1 kb of reads; larger partitions keep that overlap small while
   * still balancing shards (a 30x BGZF block holds ~3 kb of reads, so 100 kb partitions waste
   * little, and reads concentrated in part of a contig still spread over the shards). Examples do
   * not depend on the partition size.
   */
  public static int autoPartitionSize(long regionBases, int shards) {
    long target = regionBases / (8L * Math.max(1, shards));
    long kb = Math.max(1, (target + 999) / 1000);
    return (int) Math.min(MAX_AUTO_PARTITION / 1000, kb) * 1000;
  }

  /**
   * The sample called, as the reads' read groups name it ({@link SampleNames#select}): the one
   * asked for, else the reads' only one; null when they name none (every read is used).
   */
  public String sample() {
    return sample;
  }

  /** Inputs, filters, thresholds, image shape and channels shared by every shard. */
  public ExampleSettings settings() {
    return settings;
  }

  public int shards() {
    return settings.sharding().shards();
  }

  public int partitionSize() {
    return settings.sharding().partitionSize();
  }

  public int partitions() {
    return contig.length;
  }

  public Partition partition(int i) {
    return new Partition(i, contig[i], contigNames.get(contig[i]), start[i], end[i]);
  }

  /** The shard that runs partition {@code i}. */
  public int shardOf(int i) {
    return shard[i];
  }

  /** Task {@code task}'s partitions, in reference order. */
  public List<Partition> partitionsOf(int task) {
    if (task < 0 || task >= shards()) throw new IllegalArgumentException("task " + task + " is not in [0, " + shards() + ")");
    List<Partition> mine = new ArrayList<>();
    for (int i = 0; i < shard.length; i++) if (shard[i] == task) mine.add(partition(i));
    return mine;
  }

  /** Bases in all partitions. */
  public long bases() {
    long b = 0;
    for (int i = 0; i < start.length; i++) b += end[i] - start[i];
    return b;
  }

  /** Aligned reads on the regions' contigs per the BAM index; -1 when unknown (CRAM). */
  public long readsEstimate() {
    return readsEstimate;
  }

  /** A span in the regions where the reads' index says reads start ({@code chr:start-end}), or null. */
  public String readsAt() {
    return readsAt;
  }

  /** The reads a run over whole contigs reads, per the index; -1 when not known. */
  public long readsExpected() {
    return readsExpected;
  }

  /**
   * Checks the reads a whole run saw ({@code seen}: the shards' reads in their partitions, passing
   * the filters or not): none where the index promised some means the index is another file's, and
   * another count than {@link #readsExpected} a damaged file or a stale index.
   */
  public void requireReadsSeen(long seen) {
    if (readsExpected >= 0 && seen != readsExpected) throw ReadsIndex.readsMissing(settings.inputs().reads(), seen, readsExpected);
    if (seen == 0 && readsAt != null) throw ReadsIndex.noReadsWhereIndexed(settings.inputs().reads(), readsAt);
  }

  /** The plan as text ({@link PlanText}), for a shard process. */
  public String toText() {
    return PlanText.write(this);
  }

  /** Reads {@link #toText()}; throws InputException for anything else. */
  public static RunPlan fromText(String text) {
    return PlanText.read(text);
  }

  List<String> contigNames() {
    return contigNames;
  }

  int[] contigArray() {
    return contig;
  }

  int[] startArray() {
    return start;
  }

  int[] endArray() {
    return end;
  }

  int[] shardArray() {
    return shard;
  }

  /** Same settings (field by field, shard count and partition size included) and the same partition table. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RunPlan p)) return false;
    if (readsEstimate != p.readsEstimate
        || !java.util.Objects.equals(readsAt, p.readsAt) || readsExpected != p.readsExpected
        || !java.util.Objects.equals(sample, p.sample)
        || !contigNames.equals(p.contigNames) || !Arrays.equals(contig, p.contig) || !Arrays.equals(start, p.start)
        || !Arrays.equals(end, p.end) || !Arrays.equals(shard, p.shard)) {
      return false;
    }
    return settings.equals(p.settings);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(start) * 31 + Arrays.hashCode(shard);
  }
}
