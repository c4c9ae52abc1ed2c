package dev.fastpipe.streaming.postprocess;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the make_examples shards' reference blocks and the released variant records into the
 * gVCF's records, in order. The result is defined per position, so it does not depend on shards,
 * partitions or arrival order:
 * <ol>
 *   <li>every position a variant record covers (PASS, RefCall or LowQual, from its position over
 *       its reference allele) belongs to that record, and its reference block is dropped (the
 *       shards emit each position of a candidate's span as a block of its own, so a record
 *       always covers whole blocks);
 *   <li>the remaining blocks merge while they are adjacent, on one contig, with one GQ bin and
 *       one genotype ({@link RefBlock#merges}): GQ and MIN_DP are the minima, PL that of the
 *       first position with the lowest GQ.
 * </ol>
 * Blocks arrive from any consumer thread ({@link #add}); {@link #completeBefore} is called
 * when everything before a position is known, with the variant records released for the same
 * range, and writes what is final. The last block is held back while the next range might
 * continue it. Thread-safe.
 */
public final class GvcfAssembler {

  /** Where the gVCF's records go, in order. */
  public interface Sink {
    void write(GenotypeCall call);

    void write(RefBlock block);
  }

  /**
   * What carries over a {@link #completeBefore} boundary, all a resumed run needs to continue the
   * gVCF exactly where an interrupted one stopped: the block held back (it may merge with the next
   * range's first block; null: none) and how far a written variant record covers its contig.
   */
  public record State(RefBlock open, int coveredContig, int coveredUntil) {
    /** The state of a new gVCF. */
    public static final State START = new State(null, -1, -1);
  }

  private final TreeMap<Long, RefBlock> pending = new TreeMap<>();
  private RefBlock open;
  private int coveredContig = -1;
  private int coveredUntil = -1; // positions of coveredContig before this belong to a variant record
  private long blocksIn;
  private long blocksOut;

  public GvcfAssembler() {
    this(State.START);
  }

  /** Continues from {@code state}, taken from another assembler at a boundary ({@link #state}). */
  public GvcfAssembler(State state) {
    this.open = state.open();
    this.coveredContig = state.coveredContig();
    this.coveredUntil = state.coveredUntil();
  }

  /** The carried-over state, meaningful right after a {@link #completeBefore} (no pending blocks before it). */
  public synchronized State state() {
    return new State(open, coveredContig, coveredUntil);
  }

  private static long key(int contigIndex, int position) {
    return (long) contigIndex << 32 | (position & 0xFFFFFFFFL);
  }

  /** One block from a shard (any thread). */
  public synchronized void add(RefBlock block) {
    if (pending.put(key(block.contigIndex(), block.start()), block) != null) {
      throw new IllegalStateException("two reference blocks start at contig " + block.contigIndex() + " position "
          + block.start() + ": a partition was made twice");
    }
    blocksIn++;
  }

  /**
   * Everything before 0-based {@code position} of contig {@code contigIndex} is known: writes to
   * {@code sink}, in order, the blocks and {@code calls} (the variant records released for the same
   * range, sorted) that are final.
   */
  public synchronized void completeBefore(int contigIndex, int position, List<GenotypeCall> calls, Sink sink) {
    long limit = key(contigIndex, position);
    List<RefBlock> blocks = new ArrayList<>();
    Iterator<Map.Entry<Long, RefBlock>> it = pending.headMap(limit, false).entrySet().iterator();
    while (it.hasNext()) {
      blocks.add(it.next().getValue());
      it.remove();
    }
    int c = 0;
    int b = 0;
    while (c < calls.size() || b < blocks.size()) {
      boolean callFirst = b == blocks.size() || (c < calls.size() && before(calls.get(c), blocks.get(b)));
      if (callFirst) {
        GenotypeCall call = calls.get(c++);
        flush(sink);
        sink.write(call);
        int end = call.position() + call.ref().length();
        if (call.contigIndex() != coveredContig) {
          coveredContig = call.contigIndex();
          coveredUntil = end;
        } else {
          coveredUntil = Math.max(coveredUntil, end);
        }
      } else {
        take(blocks.get(b++), sink);
      }
    }
    if (open != null && !(open.contigIndex() == contigIndex && open.end() == position)) flush(sink);
  }

  /** Everything is known: writes the rest, {@code calls} included. */
  public synchronized void finish(List<GenotypeCall> calls, Sink sink) {
    completeBefore(Integer.MAX_VALUE, Integer.MAX_VALUE, calls, sink);
    flush(sink);
  }

  /** At one position a variant record comes before the block (the record owns the position). */
  private static boolean before(GenotypeCall call, RefBlock block) {
    if (call.contigIndex() != block.contigIndex()) return call.contigIndex() < block.contigIndex();
    return call.position() <= block.start();
  }

  private void take(RefBlock block, Sink sink) {
    if (block.contigIndex() == coveredContig && block.start() < coveredUntil) {
      if (block.end() <= coveredUntil) return; // the variant record stands for these positions
      throw new IllegalStateException("reference block [" + block.start() + ", " + block.end() + ") of contig "
          + block.contigIndex() + " overlaps a variant record ending at " + coveredUntil
          + ": blocks and calls come from different runs?");
    }
    if (open != null && open.merges(block)) {
      open = open.extendedBy(block);
    } else {
      flush(sink);
      open = block;
    }
  }

  private void flush(Sink sink) {
    if (open == null) return;
    sink.write(open);
    blocksOut++;
    open = null;
  }

  /** Blocks received from the shards. */
  public synchronized long blocksIn() {
    return blocksIn;
  }

  /** Block records written (after dropping and merging). */
  public synchronized long blocksOut() {
    return blocksOut;
  }
}
