package dev.fastpipe.streaming;

/**
 * The range checks of numeric settings, each failing with one line that names the option and the
 * value ({@link InputException}, exit status 2): NaN, infinities and negative values included.
 * Settings call these where they are checked, once.
 */
public final class OptionRange {
  private OptionRange() {}

  /** {@code value} must be {@code min} or more. */
  public static long atLeast(String option, long value, long min) {
    if (value < min) throw new InputException(option + " " + value + ": must be " + min + " or more");
    return value;
  }

  /** {@code value} must lie in {@code [min, max]}. */
  public static long between(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new InputException(option + " " + value + ": must be between " + min + " and " + max);
    }
    return value;
  }

  /** {@code value} must be a finite number, {@code min} or more. */
  public static double finiteAtLeast(String option, double value, double min) {
    if (!Double.isFinite(value) || value < min) {
      throw new InputException(option + " " + value + ": must be a finite number, " + min + " or more");
    }
    return value;
  }

  /** {@code value} must be a fraction: a finite number in [0, 1]. */
  public static double fraction(String option, double value) {
    if (!Double.isFinite(value) || value < 0 || value > 1) {
      throw new InputException(option + " " + value + ": must be a fraction between 0 and 1");
    }
    return value;
  }
}
