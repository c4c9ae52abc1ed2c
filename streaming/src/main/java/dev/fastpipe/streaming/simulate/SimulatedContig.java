package dev.fastpipe.streaming.simulate;

import dev.fastpipe.streaming.genome.HaploidRegions;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One contig of a simulated sample with reads on it: its bases (upper case), the spans reads are
 * drawn from, the confident intervals (the spans less a margin at each end and less 1 kb around
 * any base that is not A, C, G or T) and the truth variants, which all lie in the confident
 * intervals. Held while that contig's reads are written, then dropped: the memory of a simulation
 * is one contig's bases (a byte a base) and its truth, whatever the genome's size.
 */
final class SimulatedContig {
  /** [start, end) 0-based on the contig; a {@code haploid} span has one copy (a male's X outside the PARs). */
  record Span(int start, int end, boolean haploid) {
    Span(int start, int end) {
      this(start, end, false);
    }

    int length() {
      return end - start;
    }
  }

  /** Bases kept out of the confident intervals on each side of an N (or other non-ACGT) base. */
  static final int N_PAD = 1000;
  /** Variants keep this far inside the confident intervals' ends. */
  static final int EDGE = 50;

  final int index;
  final String name;
  final byte[] bases;
  final List<Span> spans;
  final List<Span> confident;
  final List<TruthVariant> variants;

  private SimulatedContig(int index, String name, byte[] bases, List<Span> spans, List<Span> confident,
      List<TruthVariant> variants) {
    this.index = index;
    this.name = name;
    this.bases = bases;
    this.spans = spans;
    this.confident = confident;
    this.variants = variants;
  }

  /**
   * The synthetic contig {@code index} of a sample made from {@code seed}: the same seed, index
   * and length always give the same bases and variants; reads come from the whole contig.
   */
  static SimulatedContig synthetic(long seed, int index, String name, int length) {
    return synthetic(seed, index, name, length, HaploidRegions.none());
  }

  /** As above, with one copy where {@code haploid} says so ({@link #byPloidy}). */
  static SimulatedContig synthetic(long seed, int index, String name, int length, HaploidRegions haploid) {
    SplittableRandom root = new SplittableRandom(contigSeed(seed, index));
    SplittableRandom refRnd = root.split();
    SplittableRandom varRnd = root.split();
    SyntheticReference ref = SyntheticReference.generate(refRnd, length);
    return withVariants(index, name, ref.bases, ref.tandemRepeats, byPloidy(index, List.of(new Span(0, length)), haploid),
        varRnd);
  }

  /**
   * {@code spans} cut where the ploidy changes (a PAR's edges), each piece flagged haploid or not.
   * Each piece is then a span of its own: its reads are drawn at its depth (half the coverage where
   * haploid, as a male's X has), and it keeps a margin at each end out of the confident intervals.
   */
  static List<Span> byPloidy(int index, List<Span> spans, HaploidRegions haploid) {
    if (!haploid.haploidContig(index)) return spans;
    List<Span> out = new ArrayList<>();
    for (Span s : spans) {
      for (int pos = s.start(); pos < s.end(); ) {
        int next = (int) Math.min(s.end(), haploid.nextBoundary(index, pos));
        out.add(new Span(pos, next, haploid.isHaploid(index, pos)));
        pos = next;
      }
    }
    return out;
  }

  /** Whether 0-based {@code position} lies in a haploid span. */
  boolean haploidAt(int position) {
    for (Span s : spans) if (position >= s.start() && position < s.end()) return s.haploid();
    return false;
  }

  /** The bases of synthetic contig {@code index} alone (for the FASTA, without placing variants). */
  static byte[] syntheticBases(long seed, int index, int length) {
    SplittableRandom root = new SplittableRandom(contigSeed(seed, index));
    return SyntheticReference.generate(root.split(), length).bases;
  }

  /**
   * Contig {@code index} of a real reference ({@code bases}, upper case), with variants from
   * {@code seed} placed in the confident parts of {@code spans} (sorted, disjoint).
   */
  static SimulatedContig onReference(long seed, int index, String name, byte[] bases, List<Span> spans,
      HaploidRegions haploid) {
    SplittableRandom root = new SplittableRandom(contigSeed(seed, index));
    root.split(); // the reference stream a synthetic contig would use: variants draw from the same one
    return withVariants(index, name, bases, List.of(), byPloidy(index, spans, haploid), root.split());
  }

  /** Contig 0 uses the seed as it is (the single-contig sample of earlier versions); others a mix of it. */
  private static long contigSeed(long seed, int index) {
    return index == 0 ? seed : mix64(seed + 0x9E3779B97F4A7C15L * index);
  }

  private static SimulatedContig withVariants(int index, String name, byte[] bases,
      List<SyntheticReference.TandemRepeat> repeats, List<Span> spans, SplittableRandom varRnd) {
    List<Span> confident = new ArrayList<>();
    BitSet blocked = new BitSet(bases.length); // not confident, or too near a non-ACGT base
    blocked.set(0, bases.length);
    for (Span s : spans) {
      int m = margin(s.length());
      if (s.length() - 2 * m > 0) blocked.clear(s.start() + m, s.end() - m);
    }
    for (int i = 0; i < bases.length; i++) {
      if (!isAcgt(bases[i])) {
        int runEnd = i;
        while (runEnd < bases.length && !isAcgt(bases[runEnd])) runEnd++;
        blocked.set(Math.max(0, i - N_PAD), Math.min(bases.length, runEnd + N_PAD));
        i = runEnd;
      }
    }
    for (int from = blocked.nextClearBit(0); from < bases.length; ) {
      int to = blocked.nextSetBit(from);
      if (to < 0) to = bases.length;
      confident.add(new Span(from, to));
      from = blocked.nextClearBit(to);
    }
    // variants keep EDGE bases inside the confident intervals
    BitSet taken = new BitSet(bases.length);
    for (Span c : confident) taken.set(Math.max(0, c.start() - EDGE), Math.min(bases.length, c.start() + EDGE));
    for (Span c : confident) taken.set(Math.max(0, c.end() - EDGE), Math.min(bases.length, c.end() + EDGE));
    for (int from = blocked.nextSetBit(0); from >= 0 && from < bases.length; ) {
      int to = blocked.nextClearBit(from);
      taken.set(from, to);
      from = blocked.nextSetBit(to);
    }
    List<TruthVariant> variants = new ArrayList<>();
    for (Span s : spans) {
      int m = margin(s.length());
      long usable = 0;
      for (int i = s.start(); i < s.end(); i++) if (isAcgt(bases[i])) usable++;
      List<TruthVariant> placed = VariantPlacer.place(varRnd, bases, repeats, s.start() + m + EDGE, s.end() - m - EDGE,
          taken, usable);
      variants.addAll(s.haploid() ? oneCopy(placed) : placed);
    }
    variants.sort(Comparator.comparingInt(TruthVariant::start));
    return new SimulatedContig(index, name, bases, List.copyOf(spans), List.copyOf(confident), List.copyOf(variants));
  }

  /**
   * The variants of a haploid span: the one copy carries each variant's alt (both haplotypes the
   * same, so the reads show it at full fraction); a multi-allelic one, which one copy cannot carry,
   * is dropped.
   */
  private static List<TruthVariant> oneCopy(List<TruthVariant> placed) {
    List<TruthVariant> out = new ArrayList<>();
    for (TruthVariant v : placed) {
      if (v.alts().size() != 1) continue;
      out.add(new TruthVariant(v.start(), v.ref(), v.alts(), new int[] {1, 1}));
    }
    return out;
  }

  /** A span keeps 1 kb (a tenth, for short spans) at each end out of its confident interval. */
  static int margin(int length) {
    return Math.min(1000, length / 10);
  }

  static boolean isAcgt(byte b) {
    return b == 'A' || b == 'C' || b == 'G' || b == 'T';
  }

  /** A well-spread 64-bit value from any input (SplittableRandom's first output for that seed: SplitMix64). */
  static long mix64(long z) {
    return new SplittableRandom(z).nextLong();
  }
}
