package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.HaploidRegions;
import htsjdk.samtools.SAMSequenceDictionary;
import java.nio.file.Path;
import java.util.List;

/**
 * The classic path's postprocess: every classified example of a run, at once, to a sorted,
 * bgzipped, indexed VCF (the streaming path releases the same sites as it goes: see the pipeline's
 * ordered release). Nothing appears under the output name unless the whole VCF was written.
 */
public final class ClassicPostprocess {
  private ClassicPostprocess() {}

  /** What was written. */
  public record Summary(long examples, long sites, long pass, long refCall, long lowQual, long incompleteSites) {}

  /**
   * Assembles {@code results} into sites and writes them to {@code output}; {@code source} names
   * the file the results came from in errors (a contig index the reference lacks).
   */
  public static Summary write(List<CallResult> results, Path source, SAMSequenceDictionary dict, Path reference,
      Path output, String sample, double minQual, int minHomRefGq) {
    return write(results, source, dict, reference, output, sample, minQual, minHomRefGq, null, List.of());
  }

  /**
   * As above, and with {@code gvcf} non-null also the gVCF from {@code blocks} (make_examples'
   * reference blocks, any order): the same records as {@code call --gvcf} makes. Both files
   * appear, or neither.
   */
  public static Summary write(List<CallResult> results, Path source, SAMSequenceDictionary dict, Path reference,
      Path output, String sample, double minQual, int minHomRefGq, Path gvcf, List<RefBlock> blocks) {
    return write(results, source, dict, reference, output, sample, minQual, minHomRefGq, HaploidRegions.none(),
        GqCalibration.IDENTITY, gvcf, blocks, VcfProvenance.minimal());
  }

  /**
   * As above, calling the sites of {@code haploid}'s regions with one allele. The blocks must have
   * been made for the same regions (make-examples with the same --haploid-contigs and --par-bed):
   * a block whose ploidy disagrees is an {@link InputException}. {@code calibration}: the model's
   * GQ calibration, as {@code call} applies it; {@code provenance}: what the headers record.
   */
  public static Summary write(List<CallResult> results, Path source, SAMSequenceDictionary dict, Path reference,
      Path output, String sample, double minQual, int minHomRefGq, HaploidRegions haploid, GqCalibration calibration,
      Path gvcf, List<RefBlock> blocks, VcfProvenance provenance) {
    SiteAssembler assembler = new SiteAssembler(new GenotypeCombiner(minQual, minHomRefGq, haploid, calibration));
    for (CallResult r : results) {
      if (r.contigIndex() >= dict.size()) {
        throw new InputException(source + ": contig index " + r.contigIndex() + " is not in " + reference + " ("
            + dict.size() + " contigs): examples made from another reference?");
      }
      assembler.add(r);
    }
    GvcfAssembler gvcfAssembler = new GvcfAssembler();
    for (RefBlock b : blocks) {
      if (b.contigIndex() >= dict.size()) {
        throw new InputException("reference block at contig index " + b.contigIndex() + " is not in " + reference + " ("
            + dict.size() + " contigs): blocks made from another reference?");
      }
      if (b.haploid() != haploid.isHaploid(b.contigIndex(), b.start())) {
        throw new InputException("reference block at " + dict.getSequence(b.contigIndex()).getSequenceName() + ":"
            + (b.start() + 1) + " was made " + (b.haploid() ? "haploid" : "diploid") + " but --haploid-contigs/--par-bed"
            + " make it " + (b.haploid() ? "diploid" : "haploid") + ": give make-examples and postprocess the same ones");
      }
      gvcfAssembler.add(b);
    }
    VcfCallWriter writer = new VcfCallWriter(output, dict, sample, minQual, false, provenance);
    VcfCallWriter gvcfWriter = null;
    boolean ok = false;
    try {
      gvcfWriter = gvcf == null ? null : new VcfCallWriter(gvcf, dict, sample, minQual, true, provenance);
      List<GenotypeCall> calls = assembler.finish();
      for (GenotypeCall c : calls) writer.write(c);
      if (gvcfWriter != null) gvcfAssembler.finish(calls, gvcfWriter);
      VcfCallWriter.publishBoth(writer, gvcfWriter);
      ok = true;
    } catch (IllegalStateException e) {
      throw new InputException((gvcf != null ? gvcf : output) + ": " + e.getMessage());
    } finally {
      if (!ok) {
        writer.abort();
        if (gvcfWriter != null) gvcfWriter.abort();
      }
    }
    return new Summary(results.size(), writer.written(), writer.pass(), writer.refCall(), writer.lowQual(),
        assembler.incompleteSites());
  }
}
