package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.InputException;
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
    SiteAssembler assembler = new SiteAssembler(new GenotypeCombiner(minQual, minHomRefGq));
    for (CallResult r : results) {
      if (r.contigIndex() >= dict.size()) {
        throw new InputException(source + ": contig index " + r.contigIndex() + " is not in " + reference + " ("
            + dict.size() + " contigs): examples made from another reference?");
      }
      assembler.add(r);
    }
    VcfCallWriter writer = new VcfCallWriter(output, dict, sample, minQual);
    boolean ok = false;
    try {
      for (GenotypeCall c : assembler.finish()) writer.write(c);
      ok = true;
    } finally {
      if (ok) writer.close();
      else writer.abort();
    }
    return new Summary(results.size(), writer.written(), writer.pass(), writer.refCall(), writer.lowQual(),
        assembler.incompleteSites());
  }
}
