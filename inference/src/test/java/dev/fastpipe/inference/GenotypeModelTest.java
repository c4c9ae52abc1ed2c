package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
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
      // A full batch; results stay per slot.
      batch.clear();
      for (int i = 0; i < 4; i++) batch.add(records, 17 + (i % 3) * bytes, bytes);
      float[] again = model.predict(batch, out);
      assertEquals(200f, again[11]);
    }
  }

  /**
   * The probabilities of image {@code probe} of {@code images} as float bits, from slot {@code slot} of a batch of
   * {@code size}: the other slots hold images drawn by {@code neighbours}, or the last image (zeros) when it is null.
   */
  private static int[] bitsAtSlot(GenotypeModel model, ImageBatch batch, UnsafeBuffer images, int probe, int size, int slot,
      Random neighbours) {
    int bytes = model.imageBytes();
    int count = images.capacity() / bytes;
    batch.clear();
    for (int i = 0; i < size; i++) {
      int image = i == slot ? probe : neighbours == null ? count - 1 : 1 + neighbours.nextInt(count - 1);
      batch.add(images, image * bytes, bytes);
    }
    float[] p = model.predict(batch, null);
    int[] bits = new int[GenotypeModel.GENOTYPES];
    for (int g = 0; g < bits.length; g++) bits[g] = Float.floatToIntBits(p[slot * GenotypeModel.GENOTYPES + g]);
    return bits;
  }

  /**
   * The measured fact that {@link GenotypeModel#CHUNK_IMAGES} rests on, on the shipped model:
   * within the one input shape, an image's probabilities are the same bits at every slot, beside
   * any other images, and in a partial batch whose unused slots hold stale images. With
   * {@code ONEDNN_MAX_CPU_ISA=AVX2} (the code path of an AVX2-only CPU) this fails for shapes
   * such as 7, 8 or 32: the dense layers' matmul treats a short tail block of rows differently.
   */
  @Test
  void aWarmedUpModelGivesTheBitsAColdOneGives() {
    Path shipped = Path.of("..", "models", "fastpipe-v5");
    UnsafeBuffer image = new UnsafeBuffer(new byte[100 * 221 * 6]);
    Random r = new Random(5);
    for (int i = 0; i < image.capacity(); i++) image.putByte(i, (byte) r.nextInt(255));
    float[] cold;
    try (GenotypeModel model = GenotypeModel.load(shipped, 1, 1); ImageBatch batch = model.newBatch(1)) {
      batch.add(image, 0, model.imageBytes());
      cold = model.predict(batch, null);
    }
    try (GenotypeModel model = GenotypeModel.load(shipped, 1, 1); ImageBatch batch = model.newBatch(1)) {
      model.warmUp();
      batch.add(image, 0, model.imageBytes());
      float[] warm = model.predict(batch, null);
      assertArrayEquals(cold, warm);
      assertEquals(1.0, warm[0] + warm[1] + warm[2], 1e-4, "probabilities");
    }
  }

  @Test
  void anImagesProbabilitiesDoNotDependOnItsSlotNorItsNeighbours() {
    try (GenotypeModel model = GenotypeModel.load(Path.of("..", "models", "fastpipe-v2"))) {
      int bytes = model.imageBytes();
      int s = GenotypeModel.CHUNK_IMAGES;
      Random r = new Random(11);
      UnsafeBuffer images = new UnsafeBuffer(new byte[8 * bytes]);
      for (int i = 0; i < images.capacity(); i++) images.putByte(i, (byte) (i % 221 < 120 ? r.nextInt(255) : 0));
      images.setMemory(7 * bytes, bytes, (byte) 0);
      try (ImageBatch batch = model.newBatch(2 * s)) {
        int[] alone = bitsAtSlot(model, batch, images, 0, 1, 0, null);
        float p = Float.intBitsToFloat(alone[0]) + Float.intBitsToFloat(alone[1]) + Float.intBitsToFloat(alone[2]);
        assertEquals(1.0, p, 1e-4, "probabilities");
        assertTrue(Float.intBitsToFloat(alone[2]) > 0 && Float.intBitsToFloat(alone[2]) < 0.5, Arrays.toString(alone));
        for (int slot = 0; slot < s; slot++) {
          assertArrayEquals(alone, bitsAtSlot(model, batch, images, 0, s, slot, r), "slot " + slot + " of a full chunk");
        }
        for (int size : new int[] {2, s - 1, s + 1, s + 7}) {
          assertArrayEquals(alone, bitsAtSlot(model, batch, images, 0, size, size - 1, r), "last of " + size);
          assertArrayEquals(alone, bitsAtSlot(model, batch, images, 0, size, size / 2, null), "middle of " + size + ", zeros");
        }
      }
    }
  }

  @Test
  void aBatchRunsAsFixedShapeChunksAndEachResultLandsAtItsImage(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("probe");
    exportProbe(dir, TUint8.class, 100, 221, 2, 3);
    try (GenotypeModel model = GenotypeModel.load(dir, 1, 1); ImageBatch batch = model.newBatch(5, 2);
        ImageBatch one = model.newBatch(1)) {
      assertEquals(GenotypeModel.CHUNK_IMAGES, one.chunkImages());
      int bytes = model.imageBytes();
      UnsafeBuffer records = recordsWithImages(3, bytes, (byte) 10, (byte) 20, (byte) 30, (byte) 40, (byte) 50);
      for (int i = 0; i < 5; i++) batch.add(records, 3 + i * bytes, bytes);
      float[] out = model.predict(batch, null);
      for (int i = 0; i < 5; i++) assertEquals(10f * (i + 1), out[3 * i + 2], "image " + i);
      // A partial batch: the stale images after it are run, and their outputs dropped.
      batch.clear();
      batch.add(records, 3 + 4 * bytes, bytes);
      Arrays.fill(out, -1f);
      model.predict(batch, out);
      assertEquals(50f, out[2]);
      assertEquals(-1f, out[3], "nothing is written past the batch's images");
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
