package dev.fastpipe.cli;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.callvariants.CallsFile;
import dev.fastpipe.streaming.callvariants.ExampleClassifier;
import dev.fastpipe.streaming.example.TfRecordExampleReader;
import dev.fastpipe.streaming.genome.FileFormat;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.makeexamples.ReadErrorSample;
import dev.fastpipe.streaming.pileup.IndelErrorRate;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The classic path's second stage: examples on disk -> genotype probabilities on disk. */
@Command(
    name = "call-variants",
    header = "Classify examples from a TFRecord file with a SavedModel; write genotype probabilities.",
    mixinStandardHelpOptions = true,
    description = {
      "Classify examples (.tfrecord.gz from make-examples) with a TensorFlow SavedModel and write",
      "one line of genotype probabilities per example to CALLS (gzipped TSV, see docs/tools.md).",
      "Images go straight from the record buffer into the input tensor, B at a time."
    })
public final class CallVariantsCommand implements Callable<Integer> {

  @Option(names = "--examples", required = true, arity = "1..*", paramLabel = "EX.tfrecord.gz",
      description = "Example files from make-examples.")
  List<Path> examples;

  @Option(names = "--output", required = true, paramLabel = "CALLS", description = "Output CALLS file (gzipped).")
  Path output;

  @Mixin ModelOptions modelOptions;

  @Option(names = "--sample", paramLabel = "NAME", description = "Sample name recorded in CALLS for postprocess.")
  String sample;

  @Option(names = "--reads", paramLabel = "BAM",
      description = {"The reads the examples were made from: the sample name comes from their read groups (SM),",
          "and with --ref their strand artifact and indel error rates are measured as call measures them (first "
              + ReadErrorSample.READS + " reads",
          "passing the default read filters). Without both, they are assumed (" + StrandArtifactRate.DEFAULT
              + " artifacts per site, " + IndelErrorRate.FLOOR + " indel errors per read)."})
  Path reads;

  @Option(names = "--ref", paramLabel = "FASTA", description = "The reference of --reads (indexed FASTA), for the strand artifact rate.")
  Path reference;

  @Override
  public Integer call() throws IOException {
    for (Path p : examples) if (!Files.isRegularFile(p)) throw new UserError(p + ": examples file not found");
    SampleNames.requireVcfName("--sample", sample);
    if (reference != null && reads == null) throw new UserError("--ref needs --reads (the reads whose strand artifacts it measures)");
    RunFiles.builder().inputs("--examples", examples).reads("--reads", reads).reference("--ref", reference)
        .modelDirectory("--model", modelOptions.modelDir()).output("--output", output).check();
    for (Path p : examples) {
      // named before the model loads: an empty or plain file cannot be make-examples' gzipped TFRecords
      if (FileFormat.size(p) == 0) throw new UserError(p + ": empty file (0 bytes), not examples (make-examples' .tfrecord.gz)");
      if (FileFormat.compression(p) == FileFormat.Compression.PLAIN) {
        throw new UserError(p + ": not gzipped, not examples (make-examples' .tfrecord.gz; it starts with \""
            + FileFormat.printable(FileFormat.head(p, 16), 16) + "\")");
      }
    }
    int batchSize = modelOptions.batchSize();
    String sampleName = sample != null ? sample : reads != null ? SampleNames.fromReads(reads, null) : null;
    long t0 = System.nanoTime();
    ReadErrors errors = reference == null ? ReadErrors.assumed()
        : ReadErrorSample.measure(ExampleSettings.builder().reference(reference).reads(reads).build(),
            ReadErrorSample.READS);
    StrandArtifactRate artifacts = errors.strandArtifacts();
    System.err.println("call-variants: strand artifacts: " + artifacts.describe());
    System.err.println("call-variants: indel errors: " + errors.indels().describe());
    System.err.println("call-variants: base errors by quality: " + errors.bases().describe());
    try (GenotypeModel model = modelOptions.load()) {
      System.err.println("call-variants: model " + model.describe() + ", batch " + batchSize);
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put("model", model.describe());
      meta.put("sample", sampleName);
      meta.put("examples", examples.toString());
      meta.put("strand_artifact_rate", String.valueOf(artifacts.rate()));
      meta.put("indel_error_rates", errors.indels().describe());
      meta.put("base_error_rates", errors.bases().describe());
      CallsFile.Writer writer = new CallsFile.Writer(output, meta);
      boolean ok = false;
      try (ExampleClassifier classifier = new ExampleClassifier(model, batchSize, errors, writer, null)) {
        for (Path p : examples) {
          try (TfRecordExampleReader reader = new TfRecordExampleReader(p)) {
            reader.forEach(classifier);
          } catch (UncheckedIOException | IllegalArgumentException e) {
            throw new UserError(e.getMessage().startsWith(p.toString()) ? e.getMessage() : p + ": " + e.getMessage());
          }
        }
        classifier.flush();
        double secs = (System.nanoTime() - t0) / 1e9;
        double inf = classifier.inferenceNanos() / 1e9;
        System.err.printf(
            "call-variants: %d examples in %.2f s (%.0f examples/s overall; model %.2f s, %.0f examples/s) -> %s%n",
            classifier.examples(), secs, classifier.examples() / secs, inf,
            inf > 0 ? classifier.examples() / inf : 0.0, output);
        ok = true;
      } finally {
        if (ok) writer.close();
        else writer.abort();
      }
    }
    return 0;
  }
}
