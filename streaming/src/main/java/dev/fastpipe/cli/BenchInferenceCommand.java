package dev.fastpipe.cli;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.inference.ImageBatch;
import dev.fastpipe.inference.ImageShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Inference throughput by batch size: copies images from a record buffer into the input tensor
 * and runs the model, as call-variants does, for a fixed time per (round, batch size). Rounds
 * interleave the batch sizes so machine noise spreads over all of them.
 */
@Command(
    name = "bench-inference",
    header = "Benchmark model inference (examples/s) by batch size.",
    mixinStandardHelpOptions = true,
    description = {"Measure examples/s of a model for several batch sizes (copy into tensor + session run)."})
public final class BenchInferenceCommand implements Callable<Integer> {

  @Mixin ModelOptions modelOptions;

  @Option(names = "--batch-sizes", split = ",", defaultValue = "16,32,64,128,256,512",
      description = "Batch sizes to measure (default ${DEFAULT-VALUE}).")
  List<Integer> batchSizes;

  @Option(names = "--seconds", defaultValue = "3", description = "Seconds per batch size per round (default ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--rounds", defaultValue = "3", description = "Rounds (default ${DEFAULT-VALUE}).")
  int rounds;

  @Override
  public Integer call() {
    try (GenotypeModel model = modelOptions.load()) {
      ImageShape shape = ImageShape.deepVariant(model.channels());
      int bytes = shape.bytes();
      int pool = 64;
      UnsafeBuffer records = new UnsafeBuffer(new byte[pool * bytes]);
      Random r = new Random(1);
      for (int i = 0; i < pool * bytes; i++) { // random pixels in the left 120 columns, empty to the right
        int column = i % shape.rowBytes() / shape.channels();
        records.putByte(i, (byte) (column < 120 ? r.nextInt(255) : 0));
      }
      System.out.println("model " + model.describe() + ", " + Runtime.getRuntime().availableProcessors() + " cpus");
      List<List<Double>> rates = new ArrayList<>();
      for (int b = 0; b < batchSizes.size(); b++) rates.add(new ArrayList<>());
      float[] out = null;
      for (int round = 0; round <= rounds; round++) {
        for (int b = 0; b < batchSizes.size(); b++) {
          int size = batchSizes.get(b);
          try (ImageBatch batch = model.newBatch(size)) {
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
      System.out.println("batch\texamples/s (median)\tmin\tmax\trounds");
      for (int b = 0; b < batchSizes.size(); b++) {
        List<Double> v = new ArrayList<>(rates.get(b));
        v.sort(Double::compare);
        System.out.printf("%d\t%.0f\t%.0f\t%.0f\t%d%n", batchSizes.get(b), v.get(v.size() / 2), v.get(0), v.get(v.size() - 1), v.size());
      }
    }
    return 0;
  }
}
