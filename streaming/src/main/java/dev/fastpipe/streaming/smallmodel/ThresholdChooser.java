package dev.fastpipe.streaming.smallmodel;

/**
 * Chooses a type's GQ threshold on validation examples: the lowest GQ t, not below a floor
 * {@code minGq} (a small validation set can be error-free down to GQ 0), such that, among the
 * examples with GQ >= t, there are at least {@code minTaken} and the genotype error rate (the
 * small model's most likely genotype differs from the label) is at most {@code maxError}.
 * {@link SmallModel#NEVER} when no t qualifies (the type then always goes to the CNN).
 */
public final class ThresholdChooser {
  private ThresholdChooser() {}

  /** What a threshold takes on the validation examples. */
  public record Choice(int threshold, int examples, int taken, int errors) {
    public double errorRate() {
      return taken == 0 ? 0 : errors / (double) taken;
    }

    public double share() {
      return examples == 0 ? 0 : taken / (double) examples;
    }
  }

  /**
   * @param gq the small model's GQ per validation example (0..{@link SmallModel#MAX_GQ}; negative: the
   *     model does not take the example whatever the threshold, e.g. outside its envelope)
   * @param correct whether its most likely genotype equals the example's label
   */
  public static Choice choose(int[] gq, boolean[] correct, double maxError, int minTaken, int minGq) {
    if (gq.length != correct.length) throw new IllegalArgumentException("gq and correct differ in length");
    int top = SmallModel.MAX_GQ;
    int[] at = new int[top + 1];
    int[] wrongAt = new int[top + 1];
    for (int i = 0; i < gq.length; i++) {
      if (gq[i] < 0) continue;
      int g = Math.min(top, gq[i]);
      at[g]++;
      if (!correct[i]) wrongAt[g]++;
    }
    // taken(t), errors(t) over gq >= t, from the top down; keep the lowest t that qualifies.
    int taken = 0;
    int errors = 0;
    Choice best = new Choice(SmallModel.NEVER, gq.length, 0, 0);
    for (int t = top; t >= 0; t--) {
      taken += at[t];
      errors += wrongAt[t];
      if (t >= minGq && taken >= Math.max(1, minTaken) && errors <= maxError * taken) best = new Choice(t, gq.length, taken, errors);
    }
    return best;
  }
}
