package dev.fastpipe.cli;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.example.TfRecordExampleWriter;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fastpipe make-examples}: one task's examples to a gzipped TFRecord (the disk baseline). */
@Command(
    name = "make-examples",
    header = "Find candidates and write DeepVariant-layout pileup examples to a TFRecord file.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ExampleDefaults.class,
    description = {
      "Find candidate variants in BAM/CRAM reads and write DeepVariant-layout pileup examples",
      "(" + ImageShape.DEFAULT_HEIGHT + " x " + ImageShape.DEFAULT_WIDTH + " x 6|7 uint8) as a gzipped TFRecord of tf.Example. Sharding as DeepVariant's",
      "--task: task i takes every N-th partition. A summary line goes to stderr."
    })
public final class MakeExamplesCommand implements Callable<Integer> {
  @Mixin ExampleInputOptions input;

  @Option(names = "--output", required = true, description = "Examples, EX.tfrecord.gz (written as EX.tfrecord.gz.tmp, renamed on success).")
  Path output;

  @Option(names = "--shards", description = "Number of tasks (default ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--task", description = "This task, 0..shards-1 (default ${DEFAULT-VALUE}).")
  int task;

  @Option(names = "--truth-vcf", description = "Truth VCF for training labels (needs --confident-bed).")
  Path truthVcf;

  @Option(names = "--confident-bed", description = "Confident regions; candidates outside get no example.")
  Path confidentBed;

  @Option(names = "--candidates-vcf", description = "Also write every candidate alt allele, sites only, as C.vcf.gz + .tbi.")
  Path candidatesVcf;

  @Option(names = "--gvcf-blocks", paramLabel = "BLOCKS.tfrecord.gz",
      description = "Also write this task's reference blocks (gVCF reference confidence) for postprocess --gvcf.")
  Path gvcfBlocks;

  @Option(names = "--channels", description = "6, or 7 to add insert size (default ${DEFAULT-VALUE}).")
  int channels;

  @Override
  public Integer call() {
    ExampleSettings o = input.applyTo(ExampleSettings.builder()).shards(shards).task(task).truthVcf(truthVcf)
        .confidentBed(confidentBed).candidatesVcf(candidatesVcf).channels(channels).gvcf(gvcfBlocks != null).build();
    // (planned: the writers create a missing directory)
    o.declareFiles(RunFiles.builder()).plannedOutput("--output", output).plannedOutput("--gvcf-blocks", gvcfBlocks).check();
    TfRecordExampleWriter writer = new TfRecordExampleWriter(output);
    if (gvcfBlocks != null) {
      try {
        writer.withRefBlocks(gvcfBlocks);
      } catch (RuntimeException e) {
        writer.discard();
        throw e;
      }
    }
    MakeExamplesStats stats;
    try {
      stats = MakeExamples.run(o, writer);
    } catch (RuntimeException e) {
      writer.discard();
      throw e;
    }
    writer.close();
    System.err.println("make-examples task " + task + "/" + shards + ": " + stats);
    return 0;
  }
}
