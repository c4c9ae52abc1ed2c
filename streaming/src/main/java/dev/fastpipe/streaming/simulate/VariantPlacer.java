package dev.fastpipe.streaming.simulate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Lays the truth variants of one stretch of a contig: SNPs ~1 per kb (transitions:transversions
 * ~2:1, ~2 % multi-allelic 1|2) and indels ~1 per 8 kb of 1-10 bp, half insertions, a third of
 * them (where the reference has microsatellites) gains or losses of whole repeat units, all
 * left-normalised; one third hom-alt, two thirds het, phased. Variants keep 6 bp (SNPs) or 12 bp
 * (indels) apart from each other and from any base marked in {@code taken}.
 */
final class VariantPlacer {
  private VariantPlacer() {}

  /**
   * Variants with every base in [lo, hi), none touching a base already set in {@code taken}
   * (which this sets where it places one), for a stretch of {@code usableBases} callable bases;
   * unsorted. {@code repeats} may be empty (a real reference: no unit-aware indels).
   */
  static List<TruthVariant> place(SplittableRandom rnd, byte[] seq, List<SyntheticReference.TandemRepeat> repeats,
      int lo, int hi, BitSet taken, long usableBases) {
    List<TruthVariant> out = new ArrayList<>();
    if (hi - lo < 100) return out;
    int indels = (int) Math.max(1, Math.round(usableBases / 8000.0));
    int snps = (int) Math.max(1, Math.round(usableBases / 1000.0));
    int attempts = 0;
    // indels first: they need room to shift left across repeats
    for (int placed = 0; placed < indels && attempts < indels * 50; attempts++) {
      TruthVariant v = randomIndel(rnd, seq, repeats, lo, hi);
      if (v == null) continue;
      int from = v.start() - 12;
      int to = v.end() + 12 + v.alts().get(0).length();
      if (from < lo || to > hi || !taken.get(from, to).isEmpty()) continue;
      taken.set(from, to);
      out.add(v);
      placed++;
    }
    attempts = 0;
    for (int placed = 0; placed < snps && attempts < snps * 50; attempts++) {
      int p = lo + rnd.nextInt(hi - lo);
      if (!taken.get(p - 6, p + 7).isEmpty()) continue;
      taken.set(p - 6, p + 7);
      byte r = seq[p];
      int ri = SyntheticReference.indexOf(r);
      byte alt1 = mutate(rnd, ri);
      int[] gt = genotype(rnd);
      List<String> alts = new ArrayList<>();
      alts.add(String.valueOf((char) alt1));
      if (rnd.nextDouble() < 0.02) { // multi-allelic: a different ALT on each haplotype
        byte alt2;
        do alt2 = SyntheticReference.base(rnd.nextInt(4)); while (alt2 == r || alt2 == alt1);
        alts.add(String.valueOf((char) alt2));
        gt = new int[] {1, 2};
      }
      out.add(new TruthVariant(p, String.valueOf((char) r), List.copyOf(alts), gt));
      placed++;
    }
    return out;
  }

  private static byte mutate(SplittableRandom rnd, int refIndex) {
    // A<->G, C<->T transitions twice as often as the two transversions together
    if (rnd.nextDouble() < 2.0 / 3) return SyntheticReference.base(refIndex ^ 2);
    int[] tv = (refIndex == 0 || refIndex == 2) ? new int[] {1, 3} : new int[] {0, 2};
    return SyntheticReference.base(tv[rnd.nextInt(2)]);
  }

  private static int[] genotype(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    if (u < 1.0 / 3) return new int[] {1, 1};
    return u < 2.0 / 3 ? new int[] {0, 1} : new int[] {1, 0};
  }

  private static TruthVariant randomIndel(SplittableRandom rnd, byte[] seq, List<SyntheticReference.TandemRepeat> repeats,
      int lo, int hi) {
    boolean insertion = rnd.nextBoolean();
    int anchor;
    byte[] change; // inserted bases, or the deleted reference bases
    if (!repeats.isEmpty() && rnd.nextDouble() < 1.0 / 3) {
      // gain or loss of whole units at the end of a microsatellite
      SyntheticReference.TandemRepeat str = repeats.get(rnd.nextInt(repeats.size()));
      int unit = str.unit().length;
      int maxUnits = Math.min(10 / unit, (str.end() - str.start()) / unit - 1);
      if (maxUnits < 1) return null;
      int units = 1 + rnd.nextInt(Math.min(maxUnits, 3));
      anchor = str.end() - 1;
      if (insertion) {
        change = new byte[units * unit];
        // the copy that follows the repeat's last base keeps the phase of the unit
        int phase = (str.end() - str.start()) % unit;
        for (int i = 0; i < change.length; i++) change[i] = str.unit()[(phase + i) % unit];
      } else {
        anchor = str.end() - 1 - units * unit;
        if (anchor < lo) return null;
        change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + units * unit);
      }
    } else {
      int length = indelLength(rnd);
      anchor = lo + rnd.nextInt(hi - lo);
      if (insertion) {
        change = new byte[length];
        for (int i = 0; i < length; i++) change[i] = SyntheticReference.base(rnd.nextInt(4));
      } else {
        if (anchor + 1 + length > hi) return null;
        change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + length);
      }
    }
    if (anchor < lo || anchor + change.length + 1 > hi) return null;
    // left-normalise: shift while the last changed base equals the anchor base
    if (insertion) {
      while (anchor > lo && change[change.length - 1] == seq[anchor]) {
        System.arraycopy(change, 0, change, 1, change.length - 1);
        change[0] = seq[anchor];
        anchor--;
      }
    } else {
      while (anchor > lo && seq[anchor] == seq[anchor + change.length]) anchor--;
      change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + change.length);
    }
    String anchorBase = String.valueOf((char) seq[anchor]);
    String changed = new String(change, StandardCharsets.US_ASCII);
    String r = insertion ? anchorBase : anchorBase + changed;
    String a = insertion ? anchorBase + changed : anchorBase;
    TruthVariant v = new TruthVariant(anchor, r, List.of(a), genotype(rnd));
    return v.isLeftNormalised(seq) ? v : null; // stopped at lo: not normalised, skip it
  }

  private static int indelLength(SplittableRandom rnd) {
    // roughly the human spectrum: half are single bases, a long tail to 10
    double u = rnd.nextDouble();
    if (u < 0.45) return 1;
    if (u < 0.65) return 2;
    if (u < 0.75) return 3;
    if (u < 0.83) return 4;
    return 5 + rnd.nextInt(6);
  }
}
