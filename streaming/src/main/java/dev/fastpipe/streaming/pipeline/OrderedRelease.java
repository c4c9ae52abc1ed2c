package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.makeexamples.Partition;
import dev.fastpipe.streaming.makeexamples.RunPlan;
import dev.fastpipe.streaming.postprocess.CallResult;
import dev.fastpipe.streaming.postprocess.GenotypeCall;
import dev.fastpipe.streaming.postprocess.SiteAssembler;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import java.util.List;

/**
 * The streaming postprocess: classified examples come in from any consumer thread in any order;
 * sites go out to the VCF in reference order, each as soon as every partition before it is done.
 * Which site lies before which partition comes from the run's {@link RunPlan}, the same table the
 * shards ran, so release and make_examples cannot disagree.
 *
 * <p>Thread-safe: {@link #add} may be called from every consumer; {@link #partitionDone} and
 * {@link #finish} hold this object's lock across release and write, so the VCF stays ordered.
 */
public final class OrderedRelease {
  private final RunPlan plan;
  private final PartitionFrontier frontier;
  private final SiteAssembler assembler;
  private final VcfCallWriter writer;
  private long nanos;

  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer) {
    this(plan, assembler, writer, new PartitionFrontier(plan.partitions()));
  }

  /** With {@code frontier} over the plan's partitions (weighted for progress). */
  public OrderedRelease(RunPlan plan, SiteAssembler assembler, VcfCallWriter writer, PartitionFrontier frontier) {
    if (frontier.partitions() != plan.partitions()) {
      throw new IllegalArgumentException(frontier.partitions() + " partitions in the frontier, " + plan.partitions() + " in the plan");
    }
    this.plan = plan;
    this.frontier = frontier;
    this.assembler = assembler;
    this.writer = writer;
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
    List<GenotypeCall> calls;
    if (after < plan.partitions()) {
      Partition next = plan.partition(after);
      calls = assembler.completeBefore(next.contigIndex(), next.start());
    } else {
      calls = assembler.completeBefore(Integer.MAX_VALUE, Integer.MAX_VALUE);
    }
    for (GenotypeCall c : calls) writer.write(c);
    nanos += System.nanoTime() - t0;
  }

  /** Writes whatever is left (end of the run). */
  public synchronized void finish() {
    long t0 = System.nanoTime();
    for (GenotypeCall c : assembler.finish()) writer.write(c);
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

  /** Seconds spent assembling and writing sites. */
  public synchronized double seconds() {
    return nanos / 1e9;
  }
}
