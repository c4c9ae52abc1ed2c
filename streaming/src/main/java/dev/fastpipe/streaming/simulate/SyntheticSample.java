package dev.fastpipe.streaming.simulate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A small diploid sample made entirely in code from a seed, with its truth: the built-in data of
 * {@code fastpipe demo} and {@code fastpipe simulate}. The same seed and settings give
 * byte-identical files.
 *
 * <ul>
 *   <li>reference: one contig ({@value #CONTIG}) from {@link SyntheticReference} (GC ~41 %, CpG
 *       depletion, homopolymers, microsatellites, diverged interspersed repeats);
 *   <li>variants: SNPs ~1 per kb (transitions:transversions ~2:1, ~2 % multi-allelic 1|2),
 *       indels ~1 per 8 kb of 1-10 bp, half insertions, a third of them as unit gains/losses in
 *       microsatellites, all at their left-normalised position; one third hom-alt, two thirds
 *       het, phased onto two haplotypes;
 *   <li>reads: paired 2×{@value #READ_LENGTH} bp, insert ~N(400, 50), sampled uniformly from the
 *       haplotypes and written in coordinate order as they are drawn ({@link ReadSimulator}); Illumina-like substitution errors drawn from each base's quality (Q37
 *       typical, low-quality bases more frequent toward the 3' end: ~0.1 % errors at the start of
 *       a read, ~1 % at its end); aligned by construction (start and CIGAR from the
 *       haplotype-to-reference map, I/D at indels, S where a read ends inside an insertion), MAPQ
 *       60, proper-pair flags, mate fields, MC, NM and MD tags, read group DEMO (SM:DEMO); 2 % of
 *       fragments have a second, duplicate-flagged copy (name suffix "d") with its own errors.
 * </ul>
 *
 * <p>Several contigs, or a real reference: {@link Simulation}.
 */
public final class SyntheticSample {

  public static final String CONTIG = "demo1";
  public static final String SAMPLE = "DEMO";
  public static final int READ_LENGTH = 150;
  public static final int DEFAULT_LENGTH = 300_000;
  public static final double DEFAULT_COVERAGE = 30.0;
  public static final long DEFAULT_SEED = 42L;
  static final int INSERT_MEAN = 400;
  static final int INSERT_SD = 50;
  /** Share of fragments that also appear as a duplicate-flagged copy. */
  static final double DUPLICATE_RATE = 0.02;

  /** The files {@link #write} produces (each with its index where one applies). */
  public record Files(Path dir, Path reference, Path reads, Path truth, Path confidentBed) {}

  private final long seed;
  private final SimulatedContig contig;
  private final double coverage;
  private boolean sequencingErrors = true;
  private int windowBases;

  private SyntheticSample(long seed, SimulatedContig contig, double coverage) {
    this.seed = seed;
    this.contig = contig;
    this.coverage = coverage;
  }

  /** Makes the sample in memory (reference, truth); reads are drawn by {@link #writeTo}. */
  public static SyntheticSample generate(long seed, int refLength, double coverage) {
    if (refLength < Simulation.MIN_LENGTH) {
      throw new IllegalArgumentException("reference length must be at least " + Simulation.MIN_LENGTH + " bp, got " + refLength);
    }
    if (!(coverage > 0) || coverage > 1000) throw new IllegalArgumentException("coverage must be in (0, 1000], got " + coverage);
    return new SyntheticSample(seed, SimulatedContig.synthetic(seed, 0, CONTIG, refLength), coverage);
  }

  /** Generates and writes the sample into {@code dir} (created if needed). */
  public static Files write(Path dir, long seed, int refLength, double coverage) throws IOException {
    return generate(seed, refLength, coverage).writeTo(dir);
  }

  /** Reads without sequencing errors (qualities are still drawn): for tests of the alignment. */
  SyntheticSample withoutSequencingErrors() {
    sequencingErrors = false;
    return this;
  }

  /** Reads drawn in windows of {@code bases} (0: the default for the coverage): for tests of the window seams. */
  SyntheticSample withWindowBases(int bases) {
    windowBases = bases;
    return this;
  }

  public byte[] reference() {
    return contig.bases.clone();
  }

  public List<TruthVariant> variants() {
    return contig.variants;
  }

  /** Haplotype h (0 or 1) as bases. */
  public byte[] haplotype(int h) {
    return Haplotype.build(contig.bases, contig.variants, h).bases;
  }

  /** For haplotype h, the reference offset of each base (-1 for inserted bases). */
  public int[] haplotypeToReference(int h) {
    return Haplotype.build(contig.bases, contig.variants, h).referenceOffset;
  }

  /** The confident region: the contig less 1 kb (or a tenth, for short contigs) at each end. */
  public int confidentStart() {
    return SimulatedContig.margin(contig.bases.length);
  }

  public int confidentEnd() {
    return contig.bases.length - SimulatedContig.margin(contig.bases.length);
  }

  /**
   * Base qualities by sequencing cycle, and errors drawn from them (so qualities are calibrated):
   * mostly Q37, some Q30 late in the read, and low-quality bases (Q2-Q20) whose share rises from
   * 0.4 % at the first cycle to 5.4 % at the last.
   */
  static final class ReadErrors {
    static double errorProbability(int q) {
      return Math.pow(10, -q / 10.0);
    }

    int quality(SplittableRandom rnd, int cycle) {
      double x = cycle / (double) (READ_LENGTH - 1);
      double u = rnd.nextDouble();
      double low = 0.004 + 0.05 * x * x;
      if (u < low) return 2 + rnd.nextInt(19);
      if (u < low + 0.2 * x) return 30;
      return 37;
    }
  }

  /** Writes the sample into {@code dir}; each file appears under its final name only when complete. */
  public Files writeTo(Path dir) throws IOException {
    Simulation sim = Simulation.of(seed, contig, coverage, sequencingErrors);
    if (windowBases > 0) sim.withWindowBases(windowBases);
    return sim.writeTo(dir).files();
  }
}
