package dev.fastpipe.streaming.smallmodel;

import java.util.List;
import java.util.Random;

/**
 * Trains a {@link SmallModel} in plain Java: inputs standardised by the training set's mean and
 * standard deviation, one tanh hidden layer, softmax cross-entropy with a small L2 penalty,
 * mini-batch Adam. Single-threaded and seeded (weight init and the order of each epoch), so the
 * same table and settings give the same weights, bit for bit.
 *
 * <p>Why a perceptron and not logistic regression: the decisions are not linear in the counts
 * (het is "alt fraction near 0.5", between hom-ref and hom-alt), and a 16-unit layer learns them
 * from raw features for a few hundred multiply-adds per candidate.
 */
public final class SmallModelTrainer {

  /** Training settings; {@link #defaults()} are what {@code fastpipe train} uses. */
  public record Settings(int hiddenUnits, int epochs, int batchSize, double learningRate, double l2, long seed) {
    public Settings {
      if (hiddenUnits < 1) throw new IllegalArgumentException("small model hidden units must be >= 1");
      if (epochs < 1) throw new IllegalArgumentException("small model epochs must be >= 1");
      if (batchSize < 1) throw new IllegalArgumentException("small model batch size must be >= 1");
      if (!(learningRate > 0)) throw new IllegalArgumentException("small model learning rate must be > 0");
    }

    public static Settings defaults(long seed) {
      return new Settings(16, 60, 32, 0.003, 1e-4, seed);
    }
  }

  private final Settings s;

  public SmallModelTrainer(Settings settings) {
    this.s = settings;
  }

  /** Fits a model to {@code table} (thresholds left at {@link SmallModel#NEVER}). */
  public SmallModel train(FeatureTable table, List<String> featureNames) {
    int n = table.size();
    int f = table.width();
    if (featureNames.size() != f) throw new IllegalArgumentException(featureNames.size() + " names for " + f + " features");
    if (n == 0) throw new IllegalArgumentException("no examples to train the small model on");
    double[] mean = new double[f];
    double[] scale = new double[f];
    for (int r = 0; r < n; r++) for (int i = 0; i < f; i++) mean[i] += table.value(r, i);
    for (int i = 0; i < f; i++) mean[i] /= n;
    for (int r = 0; r < n; r++) {
      for (int i = 0; i < f; i++) {
        double d = table.value(r, i) - mean[i];
        scale[i] += d * d;
      }
    }
    for (int i = 0; i < f; i++) {
      double sd = Math.sqrt(scale[i] / n);
      scale[i] = sd > 1e-6 ? sd : 1;
    }
    int h = s.hiddenUnits();
    Random rnd = new Random(s.seed());
    double[][] w1 = new double[h][f];
    double[] b1 = new double[h];
    double[][] w2 = new double[3][h];
    double[] b2 = new double[3];
    for (double[] row : w1) for (int i = 0; i < f; i++) row[i] = rnd.nextGaussian() / StrictMath.sqrt(f);
    for (double[] row : w2) for (int i = 0; i < h; i++) row[i] = rnd.nextGaussian() / StrictMath.sqrt(h);

    // Adam state and gradients, flattened per parameter array.
    Adam a1 = new Adam(h * f), ab1 = new Adam(h), a2 = new Adam(3 * h), ab2 = new Adam(3);
    double[] g1 = new double[h * f], gb1 = new double[h], g2 = new double[3 * h], gb2 = new double[3];
    double[][] xs = new double[n][f];
    for (int r = 0; r < n; r++) for (int i = 0; i < f; i++) xs[r][i] = (table.value(r, i) - mean[i]) / scale[i];
    int[] order = new int[n];
    for (int i = 0; i < n; i++) order[i] = i;
    double[] hid = new double[h];
    double[] p = new double[3];
    double[] dh = new double[h];
    for (int epoch = 0; epoch < s.epochs(); epoch++) {
      Random shuffle = new Random(s.seed() * 1_000_003L + epoch);
      for (int i = n - 1; i > 0; i--) {
        int j = shuffle.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      for (int from = 0; from < n; from += s.batchSize()) {
        int to = Math.min(n, from + s.batchSize());
        java.util.Arrays.fill(g1, 0);
        java.util.Arrays.fill(gb1, 0);
        java.util.Arrays.fill(g2, 0);
        java.util.Arrays.fill(gb2, 0);
        for (int b = from; b < to; b++) {
          int r = order[b];
          double[] x = xs[r];
          forward(x, w1, b1, w2, b2, hid, p);
          int y = table.label(r);
          for (int k = 0; k < 3; k++) {
            double d = p[k] - (k == y ? 1 : 0);
            gb2[k] += d;
            for (int j = 0; j < h; j++) g2[k * h + j] += d * hid[j];
          }
          for (int j = 0; j < h; j++) {
            double s2 = 0;
            for (int k = 0; k < 3; k++) s2 += (p[k] - (k == y ? 1 : 0)) * w2[k][j];
            dh[j] = s2 * (1 - hid[j] * hid[j]);
            gb1[j] += dh[j];
            for (int i = 0; i < f; i++) g1[j * f + i] += dh[j] * x[i];
          }
        }
        double m = to - from;
        for (int j = 0; j < h; j++) for (int i = 0; i < f; i++) g1[j * f + i] = g1[j * f + i] / m + s.l2() * w1[j][i];
        for (int k = 0; k < 3; k++) for (int j = 0; j < h; j++) g2[k * h + j] = g2[k * h + j] / m + s.l2() * w2[k][j];
        for (int j = 0; j < h; j++) gb1[j] /= m;
        for (int k = 0; k < 3; k++) gb2[k] /= m;
        a1.step(g1, w1, s.learningRate());
        ab1.step(gb1, b1, s.learningRate());
        a2.step(g2, w2, s.learningRate());
        ab2.step(gb2, b2, s.learningRate());
      }
    }
    SmallModel model = new SmallModel(featureNames, mean, scale, w1, b1, w2, b2);
    java.util.Map<String, Object> info = new java.util.LinkedHashMap<>();
    info.put("examples", n);
    info.put("labels", List.of(classCount(table, 0), classCount(table, 1), classCount(table, 2)));
    info.put("hidden_units", h);
    info.put("epochs", s.epochs());
    info.put("batch_size", s.batchSize());
    info.put("learning_rate", s.learningRate());
    info.put("l2", s.l2());
    info.put("seed", s.seed());
    model.info().put("training", info);
    for (int g = 0; g < 3; g++) envelope(model, table, g);
    return model;
  }

  /** Training examples of genotype {@code g} a genotype needs before the small model may call it. */
  public static final int MIN_CLASS_EXAMPLES = 50;
  /** The envelope keeps each feature between these quantiles of the genotype's training examples. */
  static final double ENVELOPE_TAIL = 0.001;

  private static int classCount(FeatureTable t, int g) {
    int c = 0;
    for (int r = 0; r < t.size(); r++) if (t.label(r) == g) c++;
    return c;
  }

  /** Sets genotype {@code g}'s envelope: each feature's {@link #ENVELOPE_TAIL} quantiles over its training examples. */
  private static void envelope(SmallModel model, FeatureTable t, int g) {
    int n = classCount(t, g);
    if (n < MIN_CLASS_EXAMPLES) return;
    int f = t.width();
    double[] lo = new double[f];
    double[] hi = new double[f];
    float[] v = new float[n];
    for (int i = 0; i < f; i++) {
      int k = 0;
      for (int r = 0; r < t.size(); r++) if (t.label(r) == g) v[k++] = t.value(r, i);
      java.util.Arrays.sort(v);
      lo[i] = v[(int) Math.floor(ENVELOPE_TAIL * (n - 1))];
      hi[i] = v[(int) Math.ceil((1 - ENVELOPE_TAIL) * (n - 1))];
    }
    model.envelope(g, lo, hi);
  }

  /**
   * Trains on {@code train}, then chooses each type's threshold on {@code validation}
   * ({@link ThresholdChooser}) with the model as it will be read back from its JSON, and stores
   * the validation figures in the model.
   */
  public SmallModel trainAndChoose(FeatureTable train, FeatureTable validation, List<String> featureNames,
      double maxError, int minTaken, int minGq) {
    SmallModel fitted = train(train, featureNames);
    SmallModel model = SmallModel.parse(fitted.toJson(), featureNames); // the weights as stored
    model.info().put("training", fitted.info().get("training"));
    float[] x = new float[validation.width()];
    float[] p = new float[3];
    java.util.Map<String, Object> figures = new java.util.LinkedHashMap<>();
    int[] thresholds = new int[2];
    for (int type = 0; type < 2; type++) {
      boolean snp = type == 0;
      int count = 0;
      for (int r = 0; r < validation.size(); r++) if (validation.isSnp(r) == snp) count++;
      int[] gq = new int[count];
      boolean[] correct = new boolean[count];
      int k = 0;
      int right = 0;
      for (int r = 0; r < validation.size(); r++) {
        if (validation.isSnp(r) != snp) continue;
        model.predict(validation.row(r, x), p);
        gq[k] = model.inside(x, SmallModel.best(p)) ? SmallModel.gq(p) : -1; // outside the envelope: never taken
        correct[k] = SmallModel.best(p) == validation.label(r);
        if (correct[k]) right++;
        k++;
      }
      ThresholdChooser.Choice c = ThresholdChooser.choose(gq, correct, maxError, minTaken, minGq);
      thresholds[type] = c.threshold();
      java.util.Map<String, Object> fig = new java.util.LinkedHashMap<>();
      fig.put("examples", count);
      fig.put("accuracy_all", count == 0 ? 0.0 : right / (double) count);
      fig.put("threshold", c.threshold());
      fig.put("taken", c.taken());
      fig.put("taken_share", c.share());
      fig.put("errors_taken", c.errors());
      figures.put(snp ? "snp" : "indel", fig);
    }
    figures.put("max_error", maxError);
    figures.put("min_taken", minTaken);
    figures.put("min_gq", minGq);
    model.thresholds(thresholds[0], thresholds[1]);
    model.info().put("validation", figures);
    return model;
  }

  /**
   * The perceptron's forward pass on a standardised feature vector: tanh hidden layer, softmax
   * output into {@code p}. The one implementation, for training and for calling; StrictMath, so
   * the probabilities are the same bits on every machine.
   */
  static void forward(double[] x, double[][] w1, double[] b1, double[][] w2, double[] b2, double[] hid, double[] p) {
    for (int j = 0; j < hid.length; j++) {
      double s = b1[j];
      for (int i = 0; i < x.length; i++) s += w1[j][i] * x[i];
      hid[j] = StrictMath.tanh(s);
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < 3; k++) {
      double s = b2[k];
      for (int j = 0; j < hid.length; j++) s += w2[k][j] * hid[j];
      p[k] = s;
      max = Math.max(max, s);
    }
    double sum = 0;
    for (int k = 0; k < 3; k++) sum += p[k] = StrictMath.exp(p[k] - max);
    for (int k = 0; k < 3; k++) p[k] /= sum;
  }

  /** Adam (beta1 0.9, beta2 0.999, eps 1e-8) over one flattened parameter array. */
  private static final class Adam {
    private final double[] m;
    private final double[] v;
    private int t;

    Adam(int n) {
      m = new double[n];
      v = new double[n];
    }

    void step(double[] g, double[][] w, double lr) {
      advance();
      int cols = w[0].length;
      for (int i = 0; i < g.length; i++) w[i / cols][i % cols] -= delta(i, g[i], lr);
    }

    void step(double[] g, double[] w, double lr) {
      advance();
      for (int i = 0; i < g.length; i++) w[i] -= delta(i, g[i], lr);
    }

    private double c1;
    private double c2;

    private void advance() {
      t++;
      c1 = 1 - StrictMath.pow(0.9, t);
      c2 = 1 - StrictMath.pow(0.999, t);
    }

    private double delta(int i, double g, double lr) {
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      return lr * (m[i] / c1) / (Math.sqrt(v[i] / c2) + 1e-8);
    }
  }
}
