package dev.fastpipe.cli;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.inference.ModelTrainer;
import dev.fastpipe.inference.TrainingSet;
import dev.fastpipe.streaming.example.TrainingExamples;
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
      "Prints loss, training and validation accuracy per epoch."
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

  @Option(names = "--quality-scale-min", defaultValue = "1", paramLabel = "F",
      description = {"Base-quality augmentation: each drawn example's read base qualities are multiplied by one factor",
          "from U(F, 1), so the model does not tie its calls to one sequencer's quality profile (default ${DEFAULT-VALUE}: off)."})
  float qualityScaleMin;

  @Option(names = "--intra-op-threads", defaultValue = "0", description = "TensorFlow intra-op threads (0 = one per core).")
  int intraOpThreads;

  @Override
  public Integer call() throws IOException {
    ModelTrainer.Settings settings;
    try {
      settings = new ModelTrainer.Settings(
          epochs, batchSize, learningRate, seed, balanceClasses, intraOpThreads, ensemble, qualityScaleMin);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    TrainingSet train = load(examples, null);
    TrainingSet val = validation == null ? null : load(validation, train.channels());
    try {
      new ModelTrainer(settings, System.out).trainAndExport(train, val, output);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    System.out.println("train: exported SavedModel to " + output);
    return 0;
  }

  private static TrainingSet load(List<Path> files, Integer channels) {
    TrainingSet set = TrainingExamples.load(files, channels);
    System.out.println("loaded " + set.size() + " examples from " + files);
    return set;
  }
}
