package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.genome.HaploidRegions;
import java.util.Arrays;
import java.util.List;

/**
 * A partition's reference confidence for the gVCF, as blocks: maximal runs of positions with one GQ
 * bin, one genotype (0/0 or ./.) and one ploidy (haploid regions get the haploid confidence).
 * Every position of a candidate's reference span is a block of its own, so that the postprocess can
 * drop exactly the positions a variant record covers and merge the rest: the blocks it writes then
 * do not depend on where candidates or partitions fell.
 */
final class ReferenceBlocks {
  /** Where the blocks go: one call per block, {@code pl} valid only during the call. */
  interface Sink {
    void block(Partition p, int start, int end, int minGq, int minDp, int[] pl, int gqBin, boolean called,
        boolean haploid, byte refBase);
  }

  private final ReferenceConfidence confidence;
  /** Its haploid form, for the positions of {@link #haploid}; null without haploid regions. */
  private final ReferenceConfidence haploidConfidence;
  private final HaploidRegions haploid;
  private final int[] blockPl = new int[3];
  private boolean[] inCandidate = new boolean[0];

  ReferenceBlocks(int gqBinSize, HaploidRegions haploid) {
    this.confidence = new ReferenceConfidence(gqBinSize);
    this.haploid = haploid;
    this.haploidConfidence = haploid.isEmpty() ? null : confidence.haploid();
  }

  /** The blocks of {@code p} from {@code counter}'s depths (reset to {@code p}), with {@code ref} from {@code refStart}. */
  void emit(Partition p, List<Candidate> candidates, AlleleCounter counter, byte[] ref, int refStart, Sink sink) {
    int n = p.end() - p.start();
    if (inCandidate.length < n) inCandidate = new boolean[Math.max(n, 2 * inCandidate.length)];
    Arrays.fill(inCandidate, 0, n, false);
    for (Candidate c : candidates) {
      int from = Math.max(c.position, p.start());
      int to = Math.min(c.position + c.ref.length(), p.end());
      for (int pos = from; pos < to; pos++) inCandidate[pos - p.start()] = true;
    }
    int blockStart = -1;
    int blockKey = -1;
    int blockGq = 0;
    int blockDp = 0;
    for (int pos = p.start(); pos < p.end(); pos++) {
      int depth = counter.depth(pos);
      int refReads = Math.min(counter.refSupport(pos), depth);
      boolean callable = AlleleCounter.baseCode(ref[pos - refStart]) >= 0;
      boolean oneCopy = haploidConfidence != null && haploid.isHaploid(p.contigIndex(), pos);
      ReferenceConfidence rc = oneCopy ? haploidConfidence : confidence;
      int r = callable ? rc.evaluate(refReads, depth) : 0;
      int key = ReferenceConfidence.bin(r) | (ReferenceConfidence.called(r) ? 1 << 8 : 0) | (oneCopy ? 1 << 9 : 0);
      int gq = ReferenceConfidence.gq(r);
      boolean alone = inCandidate[pos - p.start()];
      if (blockStart >= 0 && !alone && key == blockKey && !inCandidate[pos - 1 - p.start()]) {
        if (gq < blockGq) {
          blockGq = gq;
          likelihoods(rc, callable, refReads, depth);
        }
        blockDp = Math.min(blockDp, depth);
        continue;
      }
      if (blockStart >= 0) emit(sink, p, blockStart, pos, blockGq, blockDp, blockKey, ref[blockStart - refStart]);
      blockStart = pos;
      blockKey = key;
      blockGq = gq;
      blockDp = depth;
      likelihoods(rc, callable, refReads, depth);
    }
    if (blockStart >= 0) emit(sink, p, blockStart, p.end(), blockGq, blockDp, blockKey, ref[blockStart - refStart]);
  }

  private void emit(Sink sink, Partition p, int start, int end, int minGq, int minDp, int key, byte refBase) {
    sink.block(p, start, end, minGq, minDp, blockPl, key & 0xFF, (key & 1 << 8) != 0, (key & 1 << 9) != 0, refBase);
  }

  /** The block's PL: those of this position (all 0 where the reference base is not A, C, G or T). */
  private void likelihoods(ReferenceConfidence rc, boolean callable, int refReads, int depth) {
    if (callable) rc.pl(refReads, depth, blockPl);
    else ReferenceConfidence.uncallable(blockPl);
  }
}
