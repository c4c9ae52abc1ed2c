package dev.fastpipe.cli;

import dev.fastpipe.streaming.simulate.SyntheticSample;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Writes the built-in synthetic sample (reference, aligned reads, truth) into a directory. */
@Command(
    name = "simulate",
    header = "Simulate a small diploid sample (reference, reads, truth) with a fixed seed.",
    mixinStandardHelpOptions = true,
    description = {
      "Generate a small synthetic diploid sample with known variants, entirely in code:",
      "ref.fa(+.fai,.dict), reads.bam(+.bai, 2x150 bp pairs aligned by construction),",
      "truth.vcf.gz(+.tbi) and confident.bed. The same seed gives byte-identical files."
    })
public final class SimulateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--output", required = true, paramLabel = "DIR", description = "directory to write into (created if missing)")
  Path output;

  @Option(names = "--seed", paramLabel = "S", description = "random seed (default: ${DEFAULT-VALUE})")
  long seed = SyntheticSample.DEFAULT_SEED;

  @Option(names = "--length", paramLabel = "BP", description = "reference length in bp, >= 5000 (default: ${DEFAULT-VALUE})")
  int length = SyntheticSample.DEFAULT_LENGTH;

  @Option(names = "--coverage", paramLabel = "X", description = "mean read depth (default: ${DEFAULT-VALUE})")
  double coverage = SyntheticSample.DEFAULT_COVERAGE;

  @Override
  public Integer call() throws Exception {
    if (length < 5_000) throw new UserError("--length: must be at least 5000 bp, got " + length);
    if (!(coverage > 0) || coverage > 1000) throw new UserError("--coverage: must be in (0, 1000], got " + coverage);
    if (java.nio.file.Files.exists(output) && !java.nio.file.Files.isDirectory(output)) {
      throw new UserError(output + ": exists and is not a directory");
    }
    long t0 = System.nanoTime();
    SyntheticSample sample = SyntheticSample.generate(seed, length, coverage);
    SyntheticSample.Files files = sample.writeTo(output);
    long snps = sample.variants().stream().filter(v -> v.isSnp()).count();
    spec.commandLine().getOut().printf("wrote %s: %d bp, %d SNPs, %d indels, %.0fx 2x%d bp reads in %.1f s%n",
        files.dir(), length, snps, sample.variants().size() - snps, coverage, SyntheticSample.READ_LENGTH,
        (System.nanoTime() - t0) / 1e9);
    spec.commandLine().getOut().println("  reference: " + files.reference());
    spec.commandLine().getOut().println("  reads:     " + files.reads());
    spec.commandLine().getOut().println("  truth:     " + files.truth());
    spec.commandLine().getOut().println("  confident: " + files.confidentBed());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
