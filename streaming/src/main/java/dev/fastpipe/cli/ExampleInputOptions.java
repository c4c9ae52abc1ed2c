package dev.fastpipe.cli;

import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.plan.ExampleSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The make_examples inputs and thresholds shared by {@code make-examples} and {@code call}: one
 * definition of each option, its default read from {@link ExampleDefaults}. (Shard workers get none of these: they read the run plan their
 * parent made.)
 */
public final class ExampleInputOptions {
  @Option(names = "--ref", required = true, paramLabel = "REF.fa",
      description = "Indexed FASTA (plain, or bgzipped with .fai and .gzi).")
  Path ref;

  @Option(names = "--reads", required = true, paramLabel = "BAM|CRAM",
      description = "Indexed BAM or CRAM (CRAM decoded with --ref).")
  Path reads;

  @Option(names = "--regions", paramLabel = "REGION",
      description = "chr, chr:start-end or chr:pos (1-based, inclusive); several separated by spaces (as DeepVariant)"
          + " or commas (as bcftools; a comma between digits of a position is a thousands separator:"
          + " chr20:10,000,000-10,100,000), or the path of a BED file; repeatable.")
  List<String> regions = new ArrayList<>();

  @Option(names = "--bed", paramLabel = "BED",
      description = "BED of regions, unioned with --regions. Default: every contig in both reads and reference.")
  Path bed;

  @Option(names = "--exclude-contigs", split = ",", paramLabel = "PATTERN",
      description = "Leave out contigs whose whole name matches: a preset (" + ContigExclusion.PRESET_LIST + ")"
          + " or a regular expression; comma-separated, repeatable; applies to --regions and --bed too."
          + " Default: none.")
  List<String> excludeContigs = new ArrayList<>();

  @Option(names = "--sample", paramLabel = "NAME",
      description = "The sample to call: one the reads' read groups name (SM). Reads of several samples: only"
          + " this one's read groups are used. Default: the reads' only sample.")
  String sample;

  @Option(names = "--partition-size", paramLabel = "BP",
      description = "Sharding unit: shard i takes every N-th partition of this size (make-examples default 1000,"
          + " as DeepVariant; call default: about 8 partitions per shard, between 1 kb and 100 kb).")
  Integer partitionSize;

  @Option(names = "--min-mapq", description = "Minimum mapping quality (default ${DEFAULT-VALUE}).")
  int minMapq;

  @Option(names = "--min-base-quality", description = "Minimum base quality of a base that counts for a candidate allele (an"
      + " insertion: its inserted bases on average), 0-93 (default ${DEFAULT-VALUE}).")
  int minBaseQuality;

  @Option(names = "--default-base-quality", paramLabel = "Q",
      description = "Call reads stored without base qualities (QUAL '*') as if each base had quality Q (0-93); without"
          + " it such reads stop the run with one line naming the first.")
  Integer defaultBaseQuality;

  @Option(names = "--keep-duplicates", description = "Keep reads flagged as duplicates.")
  boolean keepDuplicates;

  @Option(names = "--keep-secondary", description = "Keep secondary alignments.")
  boolean keepSecondary;

  @Option(names = "--keep-supplementary", description = "Keep supplementary alignments.")
  boolean keepSupplementary;

  @Option(names = "--snp-min-count", description = "Candidate SNP: reads (default ${DEFAULT-VALUE}).")
  int snpMinCount;

  @Option(names = "--snp-min-fraction", description = "Candidate SNP: fraction (default ${DEFAULT-VALUE}).")
  double snpMinFraction;

  @Option(names = "--indel-min-count", description = "Candidate indel: reads (default ${DEFAULT-VALUE}).")
  int indelMinCount;

  @Option(names = "--indel-min-fraction", description = "Candidate indel: fraction (default ${DEFAULT-VALUE}).")
  double indelMinFraction;

  @Option(names = "--indel-shadow-ratio", paramLabel = "R",
      description = "Candidate indel: an allele is none when an indel of the same length change within 10 bp has R"
          + " times its reads (a repeat's misaligned copies of a real indel; default ${DEFAULT-VALUE}; 0: off).")
  int indelShadowRatio;

  @Option(names = "--gvcf-gq-binsize", paramLabel = "N",
      description = "gVCF: neighbouring positions share a reference block while their GQ stays in one bin of N"
          + " (DeepVariant's gvcf_gq_binsize; default ${DEFAULT-VALUE}; 1 = a block per GQ value).")
  int gvcfGqBinSize;

  @Mixin PloidyOptions ploidy;

  @Option(names = "--realign-reads", negatable = true, fallbackValue = "true",
      description = "Realign reads locally to assembled haplotypes where they disagree with the reference, before"
          + " candidates and images (as DeepVariant does for short reads; default on; --no-realign-reads: off).")
  boolean realignReads;

  /** True when the user chose --partition-size. */
  public boolean partitionSizeGiven() {
    return partitionSize != null;
  }

  /** Fills the inputs, regions and thresholds of {@code o}. */
  public ExampleSettings.Builder applyTo(ExampleSettings.Builder o) {
    o.reference(ref).reads(reads).regions(regions).regionsBed(bed).excludeContigs(excludeContigs).sample(sample);
    if (partitionSize != null) o.partitionSize(partitionSize);
    if (defaultBaseQuality != null) {
      o.defaultBaseQuality((int) dev.fastpipe.streaming.OptionRange.between("--default-base-quality", defaultBaseQuality, 0,
          ExampleSettings.ReadFilters.MAX_BASE_QUALITY));
    }
    return o.minMappingQuality(minMapq).minBaseQuality(minBaseQuality)
        .keepDuplicates(keepDuplicates).keepSecondary(keepSecondary).keepSupplementary(keepSupplementary)
        .snpMinCount(snpMinCount).snpMinFraction(snpMinFraction).indelMinCount(indelMinCount).indelMinFraction(indelMinFraction)
        .indelShadowRatio(indelShadowRatio)
        .gvcfGqBinSize(gvcfGqBinSize).realignReads(realignReads)
        .haploidContigs(ploidy.haploidContigs).parBed(ploidy.parBed);
  }
}
