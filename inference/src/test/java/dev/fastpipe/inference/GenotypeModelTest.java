package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Session;
import org.tensorflow.SessionFunction;
import org.tensorflow.Signature;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TUint8;
import org.tensorflow.types.family.TNumber;

class GenotypeModelTest {

  /**
   * Exports a probe model: for each image, output = [mean of pixels, max of pixels, first pixel].
   * Not probabilities, but it lets a test see exactly which bytes reached the tensor.
   */
  private static <T extends TNumber> void exportProbe(Path dir, Class<T> type, long height, long width, long channels, long outputs)
      throws Exception {
    try (Graph g = new Graph(); Session s = new Session(g)) {
      Ops tf = Ops.create(g);
      Placeholder<T> in = tf.withName("x").placeholder(type, Placeholder.shape(Shape.of(-1, height, width, channels)));
      Operand<TFloat32> x = tf.reshape(tf.dtypes.cast(in, TFloat32.class), tf.constant(new int[] {-1, (int) (height * width * channels)}));
      Operand<TFloat32> bias = tf.variable(tf.constant(0f));
      Operand<TFloat32> mean = tf.math.mean(x, tf.constant(new int[] {1}), org.tensorflow.op.math.Mean.keepDims(true));
      Operand<TFloat32> max = tf.max(x, tf.constant(new int[] {1}), org.tensorflow.op.core.Max.keepDims(true));
      Operand<TFloat32> first = tf.slice(x, tf.constant(new int[] {0, 0}), tf.constant(new int[] {-1, 1}));
      Operand<TFloat32> out = tf.math.add(tf.concat(java.util.List.of(mean, max, first), tf.constant(1)), bias);
      if (outputs != 3) out = tf.slice(out, tf.constant(new int[] {0, 0}), tf.constant(new int[] {-1, (int) outputs}));
      s.initialize();
      Signature sig = Signature.builder().key(Signature.DEFAULT_KEY).input("x", in).output("y", out).build();
      SavedModelBundle.exporter(dir.toString()).withFunction(SessionFunction.create(sig, s)).export();
    }
  }

  private static UnsafeBuffer recordsWithImages(int prefix, int imageBytes, byte... firstBytes) {
    UnsafeBuffer buf = new UnsafeBuffer(new byte[prefix + imageBytes * firstBytes.length]);
    for (int i = 0; i < firstBytes.length; i++) {
      int at = prefix + i * imageBytes;
      buf.setMemory(at, imageBytes, (byte) 1);
      buf.putByte(at, firstBytes[i]);
    }
    return buf;
  }

  @Test
  void uint8ImagesAreCopiedFromRecordMemoryIntoTheInputTensor(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("probe");
    exportProbe(dir, TUint8.class, 100, 221, 2, 3);
    try (GenotypeModel model = GenotypeModel.load(dir, 1, 1); ImageBatch batch = model.newBatch(4)) {
      assertEquals(2, model.channels());
      int bytes = model.imageBytes();
      UnsafeBuffer records = recordsWithImages(17, bytes, (byte) 200, (byte) 3, (byte) 255);
      for (int i = 0; i < 3; i++) batch.add(records, 17 + i * bytes, bytes);
      float[] out = model.predict(batch, new float[0]);
      assertTrue(out.length >= 9);
      assertEquals(200f, out[2]);
      assertEquals(3f, out[5]);
      assertEquals(255f, out[7]);
      assertEquals((1f * (bytes - 1) + 255f) / bytes, out[6], 1e-4);
      // A full batch reuses the batch tensor itself; results stay per slot.
      batch.clear();
      for (int i = 0; i < 4; i++) batch.add(records, 17 + (i % 3) * bytes, bytes);
      float[] again = model.predict(batch, out);
      assertEquals(200f, again[11]);
    }
  }

  @Test
  void float32ModelsReceivePixelValuesAsFloats(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("probe");
    exportProbe(dir, TFloat32.class, 100, 221, 1, 3);
    try (GenotypeModel model = GenotypeModel.load(dir); ImageBatch batch = model.newBatch(2)) {
      assertTrue(model.floatInput());
      UnsafeBuffer records = recordsWithImages(0, model.imageBytes(), (byte) 254);
      batch.add(records, 0, model.imageBytes());
      float[] out = model.predict(batch, null);
      assertEquals(254f, out[2]);
      assertEquals(254f, out[1]);
    }
  }

  @Test
  void wrongImageShapeIsRejectedNamingBothShapes(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("wrong");
    exportProbe(dir, TFloat32.class, 299, 299, 3, 3);
    var e = assertThrows(ModelSignatureException.class, () -> GenotypeModel.load(dir));
    assertTrue(e.getMessage().contains("[N,299,299,3]"), e.getMessage());
    assertTrue(e.getMessage().contains("[N,100,221,C]"), e.getMessage());
    assertTrue(e.getMessage().startsWith(dir.toString()), e.getMessage());
  }

  @Test
  void wrongOutputShapeIsRejected(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("two");
    exportProbe(dir, TUint8.class, 100, 221, 6, 2);
    var e = assertThrows(ModelSignatureException.class, () -> GenotypeModel.load(dir));
    assertTrue(e.getMessage().contains("y [N,2] float32"), e.getMessage());
    assertTrue(e.getMessage().contains("[N,3]"), e.getMessage());
  }

  @Test
  void aDirectoryWithoutSavedModelIsRejected(@TempDir Path tmp) {
    var e = assertThrows(IllegalArgumentException.class, () -> GenotypeModel.load(tmp));
    assertTrue(e.getMessage().contains("not a SavedModel"), e.getMessage());
  }

  @Test
  void imagesOfTheWrongSizeAreRefused() {
    try (ImageBatch batch = ImageBatch.create(2, 100, 221, 6, false)) {
      UnsafeBuffer buf = new UnsafeBuffer(new byte[10]);
      assertThrows(IllegalArgumentException.class, () -> batch.add(buf, 0, 10));
    }
  }
}
