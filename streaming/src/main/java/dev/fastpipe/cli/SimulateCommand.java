package dev.fastpipe.cli;

import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.simulate.Simulation;
import dev.fastpipe.streaming.simulate.SyntheticSample;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Writes a simulated sample (reference, aligned reads, truth) into a directory. */
@Command(
    name = "simulate",
    header = "Simulate a diploid sample (reference, reads, truth) with a fixed seed.",
    mixinStandardHelpOptions = true,
    description = {
      "Generate a synthetic diploid sample with known variants, entirely in code:",
      "ref.fa(+.fai,.dict), reads.bam(+.bai, 2x150 bp pairs aligned by construction),",
      "truth.vcf.gz(+.tbi) and confident.bed. The same seed gives byte-identical files.",
      "Reads are written in coordinate order as they are drawn: memory holds one contig's bases",
      "(a byte a base) and a window of reads, whatever the length.",
      "--contigs N: demo1..demo(N-1) of decreasing lengths and the short unplaced " + Simulation.UNPLACED + ";",
      "  with N >= 3, demo2 has no reads. --length is the total.",
      "--ref REF.fa: variants and reads on a real reference (plain or bgzipped with .fai and .gzi),",
      "  on --regions/--bed (default: every contig); no ref.fa is written, call with --ref REF.fa.",
      "  Fragments never cover an N; the confident BED leaves out 1 kb around N runs.",
      "--haploid-contigs C1,C2 [--par-bed PAR.bed]: a male sample: those contigs, less the PARs, have one copy",
      "  (truth GT 1, half the coverage); call it with the same two options."
    })
public final class SimulateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--output-dir", paramLabel = "DIR", description = "directory to write into (created if missing); required")
  Path output;

  /** --output: --output-dir's first spelling here, kept hidden for one release (OptionSpellingsTest). */
  @Option(names = "--output", hidden = true, paramLabel = "DIR")
  Path outputAlias;

  /** Where the files go: --output-dir, or --output when that was given; null when neither was. */
  Path outputDir() {
    return outputAlias != null ? outputAlias : output;
  }

  @Option(names = "--seed", paramLabel = "S", description = "random seed (default: ${DEFAULT-VALUE})")
  long seed = SyntheticSample.DEFAULT_SEED;

  @Option(names = "--length", paramLabel = "BP",
      description = "synthetic genome length in bp, all contigs together, >= 5000 a contig (default: ${DEFAULT-VALUE})")
  long length = SyntheticSample.DEFAULT_LENGTH;

  @Option(names = "--coverage", paramLabel = "X", description = "mean read depth (default: ${DEFAULT-VALUE})")
  double coverage = SyntheticSample.DEFAULT_COVERAGE;

  @Option(names = "--contigs", paramLabel = "N", description = "synthetic contigs (default: ${DEFAULT-VALUE})")
  int contigs = 1;

  @Option(names = "--ref", paramLabel = "REF.fa", description = "simulate on this reference instead of a synthetic one")
  Path ref;

  @Option(names = "--regions", paramLabel = "REGION",
      description = "with --ref: chr or chr:start-end (1-based, inclusive) to simulate; repeatable")
  List<String> regions = new ArrayList<>();

  @Option(names = "--bed", paramLabel = "BED", description = "with --ref: BED of regions to simulate, unioned with --regions")
  Path bed;

  @Option(names = "--haploid-contigs", split = ",", paramLabel = "CONTIG",
      description = "contigs of one copy (a male's X and Y): truth GT 1 and half the coverage there, less --par-bed")
  List<String> haploidContigs = new ArrayList<>();

  @Option(names = "--par-bed", paramLabel = "BED", description = "pseudo-autosomal regions of the --haploid-contigs: diploid")
  Path parBed;

  @Option(names = "--quiet", description = "no line per contig on stderr")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    output = outputDir();
    if (output == null) throw new UserError("--output-dir DIR is required (where the reference, reads and truth go)");
    if (!(coverage > 0) || coverage > 1000) throw new UserError("--coverage: must be in (0, 1000], got " + coverage);
    if (java.nio.file.Files.exists(output) && !java.nio.file.Files.isDirectory(output)) {
      throw new UserError(output + ": exists and is not a directory");
    }
    CommandLine.ParseResult given = spec.commandLine().getParseResult();
    Simulation sim;
    if (ref != null) {
      if (given.hasMatchedOption("--length") || given.hasMatchedOption("--contigs")) {
        throw new UserError("--ref: the reference sets the contigs and lengths; drop --length and --contigs"
            + " (choose the stretch with --regions or --bed)");
      }
      sim = Simulation.onReference(seed, ref, regions, bed, coverage);
    } else {
      if (!regions.isEmpty() || bed != null) throw new UserError("--regions and --bed go with --ref");
      if (contigs < 1) throw new UserError("--contigs: must be at least 1, got " + contigs);
      if (length < Simulation.MIN_LENGTH) throw new UserError("--length: must be at least 5000 bp, got " + length);
      try {
        sim = Simulation.synthetic(seed, contigs, length, coverage);
      } catch (IllegalArgumentException e) {
        throw new UserError((contigs > 1 ? "--length/--contigs: " : "--length: ") + e.getMessage());
      }
    }
    sim.withHaploid(haploidContigs, parBed);
    RunFiles.Builder files = RunFiles.builder().reference("--ref", ref).input("--bed", bed).input("--par-bed", parBed);
    for (String name : sim.fileNames()) files.plannedOutput("--output-dir", output.resolve(name));
    files.check();
    long t0 = System.nanoTime();
    PrintWriter err = spec.commandLine().getErr();
    Simulation.Result r = sim.writeTo(output, line -> {
      if (!quiet) {
        err.println("simulate: " + line);
        err.flush();
      }
    });
    long bases = sim.contigs().stream().mapToLong(Simulation.Contig::simulatedBases).sum();
    PrintWriter out = spec.commandLine().getOut();
    out.printf("wrote %s: %d bp on %d of %s, %d SNPs, %d indels, %.0fx 2x%d bp reads (%d pairs, %d records) in %.1f s%n",
        r.files().dir(), bases, r.contigsWithReads(), dev.fastpipe.streaming.Plural.of(sim.contigs().size(), "contig"), r.snps(), r.indels(), coverage,
        SyntheticSample.READ_LENGTH, r.pairs(), r.records(), (System.nanoTime() - t0) / 1e9);
    out.println("  reference: " + r.files().reference());
    out.println("  reads:     " + r.files().reads());
    out.println("  truth:     " + r.files().truth());
    out.println("  confident: " + r.files().confidentBed());
    out.flush();
    return 0;
  }
}
