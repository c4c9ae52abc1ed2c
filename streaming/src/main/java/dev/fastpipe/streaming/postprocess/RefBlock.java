package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.example.ExampleRecord;

/**
 * A gVCF reference block: positions [start, end) of one contig that share one GQ bin and one
 * genotype, 0/0 ({@code called}) or ./. ; in a haploid region ({@code haploid}) 0 or . .
 *
 * @param contigIndex index in the reference dictionary
 * @param start 0-based, inclusive
 * @param end 0-based, exclusive
 * @param refBase the reference base at {@code start} (ASCII)
 * @param minGq the lowest hom-ref GQ of the block's positions (the record's GQ)
 * @param minDp the lowest depth of the block's positions (MIN_DP)
 * @param pl PL of 0/0, 0/<*>, <*>/<*> at the first position with GQ {@code minGq}; haploid: of 0
 *     and <*>, then an unused 0
 * @param gqBin the GQ bin all positions fall in: blocks merge only within one bin
 * @param called GT 0/0 (true) or ./. (false)
 * @param haploid the positions have one copy (make_examples' haploid reference confidence)
 */
public record RefBlock(int contigIndex, int start, int end, byte refBase, int minGq, int minDp, int[] pl, int gqBin,
    boolean called, boolean haploid) {

  public RefBlock {
    if (end <= start) throw new IllegalArgumentException("empty block [" + start + ", " + end + ")");
    if (pl.length != 3) throw new IllegalArgumentException("a block needs 3 PLs");
  }

  /** A block of two copies. */
  public RefBlock(int contigIndex, int start, int end, byte refBase, int minGq, int minDp, int[] pl, int gqBin,
      boolean called) {
    this(contigIndex, start, end, refBase, minGq, minDp, pl, gqBin, called, false);
  }

  /** The block held in a REF_BLOCK record. */
  public static RefBlock of(ExampleRecord r) {
    if (!r.isRefBlock()) throw new IllegalArgumentException("not a REF_BLOCK record: " + r);
    return new RefBlock(r.contigIndex(), r.position(), r.blockEnd(), r.blockRefBase(), r.blockMinGq(), r.blockMinDp(),
        new int[] {r.blockPl(0), r.blockPl(1), r.blockPl(2)}, r.blockGqBin(), r.blockCalled(), r.blockHaploid());
  }

  /** Whether {@code next} continues this block: same contig, adjacent, same bin, genotype and ploidy. */
  public boolean merges(RefBlock next) {
    return next.contigIndex == contigIndex && next.start == end && next.gqBin == gqBin && next.called == called
        && next.haploid == haploid;
  }

  /** This block extended by {@code next} ({@link #merges} must hold): min GQ and its PL, min DP. */
  public RefBlock extendedBy(RefBlock next) {
    boolean lower = next.minGq < minGq; // ties keep the first position's PL
    return new RefBlock(contigIndex, start, next.end, refBase, lower ? next.minGq : minGq, Math.min(minDp, next.minDp),
        lower ? next.pl : pl, gqBin, called, haploid);
  }
}
