package dev.fastpipe.cli;

import dev.fastpipe.streaming.genome.HaploidRegions;
import htsjdk.samtools.SAMSequenceDictionary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --haploid-contigs} and {@code --par-bed}, shared by {@code call}, {@code make-examples}
 * (its gVCF blocks) and {@code postprocess} (its calls): one definition of each option.
 */
public final class PloidyOptions {
  @Option(names = "--haploid-contigs", split = ",", paramLabel = "CONTIG",
      description = "Contigs of one copy in this sample (a male: chrX,chrY; X,Y on GRCh37), less the --par-bed"
          + " intervals: sites there get a haploid GT (0, 1, .) with GQ and one PL per allele, gVCF blocks GT 0"
          + " (DeepVariant's --haploid_contigs). Comma-separated; each must be a contig of --ref. Default: none.")
  List<String> haploidContigs = new ArrayList<>();

  @Option(names = "--par-bed", paramLabel = "BED",
      description = "Pseudo-autosomal regions of the --haploid-contigs, which stay diploid (DeepVariant's"
          + " --par_regions_bed). Intervals on other contigs change nothing.")
  Path parBed;

  /** The regions on {@code dict}; an unknown contig or a bad BED is an InputException naming it. */
  HaploidRegions regions(SAMSequenceDictionary dict) {
    return HaploidRegions.of(haploidContigs, parBed, dict);
  }
}
