package dev.fastpipe.streaming.genome;

/**
 * Tandem repeats of a reference stretch: the one measure the small model's {@code str_length}
 * feature and the pileup's indel likelihood (how far a read must reach past an indel) both read.
 */
public final class TandemRepeat {
  /** Repeat units of 1 (a homopolymer) to this many bases. */
  public static final int MAX_UNIT = 6;

  private TandemRepeat() {}

  /**
   * The longest tandem repeat starting at index {@code from} with a unit of 1..{@value #MAX_UNIT}
   * bases and at least two copies: the length of bases[from, j) where every base equals (case
   * aside) the one a unit before it, at most {@code cap}; 0 when no unit repeats.
   */
  public static int length(byte[] bases, int from, int cap) {
    return longest(bases, from, cap).length();
  }

  /**
   * The longest tandem repeat starting at index {@code from}, as {@link #length} measures it, with
   * its unit: one scan gives both.
   *
   * @param length the repeat's length in bases, 0 when no unit repeats
   * @param unit its unit's length (1 for a homopolymer), the shortest unit where two give the same
   *     length; 0 when no unit repeats
   */
  public record Repeat(int length, int unit) {}

  /** The longest repeat starting at {@code from}, at most {@code cap} bases, and its unit. */
  public static Repeat longest(byte[] bases, int from, int cap) {
    int best = 0;
    int bestUnit = 0;
    for (int unit = 1; unit <= MAX_UNIT; unit++) {
      if (from + unit > bases.length) break;
      int j = from + unit;
      while (j < bases.length && upper(bases[j]) == upper(bases[j - unit]) && j - from < cap) j++;
      int len = j - from;
      if (len >= 2 * unit && len > best) {
        best = len;
        bestUnit = unit;
      }
    }
    return new Repeat(best, bestUnit);
  }

  private static byte upper(byte b) {
    return (byte) (b & 0xDF);
  }
}
