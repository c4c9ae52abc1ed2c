package dev.fastpipe.inference;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Session;
import org.tensorflow.SessionFunction;
import org.tensorflow.Signature;
import org.tensorflow.Tensor;
import org.tensorflow.framework.optimizers.Adam;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TUint8;

/**
 * Trains {@link GenotypeNetwork} in TensorFlow Java graph mode and exports it as a SavedModel.
 *
 * <p>Loss: class-weighted cross-entropy built from {@code logSoftmax} and {@code oneHot}
 * (SparseSoftmaxCrossEntropyWithLogits has no C++ gradient). Optimiser: Adam
 * (tensorflow-framework). Each epoch visits the training set in an order drawn from
 * {@code Random(seed + epoch)}; weights are initialised from the seed too, so runs are
 * repeatable as far as TensorFlow's multithreaded kernels allow.
 *
 * <p>Export: tag {@code serve}, signature {@code serving_default}, input {@code images}
 * ({@code [N,100,221,C]} uint8), output {@code probabilities} ({@code [N,3]} float32: hom-ref,
 * het, hom-alt). The directory is written under a temporary name and renamed when complete.
 */
public final class ModelTrainer {

  /**
   * Training settings. {@code balanceClasses} weights each class by N/(3*count).
   * {@code keepBestEpoch} exports the weights of the epoch with the highest validation accuracy
   * (the first such epoch on a tie) instead of the last epoch's; it needs a validation set.
   * {@code qualityScaleMin} below 1 turns on base-quality augmentation: each time an example is
   * drawn, its reads' base-quality pixels are multiplied by one factor drawn from
   * U(qualityScaleMin, 1), as if another sequencer had reported lower qualities for the same bases.
   */
  public record Settings(
      int epochs, int batchSize, float learningRate, long seed, boolean balanceClasses, int intraOpThreads,
      int ensemble, float qualityScaleMin, boolean keepBestEpoch) {
    /** As before {@code keepBestEpoch}: the last epoch's weights are exported. */
    public Settings(int epochs, int batchSize, float learningRate, long seed, boolean balanceClasses, int intraOpThreads,
        int ensemble, float qualityScaleMin) {
      this(epochs, batchSize, learningRate, seed, balanceClasses, intraOpThreads, ensemble, qualityScaleMin, false);
    }

    public Settings {
      if (!(qualityScaleMin > 0 && qualityScaleMin <= 1)) {
        throw new IllegalArgumentException("quality scale minimum must be in (0, 1]: " + qualityScaleMin);
      }
      if (ensemble < 1) throw new IllegalArgumentException("ensemble size must be >= 1: " + ensemble);
      if (epochs < 1) throw new IllegalArgumentException("epochs must be >= 1: " + epochs);
      if (batchSize < 1) throw new IllegalArgumentException("batch size must be >= 1: " + batchSize);
      if (!(learningRate > 0)) throw new IllegalArgumentException("learning rate must be > 0: " + learningRate);
    }

    public static Settings defaults() {
      return new Settings(20, 64, 1e-3f, 1, false, 0, 1, 1f);
    }
  }

  /** One epoch's figures. {@code validationAccuracy} is NaN without a validation set. */
  public record EpochReport(int epoch, double loss, double trainAccuracy, double validationAccuracy, int[][] confusion) {}

  private final Settings settings;
  private final PrintStream log;

  public ModelTrainer(Settings settings, PrintStream log) {
    TensorFlowNatives.load();
    this.settings = settings;
    this.log = log;
  }

  /**
   * Trains on {@code train}, reports each epoch (loss, training accuracy, validation accuracy
   * when {@code validation} is non-null and non-empty) and exports to {@code output}.
   * Returns the last epoch's report.
   */
  public EpochReport trainAndExport(TrainingSet train, TrainingSet validation, Path output) throws IOException {
    if (train.size() == 0) throw new IllegalArgumentException("no training examples");
    ImageShape shape = train.shape();
    int channels = shape.channels();
    if (validation != null && validation.size() > 0 && validation.channels() != channels) {
      throw new IllegalArgumentException(
          "validation examples have " + validation.channels() + " channels, training examples " + channels);
    }
    try (Graph g = new Graph();
        Session session = new Session(g, GenotypeModel.threads(settings.intraOpThreads(), 0))) {
      Ops tf = Ops.create(g);
      Placeholder<TUint8> images =
          tf.withName("images")
              .placeholder(TUint8.class, Placeholder.shape(Shape.of(-1, shape.height(), shape.width(), channels)));
      Placeholder<TInt32> labels = tf.withName("labels").placeholder(TInt32.class, Placeholder.shape(Shape.of(-1)));
      float[] classWeights = classWeights(train);
      Operand<TFloat32> oneHot = tf.oneHot(labels, tf.constant(3), tf.constant(1f), tf.constant(0f));
      Operand<TFloat32> exampleWeight =
          tf.sum(tf.math.mul(oneHot, tf.constant(classWeights)), tf.constant(1));
      // An ensemble of K independently initialised networks trained side by side (sum of their
      // losses); the exported probabilities are the mean of their softmax outputs.
      Operand<TFloat32> probSum = null;
      Operand<TFloat32> lossTotal = null;
      java.util.List<Operand<TFloat32>> weights = new java.util.ArrayList<>();
      for (int k = 0; k < settings.ensemble(); k++) {
        GenotypeNetwork net = new GenotypeNetwork(tf, settings.seed() * 7919L + k);
        Operand<TFloat32> logits = net.logits(images, channels);
        weights.addAll(net.variables()); // made by logits()
        Operand<TFloat32> p = tf.nn.softmax(logits);
        Operand<TFloat32> logLikelihood = tf.sum(tf.math.mul(oneHot, tf.nn.logSoftmax(logits)), tf.constant(1));
        Operand<TFloat32> l =
            tf.math.neg(tf.math.div(
                tf.sum(tf.math.mul(logLikelihood, exampleWeight), tf.constant(0)),
                tf.sum(exampleWeight, tf.constant(0))));
        probSum = probSum == null ? p : tf.math.add(probSum, p);
        lossTotal = lossTotal == null ? l : tf.math.add(lossTotal, l);
      }
      Operand<TFloat32> probabilities =
          tf.withName("probabilities").math.mul(probSum, tf.constant(1f / settings.ensemble()));
      Operand<TFloat32> loss = tf.withName("loss").math.mul(lossTotal, tf.constant(1f / settings.ensemble()));
      Op trainStep = new Adam(g, settings.learningRate()).minimize(loss);
      BestWeights best = settings.keepBestEpoch() && validation != null && validation.size() > 0
          ? new BestWeights(tf, weights) : null;
      session.initialize();

      log.printf(
          "training on %d examples (hom-ref/het/hom-alt %s), %d channels, class weights %s, %d epochs, batch %d, lr %g, seed %d, ensemble %d%s%n",
          train.size(), java.util.Arrays.toString(train.labelCounts()), channels,
          java.util.Arrays.toString(classWeights), settings.epochs(), settings.batchSize(),
          settings.learningRate(), settings.seed(), settings.ensemble(),
          settings.qualityScaleMin() < 1 ? ", base qualities scaled by U(" + settings.qualityScaleMin() + ", 1)" : "");
      if (validation != null && validation.size() > 0) {
        log.printf("validating on %d examples (hom-ref/het/hom-alt %s)%n",
            validation.size(), java.util.Arrays.toString(validation.labelCounts()));
      }

      EpochReport last = null;
      int[] order = new int[train.size()];
      for (int i = 0; i < order.length; i++) order[i] = i;
      float[] probs = null;
      byte[] scratch = new byte[train.imageBytes()];
      try (ImageBatch batch = ImageBatch.create(settings.batchSize(), shape, false)) {
        int[] batchLabels = new int[settings.batchSize()];
        for (int epoch = 1; epoch <= settings.epochs(); epoch++) {
          long t0 = System.nanoTime();
          shuffle(order, new Random(settings.seed() * 1_000_003L + epoch));
          Random augment = new Random(settings.seed() * 1_000_033L + epoch);
          double lossSum = 0;
          long correct = 0;
          int batches = 0;
          for (int start = 0; start < order.length; start += settings.batchSize()) {
            int n = Math.min(settings.batchSize(), order.length - start);
            batch.clear();
            for (int j = 0; j < n; j++) {
              int ex = order[start + j];
              byte[] img = train.image(ex);
              if (settings.qualityScaleMin() < 1) {
                float f = settings.qualityScaleMin() + (1 - settings.qualityScaleMin()) * augment.nextFloat();
                img = scaleBaseQualities(img, channels, f, scratch);
              }
              batch.add(new UnsafeBuffer(img), 0, img.length);
              batchLabels[j] = train.label(ex);
            }
            Tensor input = batch.input();
            try (TInt32 labelTensor = TInt32.vectorOf(java.util.Arrays.copyOf(batchLabels, n));
                Result r =
                    session.runner()
                        .feed(images, (TUint8) input)
                        .feed(labels, labelTensor)
                        .addTarget(trainStep)
                        .fetch(loss)
                        .fetch(probabilities)
                        .run()) {
              lossSum += ((TFloat32) r.get(0)).getFloat();
              TFloat32 p = (TFloat32) r.get(1);
              if (probs == null || probs.length < n * 3) probs = new float[settings.batchSize() * 3];
              p.asRawTensor().data().asFloats().read(probs, 0, n * 3);
              for (int j = 0; j < n; j++) if (argMax(probs, j) == batchLabels[j]) correct++;
            } finally {
              if (!batch.isShared(input)) input.close();
            }
            batches++;
          }
          double valAcc = Double.NaN;
          int[][] confusion = null;
          if (validation != null && validation.size() > 0) {
            confusion = evaluate(session, images, probabilities, validation, batch);
            long ok = confusion[0][0] + confusion[1][1] + confusion[2][2];
            valAcc = ok / (double) validation.size();
          }
          last = new EpochReport(epoch, lossSum / batches, correct / (double) train.size(), valAcc, confusion);
          if (best != null) best.offer(session, last);
          log.printf(
              "epoch %d/%d: loss %.5f, train accuracy %.4f%s (%.1f s)%n",
              epoch, settings.epochs(), last.loss(), last.trainAccuracy(),
              confusion == null ? "" : String.format(", validation accuracy %.4f, confusion (truth rows) %s",
                  valAcc, java.util.Arrays.deepToString(confusion)),
              (System.nanoTime() - t0) / 1e9);
        }
      }
      if (best != null && best.report != null && best.report.epoch() != last.epoch()) {
        best.restore(session);
        log.printf("keeping epoch %d (validation accuracy %.4f, the best; the last epoch had %.4f)%n",
            best.report.epoch(), best.report.validationAccuracy(), last.validationAccuracy());
        last = best.report;
      }
      export(session, images, probabilities, output);
      return last;
    }
  }

  private float[] classWeights(TrainingSet train) {
    float[] w = {1f, 1f, 1f};
    if (!settings.balanceClasses()) return w;
    int[] c = train.labelCounts();
    for (int i = 0; i < 3; i++) w[i] = c[i] == 0 ? 0f : train.size() / (3f * c[i]);
    return w;
  }

  /** Confusion matrix [truth][predicted] of the current weights on {@code set}. */
  private static int[][] evaluate(
      Session session, Operand<TUint8> images, Operand<TFloat32> probabilities, TrainingSet set, ImageBatch batch) {
    int[][] confusion = new int[3][3];
    float[] probs = new float[batch.capacity() * 3];
    for (int start = 0; start < set.size(); start += batch.capacity()) {
      int n = Math.min(batch.capacity(), set.size() - start);
      batch.clear();
      for (int j = 0; j < n; j++) {
        byte[] img = set.image(start + j);
        batch.add(new UnsafeBuffer(img), 0, img.length);
      }
      Tensor input = batch.input();
      try (Result r = session.runner().feed(images, (TUint8) input).fetch(probabilities).run()) {
        ((TFloat32) r.get(0)).asRawTensor().data().asFloats().read(probs, 0, n * 3);
      } finally {
        if (!batch.isShared(input)) input.close();
      }
      for (int j = 0; j < n; j++) confusion[set.label(start + j)][argMax(probs, j)]++;
    }
    return confusion;
  }

  static int argMax(float[] probs, int example) {
    int base = example * 3;
    int best = 0;
    for (int k = 1; k < 3; k++) if (probs[base + k] > probs[base + best]) best = k;
    return best;
  }

  /** DeepVariant's channel order puts base quality second; the first 5 rows draw the reference. */
  static final int BASE_QUALITY_CHANNEL = 1;
  static final int REFERENCE_ROWS = 5;

  /** {@code img} with the base-quality pixels of its read rows multiplied by {@code f}, in {@code out}. */
  static byte[] scaleBaseQualities(byte[] img, int channels, float f, byte[] out) {
    System.arraycopy(img, 0, out, 0, img.length);
    for (int i = REFERENCE_ROWS * ImageShape.deepVariant(channels).rowBytes() + BASE_QUALITY_CHANNEL; i < img.length; i += channels) {
      out[i] = (byte) (int) ((img[i] & 0xff) * f);
    }
    return out;
  }

  private static void shuffle(int[] a, Random r) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** Writes the serving signature under a temporary sibling name, then renames it to {@code output}. */
  /**
   * The networks' weights at the epoch with the best validation accuracy so far, copied out of
   * the session, and the assign ops that put them back.
   */
  private static final class BestWeights {
    private final List<Operand<TFloat32>> variables;
    private final List<Placeholder<TFloat32>> feeds = new ArrayList<>();
    private final List<Op> assigns = new ArrayList<>();
    private final List<float[]> values = new ArrayList<>();
    private final List<Shape> shapes = new ArrayList<>();
    EpochReport report;

    BestWeights(Ops tf, List<Operand<TFloat32>> variables) {
      if (variables.isEmpty()) throw new IllegalStateException("no network weights to keep");
      this.variables = variables;
      for (Operand<TFloat32> v : variables) {
        Placeholder<TFloat32> feed = tf.placeholder(TFloat32.class, Placeholder.shape(v.shape()));
        feeds.add(feed);
        assigns.add(tf.assign(v, feed));
      }
    }

    /** Copies the weights out when {@code epoch} beats every earlier one on validation. */
    void offer(Session session, EpochReport epoch) {
      if (report != null && !(epoch.validationAccuracy() > report.validationAccuracy())) return;
      report = epoch;
      values.clear();
      shapes.clear();
      for (Operand<TFloat32> v : variables) {
        try (Result r = session.runner().fetch(v).run()) {
          TFloat32 t = (TFloat32) r.get(0);
          float[] copy = new float[(int) t.shape().size()];
          t.asRawTensor().data().asFloats().read(copy);
          values.add(copy);
          shapes.add(t.shape());
        }
      }
    }

    /** Puts the kept weights back into the session's variables. */
    void restore(Session session) {
      for (int i = 0; i < variables.size(); i++) {
        try (TFloat32 t = TFloat32.tensorOf(shapes.get(i), org.tensorflow.ndarray.buffer.DataBuffers.of(values.get(i), true, false))) {
          session.runner().feed(feeds.get(i), t).addTarget(assigns.get(i)).run();
        }
      }
    }
  }

  static void export(Session session, Operand<TUint8> images, Operand<TFloat32> probabilities, Path output)
      throws IOException {
    Path abs = output.toAbsolutePath();
    Path parent = abs.getParent();
    if (parent != null) Files.createDirectories(parent);
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    deleteTree(tmp);
    Signature sig =
        Signature.builder()
            .key(Signature.DEFAULT_KEY)
            .methodName("tensorflow/serving/predict")
            .input("images", images)
            .output("probabilities", probabilities)
            .build();
    SavedModelBundle.exporter(tmp.toString()).withFunction(SessionFunction.create(sig, session)).export();
    deleteTree(abs);
    Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE);
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) return;
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(q -> {
        try {
          Files.delete(q);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
