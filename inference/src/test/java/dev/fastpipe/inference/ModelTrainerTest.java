package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelTrainerTest {
  private static final int C = 6;
  private static final int BYTES = 100 * 221 * C;

  /**
   * A synthetic pileup: 30 read rows; label k marks k*15 of them as "supports variant"
   * (channel 4) across the centre columns, with some noise in the other channels.
   */
  private static byte[] image(int label, Random r) {
    byte[] img = new byte[BYTES];
    int reads = 30;
    for (int row = 5; row < 5 + reads; row++) {
      boolean supports = row - 5 < label * 15;
      for (int col = 80; col < 141; col++) {
        int at = (row * 221 + col) * C;
        img[at] = (byte) (50 + r.nextInt(200));
        img[at + 1] = (byte) 180;
        img[at + 2] = (byte) 200;
        img[at + 3] = (byte) (r.nextBoolean() ? 70 : 35);
        img[at + 4] = (byte) (supports ? 254 : 127);
        img[at + 5] = (byte) (supports && col == 110 ? 254 : 0);
      }
    }
    return img;
  }

  @Test
  void trainsExportsLoadsAndPredicts(@TempDir Path tmp) throws Exception {
    Random r = new Random(3);
    TrainingSet train = new TrainingSet(C);
    TrainingSet val = new TrainingSet(C);
    for (int i = 0; i < 48; i++) {
      byte[] img = image(i % 3, r);
      train.add(new UnsafeBuffer(img), 0, img.length, i % 3);
    }
    for (int i = 0; i < 6; i++) {
      byte[] img = image(i % 3, r);
      val.add(new UnsafeBuffer(img), 0, img.length, i % 3);
    }
    var log = new ByteArrayOutputStream();
    var settings = new ModelTrainer.Settings(8, 16, 1e-2f, 5, true, 2, 2, 1f);
    Path out = tmp.resolve("model");
    ModelTrainer.EpochReport last = new ModelTrainer(settings, new PrintStream(log, true)).trainAndExport(train, val, out);
    String text = log.toString();
    assertTrue(text.contains("epoch 8/8: loss"), text);
    assertTrue(text.contains("validation accuracy"), text);
    assertTrue(Files.isRegularFile(out.resolve("saved_model.pb")));
    assertTrue(last.validationAccuracy() >= 0.99, text);

    try (GenotypeModel model = GenotypeModel.load(out, 1, 1); ImageBatch batch = model.newBatch(4)) {
      assertEquals(C, model.channels());
      assertTrue(model.describe().contains("images [N,100,221,6] uint8 -> probabilities [N,3]"), model.describe());
      UnsafeBuffer records = new UnsafeBuffer(new byte[3 * BYTES + 5]);
      for (int k = 0; k < 3; k++) records.putBytes(5 + k * BYTES, image(k, r));
      for (int k = 0; k < 3; k++) batch.add(records, 5 + k * BYTES, BYTES);
      float[] p = model.predict(batch, new float[12]);
      for (int k = 0; k < 3; k++) {
        assertEquals(1.0, p[3 * k] + p[3 * k + 1] + p[3 * k + 2], 1e-4);
        assertEquals(k, ModelTrainer.argMax(p, k), "example " + k);
      }
    }
  }

  @Test
  void keepBestEpochExportsTheWeightsOfThatEpoch(@TempDir Path tmp) throws Exception {
    Random r = new Random(4);
    TrainingSet train = new TrainingSet(C);
    TrainingSet misleading = new TrainingSet(C); // labels shifted by one: accuracy falls as training learns
    for (int i = 0; i < 48; i++) {
      byte[] img = image(i % 3, r);
      train.add(new UnsafeBuffer(img), 0, img.length, i % 3);
    }
    for (int i = 0; i < 9; i++) {
      byte[] img = image(i % 3, r);
      misleading.add(new UnsafeBuffer(img), 0, img.length, (i + 1) % 3);
    }
    var log = new ByteArrayOutputStream();
    ModelTrainer.EpochReport kept = new ModelTrainer(new ModelTrainer.Settings(6, 16, 1e-2f, 5, false, 1, 1, 1f, true),
        new PrintStream(log, true)).trainAndExport(train, misleading, tmp.resolve("best"));
    assertTrue(kept.epoch() < 6, "the misleading validation set peaks before the last epoch: " + log);
    assertTrue(log.toString().contains("keeping epoch " + kept.epoch()), log.toString());
    // The same training stopped at that epoch exports the same weights: same predictions.
    ModelTrainer.EpochReport stopped = new ModelTrainer(
        new ModelTrainer.Settings(kept.epoch(), 16, 1e-2f, 5, false, 1, 1, 1f, false),
        new PrintStream(new ByteArrayOutputStream(), true)).trainAndExport(train, misleading, tmp.resolve("stopped"));
    assertEquals(kept.validationAccuracy(), stopped.validationAccuracy());
    float[][] p = new float[2][];
    String[] dirs = {"best", "stopped"};
    for (int m = 0; m < 2; m++) {
      try (GenotypeModel model = GenotypeModel.load(tmp.resolve(dirs[m]), 1, 1); ImageBatch batch = model.newBatch(3)) {
        UnsafeBuffer records = new UnsafeBuffer(new byte[3 * BYTES]);
        Random same = new Random(11);
        for (int k = 0; k < 3; k++) records.putBytes(k * BYTES, image(k, same));
        for (int k = 0; k < 3; k++) batch.add(records, k * BYTES, BYTES);
        p[m] = model.predict(batch, new float[9]);
      }
    }
    for (int i = 0; i < 9; i++) assertEquals(p[1][i], p[0][i], 1e-6, "probability " + i);
  }

  @Test
  void qualityAugmentationScalesOnlyTheReadsBaseQualities() {
    byte[] img = image(1, new Random(9));
    for (int col = 0; col < 221; col++) img[(2 * 221 + col) * C + 1] = (byte) 254; // a reference row
    byte[] out = ModelTrainer.scaleBaseQualities(img, C, 0.5f, new byte[BYTES]);
    int scaled = 0;
    for (int i = 0; i < BYTES; i++) {
      int row = i / C / 221;
      int channel = i % C;
      int expected = channel == 1 && row >= 5 ? (int) ((img[i] & 0xff) * 0.5f) : img[i] & 0xff;
      assertEquals(expected, out[i] & 0xff, "byte " + i);
      if (expected != (img[i] & 0xff)) scaled++;
    }
    assertEquals(30 * 61, scaled, "the base-quality pixels of the 30 reads x 61 columns");
    assertEquals(90, out[(5 * 221 + 110) * C + 1] & 0xff, "180 * 0.5");
    assertEquals(254, out[(2 * 221 + 110) * C + 1] & 0xff, "reference rows keep their quality");
  }

  @Test
  void multiplyAddsMatchTheDocumentedFigure() {
    assertEquals(9_037_792L, GenotypeNetwork.multiplyAdds(6));
  }
}
