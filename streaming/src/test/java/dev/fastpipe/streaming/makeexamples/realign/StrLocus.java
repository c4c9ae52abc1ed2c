package dev.fastpipe.streaming.makeexamples.realign;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A short tandem repeat in a random reference, a diploid truth at it (each haplotype a list of
 * left-aligned VCF-style variants) and simulated reads from both haplotypes, each aligned to the
 * reference the way a read mapper would (local alignment with a clipping penalty, {@link
 * MapperLikeAligner}): an indel near a read's end comes out soft clipped or as mismatches, a read
 * that ends inside the repeat without a gap.
 */
final class StrLocus {
  /** A variant: 0-based position of the first ref base, ref and alt alleles (indels with their anchor). */
  record Variant(int pos, String ref, String alt) {
    int end() {
      return pos + ref.length();
    }

    @Override
    public String toString() {
      return (pos + 1) + ":" + ref + ">" + alt;
    }
  }

  /** Read simulation settings. */
  record Reads(double coverage, int length, double errorRate, long seed) {
    @Override
    public String toString() {
      return (int) coverage + "x " + length + "bp" + (errorRate > 0 ? " err " + errorRate : " error-free");
    }
  }

  static final int LENGTH = 4000;
  /** The repeat's first base. */
  static final int REPEAT = 2000;

  final String name;
  final TestGenome g;
  final String unit;
  final int units;
  final List<List<Variant>> truth = new ArrayList<>();

  /** {@code units} copies of {@code unit} at {@link #REPEAT} in a random reference from {@code seed}. */
  StrLocus(String name, String unit, int units, long seed) {
    this.name = name;
    this.unit = unit;
    this.units = units;
    g = new TestGenome("chrS", LENGTH, seed);
    for (int i = 0; i < unit.length() * units; i++) g.ref[REPEAT + i] = (byte) unit.charAt(i % unit.length());
    // The flanks do not continue the repeat: its ends are where the units stop.
    g.ref[REPEAT - 1] = (byte) other(unit.charAt(unit.length() - 1), g.ref[REPEAT - 2]);
    g.ref[repeatEnd()] = (byte) other(unit.charAt(0), g.ref[repeatEnd() + 1]);
    truth.add(new ArrayList<>());
    truth.add(new ArrayList<>());
  }

  private static char other(char a, byte b) {
    for (char c : "ACGT".toCharArray()) if (c != a && c != b) return c;
    throw new AssertionError();
  }

  /** The first reference base after the repeat. */
  int repeatEnd() {
    return REPEAT + unit.length() * units;
  }

  /** The repeat's anchor: the base before it, where its indels left-align. */
  int anchor() {
    return REPEAT - 1;
  }

  char refAt(int pos) {
    return (char) g.ref[pos];
  }

  /** Haplotype {@code hap} (0 or 1) gains {@code delta} units (loses them when negative). */
  StrLocus repeatChange(int hap, int delta) {
    String a = String.valueOf(refAt(anchor()));
    String units = unit.repeat(Math.abs(delta));
    truth.get(hap).add(delta > 0 ? new Variant(anchor(), a, a + units) : new Variant(anchor(), a + units, a));
    return this;
  }

  /** Haplotype {@code hap} carries a SNP at {@code pos}. */
  StrLocus snp(int hap, int pos) {
    char r = refAt(pos);
    char alt = other(r, g.ref[pos + 1]);
    if (alt == refAt(pos - 1)) alt = other(r, (byte) alt);
    truth.get(hap).add(new Variant(pos, String.valueOf(r), String.valueOf(alt)));
    truth.get(hap).sort((x, y) -> Integer.compare(x.pos, y.pos));
    return this;
  }

  /** Both haplotypes' variants (each once), by position. */
  List<Variant> truthAlleles() {
    List<Variant> out = new ArrayList<>();
    for (List<Variant> h : truth) for (Variant v : h) if (!out.contains(v)) out.add(v);
    out.sort((x, y) -> x.pos != y.pos ? Integer.compare(x.pos, y.pos) : x.alt.compareTo(y.alt));
    return out;
  }

  /** Haplotype {@code hap}'s bases over reference {@code [from, to)} (variants inside it only). */
  String haplotype(int hap, int from, int to) {
    StringBuilder sb = new StringBuilder();
    int pos = from;
    for (Variant v : truth.get(hap)) {
      if (v.pos < from || v.end() > to) continue;
      sb.append(g.refString(pos, v.pos)).append(v.alt);
      pos = v.end();
    }
    return sb.append(g.refString(pos, to)).toString();
  }

  /** True when the haplotype {@code hap} carries a variant inside {@code [from, to)}. */
  boolean varies(int hap, int from, int to) {
    for (Variant v : truth.get(hap)) if (v.pos >= from && v.end() <= to) return true;
    return false;
  }

  /** One simulated read: its mapper-like alignment and the haplotype span it was drawn from. */
  record SimRead(SAMRecord record, int hap, int hapStart, int hapEnd) {}

  private final String[] hapCache = new String[2];
  /** Per haplotype base, its reference position (-1: inserted). */
  private final int[][] hapRef = new int[2][];

  /** The whole-contig sequence of haplotype {@code hap}. */
  String wholeHaplotype(int hap) {
    if (hapCache[hap] == null) {
      StringBuilder sb = new StringBuilder();
      List<Integer> refOf = new ArrayList<>();
      int pos = 0;
      for (Variant v : truth.get(hap)) {
        for (int p = pos; p < v.pos; p++) { sb.append(refAt(p)); refOf.add(p); }
        // The anchor (shared first base) keeps its position; the rest of the alt is inserted.
        for (int i = 0; i < v.alt.length(); i++) {
          sb.append(v.alt.charAt(i));
          refOf.add(i < v.ref.length() && (i == 0 || v.ref.length() == v.alt.length()) ? v.pos + i : -1);
        }
        pos = v.end();
      }
      for (int p = pos; p < LENGTH; p++) { sb.append(refAt(p)); refOf.add(p); }
      hapCache[hap] = sb.toString();
      hapRef[hap] = refOf.stream().mapToInt(Integer::intValue).toArray();
    }
    return hapCache[hap];
  }

  /**
   * Reads of both haplotypes over {@code [REPEAT - 350, repeatEnd() + 350)} at the given coverage
   * (half from each), sorted by alignment start. An erroneous base gets quality 30 or, one time in
   * three, 8; other bases 30 (one in 50 at 8 as well).
   */
  List<SimRead> reads(Reads s) {
    Random rnd = new Random(s.seed());
    List<SimRead> out = new ArrayList<>();
    MapperLikeAligner mapper = new MapperLikeAligner();
    int from = REPEAT - 350;
    int to = repeatEnd() + 350;
    for (int hap = 0; hap < 2; hap++) {
      String h = wholeHaplotype(hap);
      int[] refOf = hapRef[hap];
      int hFrom = indexAtOrAfter(refOf, from);
      int hTo = indexAtOrAfter(refOf, to);
      int n = (int) Math.round(s.coverage() / 2 * (hTo - hFrom) / s.length());
      for (int k = 0; k < n; k++) {
        int start = hFrom + rnd.nextInt(hTo - hFrom - s.length());
        byte[] bases = h.substring(start, start + s.length()).getBytes(StandardCharsets.US_ASCII);
        byte[] quals = new byte[bases.length];
        for (int i = 0; i < bases.length; i++) {
          quals[i] = (byte) (rnd.nextInt(50) == 0 ? 8 : 30);
          if (rnd.nextDouble() < s.errorRate()) {
            bases[i] = (byte) other((char) bases[i], (byte) "ACGT".charAt(rnd.nextInt(4)));
            quals[i] = (byte) (rnd.nextInt(3) == 0 ? 8 : 30);
          }
        }
        int refGuess = firstRef(refOf, start);
        // A read inside one stretch of reference aligns there without gaps; others by the mapper.
        MapperLikeAligner.Hit hit = refOf[start] >= 0 && refOf[start + s.length() - 1] == refOf[start] + s.length() - 1
            && !snpInside(hap, refOf[start], refOf[start] + s.length())
            ? new MapperLikeAligner.Hit(refOf[start], s.length() + "M")
            : mapper.align(bases, g.ref, refGuess - 30, refGuess + s.length() + 30);
        SAMRecord r = g.read(hit.start(), hit.cigar(), new String(bases, StandardCharsets.US_ASCII));
        r.setBaseQualities(quals);
        r.setReadNegativeStrandFlag(rnd.nextBoolean());
        out.add(new SimRead(r, hap, start, start + s.length()));
      }
    }
    out.sort((a, b) -> Integer.compare(a.record().getAlignmentStart(), b.record().getAlignmentStart()));
    return out;
  }

  private boolean snpInside(int hap, int from, int to) {
    for (Variant v : truth.get(hap)) if (v.pos >= from && v.pos < to) return true;
    return false;
  }

  /**
   * Reads of haplotype {@code hap} that cover its repeat with {@code margin} bases on each side, and
   * whose bases over the repeat and its anchor all have quality >= {@code minQuality} (the allele
   * counter does not count an indel with a low-quality base).
   */
  static int spanning(List<SimRead> reads, StrLocus l, int hap, int margin, int minQuality) {
    int[] refOf = l.hapRef[hap];
    int anchor = indexAtOrAfter(refOf, l.anchor());
    int end = indexAtOrAfter(refOf, l.repeatEnd());
    int n = 0;
    for (SimRead r : reads) {
      if (r.hap() != hap || r.hapStart() > anchor - margin + 1 || r.hapEnd() <= end + margin - 1) continue;
      boolean good = true;
      byte[] q = r.record().getBaseQualities();
      for (int i = anchor; i < end; i++) good &= q[i - r.hapStart()] >= minQuality;
      if (good) n++;
    }
    return n;
  }

  private static int indexAtOrAfter(int[] refOf, int pos) {
    for (int i = 0; i < refOf.length; i++) if (refOf[i] >= pos) return i;
    return refOf.length;
  }

  private static int firstRef(int[] refOf, int from) {
    for (int i = from; i < refOf.length; i++) if (refOf[i] >= 0) return refOf[i] - (i - from);
    throw new AssertionError();
  }

  @Override
  public String toString() {
    return name + " " + truth;
  }
}
