package dev.fastpipe.inference;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tensorflow.Operand;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TUint8;

/**
 * fastpipe's compact genotype CNN (the networks of models/fastpipe-v1 and -v2), built into a TensorFlow graph.
 *
 * <pre>
 *  images [N,100,221,C] uint8
 *   -> float, x/255                       (normalisation inside the graph)
 *   -> centre crop of 41 columns           [N,100,41,C]   (candidate at column 110, +-20 bp)
 *   -> conv 1x1, C->16, ReLU               [N,100,41,16]  per-pixel channel mixing
 *        |-> centre 3 columns: mean and max over reads and columns  [N,32]
 *   -> conv 3x3 stride 2, 16->32, ReLU     [N,50,21,32]
 *   -> conv 3x3 stride 2, 32->48, ReLU     [N,25,11,48]
 *   -> global mean and global max pool     [N,96]         (allele support fractions, extremes)
 *   -> concat [N,128] -> dense 128->32, ReLU -> dense 32->3   logits
 * </pre>
 *
 * Multiply-adds per example (C=6): 100*41*6*16 + 50*21*9*16*32 + 25*11*9*32*48 + 128*32 + 32*3
 * = 393,600 + 4,838,400 + 3,801,600 + 4,096 + 96 = 9.04 M, i.e. about 18 MFLOPs per example
 * (InceptionV3 at DeepVariant's input size: about 5-6 GFLOPs). Parameters: about 22 k.
 * Weights are initialised from {@code java.util.Random(seed)} (He-normal), so a seed fixes them.
 */
public final class GenotypeNetwork {
  public static final int CROP_WIDTH = 41;
  public static final int CONV1 = 16;
  public static final int CONV2 = 32;
  public static final int CONV3 = 48;
  public static final int HIDDEN = 32;
  public static final int CENTRE_WIDTH = 3;
  /** Features entering the dense layers: mean and max of conv3, mean and max of conv1 at the centre. */
  public static final int POOLED = 2 * CONV3 + 2 * CONV1;

  private final Ops tf;
  private final Random random;
  private final List<Operand<TFloat32>> variables = new ArrayList<>();

  public GenotypeNetwork(Ops tf, long seed) {
    this.tf = tf;
    this.random = new Random(seed);
  }

  /** Multiply-adds per example for {@code channels} input channels. */
  public static long multiplyAdds(int channels) {
    long c1 = (long) ImageShape.DEFAULT_HEIGHT * CROP_WIDTH * channels * CONV1;
    int h2 = (ImageShape.DEFAULT_HEIGHT + 1) / 2, w2 = (CROP_WIDTH + 1) / 2; // stride 2, SAME padding
    long c2 = (long) h2 * w2 * 9 * CONV1 * CONV2;
    int h3 = (h2 + 1) / 2, w3 = (w2 + 1) / 2;
    long c3 = (long) h3 * w3 * 9 * CONV2 * CONV3;
    long d = (long) POOLED * HIDDEN + HIDDEN * 3L;
    return c1 + c2 + c3 + d;
  }

  /** Builds the logits [N,3] of {@code images} [N,100,221,C] uint8. */
  public Operand<TFloat32> logits(Operand<TUint8> images, int channels) {
    Operand<TFloat32> x = tf.math.mul(tf.dtypes.cast(images, TFloat32.class), tf.constant(1f / 255f));
    int first = ImageShape.DEFAULT_WIDTH / 2 - CROP_WIDTH / 2;
    x = tf.slice(x, tf.constant(new int[] {0, 0, first, 0}), tf.constant(new int[] {-1, -1, CROP_WIDTH, -1}));
    x = conv(x, 1, channels, CONV1, 1);
    // The candidate's own columns: per-read pixel features (base, quality, strand, support)
    // pooled over the reads, so allele support can be weighed by quality and strand.
    Operand<TFloat32> centre =
        tf.slice(x, tf.constant(new int[] {0, 0, CROP_WIDTH / 2 - CENTRE_WIDTH / 2, 0}),
            tf.constant(new int[] {-1, -1, CENTRE_WIDTH, -1}));
    Operand<TFloat32> centreMean = tf.math.mean(centre, tf.constant(new int[] {1, 2}));
    Operand<TFloat32> centreMax = tf.max(centre, tf.constant(new int[] {1, 2}));
    x = conv(x, 3, CONV1, CONV2, 2);
    x = conv(x, 3, CONV2, CONV3, 2);
    Operand<TFloat32> mean = tf.math.mean(x, tf.constant(new int[] {1, 2}));
    Operand<TFloat32> max = tf.max(x, tf.constant(new int[] {1, 2}));
    Operand<TFloat32> pooled = tf.concat(List.of(mean, max, centreMean, centreMax), tf.constant(1));
    Operand<TFloat32> hidden = tf.nn.relu(dense(pooled, POOLED, HIDDEN));
    return dense(hidden, HIDDEN, 3);
  }

  public List<Operand<TFloat32>> variables() {
    return variables;
  }

  private Operand<TFloat32> conv(Operand<TFloat32> x, int k, int in, int out, int stride) {
    Operand<TFloat32> w = weight(Shape.of(k, k, in, out), k * k * in);
    Operand<TFloat32> b = bias(out);
    Operand<TFloat32> y =
        tf.nn.conv2d(x, w, List.of(1L, (long) stride, (long) stride, 1L), "SAME");
    return tf.nn.relu(tf.nn.biasAdd(y, b));
  }

  private Operand<TFloat32> dense(Operand<TFloat32> x, int in, int out) {
    Operand<TFloat32> w = weight(Shape.of(in, out), in);
    return tf.nn.biasAdd(tf.linalg.matMul(x, w), bias(out));
  }

  private Operand<TFloat32> weight(Shape shape, int fanIn) {
    float[] values = new float[(int) shape.size()];
    double std = Math.sqrt(2.0 / fanIn);
    for (int i = 0; i < values.length; i++) values[i] = (float) (random.nextGaussian() * std);
    Operand<TFloat32> v = tf.variable(tf.constant(shape, DataBuffers.of(values, true, false)));
    variables.add(v);
    return v;
  }

  private Operand<TFloat32> bias(int n) {
    Operand<TFloat32> v = tf.variable(tf.constant(StdArrays.ndCopyOf(new float[n])));
    variables.add(v);
    return v;
  }
}
