package dev.fastpipe.streaming.example;

import dev.fastpipe.inference.TrainingSet;
import dev.fastpipe.streaming.InputException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Labelled examples from make-examples' TFRecord files, gathered into one {@link TrainingSet}. */
public final class TrainingExamples {
  private TrainingExamples() {}

  /**
   * Reads every EXAMPLE record of {@code files}; all must carry a label and the same image shape.
   *
   * @param channels the channels every image must have, or null to take the first image's
   * @throws InputException naming the file and the problem (missing, unlabelled, wrong shape, empty)
   */
  public static TrainingSet load(List<Path> files, Integer channels) {
    return load(files, channels, null);
  }

  /** As {@link #load(List, Integer)}, also handing each labelled EXAMPLE record to {@code each} (when not null). */
  public static TrainingSet load(List<Path> files, Integer channels, java.util.function.Consumer<ExampleRecord> each) {
    TrainingSet[] set = {null};
    forEach(files, (p, r) -> {
      if (set[0] == null) set[0] = new TrainingSet(channels != null ? channels : r.channels());
      if (!r.hasShape(set[0].shape())) {
        throw new InputException(p + ": example image is " + r.shape() + ", expected " + set[0].shape());
      }
      set[0].add(r.buffer(), r.imageOffset(), r.imageLength(), r.label());
      if (each != null) each.accept(r);
    });
    return set[0];
  }

  /**
   * Hands every labelled EXAMPLE record of {@code files} to {@code each}, with its file.
   *
   * @throws InputException naming the file and the problem (missing, unlabelled, empty)
   */
  public static void forEach(List<Path> files, java.util.function.BiConsumer<Path, ExampleRecord> each) {
    long n = 0;
    for (Path p : files) {
      if (!Files.isRegularFile(p)) throw new InputException(p + ": examples file not found");
      try (TfRecordExampleReader reader = new TfRecordExampleReader(p)) {
        while (reader.next()) {
          ExampleRecord r = reader.record();
          if (!r.isExample()) continue;
          if (r.label() < 0) {
            throw new InputException(p + ": example at contig " + r.contigIndex() + ":" + (r.position() + 1)
                + " has no label (make examples with --truth-vcf and --confident-bed)");
          }
          each.accept(p, r);
          n++;
        }
      } catch (UncheckedIOException e) {
        throw new InputException(e.getMessage(), e);
      }
    }
    if (n == 0) throw new InputException(files + ": no examples");
  }
}
