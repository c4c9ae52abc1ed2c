package dev.fastpipe.streaming.smallmodel;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.OutputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small model: a one-hidden-layer perceptron over a candidate's summary features
 * ({@code makeexamples.CandidateFeatures}) giving {p(hom-ref), p(het), p(hom-alt)}, and per
 * variant type (SNP, indel) the lowest GQ at which its calls are trusted. Inputs are standardised
 * ({@code (x - mean) / scale}), the hidden layer is tanh, the output softmax. One prediction is
 * F x H + H x 3 multiply-adds (22 x 16 + 48 with the defaults), no allocation.
 *
 * <p>It answers only inside what it was trained on: per genotype, an envelope of the training
 * examples of that genotype (each feature's 0.1 % and 99.9 % quantiles). A candidate is taken only
 * when its most likely genotype has an envelope (a genotype with too few training examples has
 * none) and every feature lies inside it, and its GQ reaches the type's threshold; anything else
 * goes to the CNN. Simulated training data has few systematic errors, so real-data artefacts
 * (low-quality, one-strand alt piles) would otherwise be called with a confidence never earned.
 *
 * <p>Stored as {@value #FILE_NAME} in the model directory, beside the CNN's SavedModel: feature
 * names (checked against the features make_examples computes), weights, thresholds and the
 * validation figures they were chosen from. Not thread-safe (scratch arrays): one per task.
 */
public final class SmallModel {
  public static final String FILE_NAME = "small_model.json";
  public static final String FORMAT = "fastpipe-small-model-1";
  /** GQ reported as this when p(best) is 1 in float arithmetic. */
  public static final int MAX_GQ = 99;
  /** A threshold that takes nothing (no trustworthy threshold was found for the type). */
  public static final int NEVER = 1000;
  /** Genotype names in probability order, as the envelope in the JSON names them. */
  public static final List<String> GENOTYPES = List.of("hom_ref", "het", "hom_alt");

  final List<String> features;
  final double[] mean;
  final double[] scale;
  final double[][] w1; // [hidden][features]
  final double[] b1;
  final double[][] w2; // [3][hidden]
  final double[] b2;
  /** Per genotype: each feature's lowest and highest accepted value; null rows: the genotype is never taken. */
  final double[][] low = new double[3][];
  final double[][] high = new double[3][];
  int snpThreshold = NEVER;
  int indelThreshold = NEVER;
  /** Free-form figures stored with the model (training and validation). */
  final Map<String, Object> info = new LinkedHashMap<>();
  private final double[] hidden;
  private final double[] probabilities = new double[3];
  private final double[] standardized;

  SmallModel(List<String> features, double[] mean, double[] scale, double[][] w1, double[] b1, double[][] w2, double[] b2) {
    this.features = List.copyOf(features);
    this.mean = mean;
    this.scale = scale;
    this.w1 = w1;
    this.b1 = b1;
    this.w2 = w2;
    this.b2 = b2;
    this.hidden = new double[b1.length];
    this.standardized = new double[mean.length];
  }

  public List<String> features() {
    return features;
  }

  public int hiddenUnits() {
    return b1.length;
  }

  /** The GQ threshold for SNPs ({@code snp}) or indels; {@link #NEVER} when the type is never taken. */
  public int threshold(boolean snp) {
    return snp ? snpThreshold : indelThreshold;
  }

  /** Sets the per-type thresholds (chosen on validation examples). */
  public void thresholds(int snp, int indel) {
    this.snpThreshold = snp;
    this.indelThreshold = indel;
  }

  /** Figures stored with the model under "validation" and "training" (read-only view is not enforced). */
  public Map<String, Object> info() {
    return info;
  }

  /** The genotype probabilities of feature vector {@code x} into {@code p} (length 3); returns {@code p}. */
  public float[] predict(float[] x, float[] p) {
    for (int i = 0; i < mean.length; i++) standardized[i] = (x[i] - mean[i]) / scale[i];
    SmallModelTrainer.forward(standardized, w1, b1, w2, b2, hidden, probabilities);
    for (int k = 0; k < 3; k++) p[k] = (float) probabilities[k];
    return p;
  }

  /** Sets genotype {@code g}'s envelope (null: never take calls of {@code g}). */
  public void envelope(int g, double[] lowest, double[] highest) {
    low[g] = lowest;
    high[g] = highest;
  }

  /** Whether {@code x} lies inside the envelope of genotype {@code g}. */
  public boolean inside(float[] x, int g) {
    double[] lo = low[g];
    double[] hi = high[g];
    if (lo == null) return false;
    for (int i = 0; i < lo.length; i++) if (x[i] < lo[i] || x[i] > hi[i]) return false;
    return true;
  }

  /**
   * Whether the small model takes candidate {@code x} (a SNP when {@code snp}): its probabilities
   * go into {@code p}; true when the most likely genotype's envelope holds {@code x} and the GQ
   * reaches the type's threshold.
   */
  public boolean takes(float[] x, boolean snp, float[] p) {
    predict(x, p);
    return gq(p) >= threshold(snp) && inside(x, best(p));
  }

  /** GQ of the most likely genotype: -10 log10(1 - p(best)), rounded down, at most {@link #MAX_GQ}. */
  public static int gq(float[] p) {
    double best = Math.max(p[0], Math.max(p[1], p[2]));
    double miss = 1 - best;
    if (miss <= 0) return MAX_GQ;
    return (int) Math.min(MAX_GQ, Math.floor(-10 * Math.log10(miss)));
  }

  /** Index of the most likely genotype (0 hom-ref, 1 het, 2 hom-alt; the first on ties). */
  public static int best(float[] p) {
    int b = 0;
    for (int k = 1; k < 3; k++) if (p[k] > p[b]) b = k;
    return b;
  }

  // ---------------------------------------------------------------------------------------
  // JSON

  /**
   * The file's fields, in its order: a typed record written and read by Jackson ({@link JsonCodec};
   * fields it does not know are passed over). {@code training} and {@code validation} are the
   * free-form figures the model was made and checked with; an envelope of null: that genotype is
   * never taken.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record FileForm(String format, List<String> features, int hiddenUnits, Thresholds thresholds, String gq,
      @JsonInclude(JsonInclude.Include.NON_NULL) Object training,
      @JsonInclude(JsonInclude.Include.NON_NULL) Object validation,
      double[] mean, double[] scale, double[][] hiddenWeights, double[] hiddenBias, double[][] outputWeights,
      double[] outputBias, Map<String, Bounds> envelope) {}

  /** The lowest GQ each variant type is called at ({@link #NEVER}: not at all). */
  record Thresholds(Integer snp, Integer indel) {}

  /** Each feature's lowest and highest accepted value for one genotype. */
  record Bounds(double[] low, double[] high) {}

  /** The model as JSON (see the class comment). */
  public String toJson() {
    Map<String, Bounds> env = new LinkedHashMap<>();
    for (int g = 0; g < 3; g++) env.put(GENOTYPES.get(g), low[g] == null ? null : new Bounds(round(low[g]), round(high[g])));
    return JsonCodec.pretty(new FileForm(FORMAT, List.copyOf(features), hiddenUnits(),
        new Thresholds(snpThreshold, indelThreshold),
        "-10 log10(1 - p(best)); candidates with GQ >= the type's threshold are called by the small model",
        info.get("training"), info.get("validation"), round(mean), round(scale), round(w1), round(b1), round(w2),
        round(b2), env));
  }

  /** Writes {@link #FILE_NAME} into {@code dir} (to a temporary name, then renamed). */
  public void save(Path dir) throws IOException {
    Files.createDirectories(dir);
    OutputFiles.writeString(dir.resolve(FILE_NAME), ".json", toJson(), "small model");
  }

  /** {@code dir}/{@value #FILE_NAME} when it exists, else null. */
  public static Path find(Path dir) {
    Path p = dir.resolve(FILE_NAME);
    return Files.isRegularFile(p) ? p : null;
  }

  /**
   * Reads a small model file and checks it computes {@code expectedFeatures}, in that order.
   *
   * @throws InputException naming the file and what is wrong with it
   */
  public static SmallModel load(Path file, List<String> expectedFeatures) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": small model not found");
    } catch (IOException e) {
      throw new InputException(file + ": cannot read the small model (" + e.getMessage() + ")");
    }
    try {
      return parse(text, expectedFeatures);
    } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
      throw new InputException(file + ": not a fastpipe small model (" + e.getMessage() + ")");
    }
  }

  static SmallModel parse(String text, List<String> expectedFeatures) {
    FileForm f;
    try {
      f = JsonCodec.read(JsonCodec.LENIENT, text, FileForm.class);
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (f == null) throw new IllegalArgumentException("the file is empty");
    if (!FORMAT.equals(f.format())) throw new IllegalArgumentException("format is " + f.format() + ", expected " + FORMAT);
    List<String> names = f.features() == null ? List.of() : f.features();
    if (expectedFeatures != null && !names.equals(expectedFeatures)) {
      throw new IllegalArgumentException("it was trained on features " + names + " but make_examples computes "
          + expectedFeatures + "; retrain it with fastpipe train");
    }
    double[] mean = vector(f.mean(), "mean", names.size());
    double[] scale = vector(f.scale(), "scale", names.size());
    for (double s : scale) if (!(s > 0)) throw new IllegalArgumentException("a scale is not positive");
    double[] b1 = vector(f.hiddenBias(), "hidden_bias", -1);
    double[][] w1 = matrix(f.hiddenWeights(), "hidden_weights", b1.length, names.size());
    double[] b2 = vector(f.outputBias(), "output_bias", 3);
    double[][] w2 = matrix(f.outputWeights(), "output_weights", 3, b1.length);
    SmallModel m = new SmallModel(names, mean, scale, w1, b1, w2, b2);
    Thresholds t = f.thresholds();
    if (t == null || t.snp() == null || t.indel() == null) throw new IllegalArgumentException("thresholds.snp and .indel are required");
    m.thresholds(t.snp(), t.indel());
    for (int g = 0; g < 3; g++) {
      Bounds e = f.envelope() == null ? null : f.envelope().get(GENOTYPES.get(g));
      if (e != null) m.envelope(g, vector(e.low(), "low", names.size()), vector(e.high(), "high", names.size()));
    }
    if (f.training() != null) m.info.put("training", f.training());
    if (f.validation() != null) m.info.put("validation", f.validation());
    return m;
  }

  private static double[] vector(double[] v, String key, int n) {
    if (v == null || v.length == 0) throw new IllegalArgumentException(key + " is missing");
    if (n >= 0 && v.length != n) throw new IllegalArgumentException(key + " has " + v.length + " values, expected " + n);
    return v;
  }

  private static double[][] matrix(double[][] m, String key, int rows, int cols) {
    if (m == null || m.length != rows) {
      throw new IllegalArgumentException(key + " has " + (m == null ? 0 : m.length) + " rows, expected " + rows);
    }
    for (int i = 0; i < rows; i++) {
      if (m[i].length != cols) throw new IllegalArgumentException(key + " row " + i + " has " + m[i].length + " values, expected " + cols);
    }
    return m;
  }

  /** Six decimals: what the file keeps of a weight. */
  private static double[] round(double[] v) {
    double[] r = new double[v.length];
    for (int i = 0; i < v.length; i++) r[i] = Math.round(v[i] * 1e6) / 1e6;
    return r;
  }

  private static double[][] round(double[][] m) {
    double[][] r = new double[m.length][];
    for (int i = 0; i < m.length; i++) r[i] = round(m[i]);
    return r;
  }
}
