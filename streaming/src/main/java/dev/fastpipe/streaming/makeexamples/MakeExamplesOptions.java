package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.streaming.OptionRange;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.pileup.PileupConstants;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one make_examples task needs. Public fields with DeepVariant's defaults (the
 * very-sensitive caller and its read requirements); the CLI fills them, tests set them directly.
 */
public final class MakeExamplesOptions implements Cloneable {
  // Inputs
  public Path reference;
  public Path reads;
  /** {@code chr}, {@code chr:start-end} (1-based, inclusive; commas allowed). */
  public List<String> regions = new ArrayList<>();
  /** BED (0-based, half-open) of regions, unioned with {@link #regions}. */
  public Path regionsBed;
  /**
   * Contigs left out of the regions ({@code --exclude-contigs}): presets of
   * {@link dev.fastpipe.streaming.genome.ContigExclusion} or regular expressions; empty: none.
   */
  public List<String> excludeContigs = new ArrayList<>();
  /**
   * The sample to call ({@code --sample}); null: the reads' only sample. On reads of several
   * samples only this one's read groups are used; it must be one the read groups name.
   */
  public String sample;

  // Sharding: this task takes partitions task, task + shards, task + 2 * shards, ...
  public int shards = 1;
  public int task = 0;
  public int partitionSize = 1000;

  // Training labels
  public Path truthVcf;
  public Path confidentBed;

  /**
   * The small model ({@code small_model.json}); null: none. When set (and no truth is given),
   * bi-allelic candidates it calls with GQ at or above their type's threshold become SMALL_CALL
   * records without an image; the rest become examples for the CNN.
   */
  public Path smallModel;

  /** Optional sites-only bgzipped VCF, one record per candidate alt allele, with .tbi. */
  public Path candidatesVcf;

  /**
   * Local haplotype realignment of reads before candidates are counted and images drawn
   * ({@code --realign-reads}, the default; {@code --no-realign-reads} turns it off).
   */
  public boolean realignReads = true;

  // Pileup
  public int channels = 6;
  /** Also emit REF_BLOCK records (reference confidence of every position) for a gVCF. */
  public boolean gvcf = false;
  /** gVCF blocks: positions merge while their hom-ref GQ falls in one bin of this size (DeepVariant's gvcf_gq_binsize). */
  public int gvcfGqBinSize = ReferenceConfidence.DEFAULT_GQ_BIN_SIZE;
  /**
   * Contigs of one copy ({@code --haploid-contigs}, e.g. a male's chrX,chrY), less {@link #parBed}:
   * the gVCF blocks there get haploid reference confidence (the postprocess calls the sites there
   * haploid). Empty: diploid everywhere. Names are checked against the reference by
   * {@link dev.fastpipe.streaming.genome.HaploidRegions#of}.
   */
  public List<String> haploidContigs = new ArrayList<>();
  /** BED of the pseudo-autosomal regions of {@link #haploidContigs}, which stay diploid ({@code --par-bed}); null: none. */
  public Path parBed;
  public int height = ImageShape.DEFAULT_HEIGHT;
  public int width = ImageShape.DEFAULT_WIDTH;
  public long downsampleSeed = PileupConstants.RANDOM_SEED;

  // Read filters (DeepVariant defaults)
  public int minMappingQuality = 5;
  public int minBaseQuality = 10;
  public boolean keepDuplicates = false;
  public boolean keepSecondary = false;
  public boolean keepSupplementary = false;
  public boolean keepQcFail = false;
  /**
   * The base quality given to every base of a read stored without qualities (QUAL {@code *};
   * {@code --default-base-quality}); -1: such reads are refused ({@link ReadNormalizer}).
   */
  public int defaultBaseQuality = -1;

  // Candidate thresholds (DeepVariant's very sensitive caller)
  public int snpMinCount = 2;
  public double snpMinFraction = 0.12;
  public int indelMinCount = 2;
  public double indelMinFraction = 0.06;

  /** The shape of the images drawn: height x width x channels. */
  public ImageShape shape() {
    return new ImageShape(height, width, channels);
  }

  /** Checks values that do not need the files; throws IllegalArgumentException. */
  public void validate() {
    if (reference == null) throw new IllegalArgumentException("--ref is required");
    if (reads == null) throw new IllegalArgumentException("--reads is required");
    if (shards < 1) throw new IllegalArgumentException("--shards must be >= 1, got " + shards);
    if (task < 0 || task >= shards) {
      throw new IllegalArgumentException("--task must be in [0, " + shards + "), got " + task);
    }
    if (partitionSize < 1) throw new IllegalArgumentException("--partition-size must be >= 1");
    if (channels != 6 && channels != 7) throw new IllegalArgumentException("--channels must be 6 or 7");
    if (gvcfGqBinSize < 1 || gvcfGqBinSize > ReferenceConfidence.MAX_GQ) {
      throw new IllegalArgumentException("--gvcf-gq-binsize must be in [1, " + ReferenceConfidence.MAX_GQ + "], got " + gvcfGqBinSize);
    }
    if (parBed != null && haploidContigs.isEmpty()) {
      throw new IllegalArgumentException(parBed + ": --par-bed needs --haploid-contigs (the contigs it carves PARs out of)");
    }
    if ((truthVcf == null) != (confidentBed == null)) {
      throw new IllegalArgumentException("--truth-vcf and --confident-bed go together");
    }
    if (width % 2 != 1 || width < 3) throw new IllegalArgumentException("width must be odd");
    if (height <= PileupConstants.REFERENCE_ROWS) throw new IllegalArgumentException("height too small");
    OptionRange.between("--min-mapq", minMappingQuality, 0, 255);
    OptionRange.between("--min-base-quality", minBaseQuality, 0, 255);
    if (defaultBaseQuality != -1) OptionRange.between("--default-base-quality", defaultBaseQuality, 0, 93);
    OptionRange.atLeast("--snp-min-count", snpMinCount, 1);
    OptionRange.fraction("--snp-min-fraction", snpMinFraction);
    OptionRange.atLeast("--indel-min-count", indelMinCount, 1);
    OptionRange.fraction("--indel-min-fraction", indelMinFraction);
    SampleNames.requireVcfName("--sample", sample);
  }

  /**
   * Declares this task's input files in {@code files} (the reference and its indexes, the reads and
   * theirs, the BED, truth and confident regions, the small model) and its candidates VCF output;
   * the command adds its other outputs and {@link RunFiles.Builder#check checks} them all once.
   */
  public RunFiles.Builder declareFiles(RunFiles.Builder files) {
    return files.reference("--ref", reference).reads("--reads", reads).input("--bed", regionsBed)
        .inputs("--regions", regionFiles())
        .input("--truth-vcf", truthVcf).input("--truth-vcf index", truthVcf == null ? null
            : truthVcf.resolveSibling(truthVcf.getFileName() + ".tbi"))
        .input("--confident-bed", confidentBed).input("--par-bed", parBed).input("--model small model", smallModel)
        .plannedOutput("--candidates-vcf", candidatesVcf) // the writers create missing directories
        .plannedOutput("--candidates-vcf index", candidatesVcf == null ? null
            : candidatesVcf.resolveSibling(candidatesVcf.getFileName() + ".tbi"));
  }

  /** The --regions values that name a file (a BED, as DeepVariant's --regions takes one). */
  private List<Path> regionFiles() {
    List<Path> files = new ArrayList<>();
    if (regions == null) return files;
    for (String r : regions) {
      try {
        Path p = Path.of(r.strip());
        if (!r.isBlank() && java.nio.file.Files.isRegularFile(p)) files.add(p);
      } catch (java.nio.file.InvalidPathException notAPath) {
        // a region, not a file
      }
    }
    return files;
  }

  /** A copy of these options for one task of the same sharding (the regions list is shared, read-only). */
  public MakeExamplesOptions forTask(int task) {
    try {
      MakeExamplesOptions copy = (MakeExamplesOptions) super.clone();
      copy.task = task;
      return copy;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }
}
