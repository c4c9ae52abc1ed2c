package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.HaploidRegions;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import java.nio.charset.StandardCharsets;
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
   * Every result's site lies on a contig of {@code reference} and its REF is the reference's bases
   * there: calls made from examples of another reference (other contigs, another assembly) are one
   * line naming both files, not a VCF of sites placed on the wrong bases.
   */
  static void requireReference(List<CallResult> results, Path source, SAMSequenceDictionary dict, Path reference) {
    try (ReferenceSequenceFile fasta = ReferenceSequenceFileFactory.getReferenceSequenceFile(reference)) {
      for (CallResult r : results) {
        if (r.contigIndex() < 0 || r.contigIndex() >= dict.size()) {
          throw new InputException(source + ": contig index " + r.contigIndex() + " is not in " + reference + " ("
              + dict.size() + " contigs): examples made from another reference?");
        }
        SAMSequenceRecord contig = dict.getSequence(r.contigIndex());
        String where = contig.getSequenceName() + ":" + (r.position() + 1);
        long end = (long) r.position() + r.ref().length();
        if (r.position() < 0 || end > contig.getSequenceLength()) {
          throw new InputException(source + ": the site at " + where + " (REF " + r.ref() + ") lies past the end of "
              + contig.getSequenceName() + " in " + reference + " (length " + contig.getSequenceLength()
              + "): the calls were made against another reference");
        }
        String bases = new String(fasta.getSubsequenceAt(contig.getSequenceName(), r.position() + 1L, end).getBases(),
            StandardCharsets.US_ASCII);
        if (!bases.equalsIgnoreCase(r.ref())) {
          throw new InputException(source + ": the site at " + where + " has REF " + r.ref() + ", but " + reference
              + " has " + bases + " there: the calls were made against another reference");
        }
      }
    } catch (java.io.IOException e) {
      throw InputException.reading(reference, "cannot read the reference", e);
    }
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
    requireReference(results, source, dict, reference);
    for (CallResult r : results) assembler.add(r);
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
