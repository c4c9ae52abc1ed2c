package dev.fastpipe.cli;

import dev.fastpipe.streaming.OptionRange;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.callvariants.CallsFile;
import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.postprocess.ClassicPostprocess;
import dev.fastpipe.streaming.postprocess.VcfProvenance;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.postprocess.RefBlock;
import dev.fastpipe.streaming.postprocess.RefBlockFile;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMSequenceDictionary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The classic path's last stage: CALLS -> sorted, bgzipped, tabix-indexed VCF. */
@Command(
    name = "postprocess",
    header = "Turn genotype probabilities into a sorted, bgzipped, indexed VCF.",
    mixinStandardHelpOptions = true,
    description = {
      "Combine the per-example probabilities of each site into one genotype (DeepVariant's",
      "multi-allelic rule), compute GT/GQ/PL/QUAL, and write OUT.vcf.gz + OUT.vcf.gz.tbi.",
      "Hom-ref candidates are kept with FILTER RefCall; variant calls with QUAL < --min-qual get LowQual.",
      "With --haploid-contigs (and --par-bed), sites there are called haploid: give make-examples the same options."
    })
public final class PostprocessCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--calls", required = true, paramLabel = "CALLS", description = "Output of call-variants.")
  Path calls;

  @Option(names = "--ref", required = true, paramLabel = "REF", description = "The reference the examples were made from (.fai beside it; a .dict, if any, must agree).")
  Path ref;

  @Option(names = "--output", required = true, paramLabel = "OUT.vcf.gz", description = "Output VCF (bgzipped; a .tbi is written beside it).")
  Path output;

  @Option(names = "--gvcf", paramLabel = "OUT.g.vcf.gz",
      description = "Also write a gVCF (bgzipped, with .tbi) from --gvcf-blocks: the same file call --gvcf makes.")
  Path gvcf;

  @Option(names = "--gvcf-blocks", arity = "1..*", paramLabel = "BLOCKS.tfrecord.gz",
      description = "Reference blocks from make-examples --gvcf-blocks (every task's file); needed by --gvcf.")
  List<Path> gvcfBlocks = new ArrayList<>();

  @Option(names = "--sample", paramLabel = "NAME",
      description = "Sample name. Default: the one recorded in CALLS, else the SM of --reads, else SAMPLE.")
  String sample;

  @Option(names = "--reads", paramLabel = "BAM", description = "Reads whose read-group SM names the sample.")
  Path reads;

  @Option(names = "--min-qual", paramLabel = "Q", defaultValue = "" + GenotypeCombiner.DEFAULT_MIN_QUAL,
      description = "Variant calls with QUAL below Q get FILTER LowQual (default ${DEFAULT-VALUE}, DeepVariant's qual_filter).")
  double minQual;

  @Option(names = "--min-homref-gq", paramLabel = "GQ", defaultValue = "" + GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ,
      description = "RefCall sites with GQ below this get GT ./. (default ${DEFAULT-VALUE}, as DeepVariant).")
  int minHomRefGq;

  @Mixin PloidyOptions ploidy;

  @Option(names = "--calibration", paramLabel = "MODEL_DIR/calibration.json",
      description = "The model's GQ calibration (calibrated GQ and per-type PASS thresholds), as call applies it"
          + " from its model directory. Default: none, the model's own GQ.")
  Path calibration;

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(calls)) throw new UserError(calls + ": CALLS file not found");
    String name = output.getFileName().toString();
    if (!name.endsWith(".vcf.gz")) throw new UserError(output + ": output must end with .vcf.gz");
    if (gvcf != null) {
      if (gvcfBlocks.isEmpty()) throw new UserError("--gvcf needs --gvcf-blocks (make-examples --gvcf-blocks of every task)");
      VcfCallWriter.checkGvcfName(gvcf);
    } else if (!gvcfBlocks.isEmpty()) {
      throw new UserError("--gvcf-blocks needs --gvcf (where the gVCF goes)");
    }
    OptionRange.finiteAtLeast("--min-qual", minQual, 0);
    OptionRange.between("--min-homref-gq", minHomRefGq, 0, 99);
    SampleNames.requireVcfName("--sample", sample);
    RunFiles files = RunFiles.builder().input("--calls", calls).reference("--ref", ref).inputs("--gvcf-blocks", gvcfBlocks)
        .reads("--reads", reads).input("--calibration", calibration).indexedOutput("--output", output).indexedOutput("--gvcf", gvcf).check();
    GqCalibration gq = calibration == null ? GqCalibration.IDENTITY : GqCalibration.load(calibration); // InputException: exit 2
    List<RefBlock> blocks = new ArrayList<>();
    for (Path p : gvcfBlocks) blocks.addAll(RefBlockFile.read(p));
    SAMSequenceDictionary dict = ReferenceIndex.dictionary(ref);
    HaploidRegions haploid = ploidy.regions(dict);
    CallsFile.Contents contents;
    try {
      contents = CallsFile.read(calls);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    } catch (java.io.EOFException e) {
      throw new UserError(calls + ": truncated");
    }
    String sampleName = sample;
    if (sampleName == null) sampleName = contents.meta().get("sample");
    if (reads != null) { // the sample's reads must be aligned to this reference
      SAMFileHeader header = SampleNames.header(reads, ref);
      ReferenceIndex.requireSameContigs(reads, header.getSequenceDictionary(), ref, dict);
      if (sampleName == null) sampleName = SampleNames.resolve(reads, header, null);
    }
    if (sampleName == null) sampleName = "SAMPLE";

    files.requireInputsUnchanged();
    ClassicPostprocess.Summary r = ClassicPostprocess.write(contents.results(), calls, dict, ref, output, sampleName,
        minQual, minHomRefGq, haploid, gq, gvcf, blocks, VcfProvenance.of(null, CommandText.of(spec), ref));
    System.err.printf("postprocess: %d examples -> %d sites (PASS %d, RefCall %d, LowQual %d%s), sample %s -> %s%n",
        r.examples(), r.sites(), r.pass(), r.refCall(), r.lowQual(),
        r.incompleteSites() > 0 ? ", " + r.incompleteSites() + " sites missing examples" : "", sampleName, output);
    if (gvcf != null) System.err.printf("postprocess: %d reference blocks in -> %s%n", blocks.size(), gvcf);
    return 0;
  }
}
