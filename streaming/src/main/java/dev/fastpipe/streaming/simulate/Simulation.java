package dev.fastpipe.streaming.simulate;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriter;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMProgramRecord;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.variant.variantcontext.Allele;
import htsjdk.variant.variantcontext.GenotypeBuilder;
import htsjdk.variant.variantcontext.VariantContextBuilder;
import htsjdk.variant.variantcontext.writer.Options;
import htsjdk.variant.variantcontext.writer.VariantContextWriter;
import htsjdk.variant.variantcontext.writer.VariantContextWriterBuilder;
import htsjdk.variant.vcf.VCFConstants;
import htsjdk.variant.vcf.VCFFormatHeaderLine;
import htsjdk.variant.vcf.VCFHeader;
import htsjdk.variant.vcf.VCFHeaderLine;
import htsjdk.variant.vcf.VCFHeaderLineType;
import htsjdk.variant.vcf.VCFHeaderVersion;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A simulated diploid sample (or male: {@link #withHaploid}) over one or more contigs, written contig by contig: reads
 * (coordinate-sorted, indexed BAM), truth (phased VCF.gz + .tbi), confident BED and, for a
 * synthetic genome, the reference (FASTA + .fai + .dict). Memory holds one contig's bases (a byte a
 * base) and truth plus a window of reads ({@link ReadSimulator}), whatever the genome's size.
 *
 * <p>Three kinds, one writer:
 *
 * <ul>
 *   <li>{@link #synthetic}: {@code n} synthetic contigs ({@link #layout}): demo1, demo2, ... of
 *       decreasing lengths, the second (with three or more) left without reads, the last (with two
 *       or more) an unplaced contig named {@value #UNPLACED};
 *   <li>{@link #onReference}: variants and reads on regions of a real reference (plain or bgzipped
 *       FASTA with its .fai, and .gzi when bgzipped); the reads' header lists all its contigs;
 *   <li>{@link SyntheticSample#writeTo}: one synthetic contig held in memory.
 * </ul>
 *
 * The same seed and settings give byte-identical files.
 */
public final class Simulation {
  /** The name of the unplaced contig of a multi-contig synthetic genome (as GRCh37 names one). */
  public static final String UNPLACED = "chrUn_gl000220";
  /** The shortest contig or region simulated. */
  public static final int MIN_LENGTH = 5_000;

  /** A contig of the sample: its name, length and the bases reads (and variants) are drawn on (0: none). */
  public record Contig(String name, int length, long simulatedBases) {
    public boolean withReads() {
      return simulatedBases > 0;
    }
  }

  /** What {@link #writeTo} wrote and drew. */
  public record Result(SyntheticSample.Files files, int contigsWithReads, long snps, long indels, long pairs,
      long records) {}

  private final List<Contig> contigs;
  /** Contig i with its bases and truth, one copy where the regions say so; null for a contig without reads. */
  private interface ContigLoader {
    SimulatedContig load(int i, HaploidRegions haploid);
  }

  private final ContigLoader load;
  /** Bases of contig i for the FASTA; null when the reference is the user's. */
  private final IntFunction<byte[]> syntheticBases;
  private final Path reference;
  private final long seed;
  private final double coverage;
  private boolean sequencingErrors;
  private String commandLine;
  private final String namePrefix;
  private int windowBases;
  private HaploidRegions haploid = HaploidRegions.none();

  private Simulation(List<Contig> contigs, ContigLoader load, IntFunction<byte[]> syntheticBases,
      Path reference, long seed, double coverage, boolean sequencingErrors, String commandLine, String namePrefix) {
    this.contigs = List.copyOf(contigs);
    this.load = load;
    this.syntheticBases = syntheticBases;
    this.reference = reference;
    this.seed = seed;
    this.coverage = coverage;
    this.sequencingErrors = sequencingErrors;
    this.commandLine = commandLine;
    this.namePrefix = namePrefix;
    this.windowBases = ReadSimulator.windowBases(coverage);
  }

  /** Reads without sequencing errors (qualities are still drawn): for tests of the alignment. */
  Simulation withoutSequencingErrors() {
    this.sequencingErrors = false;
    return this;
  }

  /**
   * A male sample: {@code contigs} (e.g. chrX, chrY) have one copy, less the PAR intervals of
   * {@code parBed} (null: none), as {@code call --haploid-contigs --par-bed} reads them. There the
   * truth genotypes are haploid ({@code 1}; multi-allelic sites are not placed), and the reads come
   * from the one copy at half the coverage. An unknown contig or a bad BED is an InputException.
   */
  public Simulation withHaploid(List<String> contigs, Path parBed) {
    SAMSequenceDictionary dict = new SAMSequenceDictionary();
    for (Contig c : this.contigs) dict.addSequence(new SAMSequenceRecord(c.name(), c.length()));
    this.haploid = HaploidRegions.of(contigs, parBed, dict);
    if (!haploid.isEmpty()) {
      commandLine += " haploid=" + String.join(",", haploid.contigs()) + (parBed == null ? "" : " par=" + parBed);
    }
    return this;
  }

  /** Draws reads in windows of {@code bases} instead of the default for the coverage (tests of the window seams). */
  Simulation withWindowBases(int bases) {
    this.windowBases = bases;
    return this;
  }

  /** A synthetic genome of {@code n} contigs and {@code totalLength} bases in all ({@link #layout}). */
  public static Simulation synthetic(long seed, int n, long totalLength, double coverage) {
    checkCoverage(coverage);
    List<Contig> layout = layout(n, totalLength);
    ContigLoader load = (i, haploid) -> layout.get(i).withReads()
        ? SimulatedContig.synthetic(seed, i, layout.get(i).name(), layout.get(i).length(), haploid) : null;
    IntFunction<byte[]> bases = i -> SimulatedContig.syntheticBases(seed, i, layout.get(i).length());
    String cl = "seed=" + seed + (n > 1 ? " contigs=" + n : "") + " length=" + totalLength + " coverage=" + coverage;
    return new Simulation(layout, load, bases, null, seed, coverage, true, cl, "demo:");
  }

  /** The one contig of {@code sample}, already in memory. */
  static Simulation of(long seed, SimulatedContig contig, double coverage, boolean sequencingErrors) {
    String cl = "seed=" + seed + " length=" + contig.bases.length + " coverage=" + coverage;
    return new Simulation(List.of(new Contig(contig.name, contig.bases.length, contig.bases.length)), (i, haploid) -> contig,
        i -> contig.bases, null, seed, coverage, sequencingErrors, cl, "demo:");
  }

  /**
   * Variants and reads on {@code regions} ({@code chr}, {@code chr:start-end}, 1-based) and the
   * intervals of {@code bed} of the FASTA {@code ref}; both empty: on every contig. Reads avoid N.
   */
  public static Simulation onReference(long seed, Path ref, List<String> regions, Path bed, double coverage) {
    checkCoverage(coverage);
    SAMSequenceDictionary dict = ReferenceIndex.verified(ref);
    List<Region> raw = new ArrayList<>();
    for (String r : regions) raw.add(Regions.parse(dict, r));
    if (bed != null) raw.addAll(Regions.readBed(dict, bed));
    if (regions.isEmpty() && bed == null) {
      for (SAMSequenceRecord r : dict.getSequences()) raw.add(new Region(r.getSequenceIndex(), r.getSequenceName(), 0, r.getSequenceLength()));
    }
    List<Region> merged = Regions.merge(raw);
    if (merged.isEmpty()) throw new InputException((bed != null ? bed + ": " : "") + "no region to simulate");
    for (Region r : merged) {
      if (r.length() < MIN_LENGTH) {
        throw new InputException("region " + r.contig() + ":" + (r.start() + 1) + "-" + r.end() + " is " + r.length()
            + " bp; a simulated region must be at least " + MIN_LENGTH + " bp");
      }
    }
    List<List<SimulatedContig.Span>> spans = new ArrayList<>();
    List<Contig> contigs = new ArrayList<>();
    for (SAMSequenceRecord r : dict.getSequences()) {
      List<SimulatedContig.Span> on = new ArrayList<>();
      for (Region g : merged) if (g.contigIndex() == r.getSequenceIndex()) on.add(new SimulatedContig.Span(g.start(), g.end()));
      spans.add(on);
      contigs.add(new Contig(r.getSequenceName(), r.getSequenceLength(),
          on.stream().mapToLong(SimulatedContig.Span::length).sum()));
    }
    ContigLoader load = (i, haploid) -> {
      if (spans.get(i).isEmpty()) return null;
      byte[] bases;
      try (ReferenceSequenceFile fa = ReferenceIndex.open(ref)) {
        bases = fa.getSequence(contigs.get(i).name()).getBases();
      } catch (IOException | RuntimeException e) {
        throw InputException.reading(ref, "cannot read contig " + contigs.get(i).name(), e);
      }
      for (int k = 0; k < bases.length; k++) if (bases[k] >= 'a' && bases[k] <= 'z') bases[k] -= 32;
      return SimulatedContig.onReference(seed, i, contigs.get(i).name(), bases, spans.get(i), haploid);
    };
    StringBuilder where = new StringBuilder();
    for (String r : regions) where.append(where.isEmpty() ? "" : ",").append(r);
    if (bed != null) where.append(where.isEmpty() ? "" : ",").append(bed);
    String cl = "seed=" + seed + " ref=" + ref + (where.isEmpty() ? "" : " regions=" + where) + " coverage=" + coverage;
    return new Simulation(contigs, load, null, ref, seed, coverage, true, cl, "sim:");
  }

  private static void checkCoverage(double coverage) {
    if (!(coverage > 0) || coverage > 1000) throw new IllegalArgumentException("coverage must be in (0, 1000], got " + coverage);
  }

  /**
   * The contigs of a synthetic genome of {@code n} contigs, {@code total} bases in all. One contig:
   * {@value SyntheticSample#CONTIG}. More: demo1 ... demo(n-1) with lengths in the ratio n-1 : n-2
   * : ... : 1, like chromosomes, and last the short unplaced {@value #UNPLACED}; with three or more,
   * demo2 gets no reads (a chromosome the sample lacks, as chrY in a female sample). The empty and
   * the unplaced contig each take a quarter share. Every contig has at least {@value #MIN_LENGTH} bp.
   */
  public static List<Contig> layout(int n, long total) {
    if (n < 1) throw new IllegalArgumentException("contigs must be at least 1, got " + n);
    if (n > 1000) throw new IllegalArgumentException("contigs must be at most 1000, got " + n);
    double[] weight = new double[n];
    String[] names = new String[n];
    boolean[] reads = new boolean[n];
    for (int i = 0; i < n; i++) {
      names[i] = "demo" + (i + 1);
      weight[i] = n == 1 ? 1 : n - 1 - i;
      reads[i] = true;
    }
    if (n >= 2) {
      names[n - 1] = UNPLACED;
      weight[n - 1] = 0.25;
    }
    if (n >= 3) {
      reads[1] = false;
      weight[1] = 0.25;
    }
    double sum = 0;
    for (double w : weight) sum += w;
    List<Contig> out = new ArrayList<>();
    long left = total;
    for (int i = 0; i < n; i++) {
      long len = i == n - 1 ? left : (long) Math.floor(total * weight[i] / sum);
      left -= len;
      if (len < MIN_LENGTH) {
        throw new IllegalArgumentException("length " + total + " is too short for " + n + " contigs: " + names[i]
            + " would get " + len + " bp, and every contig needs at least " + MIN_LENGTH);
      }
      if (len > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("length " + total + " makes " + names[i] + " " + len
            + " bp, longer than a contig can be (" + Integer.MAX_VALUE + "); use more contigs");
      }
      out.add(new Contig(names[i], (int) len, reads[i] ? len : 0));
    }
    return out;
  }

  public List<Contig> contigs() {
    return contigs;
  }

  /** The names of the files {@link #writeTo} writes into its directory (ref.fa and its indexes only when synthetic). */
  public List<String> fileNames() {
    List<String> names = new ArrayList<>();
    if (syntheticBases != null) names.addAll(REFERENCE_FILES);
    names.addAll(SAMPLE_FILES);
    return names;
  }

  private static final List<String> REFERENCE_FILES = List.of("ref.fa", "ref.fa.fai", "ref.dict");
  private static final List<String> SAMPLE_FILES =
      List.of("reads.bam", "reads.bam.bai", "truth.vcf.gz", "truth.vcf.gz.tbi", "confident.bed");

  /** Writes the sample into {@code dir}; each file appears under its final name only when complete. */
  public Result writeTo(Path dir) throws IOException {
    return writeTo(dir, line -> {});
  }

  /** {@link #writeTo(Path)}, telling {@code progress} a line as each contig is done. */
  public Result writeTo(Path dir, Consumer<String> progress) throws IOException {
    Files.createDirectories(dir);
    Path tmp = Files.createTempDirectory(dir, ".simulate-");
    try {
      List<String> names = new ArrayList<>();
      SAMSequenceDictionary dict;
      if (syntheticBases != null) {
        dict = writeReference(tmp);
        names.addAll(REFERENCE_FILES);
      } else {
        dict = new SAMSequenceDictionary();
        for (Contig c : contigs) dict.addSequence(new SAMSequenceRecord(c.name(), c.length()));
      }
      Result counts = writeSample(tmp, dict, progress);
      names.addAll(SAMPLE_FILES);
      try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) { // the sample's files: all of them or none
        for (String name : names) tx.stage(tmp.resolve(name), dir.resolve(name));
        tx.commit();
      }
      Path ref = reference != null ? reference : dir.resolve("ref.fa");
      return new Result(new SyntheticSample.Files(dir, ref, dir.resolve("reads.bam"), dir.resolve("truth.vcf.gz"),
          dir.resolve("confident.bed")), counts.contigsWithReads(), counts.snps(), counts.indels(), counts.pairs(),
          counts.records());
    } finally {
      deleteRecursively(tmp);
    }
  }

  /** ref.fa (60 bases a line), its .fai and a .dict with each contig's MD5; returns the dictionary. */
  private SAMSequenceDictionary writeReference(Path dir) throws IOException {
    int lineBases = 60;
    SAMSequenceDictionary dict = new SAMSequenceDictionary();
    StringBuilder fai = new StringBuilder();
    StringBuilder dictText = new StringBuilder("@HD\tVN:1.6\n");
    try (OutputStream fa = new BufferedOutputStream(Files.newOutputStream(dir.resolve("ref.fa")), 1 << 16)) {
      long offset = 0;
      for (int i = 0; i < contigs.size(); i++) {
        Contig c = contigs.get(i);
        byte[] bases = syntheticBases.apply(i);
        byte[] header = (">" + c.name() + "\n").getBytes(StandardCharsets.US_ASCII);
        fa.write(header);
        offset += header.length;
        fai.append(c.name()).append('\t').append(bases.length).append('\t').append(offset).append('\t')
            .append(lineBases).append('\t').append(lineBases + 1).append('\n');
        for (int p = 0; p < bases.length; p += lineBases) {
          int n = Math.min(lineBases, bases.length - p);
          fa.write(bases, p, n);
          fa.write('\n');
          offset += n + 1;
        }
        String md5 = md5(bases);
        SAMSequenceRecord sq = new SAMSequenceRecord(c.name(), bases.length);
        sq.setMd5(md5);
        dict.addSequence(sq);
        dictText.append("@SQ\tSN:").append(c.name()).append("\tLN:").append(bases.length).append("\tM5:").append(md5).append('\n');
      }
    }
    Files.writeString(dir.resolve("ref.fa.fai"), fai, StandardCharsets.US_ASCII);
    Files.writeString(dir.resolve("ref.dict"), dictText, StandardCharsets.US_ASCII);
    return dict;
  }

  private SAMFileHeader samHeader(SAMSequenceDictionary dict) {
    SAMFileHeader header = new SAMFileHeader(dict);
    header.setSortOrder(SAMFileHeader.SortOrder.coordinate);
    SAMReadGroupRecord rg = new SAMReadGroupRecord(SyntheticSample.SAMPLE);
    rg.setSample(SyntheticSample.SAMPLE);
    rg.setLibrary("demo-lib");
    rg.setPlatform("ILLUMINA");
    header.addReadGroup(rg);
    SAMProgramRecord pg = new SAMProgramRecord("fastpipe-simulate");
    pg.setProgramName("fastpipe simulate");
    pg.setCommandLine(commandLine);
    header.addProgramRecord(pg);
    return header;
  }

  /** reads.bam(+.bai), truth.vcf.gz(+.tbi) and confident.bed, contig after contig in one pass. */
  private Result writeSample(Path dir, SAMSequenceDictionary dict, Consumer<String> progress) throws IOException {
    SAMFileHeader header = samHeader(dict);
    long readsSeed = new SplittableRandom(seed).split().split().nextLong() ^ 0x5eedL;
    long maxPairs = 0;
    for (Contig c : contigs) maxPairs += ReadSimulator.pairsFor(coverage, c.simulatedBases());
    ReadSimulator reads = new ReadSimulator(header, readsSeed, coverage, sequencingErrors, namePrefix,
        Long.toString(maxPairs).length(), windowBases);
    long snps = 0;
    long indels = 0;
    int withReads = 0;
    Path bam = dir.resolve("reads.bam");
    try (SAMFileWriter bamOut = new SAMFileWriterFactory().setCreateIndex(true).makeBAMWriter(header, true, bam);
        VariantContextWriter vcfOut = truthWriter(dir.resolve("truth.vcf.gz"), dict);
        Writer bedOut = new BufferedWriter(Files.newBufferedWriter(dir.resolve("confident.bed"), StandardCharsets.US_ASCII))) {
      for (int i = 0; i < contigs.size(); i++) {
        long t0 = System.nanoTime();
        SimulatedContig c = load.load(i, haploid);
        if (c == null) continue;
        withReads++;
        for (TruthVariant v : c.variants) {
          vcfOut.add(truthRecord(c.name, v, c.haploidAt(v.start())));
          if (v.isSnp()) snps++;
          else indels++;
        }
        long pairsBefore = reads.pairsDrawn();
        long recordsBefore = reads.recordsWritten();
        reads.simulate(c, bamOut::addAlignment);
        for (SimulatedContig.Span s : c.confident) bedOut.write(c.name + "\t" + s.start() + "\t" + s.end() + "\n");
        long simulated = c.spans.stream().mapToLong(SimulatedContig.Span::length).sum();
        progress.accept(String.format("%s: %s bp, %d variants, %,d reads in %.1f s", c.name,
            simulated == c.bases.length ? String.format("%,d", simulated) : String.format("%,d of %,d", simulated, c.bases.length),
            c.variants.size(), reads.recordsWritten() - recordsBefore, (System.nanoTime() - t0) / 1e9)
            + (reads.pairsDrawn() == pairsBefore ? " (no A/C/G/T bases: no reads)" : ""));
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    Files.move(dir.resolve("reads.bai"), dir.resolve("reads.bam.bai"));
    return new Result(null, withReads, snps, indels, reads.pairsDrawn(), reads.recordsWritten());
  }

  private VariantContextWriter truthWriter(Path vcf, SAMSequenceDictionary dict) {
    Set<VCFHeaderLine> lines = new LinkedHashSet<>();
    lines.add(new VCFHeaderLine(VCFHeaderVersion.VCF4_2.getFormatString(), VCFHeaderVersion.VCF4_2.getVersionString()));
    lines.add(new VCFFormatHeaderLine(VCFConstants.GENOTYPE_KEY, 1, VCFHeaderLineType.String, "Genotype"));
    lines.add(new VCFHeaderLine("source", "fastpipe simulate (seed=" + seed + ")"));
    VCFHeader header = new VCFHeader(lines, List.of(SyntheticSample.SAMPLE));
    header.setSequenceDictionary(dict);
    VariantContextWriter w = new VariantContextWriterBuilder()
        .setOutputPath(vcf)
        .setReferenceDictionary(dict)
        .setOptions(EnumSet.of(Options.INDEX_ON_THE_FLY))
        .build();
    w.writeHeader(header);
    return w;
  }

  /** The truth record of {@code v}: GT phased, or of one allele where the sample has one copy. */
  private static htsjdk.variant.variantcontext.VariantContext truthRecord(String contig, TruthVariant v, boolean haploid) {
    List<Allele> alleles = new ArrayList<>();
    alleles.add(Allele.create(v.ref(), true));
    for (String a : v.alts()) alleles.add(Allele.create(a, false));
    List<Allele> gt = haploid ? List.of(alleles.get(v.haplotypeAlleles()[0]))
        : List.of(alleles.get(v.haplotypeAlleles()[0]), alleles.get(v.haplotypeAlleles()[1]));
    return new VariantContextBuilder("truth", contig, v.vcfPosition(), v.end(), alleles)
        .passFilters()
        .genotypes(new GenotypeBuilder(SyntheticSample.SAMPLE, gt).phased(!haploid).make())
        .make();
  }

  static String md5(byte[] bases) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bases));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) return;
    try (var s = Files.walk(p)) {
      for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
    }
  }
}
