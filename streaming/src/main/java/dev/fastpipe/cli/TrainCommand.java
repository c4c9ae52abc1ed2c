package dev.fastpipe.cli;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.inference.ModelTrainer;
import dev.fastpipe.inference.TrainingSet;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.TrainingExamples;
import dev.fastpipe.streaming.makeexamples.CandidateFeatures;
import dev.fastpipe.streaming.smallmodel.FeatureTable;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import dev.fastpipe.streaming.smallmodel.SmallModelTrainer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Trains fastpipe's genotype CNN on labelled examples and exports a SavedModel. */
@Command(
    name = "train",
    header = "Train the genotype CNN on labelled examples and export a SavedModel.",
    mixinStandardHelpOptions = true,
    description = {
      "Train the compact genotype CNN (TensorFlow Java, graph mode, Adam) on labelled examples",
      "(make-examples --truth-vcf --confident-bed) and export a SavedModel:",
      "tag serve, signature serving_default: images " + ImageShape.DEFAULT_TENSOR + " uint8 -> probabilities [N,3].",
      "Prints loss, training and validation accuracy per epoch.",
      "When the examples carry summary features (make-examples --truth-vcf writes them), also trains the",
      "small model on the same examples (bi-allelic ones) and writes MODEL_DIR/" + SmallModel.FILE_NAME + ":",
      "a one-hidden-layer perceptron in plain Java whose per-type (SNP, indel) GQ thresholds are chosen on",
      "--validation; call then calls the candidates it is sure of without the CNN."
    })
public final class TrainCommand implements Callable<Integer> {

  @Option(names = "--examples", required = true, arity = "1..*", paramLabel = "TRAIN.tfrecord.gz",
      description = "Labelled training examples.")
  List<Path> examples;

  @Option(names = "--validation", arity = "1..*", paramLabel = "VAL.tfrecord.gz",
      description = "Labelled validation examples (accuracy reported per epoch).")
  List<Path> validation;

  @Option(names = "--output", required = true, paramLabel = "MODEL_DIR", description = "SavedModel directory to write (replaced).")
  Path output;

  @Option(names = "--epochs", defaultValue = "20", description = "Passes over the training set (default ${DEFAULT-VALUE}).")
  int epochs;

  @Option(names = "--batch-size", defaultValue = "64", description = "Examples per step (default ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = "--learning-rate", defaultValue = "0.001", description = "Adam learning rate (default ${DEFAULT-VALUE}).")
  float learningRate;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of weight init and example order (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--balance-classes", description = "Weight each class by N/(3*count) in the loss.")
  boolean balanceClasses;

  @Option(names = "--ensemble", defaultValue = "1",
      description = "Train K networks side by side and export the mean of their probabilities (default ${DEFAULT-VALUE}).")
  int ensemble;

  @Option(names = "--keep-best-epoch",
      description = "Export the weights of the epoch with the best validation accuracy, not the last epoch's"
          + " (needs --validation).")
  boolean keepBestEpoch;

  @Option(names = "--quality-scale-min", defaultValue = "1", paramLabel = "F",
      description = {"Base-quality augmentation: each drawn example's read base qualities are multiplied by one factor",
          "from U(F, 1), so the model does not tie its calls to one sequencer's quality profile (default ${DEFAULT-VALUE}: off)."})
  float qualityScaleMin;

  @Option(names = "--no-small-model", description = "Do not train the small model.")
  boolean noSmallModel;

  @Option(names = "--small-model-only",
      description = "Train only the small model, into MODEL_DIR (an existing model directory: its SavedModel stays).")
  boolean smallModelOnly;

  @Option(names = "--small-model-max-error", defaultValue = "0.001", paramLabel = "E",
      description = "Per type, the lowest GQ threshold whose validation calls have a genotype error rate <= E (default ${DEFAULT-VALUE}).")
  double smallModelMaxError;

  @Option(names = "--small-model-min-taken", defaultValue = "50", paramLabel = "N",
      description = "A threshold must take at least N validation examples of its type, else the type always goes to the CNN"
          + " (default ${DEFAULT-VALUE}).")
  int smallModelMinTaken;

  @Option(names = "--small-model-min-gq", defaultValue = "20", paramLabel = "Q",
      description = "No threshold below GQ Q, however clean the validation calls (default ${DEFAULT-VALUE}).")
  int smallModelMinGq;

  @Option(names = "--small-model-hidden", defaultValue = "16", paramLabel = "H",
      description = "Hidden units of the small model (default ${DEFAULT-VALUE}).")
  int smallModelHidden;

  @Option(names = "--small-model-epochs", defaultValue = "60", paramLabel = "N",
      description = "Passes of the small model over its training examples (default ${DEFAULT-VALUE}).")
  int smallModelEpochs;

  @Option(names = "--intra-op-threads", defaultValue = "0", description = "TensorFlow intra-op threads (0 = one per core).")
  int intraOpThreads;

  @Override
  public Integer call() throws IOException {
    if (noSmallModel && smallModelOnly) throw new UserError("--no-small-model and --small-model-only exclude each other");
    SmallModelTrainer.Settings small;
    try {
      SmallModelTrainer.Settings d = SmallModelTrainer.Settings.defaults(seed);
      small = new SmallModelTrainer.Settings(smallModelHidden, smallModelEpochs, d.batchSize(), d.learningRate(), d.l2(), seed);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    if (!(smallModelMaxError >= 0 && smallModelMaxError < 1)) throw new UserError("--small-model-max-error must be in [0, 1)");
    RunFiles.Builder files = RunFiles.builder().inputs("--examples", examples).inputs("--validation", validation);
    if (smallModelOnly) files.output("--output small model", output.resolve(SmallModel.FILE_NAME));
    else files.replacedDirectory("--output", output);
    files.check();
    FeatureTable trainFeatures = new FeatureTable(CandidateFeatures.COUNT);
    FeatureTable valFeatures = new FeatureTable(CandidateFeatures.COUNT);
    if (smallModelOnly) {
      if (!java.nio.file.Files.isDirectory(output)) throw new UserError(output + ": model directory not found (--small-model-only adds to one)");
      TrainingExamples.forEach(examples, (p, r) -> addFeatures(trainFeatures, r));
      if (validation != null) TrainingExamples.forEach(validation, (p, r) -> addFeatures(valFeatures, r));
      trainSmallModel(trainFeatures, valFeatures, small);
      return 0;
    }
    if (keepBestEpoch && (validation == null || validation.isEmpty())) {
      throw new UserError("--keep-best-epoch needs --validation examples to choose the epoch by");
    }
    ModelTrainer.Settings settings;
    try {
      settings = new ModelTrainer.Settings(
          epochs, batchSize, learningRate, seed, balanceClasses, intraOpThreads, ensemble, qualityScaleMin, keepBestEpoch);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    TrainingSet train = load(examples, null, trainFeatures);
    TrainingSet val = validation == null ? null : load(validation, train.channels(), valFeatures);
    try {
      new ModelTrainer(settings, System.out).trainAndExport(train, val, output);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    System.out.println("train: exported SavedModel to " + output);
    if (!noSmallModel) trainSmallModel(trainFeatures, valFeatures, small);
    return 0;
  }

  /** Trains the small model, chooses its thresholds on the validation features and writes it into the model directory. */
  private void trainSmallModel(FeatureTable train, FeatureTable val, SmallModelTrainer.Settings settings) throws IOException {
    if (train.size() == 0) {
      System.out.println("train: no small model: the examples carry no summary features (make them again with this version)");
      return;
    }
    if (val.size() == 0) {
      System.out.println("train: no small model: its thresholds are chosen on --validation examples with summary features");
      return;
    }
    SmallModel model = new SmallModelTrainer(settings)
        .trainAndChoose(train, val, CandidateFeatures.NAMES, smallModelMaxError, smallModelMinTaken, smallModelMinGq);
    model.save(output);
    System.out.printf("train: small model (%d hidden units, %d training examples) -> %s%n", model.hiddenUnits(), train.size(),
        output.resolve(SmallModel.FILE_NAME));
    for (String type : List.of("snp", "indel")) {
      Object fig = model.info().get("validation") instanceof java.util.Map<?, ?> m ? m.get(type) : null;
      System.out.println("train: small model " + type + " on validation: " + fig);
    }
  }

  /** Adds a labelled record's summary features when it has them and is bi-allelic. */
  private static void addFeatures(FeatureTable table, ExampleRecord r) {
    if (r.altCount() != 1 || r.floatCount() != CandidateFeatures.COUNT) return;
    float[] x = r.floats(new float[CandidateFeatures.COUNT]);
    table.add(x, r.label(), x[CandidateFeatures.IS_SNP] > 0.5f);
  }

  private static TrainingSet load(List<Path> files, Integer channels, FeatureTable features) {
    TrainingSet set = TrainingExamples.load(files, channels, r -> addFeatures(features, r));
    System.out.println("loaded " + set.size() + " examples from " + files);
    return set;
  }
}
