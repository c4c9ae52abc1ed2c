package dev.fastpipe.cli;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.inference.ModelSignatureException;
import dev.fastpipe.streaming.OptionRange;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --model and the TensorFlow thread options shared by commands that classify examples. */
public final class ModelOptions {
  /** Where the shipped model lives inside the fastpipe home (the repository root). */
  public static final String SHIPPED_MODEL = "models/fastpipe-v5";
  /** The default batch size of call_variants (see docs/figures.md: throughput by batch size). */
  public static final int DEFAULT_BATCH_SIZE = dev.fastpipe.streaming.pipeline.CallRequest.DEFAULT_BATCH_SIZE;

  @Option(names = "--model", paramLabel = "DIR",
      description = "SavedModel directory (signature: images " + ImageShape.DEFAULT_TENSOR + " uint8|float32 -> [N,3]). "
          + "Default: $FASTPIPE_HOME/" + SHIPPED_MODEL + ", the model shipped with fastpipe.")
  Path model;

  @Option(names = "--batch-size", paramLabel = "B", defaultValue = "" + DEFAULT_BATCH_SIZE,
      description = "Examples classified together (default: ${DEFAULT-VALUE}, at most " + GenotypeModel.MAX_BATCH_SIZE
          + "), in TensorFlow calls of "
          + GenotypeModel.CHUNK_IMAGES + " images each: a multiple of " + GenotypeModel.CHUNK_IMAGES
          + " pads nothing but partial batches.")
  int batchSize;

  @Option(names = "--intra-op-threads", paramLabel = "N",
      description = "TensorFlow intra-op threads. Default: call and demo take them from the thread budget"
          + " (a quarter of the cores, at least 1, the shards get the rest); other commands let TensorFlow"
          + " decide (one per core). 0 = TensorFlow decides.")
  Integer intraOpThreads; // null: not given

  @Option(names = "--inter-op-threads", paramLabel = "N",
      description = "TensorFlow inter-op threads. Default: 1 for call and demo (the graph is a chain),"
          + " else TensorFlow decides. 0 = TensorFlow decides.")
  Integer interOpThreads; // null: not given

  /** These options as another command would be given them: only those given here (the rest keep their defaults). */
  public java.util.List<String> asArguments() {
    java.util.List<String> a = new java.util.ArrayList<>();
    if (model != null) a.addAll(java.util.List.of("--model", model.toString()));
    a.addAll(java.util.List.of("--batch-size", Integer.toString(batchSize)));
    if (intraOpThreads != null) a.addAll(java.util.List.of("--intra-op-threads", intraOpThreads.toString()));
    if (interOpThreads != null) a.addAll(java.util.List.of("--inter-op-threads", interOpThreads.toString()));
    return a;
  }

  /** Where --intra-op-threads / --inter-op-threads were not given, use these (a call's thread budget). */
  public ModelOptions defaultThreads(int intraOp, int interOp) {
    if (intraOpThreads == null) intraOpThreads = intraOp;
    if (interOpThreads == null) interOpThreads = interOp;
    return this;
  }

  /** The intra-op threads the model is loaded with (0: TensorFlow decides). */
  public int intraOpThreads() {
    return intraOpThreads == null ? 0 : (int) OptionRange.atLeast("--intra-op-threads", intraOpThreads, 0);
  }

  /** The inter-op threads the model is loaded with (0: TensorFlow decides). */
  public int interOpThreads() {
    return interOpThreads == null ? 0 : (int) OptionRange.atLeast("--inter-op-threads", interOpThreads, 0);
  }

  /** The model directory: --model, else the shipped model under $FASTPIPE_HOME. */
  public Path modelDir() {
    if (model != null) return model;
    String home = System.getenv("FASTPIPE_HOME");
    if (home == null || home.isEmpty()) {
      throw new UserError("--model: not given and FASTPIPE_HOME is unset (run through bin/fastpipe or pass --model DIR)");
    }
    return Path.of(home).resolve(SHIPPED_MODEL);
  }

  public int batchSize() {
    return dev.fastpipe.streaming.pipeline.CallRequest.checkedBatchSize(batchSize);
  }

  /** The image channels the model takes, read from its saved_model.pb (loading it only if that fails). */
  public int channels() {
    Path dir = modelDir();
    requireSavedModel(dir);
    var peeked = GenotypeModel.peekChannels(dir);
    if (peeked.isPresent()) return peeked.getAsInt();
    try (GenotypeModel m = load()) {
      return m.channels();
    }
  }

  /**
   * Checks that {@code dir} holds a whole SavedModel (saved_model.pb and the weights in variables/)
   * before TensorFlow sees it, which would otherwise fail later with "uninitialized value".
   */
  static void requireSavedModel(Path dir) {
    if (!Files.isDirectory(dir)) throw new UserError("--model " + dir + ": model directory not found");
    if (!Files.isRegularFile(dir.resolve("saved_model.pb"))) {
      throw new UserError("--model " + dir + ": not a SavedModel directory (no saved_model.pb in it)");
    }
    if (!Files.isRegularFile(dir.resolve("variables").resolve("variables.index"))) {
      throw new UserError("--model " + dir + ": the SavedModel has no weights (no variables/variables.index);"
          + " copy the whole model directory");
    }
  }

  /** Loads and validates the model, turning every problem into a one-line UserError. */
  public GenotypeModel load() {
    return load(modelDir());
  }

  /** Loads and validates the model in {@code dir} with these thread options; problems become one-line UserErrors. */
  public GenotypeModel load(Path dir) {
    requireSavedModel(dir);
    try {
      return GenotypeModel.load(dir, intraOpThreads(), interOpThreads());
    } catch (ModelSignatureException | IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    } catch (RuntimeException e) {
      // TensorFlow's message may run on over lines ("...\n\t [[{{node save/Restore}}]]"): its first line
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip();
      throw new UserError("--model " + dir + ": cannot load the SavedModel (saved_model.pb or variables/ damaged or"
          + " incomplete?): " + why);
    }
  }
}
