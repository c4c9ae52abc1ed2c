package dev.fastpipe.cli;

import dev.fastpipe.streaming.example.TfRecordExampleWriter;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesOptions;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fastpipe make-examples}: one task's examples to a gzipped TFRecord (the disk baseline). */
@Command(
    name = "make-examples",
    mixinStandardHelpOptions = true,
    usageHelpWidth = 110,
    description = {
      "Find candidate variants in BAM/CRAM reads and write DeepVariant-layout pileup examples",
      "(100 x 221 x 6|7 uint8) as a gzipped TFRecord of tf.Example. Sharding as DeepVariant's",
      "--task: task i takes every N-th partition. A summary line goes to stderr."
    })
public final class MakeExamplesCommand implements Callable<Integer> {
  @Option(names = "--ref", required = true, description = "Indexed FASTA (plain, or bgzipped with .fai and .gzi).")
  Path ref;

  @Option(names = "--reads", required = true, description = "Indexed BAM or CRAM (CRAM decoded with --ref).")
  Path reads;

  @Option(names = "--output", required = true, description = "Examples, EX.tfrecord.gz (written as EX.tfrecord.gz.tmp, renamed on success).")
  Path output;

  @Option(names = "--regions", description = "chr or chr:start-end (1-based, inclusive); repeatable.")
  List<String> regions = new ArrayList<>();

  @Option(names = "--bed", description = "BED of regions, unioned with --regions. Default: every contig in both reads and reference.")
  Path bed;

  @Option(names = "--shards", defaultValue = "1", description = "Number of tasks (default ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--task", defaultValue = "0", description = "This task, 0..shards-1 (default ${DEFAULT-VALUE}).")
  int task;

  @Option(names = "--partition-size", defaultValue = "1000", description = "Partition size in bp (default ${DEFAULT-VALUE}).")
  int partitionSize;

  @Option(names = "--truth-vcf", description = "Truth VCF for training labels (needs --confident-bed).")
  Path truthVcf;

  @Option(names = "--confident-bed", description = "Confident regions; candidates outside get no example.")
  Path confidentBed;

  @Option(names = "--candidates-vcf", description = "Also write every candidate alt allele, sites only, as C.vcf.gz + .tbi.")
  Path candidatesVcf;

  @Option(names = "--channels", defaultValue = "6", description = "6, or 7 to add insert size (default ${DEFAULT-VALUE}).")
  int channels;

  @Option(names = "--min-mapq", defaultValue = "5", description = "Minimum mapping quality (default ${DEFAULT-VALUE}).")
  int minMapq;

  @Option(names = "--min-base-quality", defaultValue = "10", description = "Minimum base quality (default ${DEFAULT-VALUE}).")
  int minBaseQuality;

  @Option(names = "--keep-duplicates", description = "Keep reads flagged as duplicates.")
  boolean keepDuplicates;

  @Option(names = "--keep-secondary", description = "Keep secondary alignments.")
  boolean keepSecondary;

  @Option(names = "--keep-supplementary", description = "Keep supplementary alignments.")
  boolean keepSupplementary;

  @Option(names = "--snp-min-count", defaultValue = "2") int snpMinCount;
  @Option(names = "--snp-min-fraction", defaultValue = "0.12") double snpMinFraction;
  @Option(names = "--indel-min-count", defaultValue = "2") int indelMinCount;
  @Option(names = "--indel-min-fraction", defaultValue = "0.06") double indelMinFraction;

  @Override
  public Integer call() {
    MakeExamplesOptions o = new MakeExamplesOptions();
    o.reference = ref;
    o.reads = reads;
    o.regions = regions;
    o.regionsBed = bed;
    o.shards = shards;
    o.task = task;
    o.partitionSize = partitionSize;
    o.truthVcf = truthVcf;
    o.confidentBed = confidentBed;
    o.candidatesVcf = candidatesVcf;
    o.channels = channels;
    o.minMappingQuality = minMapq;
    o.minBaseQuality = minBaseQuality;
    o.keepDuplicates = keepDuplicates;
    o.keepSecondary = keepSecondary;
    o.keepSupplementary = keepSupplementary;
    o.snpMinCount = snpMinCount;
    o.snpMinFraction = snpMinFraction;
    o.indelMinCount = indelMinCount;
    o.indelMinFraction = indelMinFraction;
    try {
      o.validate();
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    TfRecordExampleWriter writer = new TfRecordExampleWriter(output);
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
