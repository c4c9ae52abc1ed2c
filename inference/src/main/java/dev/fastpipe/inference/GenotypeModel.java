package dev.fastpipe.inference;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.tensorflow.Result;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Signature;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TFloat32;

/**
 * A genotype classifier served from a TensorFlow SavedModel (tag {@code serve}).
 *
 * <p>The serving signature ({@code serving_default}, or the only one) must take one input of
 * shape {@code [N, 100, 221, C]} (uint8 or float32; C = channels, 6 or 7 for fastpipe examples)
 * and return an output of shape {@code [N, 3]}: probabilities of hom-ref, het, hom-alt for the
 * example's alt-allele subset. When there are several outputs, the one named
 * {@code probabilities} is used, else the only {@code [N,3]} one. fastpipe's own models
 * ({@link ModelTrainer}) export {@code serving_default: images (uint8) -> probabilities}.
 *
 * <p>{@link #predict} is thread-safe (TensorFlow sessions are); each thread uses its own
 * {@link ImageBatch} from {@link #newBatch}.
 *
 * <p><b>One input shape.</b> TensorFlow's CPU kernels do not promise the same bits for an image
 * whatever the tensor around it. Measured on the shipped model with {@code ONEDNN_MAX_CPU_ISA=AVX2}
 * (oneDNN's code path on an AVX2-only CPU): the dense layers' matmul blocks the batch dimension by
 * 6 rows, and an image alone or in a short tail block (tensors of 1, 2 or 3 images; the last 1 to
 * 3 rows of 7, 8, 9 or 32) gets probabilities an ulp or two away from the same image elsewhere
 * (the AVX-512 path showed no such difference). So the model only ever runs on
 * {@code [CHUNK_IMAGES, 100, 221, C]}: a batch of n images is {@code ceil(n / CHUNK_IMAGES)}
 * session calls on the fixed-shape chunks that hold it ({@link ImageBatch}; no copy), the last one
 * padded. An example's probabilities then depend neither on {@code --batch-size} nor on how full
 * its batch was. That rests on a measured fact: within that shape, an image's output bits depend
 * neither on its slot nor on what the other slots hold ({@code GenotypeModelTest} checks every
 * slot on the shipped model; 64 passes on both paths, 32 fails on AVX2). Bits may still differ
 * between machines and between intra-op thread counts (an image alone, {@code [1,...]}, gave
 * other bits with 1 and 2 threads on the AVX2 path).
 *
 * <p><b>Cost.</b> A partial batch runs whole chunks: up to {@code CHUNK_IMAGES - 1} padding
 * images per partial batch (end of stream, a ring that ran dry); a 1-image flush cost 30 ms
 * instead of 1.2 ms on a 2-core AMD EPYC. A {@code --batch-size} that is not a multiple of
 * {@code CHUNK_IMAGES} pads every batch. Full batches: 64 is what the default {@code --batch-size}
 * 64 ran before; against one {@code [256,...]} tensor it gave 0.91-0.93 of the examples/s (0.95
 * on the AVX2 path), 128 gave 0.97-0.98 (0.98) but doubles the padding, 32 0.86-0.89, 16 0.78-0.82
 * ({@code bench-inference --batch-sizes 256 --chunk-images 0,16,32,64,128}). Every
 * batch holds {@code ceil(capacity / CHUNK_IMAGES)} chunks of native memory (at least one: 8.5 MB
 * for 6 channels).
 */
public final class GenotypeModel implements AutoCloseable {
  public static final int HEIGHT = ImageShape.DEFAULT_HEIGHT;
  public static final int WIDTH = ImageShape.DEFAULT_WIDTH;
  public static final int GENOTYPES = 3;

  private final Path dir;
  private final SavedModelBundle bundle;
  private final String inputName;
  private final String outputName;
  private final boolean floatInput;
  private final int channels;
  private final String description;

  private GenotypeModel(Path dir, SavedModelBundle bundle, Signature sig) {
    this.dir = dir;
    this.bundle = bundle;
    Map<String, Signature.TensorDescription> inputs = sig.getInputs();
    Map<String, Signature.TensorDescription> outputs = sig.getOutputs();
    String expected = "expected input [N,100,221,C] uint8 or float32 and output [N,3]";
    if (inputs.size() != 1) {
      throw new ModelSignatureException(
          dir + ": signature '" + sig.key() + "' has " + inputs.size() + " inputs " + inputs.keySet() + "; " + expected);
    }
    var in = inputs.entrySet().iterator().next();
    Signature.TensorDescription inDesc = in.getValue();
    Shape s = inDesc.shape;
    boolean typeOk = inDesc.dataType == DataType.DT_UINT8 || inDesc.dataType == DataType.DT_FLOAT;
    boolean shapeOk =
        s.numDimensions() == 4 && s.size(1) == HEIGHT && s.size(2) == WIDTH && s.size(3) > 0;
    if (!typeOk || !shapeOk) {
      throw new ModelSignatureException(
          dir + ": signature '" + sig.key() + "' input '" + in.getKey() + "' is " + shapeText(s) + " "
              + typeName(inDesc.dataType) + "; " + expected);
    }
    Map.Entry<String, Signature.TensorDescription> out = null;
    for (var e : outputs.entrySet()) {
      if (isGenotypeOutput(e.getValue())) {
        if (out == null || e.getKey().equals("probabilities")) out = e;
      }
    }
    if (out == null) {
      StringBuilder found = new StringBuilder();
      for (var e : outputs.entrySet()) {
        if (found.length() > 0) found.append(", ");
        found.append(e.getKey()).append(' ').append(shapeText(e.getValue().shape)).append(' ')
            .append(typeName(e.getValue().dataType));
      }
      throw new ModelSignatureException(
          dir + ": signature '" + sig.key() + "' outputs are " + (found.length() == 0 ? "none" : found) + "; " + expected);
    }
    this.inputName = inDesc.name;
    this.outputName = out.getValue().name;
    this.floatInput = inDesc.dataType == DataType.DT_FLOAT;
    this.channels = (int) s.size(3);
    this.description =
        "signature " + sig.key() + ": " + in.getKey() + " " + shapeText(s) + " " + typeName(inDesc.dataType)
            + " -> " + out.getKey() + " " + shapeText(out.getValue().shape);
  }

  private static boolean isGenotypeOutput(Signature.TensorDescription d) {
    return d.dataType == DataType.DT_FLOAT
        && d.shape.numDimensions() == 2
        && d.shape.size(1) == GENOTYPES;
  }

  static String shapeText(Shape s) {
    if (s.isUnknown()) return "[unknown rank]";
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < s.numDimensions(); i++) {
      if (i > 0) b.append(',');
      long d = s.size(i);
      b.append(d < 0 ? (i == 0 ? "N" : "?") : Long.toString(d));
    }
    return b.append(']').toString();
  }

  private static String typeName(DataType t) {
    return switch (t) {
      case DT_UINT8 -> "uint8";
      case DT_FLOAT -> "float32";
      default -> t.name().substring(3).toLowerCase();
    };
  }

  /** A session config with the given TensorFlow thread pools (0 = TensorFlow's default). */
  public static ConfigProto threads(int intraOp, int interOp) {
    return ConfigProto.newBuilder()
        .setIntraOpParallelismThreads(Math.max(0, intraOp))
        .setInterOpParallelismThreads(Math.max(0, interOp))
        .build();
  }

  /** Loads {@code dir} with default thread pools. */
  public static GenotypeModel load(Path dir) {
    return load(dir, 0, 0);
  }

  /**
   * Loads the SavedModel in {@code dir} (tag {@code serve}) and validates its signature.
   *
   * @throws IllegalArgumentException when {@code dir} is not a SavedModel directory
   * @throws ModelSignatureException when the signature does not fit (message names both shapes)
   */
  public static GenotypeModel load(Path dir, int intraOpThreads, int interOpThreads) {
    if (!Files.isRegularFile(dir.resolve("saved_model.pb"))) {
      throw new IllegalArgumentException(dir + ": not a SavedModel directory (no saved_model.pb)");
    }
    TensorFlowNatives.load();
    SavedModelBundle bundle =
        SavedModelBundle.loader(dir.toString())
            .withTags("serve")
            .withConfigProto(threads(intraOpThreads, interOpThreads))
            .load();
    try {
      List<Signature> sigs = bundle.signatures();
      Signature sig = null;
      for (Signature s : sigs) if (s.key().equals(Signature.DEFAULT_KEY)) sig = s;
      if (sig == null && sigs.size() == 1) sig = sigs.get(0);
      if (sig == null) {
        throw new ModelSignatureException(
            dir + ": no '" + Signature.DEFAULT_KEY + "' signature (found " + sigs.stream().map(Signature::key).toList() + ")");
      }
      return new GenotypeModel(dir, bundle, sig);
    } catch (RuntimeException e) {
      bundle.close();
      throw e;
    }
  }

  /**
   * The image channels (C of [N,100,221,C]) the serving signature of the SavedModel in {@code dir}
   * takes, read from saved_model.pb without loading TensorFlow, so a pipeline can start its
   * make_examples shards while the model loads. Empty when the file does not say.
   */
  public static java.util.OptionalInt peekChannels(Path dir) {
    try (var in = Files.newInputStream(dir.resolve("saved_model.pb"))) {
      org.tensorflow.proto.SavedModel saved = org.tensorflow.proto.SavedModel.parseFrom(in);
      for (org.tensorflow.proto.MetaGraphDef meta : saved.getMetaGraphsList()) {
        if (!meta.getMetaInfoDef().getTagsList().contains("serve")) continue;
        var sigs = meta.getSignatureDefMap();
        org.tensorflow.proto.SignatureDef sig = sigs.get(Signature.DEFAULT_KEY);
        if (sig == null && sigs.size() == 1) sig = sigs.values().iterator().next();
        if (sig == null || sig.getInputsCount() != 1) return java.util.OptionalInt.empty();
        var shape = sig.getInputsMap().values().iterator().next().getTensorShape();
        if (shape.getDimCount() != 4 || shape.getDim(3).getSize() <= 0) return java.util.OptionalInt.empty();
        return java.util.OptionalInt.of((int) shape.getDim(3).getSize());
      }
    } catch (java.io.IOException | RuntimeException e) {
      return java.util.OptionalInt.empty();
    }
    return java.util.OptionalInt.empty();
  }

  /** Image channels the model takes (C of [N,100,221,C]). */
  public int channels() {
    return channels;
  }

  public boolean floatInput() {
    return floatInput;
  }

  /** Bytes of one example image the model takes (100*221*C). */
  public int imageBytes() {
    return HEIGHT * WIDTH * channels;
  }

  /** One line: signature, input and output, e.g. for logs. */
  public String describe() {
    return dir + " (" + description + ")";
  }

  /**
   * Images per session call: the first dimension of every input tensor {@link #predict} feeds,
   * whatever the batch size (see the class comment for why, and what it costs).
   */
  public static final int CHUNK_IMAGES = 64;

  /**
   * The most images a run's batch may hold ({@code --batch-size}): a batch keeps its images in
   * native tensors, one batch per consumer, and 4096 of the largest input (7 channels of float32)
   * take 2.4 GiB ({@link #largestBatchBytes}); a larger number only moves the failure into
   * TensorFlow's allocator.
   */
  public static final int MAX_BATCH_SIZE = 4096;

  /** The bytes of a batch of {@code images} of the largest input this class loads: 7 channels of float32. */
  public static long largestBatchBytes(int images) {
    return (long) images * HEIGHT * WIDTH * 7 * Float.BYTES;
  }

  /**
   * A batch of up to {@code capacity} images for {@link #predict}, held in chunks of
   * {@link #CHUNK_IMAGES}: the model sees one input shape whatever {@code capacity} is.
   */
  public ImageBatch newBatch(int capacity) {
    return newBatch(capacity, CHUNK_IMAGES);
  }

  /**
   * A batch whose chunks hold {@code chunkImages} images: for benchmarks that compare chunk
   * sizes ({@code bench-inference}). Results then depend on {@code chunkImages}; only
   * {@link #newBatch(int)} gives the probabilities every run gives.
   */
  public ImageBatch newBatch(int capacity, int chunkImages) {
    return new ImageBatch(capacity, chunkImages, HEIGHT, WIDTH, channels, floatInput);
  }

  /**
   * Classifies the {@code batch.size()} images of {@code batch}; writes {@code 3*size}
   * probabilities (hom-ref, het, hom-alt per image) into {@code out} (reallocated only when too
   * small) and returns it. Runs one session call per chunk that holds images, each on the
   * chunk's whole fixed-shape tensor; outputs of the unused slots of the last chunk are dropped.
   * The batch is left as is (call {@link ImageBatch#clear()}).
   */
  public float[] predict(ImageBatch batch, float[] out) {
    int n = batch.size();
    if (out == null || out.length < n * GENOTYPES) out = new float[Math.max(n, batch.capacity()) * GENOTYPES];
    int per = batch.chunkImages();
    for (int c = 0; c < batch.filledChunks(); c++) {
      int first = c * per;
      int images = Math.min(per, n - first);
      try (Result result = bundle.session().runner().feed(inputName, batch.chunk(c)).fetch(outputName).run()) {
        ((TFloat32) result.get(0)).asRawTensor().data().asFloats().read(out, first * GENOTYPES, images * GENOTYPES);
      }
    }
    return out;
  }

  /**
   * Runs one chunk of blank images through the model and drops the result. TensorFlow's first
   * session run optimises the graph and creates its oneDNN kernels: about 0.45 CPU-s on the 2-core
   * AMD EPYC, paid whenever it happens. A pipeline calls this while its shards start, so that the
   * first real batch does not pay it (with batches that wait for more examples, that first batch
   * can come as late as the end of a small run, where the cost would lengthen the run). Later
   * results do not depend on it (the same graph and input shape).
   */
  public void warmUp() {
    try (ImageBatch blank = newBatch(1)) {
      blank.add(new org.agrona.concurrent.UnsafeBuffer(new byte[imageBytes()]), 0, imageBytes());
      predict(blank, null);
    }
  }

  @Override
  public void close() {
    bundle.close();
  }
}
