package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.postprocess.CallResult;
import dev.fastpipe.streaming.postprocess.GenotypeCall;
import dev.fastpipe.streaming.postprocess.GvcfAssembler;
import dev.fastpipe.streaming.postprocess.RefBlock;
import dev.fastpipe.streaming.postprocess.SiteAssembler;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import java.util.List;

/**
 * The streaming postprocess: classified examples come in from any consumer thread in any order;
 * sites go out to the VCF in reference order, each as soon as every partition before it is done.
 * Which site lies before which partition comes from the run's {@link RunPlan}, the same table the
 * shards ran, so release and make_examples cannot disagree.
 *
 * <p>With a gVCF, the shards' reference blocks come in the same way ({@link #addBlock}) and the
 * gVCF's records (the same sites, and the blocks between them: {@link GvcfAssembler}) are
 * released in the same step as the VCF's.
 *
 * <p>Thread-safe: {@link #add} may be called from every consumer; {@link #partitionDone} and
 * {@link #finish} hold this object's lock across release and write, so the VCF stays ordered.
 */
public final class OrderedRelease {
  private final RunPlan plan;
  private final PartitionFrontier frontier;
  private final SiteAssembler assembler;
  private final VcfCallWriter writer;
  private final GvcfAssembler blocks; // null without a gVCF
  private final VcfCallWriter gvcfWriter;
  private volatile long nanos; // written under this object's lock, read live by the run's sampler
  private Boundary boundary;

  /**
   * Told, under the release's lock, each time the written prefix grows but the run is not finished:
   * a resume journal's chance to checkpoint while the writers are between partitions.
   */
  public interface Boundary {
    /**
     * Every record before partition {@code next} (the first not done, of {@code frontier}) is written;
     * {@code gvcf}: the gVCF assembler's carried state, or null without a gVCF.
     */
    void reached(int frontier, Partition next, GvcfAssembler.State gvcf);
  }

  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer) {
    this(plan, assembler, writer, new PartitionFrontier(plan.partitions()), null);
  }

  /** With {@code frontier} over the plan's partitions (weighted for progress). */
  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer, PartitionFrontier frontier) {
    this(plan, assembler, writer, frontier, null);
  }

  /**
   * With {@code frontier} over the plan's partitions, and a gVCF written to {@code gvcfWriter} (a
   * gVCF-mode writer), or none when null.
   */
  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer, PartitionFrontier frontier,
      VcfCallWriter gvcfWriter) {
    this(plan, assembler, writer, frontier, gvcfWriter, GvcfAssembler.State.START);
  }

  /**
   * As above, with the gVCF continuing from {@code gvcfState} (a resumed run: the state an
   * interrupted run's journal recorded at the boundary where this plan starts).
   */
  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer, PartitionFrontier frontier,
      VcfCallWriter gvcfWriter, GvcfAssembler.State gvcfState) {
    if (frontier.partitions() != plan.partitions()) {
      throw new IllegalArgumentException(frontier.partitions() + " partitions in the frontier, " + plan.partitions() + " in the plan");
    }
    this.plan = plan;
    this.frontier = frontier;
    this.assembler = assembler;
    this.writer = writer;
    this.gvcfWriter = gvcfWriter;
    this.blocks = gvcfWriter == null ? null : new GvcfAssembler(gvcfState);
  }

  /** Sets the {@link Boundary} told as the written prefix grows (before the shards start). */
  public synchronized void onBoundary(Boundary b) {
    this.boundary = b;
  }

  /** One reference block (any thread); ignored without a gVCF. */
  public void addBlock(RefBlock block) {
    if (blocks != null) blocks.add(block);
  }

  /** One classified example (any thread). */
  public void add(CallResult result) {
    assembler.add(result);
  }

  /**
   * Partition {@code partition} is done (every example of it was {@link #add added}): writes every
   * site before the first partition that is not done yet.
   */
  public synchronized void partitionDone(long partition) {
    int before = frontier.frontier();
    int after = frontier.markDone((int) partition);
    if (after == before) return;
    long t0 = System.nanoTime();
    int contig = Integer.MAX_VALUE;
    int position = Integer.MAX_VALUE;
    if (after < plan.partitions()) {
      Partition next = plan.partition(after);
      contig = next.contigIndex();
      position = next.start();
    }
    List<GenotypeCall> calls = assembler.completeBefore(contig, position);
    for (GenotypeCall c : calls) writer.write(c);
    if (blocks != null) blocks.completeBefore(contig, position, calls, gvcfWriter);
    if (boundary != null && after < plan.partitions()) {
      boundary.reached(after, plan.partition(after), blocks == null ? null : blocks.state());
    }
    nanos += System.nanoTime() - t0;
  }

  /** Writes whatever is left (end of the run). */
  public synchronized void finish() {
    long t0 = System.nanoTime();
    List<GenotypeCall> calls = assembler.finish();
    for (GenotypeCall c : calls) writer.write(c);
    if (blocks != null) blocks.finish(calls, gvcfWriter);
    nanos += System.nanoTime() - t0;
  }

  /** Sites held, waiting for the partitions before them to be done. */
  public int pendingSites() {
    return assembler.pendingSites();
  }

  /** Partitions done and in total, for progress. */
  public PartitionFrontier frontier() {
    return frontier;
  }

  /** Nanoseconds spent assembling and writing sites so far (without taking the lock). */
  long nanos() {
    return nanos;
  }

  /** Seconds spent assembling and writing sites. */
  public synchronized double seconds() {
    return nanos / 1e9;
  }
}
