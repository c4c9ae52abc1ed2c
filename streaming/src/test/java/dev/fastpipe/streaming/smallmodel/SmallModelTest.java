package dev.fastpipe.streaming.smallmodel;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small model's training, thresholds and file. */
class SmallModelTest {
  static final List<String> NAMES = List.of("alt_fraction", "noise", "is_snp");

  /** A separable toy: genotype from the alt fraction (< 0.2 hom-ref, 0.3..0.7 het, > 0.8 hom-alt), plus noise. */
  static FeatureTable toy(long seed, int n) {
    Random r = new Random(seed);
    FeatureTable t = new FeatureTable(3);
    for (int i = 0; i < n; i++) {
      int label = i % 3;
      double af = switch (label) {
        case 0 -> 0.2 * r.nextDouble();
        case 1 -> 0.3 + 0.4 * r.nextDouble();
        default -> 0.8 + 0.2 * r.nextDouble();
      };
      boolean snp = r.nextBoolean();
      t.add(new float[] {(float) af, (float) r.nextGaussian(), snp ? 1 : 0}, label, snp);
    }
    return t;
  }

  static SmallModelTrainer trainer(long seed) {
    return new SmallModelTrainer(new SmallModelTrainer.Settings(8, 40, 32, 0.01, 1e-4, seed));
  }

  @Test
  void learnsASeparableProblem() {
    SmallModel m = trainer(1).train(toy(1, 600), NAMES);
    FeatureTable test = toy(2, 600);
    float[] x = new float[3];
    float[] p = new float[3];
    int right = 0;
    for (int i = 0; i < test.size(); i++) {
      if (SmallModel.best(m.predict(test.row(i, x), p)) == test.label(i)) right++;
    }
    assertTrue(right >= 594, right + " of 600 right on unseen examples");
    m.predict(new float[] {0.5f, 0, 1}, p);
    assertEquals(1, SmallModel.best(p), "het at alt fraction 0.5");
    assertEquals(1.0, p[0] + p[1] + p[2], 1e-5);
  }

  @Test
  void trainingIsDeterministicGivenTheSeed() {
    String a = trainer(7).train(toy(3, 300), NAMES).toJson();
    String b = trainer(7).train(toy(3, 300), NAMES).toJson();
    String c = trainer(8).train(toy(3, 300), NAMES).toJson();
    assertEquals(a, b);
    assertNotEquals(a, c, "another seed, other weights");
  }

  @Test
  void takesOnlyInsideTheEnvelopeOfGenotypesItSawEnough() {
    FeatureTable t = toy(1, 600); // 200 per genotype
    FeatureTable few = new FeatureTable(3);
    for (int i = 0; i < t.size(); i++) {
      if (t.label(i) != 2 || i < 3 * (SmallModelTrainer.MIN_CLASS_EXAMPLES - 1)) few.add(t.row(i, new float[3]), t.label(i), t.isSnp(i));
    }
    SmallModel m = trainer(1).train(t, NAMES);
    m.thresholds(0, 0);
    float[] p = new float[3];
    assertTrue(m.takes(new float[] {0.5f, 0, 1}, true, p), "a het like those it was trained on");
    assertFalse(m.takes(new float[] {0.5f, 40, 1}, true, p), "noise 40 sd away: outside the envelope");
    assertTrue(m.inside(new float[] {0.5f, 0, 1}, 1));
    assertFalse(m.inside(new float[] {0.5f, 0, 1}, 0), "alt fraction 0.5 is outside the hom-ref envelope");
    SmallModel fewHomAlt = trainer(1).train(few, NAMES);
    fewHomAlt.thresholds(0, 0);
    assertFalse(fewHomAlt.inside(new float[] {0.9f, 0, 1}, 2), "under " + SmallModelTrainer.MIN_CLASS_EXAMPLES
        + " hom-alt examples: no envelope, hom-alt is never taken");
    assertFalse(fewHomAlt.takes(new float[] {0.9f, 0, 1}, true, p));
  }

  @Test
  void gqOfTheBestGenotype() {
    assertEquals(20, SmallModel.gq(new float[] {0.005f, 0.99f, 0.005f}));
    assertEquals(2, SmallModel.gq(new float[] {0.4f, 0.3f, 0.3f}), "-10 log10(0.6) = 2.2");
    assertEquals(SmallModel.MAX_GQ, SmallModel.gq(new float[] {0, 1, 0}));
  }

  @Test
  void thresholdIsTheLowestGqWithinTheErrorBudget() {
    // GQ 10: 10 examples, 5 wrong; GQ 30: 100, 1 wrong; GQ 50: 200, none wrong.
    int n = 310;
    int[] gq = new int[n];
    boolean[] ok = new boolean[n];
    for (int i = 0; i < n; i++) {
      gq[i] = i < 10 ? 10 : i < 110 ? 30 : 50;
      ok[i] = !(i < 5 || i == 10);
    }
    ThresholdChooser.Choice zero = ThresholdChooser.choose(gq, ok, 0.0, 1, 0);
    assertEquals(31, zero.threshold(), "no error allowed: above GQ 30");
    assertEquals(200, zero.taken());
    ThresholdChooser.Choice one = ThresholdChooser.choose(gq, ok, 0.005, 1, 0);
    assertEquals(11, one.threshold(), "1 error in 300 = 0.0033 <= 0.005; with GQ 10, 6 in 310 > 0.005");
    assertEquals(300, one.taken());
    assertEquals(1, one.errors());
    assertEquals(SmallModel.NEVER, ThresholdChooser.choose(gq, ok, 0.0, 201, 0).threshold(), "too few taken");
    assertEquals(0, ThresholdChooser.choose(gq, ok, 0.5, 1, 0).threshold(), "a loose budget takes all");
    assertEquals(20, ThresholdChooser.choose(gq, ok, 0.5, 1, 20).threshold(), "but not below the floor");
  }

  @Test
  void fileRoundTripGivesTheSamePredictionsAndThresholds(@TempDir Path dir) throws Exception {
    SmallModel m = trainer(1).trainAndChoose(toy(1, 600), toy(5, 300), NAMES, 0.01, 10, 0);
    m.save(dir);
    SmallModel back = SmallModel.load(dir.resolve(SmallModel.FILE_NAME), NAMES);
    assertEquals(m.threshold(true), back.threshold(true));
    assertEquals(m.threshold(false), back.threshold(false));
    assertTrue(m.threshold(true) < SmallModel.NEVER, "the toy is easy: SNPs get a threshold");
    float[] x = {0.45f, 0.3f, 1};
    assertArrayEquals(m.predict(x, new float[3]), back.predict(x, new float[3]), 0f,
        "trainAndChoose keeps the weights as stored");
    assertNotNull(back.info().get("validation"));
    assertEquals(m.inside(x, 1), back.inside(x, 1));
    assertEquals(m.toJson(), back.toJson(), "envelope, thresholds and weights survive the file");
    assertEquals(Path.of(dir.toString(), SmallModel.FILE_NAME), SmallModel.find(dir));
  }

  /** The shipped models (written by the hand-made JSON writer before Jackson) read and write back the same values. */
  @Test
  void theShippedSmallModelsReadAndWriteBackTheSameModel(@TempDir Path dir) throws Exception {
    Path models = Path.of("..", "models").toAbsolutePath().normalize();
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(models), "no models/ beside the module");
    int seen = 0;
    try (var dirs = Files.list(models)) {
      for (Path d : dirs.sorted().toList()) {
        Path f = SmallModel.find(d);
        if (f == null) continue;
        SmallModel m = SmallModel.load(f, null);
        Path copy = Files.createDirectories(dir.resolve(d.getFileName().toString()));
        m.save(copy);
        SmallModel back = SmallModel.load(copy.resolve(SmallModel.FILE_NAME), null);
        assertEquals(m.toJson(), back.toJson(), d.toString());
        assertEquals(m.info(), back.info(), d + ": training and validation figures");
        float[] x = new float[m.features.size()];
        for (int i = 0; i < x.length; i++) x[i] = (float) m.mean[i];
        assertArrayEquals(m.predict(x, new float[3]), back.predict(x, new float[3]), 0f, d.toString());
        assertEquals(m.threshold(true), back.threshold(true));
        seen++;
      }
    }
    assertTrue(seen >= 3, "small models found: " + seen);
  }

  @Test
  void aFileForOtherFeaturesIsNamed(@TempDir Path dir) throws Exception {
    trainer(1).train(toy(1, 60), NAMES).save(dir);
    Path f = dir.resolve(SmallModel.FILE_NAME);
    InputException e = assertThrows(InputException.class, () -> SmallModel.load(f, List.of("depth")));
    assertTrue(e.getMessage().startsWith(f + ": "), e.getMessage());
    assertTrue(e.getMessage().contains("retrain"), e.getMessage());
    Files.writeString(f, "{\"format\": \"other\"}");
    assertThrows(InputException.class, () -> SmallModel.load(f, NAMES));
    assertNull(SmallModel.find(dir.resolve("none")));
  }
}
