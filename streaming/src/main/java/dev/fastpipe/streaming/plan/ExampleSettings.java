package dev.fastpipe.streaming.plan;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OptionRange;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.genome.SampleNames;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one make_examples task needs, as immutable values grouped as DeepVariant groups its
 * option messages. Made by {@link Builder#build}, the one place where the defaults (DeepVariant's
 * very-sensitive caller and its read requirements) are written and every range is checked.
 */
public record ExampleSettings(Inputs inputs, ReadFilters readFilters, CandidateThresholds candidates, Image image,
    Gvcf gvcf, Sharding sharding) {

  /**
   * The files read (and the candidates VCF written). {@code regions}: {@code chr},
   * {@code chr:start-end} (1-based, inclusive; commas allowed) or BED files, unioned with
   * {@code regionsBed} (0-based, half-open); {@code excludeContigs}: presets of
   * {@link dev.fastpipe.streaming.genome.ContigExclusion} or regular expressions, empty: none;
   * {@code sample}: the sample to call, null: the reads' only one (on reads of several samples only
   * its read groups are used); {@code truthVcf} and {@code confidentBed}: training labels;
   * {@code smallModel}: {@code small_model.json}, null: none (bi-allelic candidates it calls with GQ
   * at or above their type's threshold become SMALL_CALL records without an image);
   * {@code candidatesVcf}: a sites-only bgzipped VCF of every candidate alt allele, with .tbi.
   */
  public record Inputs(Path reference, Path reads, List<String> regions, Path regionsBed, List<String> excludeContigs,
      String sample, Path truthVcf, Path confidentBed, Path smallModel, Path candidatesVcf) {
    public Inputs {
      regions = List.copyOf(regions);
      excludeContigs = List.copyOf(excludeContigs);
    }
  }

  /**
   * Which reads count (DeepVariant's defaults). {@code defaultBaseQuality}: the base quality given
   * to every base of a read stored without qualities (QUAL {@code *}); -1: such reads are refused
   * (the make_examples read normalizer).
   */
  public record ReadFilters(int minMappingQuality, int minBaseQuality, boolean keepDuplicates, boolean keepSecondary,
      boolean keepSupplementary, boolean keepQcFail, int defaultBaseQuality) {
    /** The highest base quality a read can hold: SAM's QUAL is Phred+33 in printable ASCII, '~' = 93. */
    public static final int MAX_BASE_QUALITY = 93;
  }

  /**
   * What makes a candidate (DeepVariant's very sensitive caller): reads and fraction of them per
   * allele type; and {@code indelShadowRatio}: an indel allele with that many times fewer reads than
   * one of the same length change a few bases away is its alignment shadow, no candidate (0: off;
   * see the make_examples package's {@code ShadowAlleles}).
   */
  public record CandidateThresholds(int snpMinCount, double snpMinFraction, int indelMinCount, double indelMinFraction,
      int indelShadowRatio) {}

  /**
   * The pileup images: height x width x channels, the downsampling seed, and local haplotype
   * realignment of reads before candidates are counted and images drawn ({@code --realign-reads}).
   */
  public record Image(int height, int width, int channels, long downsampleSeed, boolean realignReads) {
    /** DeepVariant's reference rows at the top of every image: the height must leave room for reads below them. */
    public static final int REFERENCE_ROWS = 5;
    /** DeepVariant's fixed pileup random seed. */
    public static final long DEFAULT_DOWNSAMPLE_SEED = 2101079370L;

    /** The shape of the images drawn. */
    public ImageShape shape() {
      return new ImageShape(height, width, channels);
    }
  }

  /**
   * The gVCF's reference blocks: {@code enabled} also emits REF_BLOCK records (reference confidence
   * of every position); positions merge while their hom-ref GQ falls in one bin of {@code gqBinSize}
   * (DeepVariant's gvcf_gq_binsize); {@code haploidContigs} (less {@code parBed}, the
   * pseudo-autosomal regions) get haploid reference confidence, names checked against the reference
   * by {@link dev.fastpipe.streaming.genome.HaploidRegions#of}; empty: diploid everywhere.
   */
  public record Gvcf(boolean enabled, int gqBinSize, List<String> haploidContigs, Path parBed) {
    /** DeepVariant's max_gq for gVCF records: the largest bin. */
    public static final int MAX_GQ = 50;
    /** DeepVariant's --gvcf_gq_binsize default. */
    public static final int DEFAULT_GQ_BIN_SIZE = 5;

    public Gvcf {
      haploidContigs = List.copyOf(haploidContigs);
    }
  }

  /** This task takes partitions {@code task}, {@code task + shards}, {@code task + 2 * shards}, ... */
  public record Sharding(int shards, int task, int partitionSize) {}

  /** The shape of the images drawn: height x width x channels. */
  public ImageShape shape() {
    return image.shape();
  }

  /** These settings for one task of the same sharding. */
  public ExampleSettings withTask(int task) {
    return withSharding(new Sharding(sharding.shards(), task, sharding.partitionSize()));
  }

  /** These settings with another sharding (a plan's shard count and partition size). */
  public ExampleSettings withSharding(Sharding sharding) {
    return new ExampleSettings(inputs, readFilters, candidates, image, gvcf, sharding);
  }

  /**
   * Declares this task's input files in {@code files} (the reference and its indexes, the reads and
   * theirs, the BED, truth and confident regions, the small model) and its candidates VCF output;
   * the command adds its other outputs and {@link RunFiles.Builder#check checks} them all once.
   */
  public RunFiles.Builder declareFiles(RunFiles.Builder files) {
    Path truthVcf = inputs.truthVcf();
    Path candidatesVcf = inputs.candidatesVcf();
    return files.reference("--ref", inputs.reference()).reads("--reads", inputs.reads()).input("--bed", inputs.regionsBed())
        .inputs("--regions", regionFiles())
        .input("--truth-vcf", truthVcf).input("--truth-vcf index", truthVcf == null ? null
            : truthVcf.resolveSibling(truthVcf.getFileName() + ".tbi"))
        .input("--confident-bed", inputs.confidentBed()).input("--par-bed", gvcf.parBed())
        .input("--model small model", inputs.smallModel())
        .plannedOutput("--candidates-vcf", candidatesVcf) // the writers create missing directories
        .plannedOutput("--candidates-vcf index", candidatesVcf == null ? null
            : candidatesVcf.resolveSibling(candidatesVcf.getFileName() + ".tbi"));
  }

  /** The --regions values that name a file (a BED, as DeepVariant's --regions takes one). */
  private List<Path> regionFiles() {
    List<Path> files = new ArrayList<>();
    for (String r : inputs.regions()) {
      try {
        Path p = Path.of(r.strip());
        if (!r.isBlank() && Files.isRegularFile(p)) files.add(p);
      } catch (InvalidPathException notAPath) {
        // a region, not a file
      }
    }
    return files;
  }

  /** A new builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Settings being filled, by the CLI or a test. Its initial values are the defaults, written only
   * here (the CLI's usage help reads them from a fresh builder); {@link #build} checks every range.
   */
  public static final class Builder {
    private Path reference;
    private Path reads;
    private List<String> regions = List.of();
    private Path regionsBed;
    private List<String> excludeContigs = List.of();
    private String sample;
    private Path truthVcf;
    private Path confidentBed;
    private Path smallModel;
    private Path candidatesVcf;
    private int minMappingQuality = 5;
    private int minBaseQuality = 10;
    private boolean keepDuplicates;
    private boolean keepSecondary;
    private boolean keepSupplementary;
    private boolean keepQcFail;
    private int defaultBaseQuality = -1;
    private int snpMinCount = 2;
    private double snpMinFraction = 0.12;
    private int indelMinCount = 2;
    private double indelMinFraction = 0.06;
    private int indelShadowRatio = 3;
    private int height = ImageShape.DEFAULT_HEIGHT;
    private int width = ImageShape.DEFAULT_WIDTH;
    private int channels = 6;
    private long downsampleSeed = Image.DEFAULT_DOWNSAMPLE_SEED;
    private boolean realignReads = true;
    private boolean gvcf;
    private int gvcfGqBinSize = Gvcf.DEFAULT_GQ_BIN_SIZE;
    private List<String> haploidContigs = List.of();
    private Path parBed;
    private int shards = 1;
    private int task = 0;
    private int partitionSize = 1000;

    private Builder() {}

    public Builder reference(Path v) { reference = v; return this; }
    public Builder reads(Path v) { reads = v; return this; }
    public Builder regions(List<String> v) { regions = List.copyOf(v); return this; }
    public Builder regionsBed(Path v) { regionsBed = v; return this; }
    public Builder excludeContigs(List<String> v) { excludeContigs = List.copyOf(v); return this; }
    public Builder sample(String v) { sample = v; return this; }
    public Builder truthVcf(Path v) { truthVcf = v; return this; }
    public Builder confidentBed(Path v) { confidentBed = v; return this; }
    public Builder smallModel(Path v) { smallModel = v; return this; }
    public Builder candidatesVcf(Path v) { candidatesVcf = v; return this; }
    public Builder minMappingQuality(int v) { minMappingQuality = v; return this; }
    public Builder minBaseQuality(int v) { minBaseQuality = v; return this; }
    public Builder keepDuplicates(boolean v) { keepDuplicates = v; return this; }
    public Builder keepSecondary(boolean v) { keepSecondary = v; return this; }
    public Builder keepSupplementary(boolean v) { keepSupplementary = v; return this; }
    public Builder keepQcFail(boolean v) { keepQcFail = v; return this; }
    public Builder defaultBaseQuality(int v) { defaultBaseQuality = v; return this; }
    public Builder snpMinCount(int v) { snpMinCount = v; return this; }
    public Builder snpMinFraction(double v) { snpMinFraction = v; return this; }
    public Builder indelMinCount(int v) { indelMinCount = v; return this; }
    public Builder indelMinFraction(double v) { indelMinFraction = v; return this; }
    public Builder indelShadowRatio(int v) { indelShadowRatio = v; return this; }
    public Builder height(int v) { height = v; return this; }
    public Builder width(int v) { width = v; return this; }
    public Builder channels(int v) { channels = v; return this; }
    public Builder downsampleSeed(long v) { downsampleSeed = v; return this; }
    public Builder realignReads(boolean v) { realignReads = v; return this; }
    public Builder gvcf(boolean v) { gvcf = v; return this; }
    public Builder gvcfGqBinSize(int v) { gvcfGqBinSize = v; return this; }
    public Builder haploidContigs(List<String> v) { haploidContigs = List.copyOf(v); return this; }
    public Builder parBed(Path v) { parBed = v; return this; }
    public Builder shards(int v) { shards = v; return this; }
    public Builder task(int v) { task = v; return this; }
    public Builder partitionSize(int v) { partitionSize = v; return this; }

    // The defaults the CLI shows (read from a fresh builder).
    public Path smallModel() { return smallModel; }
    public int minMappingQuality() { return minMappingQuality; }
    public int minBaseQuality() { return minBaseQuality; }
    public int snpMinCount() { return snpMinCount; }
    public double snpMinFraction() { return snpMinFraction; }
    public int indelMinCount() { return indelMinCount; }
    public double indelMinFraction() { return indelMinFraction; }
    public int indelShadowRatio() { return indelShadowRatio; }
    public int channels() { return channels; }
    public boolean realignReads() { return realignReads; }
    public int gvcfGqBinSize() { return gvcfGqBinSize; }
    public int shards() { return shards; }
    public int task() { return task; }
    public int partitionSize() { return partitionSize; }

    /** The read filters as set so far (unchecked: {@link #build} checks them). */
    public ReadFilters readFilters() {
      return new ReadFilters(minMappingQuality, minBaseQuality, keepDuplicates, keepSecondary, keepSupplementary, keepQcFail,
          defaultBaseQuality);
    }

    /** The candidate thresholds as set so far (unchecked: {@link #build} checks them). */
    public CandidateThresholds candidates() {
      return new CandidateThresholds(snpMinCount, snpMinFraction, indelMinCount, indelMinFraction, indelShadowRatio);
    }

    /** The settings, every range checked once; throws InputException naming the option. */
    public ExampleSettings build() {
      if (reference == null) throw new InputException("--ref is required");
      if (reads == null) throw new InputException("--reads is required");
      if (shards < 1) throw new InputException("--shards must be >= 1, got " + shards);
      if (task < 0 || task >= shards) throw new InputException("--task must be in [0, " + shards + "), got " + task);
      if (partitionSize < 1) throw new InputException("--partition-size must be >= 1");
      if (channels != 6 && channels != 7) throw new InputException("--channels must be 6 or 7");
      if (gvcfGqBinSize < 1 || gvcfGqBinSize > Gvcf.MAX_GQ) {
        throw new InputException("--gvcf-gq-binsize must be in [1, " + Gvcf.MAX_GQ + "], got " + gvcfGqBinSize);
      }
      if (parBed != null && haploidContigs.isEmpty()) {
        throw new InputException(parBed + ": --par-bed needs --haploid-contigs (the contigs it carves PARs out of)");
      }
      if ((truthVcf == null) != (confidentBed == null)) {
        throw new InputException("--truth-vcf and --confident-bed go together");
      }
      if (width % 2 != 1 || width < 3) throw new InputException("width must be odd");
      if (height <= Image.REFERENCE_ROWS) throw new InputException("height too small");
      OptionRange.between("--min-mapq", minMappingQuality, 0, 255);
      OptionRange.between("--min-base-quality", minBaseQuality, 0, ReadFilters.MAX_BASE_QUALITY);
      if (defaultBaseQuality != -1) {
        OptionRange.between("--default-base-quality", defaultBaseQuality, 0, ReadFilters.MAX_BASE_QUALITY);
      }
      OptionRange.atLeast("--snp-min-count", snpMinCount, 1);
      OptionRange.fraction("--snp-min-fraction", snpMinFraction);
      OptionRange.atLeast("--indel-min-count", indelMinCount, 1);
      OptionRange.fraction("--indel-min-fraction", indelMinFraction);
      OptionRange.atLeast("--indel-shadow-ratio", indelShadowRatio, 0);
      SampleNames.requireVcfName("--sample", sample);
      return new ExampleSettings(
          new Inputs(reference, reads, regions, regionsBed, excludeContigs, sample, truthVcf, confidentBed, smallModel,
              candidatesVcf),
          readFilters(), candidates(),
          new Image(height, width, channels, downsampleSeed, realignReads),
          new Gvcf(gvcf, gvcfGqBinSize, haploidContigs, parBed),
          new Sharding(shards, task, partitionSize));
    }
  }
}
