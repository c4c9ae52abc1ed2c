package dev.fastpipe.streaming.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A reference sequence with a human-like texture, made from a seed: an order-1 Markov background
 * (GC about 41 %, CpG depleted about five-fold), homopolymer runs, short tandem repeats
 * (microsatellites, unit 1-6 bp) and copies of a few interspersed repeat families (an Alu-like
 * 300 bp element and a fragment of an L1-like 1 kb element) with 2-15 % divergence, in both
 * orientations. Upper case, ACGT only.
 */
final class SyntheticReference {

  /** A microsatellite laid down in the reference: [start, end) 0-based, its repeat unit. */
  record TandemRepeat(int start, int end, byte[] unit) {}

  private static final byte[] BASES = {'A', 'C', 'G', 'T'};

  // Order-1 Markov transition probabilities, rows = previous base (A, C, G, T).
  // C->G is depleted; the other rows are near the human background.
  private static final double[][] TRANSITIONS = {
    {0.33, 0.18, 0.23, 0.26}, // after A
    {0.34, 0.27, 0.05, 0.34}, // after C  (CpG depletion)
    {0.30, 0.22, 0.24, 0.24}, // after G
    {0.22, 0.21, 0.25, 0.32}, // after T
  };

  final byte[] bases;
  final List<TandemRepeat> tandemRepeats;

  private SyntheticReference(byte[] bases, List<TandemRepeat> tandemRepeats) {
    this.bases = bases;
    this.tandemRepeats = tandemRepeats;
  }

  static SyntheticReference generate(SplittableRandom rnd, int length) {
    byte[] seq = new byte[length];
    List<TandemRepeat> strs = new ArrayList<>();
    byte[][] families = {markovRun(rnd, 300, 1), markovRun(rnd, 1000, 3)};
    int n = 0;
    int prev = 0;
    while (n < length) {
      double u = rnd.nextDouble();
      if (u < 1.0 / 400) { // homopolymer run, mostly A/T
        byte b = rnd.nextDouble() < 0.8 ? (rnd.nextBoolean() ? (byte) 'A' : (byte) 'T')
            : (rnd.nextBoolean() ? (byte) 'C' : (byte) 'G');
        int len = 6 + rnd.nextInt(5) + rnd.nextInt(6);
        for (int i = 0; i < len && n < length; i++) seq[n++] = b;
      } else if (u < 1.0 / 400 + 1.0 / 900) { // microsatellite
        int unitLen = 1 + rnd.nextInt(6);
        byte[] unit = markovRun(rnd, unitLen, prev);
        if (isSelfRepeating(unit)) continue;
        int total = 12 + rnd.nextInt(30);
        int start = n;
        for (int i = 0; i < total && n < length; i++) seq[n++] = unit[i % unitLen];
        if (n - start >= 2 * unitLen) strs.add(new TandemRepeat(start, n, unit));
      } else if (u < 1.0 / 400 + 1.0 / 900 + 1.0 / 7000) { // interspersed repeat copy
        byte[] family = families[rnd.nextInt(families.length)];
        int from = family.length > 300 ? rnd.nextInt(family.length - 200) : 0;
        int to = family.length;
        double divergence = 0.02 + 0.13 * rnd.nextDouble();
        boolean reverse = rnd.nextBoolean();
        for (int i = from; i < to && n < length; i++) {
          byte b = reverse ? complement(family[family.length - 1 - (i - from)]) : family[i];
          if (rnd.nextDouble() < divergence) b = BASES[(indexOf(b) + 1 + rnd.nextInt(3)) & 3];
          seq[n++] = b;
        }
        for (int i = 0; i < 8 + rnd.nextInt(12) && n < length; i++) seq[n++] = 'A'; // poly-A tail
      } else {
        prev = nextMarkov(rnd, prev);
        seq[n++] = BASES[prev];
        continue;
      }
      prev = indexOf(seq[n - 1]);
    }
    return new SyntheticReference(seq, List.copyOf(strs));
  }

  private static byte[] markovRun(SplittableRandom rnd, int len, int prev) {
    byte[] out = new byte[len];
    for (int i = 0; i < len; i++) {
      prev = nextMarkov(rnd, prev);
      out[i] = BASES[prev];
    }
    return out;
  }

  private static int nextMarkov(SplittableRandom rnd, int prev) {
    double u = rnd.nextDouble();
    double[] row = TRANSITIONS[prev];
    for (int b = 0; b < 3; b++) {
      u -= row[b];
      if (u < 0) return b;
    }
    return 3;
  }

  /** A unit like "ATAT" or "AA" is a shorter unit repeated: such STRs are laid down by the shorter one. */
  private static boolean isSelfRepeating(byte[] unit) {
    outer:
    for (int p = 1; p < unit.length; p++) {
      if (unit.length % p != 0) continue;
      for (int i = p; i < unit.length; i++) if (unit[i] != unit[i - p]) continue outer;
      return true;
    }
    return false;
  }

  static int indexOf(byte b) {
    return switch (b) {
      case 'A' -> 0;
      case 'C' -> 1;
      case 'G' -> 2;
      case 'T' -> 3;
      default -> throw new IllegalArgumentException("not a base: " + (char) b);
    };
  }

  static byte complement(byte b) {
    return switch (b) {
      case 'A' -> 'T';
      case 'C' -> 'G';
      case 'G' -> 'C';
      case 'T' -> 'A';
      default -> 'N';
    };
  }

  static byte base(int index) {
    return BASES[index];
  }
}
