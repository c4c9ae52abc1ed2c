package dev.fastpipe.cli;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.inference.ImageBatch;
import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.streaming.bench.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Inference throughput by batch size and images per session call: copies images from a record
 * buffer into the input tensors and runs the model, as call-variants does, for a fixed time per
 * (round, batch size, chunk size). Rounds interleave the settings so machine noise spreads over
 * all of them. Chunk size 0 feeds each batch as one tensor of the batch's size, as fastpipe did
 * before {@link GenotypeModel#CHUNK_IMAGES}.
 */
@Command(
    name = "bench-inference",
    header = "Benchmark model inference (examples/s) by batch size and chunk size.",
    mixinStandardHelpOptions = true,
    description = {"Measure examples/s of a model for several batch sizes and images per session call "
        + "(copy into tensor + session runs)."})
public final class BenchInferenceCommand implements Callable<Integer> {

  @Mixin ModelOptions modelOptions;

  @Option(names = "--batch-sizes", split = ",", defaultValue = "16,32,64,128,256,512",
      description = "Batch sizes to measure (default ${DEFAULT-VALUE}).")
  List<Integer> batchSizes;

  @Option(names = "--chunk-images", split = ",", defaultValue = "" + GenotypeModel.CHUNK_IMAGES,
      description = "Images per session call to measure; 0 = the whole batch as one tensor (default ${DEFAULT-VALUE}, "
          + "what call-variants uses).")
  List<Integer> chunkImages;

  @Option(names = "--seconds", defaultValue = "3", description = "Seconds per setting per round (default ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--repeats", defaultValue = "3", paramLabel = "N",
      description = "Measured rounds, each measuring every setting once (default ${DEFAULT-VALUE}).")
  int rounds;

  /** --rounds: --repeats' first spelling here, kept hidden for one release (OptionSpellingsTest). */
  @Option(names = "--rounds", hidden = true, paramLabel = "N")
  Integer roundsAlias;

  /** The measured rounds: --repeats, or --rounds when that was given. */
  int repeats() {
    return roundsAlias != null ? roundsAlias : rounds;
  }

  @Option(names = "--vs-model", paramLabel = "DIR",
      description = "Another SavedModel to measure in the same run, interleaved setting by setting with --model"
          + " (repeatable): the fair way to compare two models on a shared machine.")
  List<java.nio.file.Path> vsModels = new ArrayList<>();

  @Override
  public Integer call() {
    rounds = repeats();
    if (rounds < 1) throw new UserError("--repeats must be >= 1, got " + rounds);
    List<GenotypeModel> models = new ArrayList<>();
    try {
      models.add(modelOptions.load());
      for (java.nio.file.Path dir : vsModels) {
        GenotypeModel m = modelOptions.load(dir);
        if (m.channels() != models.get(0).channels()) {
          m.close();
          throw new UserError(dir + ": takes " + m.channels() + " image channels, --model takes " + models.get(0).channels());
        }
        models.add(m);
      }
      return measure(models);
    } finally {
      for (GenotypeModel m : models) m.close();
    }
  }

  private int measure(List<GenotypeModel> models) {
    {
      GenotypeModel first = models.get(0);
      ImageShape shape = ImageShape.deepVariant(first.channels());
      int bytes = shape.bytes();
      int pool = 64;
      UnsafeBuffer records = new UnsafeBuffer(new byte[pool * bytes]);
      Random r = new Random(1);
      for (int i = 0; i < pool * bytes; i++) { // random pixels in the left 120 columns, empty to the right
        int column = i % shape.rowBytes() / shape.channels();
        records.putByte(i, (byte) (column < 120 ? r.nextInt(255) : 0));
      }
      for (int m = 0; m < models.size(); m++) {
        System.out.println("model " + (models.size() > 1 ? m + " " : "") + models.get(m).describe() + ", "
            + Runtime.getRuntime().availableProcessors() + " cpus");
      }
      List<int[]> settings = new ArrayList<>(); // {batch, chunk, model}
      for (int size : batchSizes) {
        for (int chunk : chunkImages) {
          for (int m = 0; m < models.size(); m++) settings.add(new int[] {size, chunk == 0 ? size : chunk, m});
        }
      }
      List<List<Double>> rates = new ArrayList<>();
      for (int b = 0; b < settings.size(); b++) rates.add(new ArrayList<>());
      float[] out = null;
      for (int round = 0; round <= rounds; round++) {
        for (int b = 0; b < settings.size(); b++) {
          int size = settings.get(b)[0];
          GenotypeModel model = models.get(settings.get(b)[2]);
          try (ImageBatch batch = model.newBatch(size, settings.get(b)[1])) {
            long n = 0;
            long start = System.nanoTime();
            long end = start + (long) ((round == 0 ? 0.5 : seconds) * 1e9); // round 0 = warm-up
            int k = 0;
            while (System.nanoTime() < end) {
              batch.clear();
              for (int i = 0; i < size; i++) batch.add(records, (k++ % pool) * bytes, bytes);
              out = model.predict(batch, out);
              n += size;
            }
            if (round > 0) rates.get(b).add(n / ((System.nanoTime() - start) / 1e9));
          }
        }
      }
      // On a shared machine the rates swing with the load; the ratio to the first setting in the
      // same round (measured seconds apart) is steadier than either rate.
      System.out.println((models.size() > 1 ? "model\t" : "")
          + "batch\tchunk\texamples/s (median)\tmin\tmax\trounds\tvs first (median of per-round ratios)");
      for (int b = 0; b < settings.size(); b++) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rates.get(b).size(); i++) ratios.add(rates.get(b).get(i) / rates.get(0).get(i));
        List<Double> v = new ArrayList<>(rates.get(b));
        if (models.size() > 1) System.out.print(settings.get(b)[2] + "\t");
        System.out.printf("%d\t%d\t%.0f\t%.0f\t%.0f\t%d\t%.3f%n", settings.get(b)[0], settings.get(b)[1], median(v),
            java.util.Collections.min(v), java.util.Collections.max(v), v.size(), median(ratios));
      }
    }
    return 0;
  }

  /** The median of {@code values} ({@link Summary#median}: for an even count, the mean of the two middle ones). */
  static double median(List<Double> values) {
    return Summary.median(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
