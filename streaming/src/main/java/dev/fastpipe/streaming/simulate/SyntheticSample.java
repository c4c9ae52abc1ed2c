package dev.fastpipe.streaming.simulate;

import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriter;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMProgramRecord;
import htsjdk.samtools.SAMReadGroupRecord;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordCoordinateComparator;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.util.SequenceUtil;
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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
 *       haplotypes; Illumina-like substitution errors drawn from each base's quality (Q37
 *       typical, low-quality bases more frequent toward the 3' end: ~0.1 % errors at the start of
 *       a read, ~1 % at its end); aligned by construction (start and CIGAR from the
 *       haplotype-to-reference map, I/D at indels, S where a read ends inside an insertion), MAPQ
 *       60, proper-pair flags, mate fields, MC, NM and MD tags, read group DEMO (SM:DEMO); 2 % of
 *       fragments have a second, duplicate-flagged copy (name suffix "d") with its own errors.
 * </ul>
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
  private final byte[] reference;
  private final List<TruthVariant> variants;
  private final Haplotype[] haplotypes;
  private final double coverage;
  private boolean sequencingErrors = true;

  private SyntheticSample(long seed, byte[] reference, List<TruthVariant> variants, double coverage) {
    this.seed = seed;
    this.reference = reference;
    this.variants = variants;
    this.coverage = coverage;
    this.haplotypes = new Haplotype[] {Haplotype.build(reference, variants, 0), Haplotype.build(reference, variants, 1)};
  }

  /** Makes the sample in memory (reference, truth, haplotypes); reads are drawn by {@link #write}. */
  public static SyntheticSample generate(long seed, int refLength, double coverage) {
    if (refLength < 5_000) throw new IllegalArgumentException("reference length must be at least 5000 bp, got " + refLength);
    if (!(coverage > 0) || coverage > 1000) throw new IllegalArgumentException("coverage must be in (0, 1000], got " + coverage);
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom refRnd = root.split();
    SplittableRandom varRnd = root.split();
    SyntheticReference ref = SyntheticReference.generate(refRnd, refLength);
    List<TruthVariant> variants = placeVariants(varRnd, ref);
    return new SyntheticSample(seed, ref.bases, variants, coverage);
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

  public byte[] reference() {
    return reference.clone();
  }

  public List<TruthVariant> variants() {
    return variants;
  }

  /** Haplotype h (0 or 1) as bases. */
  public byte[] haplotype(int h) {
    return haplotypes[h].bases.clone();
  }

  /** For haplotype h, the reference offset of each base (-1 for inserted bases). */
  public int[] haplotypeToReference(int h) {
    return haplotypes[h].referenceOffset.clone();
  }

  /** The confident region: the contig less 1 kb (or a tenth, for short contigs) at each end. */
  public int confidentStart() {
    return margin(reference.length);
  }

  public int confidentEnd() {
    return reference.length - margin(reference.length);
  }

  private static int margin(int length) {
    return Math.min(1000, length / 10);
  }

  // ---------------------------------------------------------------------------------------------
  // Variants

  private static List<TruthVariant> placeVariants(SplittableRandom rnd, SyntheticReference ref) {
    byte[] seq = ref.bases;
    int len = seq.length;
    int lo = margin(len) + 50;
    int hi = len - margin(len) - 50;
    BitSet taken = new BitSet(len);
    List<TruthVariant> out = new ArrayList<>();
    int indels = Math.max(1, (int) Math.round(len / 8000.0));
    int snps = Math.max(1, (int) Math.round(len / 1000.0));
    int attempts = 0;
    // indels first: they need room to shift left across repeats
    for (int placed = 0; placed < indels && attempts < indels * 50; attempts++) {
      TruthVariant v = randomIndel(rnd, ref, lo, hi);
      if (v == null) continue;
      int from = v.start() - 12;
      int to = v.end() + 12 + v.alts().get(0).length();
      if (from < lo || to > hi || !taken.get(from, to).isEmpty()) continue;
      taken.set(from, to);
      out.add(v);
      placed++;
    }
    attempts = 0;
    for (int placed = 0; placed < snps && attempts < snps * 50; attempts++) {
      int p = lo + rnd.nextInt(hi - lo);
      if (!taken.get(p - 6, p + 7).isEmpty()) continue;
      taken.set(p - 6, p + 7);
      byte r = seq[p];
      int ri = SyntheticReference.indexOf(r);
      byte alt1 = mutate(rnd, ri);
      int[] gt = genotype(rnd);
      List<String> alts = new ArrayList<>();
      alts.add(String.valueOf((char) alt1));
      if (rnd.nextDouble() < 0.02) { // multi-allelic: a different ALT on each haplotype
        byte alt2;
        do alt2 = SyntheticReference.base(rnd.nextInt(4)); while (alt2 == r || alt2 == alt1);
        alts.add(String.valueOf((char) alt2));
        gt = new int[] {1, 2};
      }
      out.add(new TruthVariant(p, String.valueOf((char) r), List.copyOf(alts), gt));
      placed++;
    }
    out.sort(Comparator.comparingInt(TruthVariant::start));
    return List.copyOf(out);
  }

  private static byte mutate(SplittableRandom rnd, int refIndex) {
    // A<->G, C<->T transitions twice as often as the two transversions together
    if (rnd.nextDouble() < 2.0 / 3) return SyntheticReference.base(refIndex ^ 2);
    int[] tv = (refIndex == 0 || refIndex == 2) ? new int[] {1, 3} : new int[] {0, 2};
    return SyntheticReference.base(tv[rnd.nextInt(2)]);
  }

  private static int[] genotype(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    if (u < 1.0 / 3) return new int[] {1, 1};
    return u < 2.0 / 3 ? new int[] {0, 1} : new int[] {1, 0};
  }

  private static TruthVariant randomIndel(SplittableRandom rnd, SyntheticReference ref, int lo, int hi) {
    byte[] seq = ref.bases;
    boolean insertion = rnd.nextBoolean();
    int anchor;
    byte[] change; // inserted bases, or the deleted reference bases
    if (!ref.tandemRepeats.isEmpty() && rnd.nextDouble() < 1.0 / 3) {
      // gain or loss of whole units at the end of a microsatellite
      SyntheticReference.TandemRepeat str = ref.tandemRepeats.get(rnd.nextInt(ref.tandemRepeats.size()));
      int unit = str.unit().length;
      int maxUnits = Math.min(10 / unit, (str.end() - str.start()) / unit - 1);
      if (maxUnits < 1) return null;
      int units = 1 + rnd.nextInt(Math.min(maxUnits, 3));
      anchor = str.end() - 1;
      if (insertion) {
        change = new byte[units * unit];
        // the copy that follows the repeat's last base keeps the phase of the unit
        int phase = (str.end() - str.start()) % unit;
        for (int i = 0; i < change.length; i++) change[i] = str.unit()[(phase + i) % unit];
      } else {
        anchor = str.end() - 1 - units * unit;
        change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + units * unit);
      }
    } else {
      int length = indelLength(rnd);
      anchor = lo + rnd.nextInt(hi - lo);
      if (insertion) {
        change = new byte[length];
        for (int i = 0; i < length; i++) change[i] = SyntheticReference.base(rnd.nextInt(4));
      } else {
        if (anchor + 1 + length > hi) return null;
        change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + length);
      }
    }
    if (anchor < lo || anchor + change.length + 1 > hi) return null;
    // left-normalise: shift while the last changed base equals the anchor base
    if (insertion) {
      while (anchor > lo && change[change.length - 1] == seq[anchor]) {
        System.arraycopy(change, 0, change, 1, change.length - 1);
        change[0] = seq[anchor];
        anchor--;
      }
    } else {
      while (anchor > lo && seq[anchor] == seq[anchor + change.length]) anchor--;
      change = java.util.Arrays.copyOfRange(seq, anchor + 1, anchor + 1 + change.length);
    }
    String anchorBase = String.valueOf((char) seq[anchor]);
    String changed = new String(change, StandardCharsets.US_ASCII);
    String r = insertion ? anchorBase : anchorBase + changed;
    String a = insertion ? anchorBase + changed : anchorBase;
    TruthVariant v = new TruthVariant(anchor, r, List.of(a), genotype(rnd));
    return v.isLeftNormalised(seq) ? v : null; // stopped at lo: not normalised, skip it
  }

  private static int indelLength(SplittableRandom rnd) {
    // roughly the human spectrum: half are single bases, a long tail to 10
    double u = rnd.nextDouble();
    if (u < 0.45) return 1;
    if (u < 0.65) return 2;
    if (u < 0.75) return 3;
    if (u < 0.83) return 4;
    return 5 + rnd.nextInt(6);
  }

  // ---------------------------------------------------------------------------------------------
  // Reads

  private List<SAMRecord> simulateReads(SAMFileHeader header) {
    SplittableRandom rnd = new SplittableRandom(seed).split().split(); // distinct stream from the genome's
    rnd = new SplittableRandom(rnd.nextLong() ^ 0x5eedL);
    int pairs = (int) Math.round(coverage * reference.length / (2.0 * READ_LENGTH));
    List<SAMRecord> records = new ArrayList<>(2 * pairs);
    ReadErrors errors = new ReadErrors();
    int width = Integer.toString(pairs).length();
    for (int i = 0; i < pairs; i++) {
      Haplotype hap = haplotypes[rnd.nextInt(2)];
      int fragment = (int) Math.round(INSERT_MEAN + INSERT_SD * gaussian(rnd));
      fragment = Math.max(READ_LENGTH, Math.min(fragment, Math.min(2 * INSERT_MEAN, hap.length())));
      int start = rnd.nextInt(hap.length() - fragment + 1);
      boolean firstIsForward = rnd.nextBoolean();
      String name = "demo:" + String.format("%0" + width + "d", i);
      pair(header, name, hap, start, fragment, firstIsForward, false, rnd, errors, records);
      if (rnd.nextDouble() < DUPLICATE_RATE) { // a PCR/optical copy: same fragment, its own errors, flagged
        pair(header, name + "d", hap, start, fragment, firstIsForward, true, rnd, errors, records);
      }
    }
    return records;
  }

  private void pair(SAMFileHeader header, String name, Haplotype hap, int start, int fragment, boolean firstIsForward,
      boolean duplicate, SplittableRandom rnd, ReadErrors errors, List<SAMRecord> records) {
    SAMRecord fwd = read(header, name, hap, start, false, rnd, errors);
    SAMRecord rev = read(header, name, hap, start + fragment - READ_LENGTH, true, rnd, errors);
    SAMRecord r1 = firstIsForward ? fwd : rev;
    SAMRecord r2 = firstIsForward ? rev : fwd;
    r1.setFirstOfPairFlag(true);
    r2.setSecondOfPairFlag(true);
    mate(fwd, rev);
    fwd.setDuplicateReadFlag(duplicate);
    rev.setDuplicateReadFlag(duplicate);
    records.add(r1);
    records.add(r2);
  }

  private SAMRecord read(SAMFileHeader header, String name, Haplotype hap, int from, boolean reverse,
      SplittableRandom rnd, ReadErrors errors) {
    byte[] bases = java.util.Arrays.copyOfRange(hap.bases, from, from + READ_LENGTH);
    byte[] quals = new byte[READ_LENGTH];
    for (int cycle = 0; cycle < READ_LENGTH; cycle++) {
      int i = reverse ? READ_LENGTH - 1 - cycle : cycle; // sequencing cycle -> offset on the forward strand
      int q = errors.quality(rnd, cycle);
      quals[i] = (byte) q;
      if (rnd.nextDouble() < ReadErrors.errorProbability(q) && sequencingErrors) {
        bases[i] = SyntheticReference.base((SyntheticReference.indexOf(bases[i]) + 1 + rnd.nextInt(3)) & 3);
      }
    }
    Haplotype.Alignment aln = hap.align(from, from + READ_LENGTH);
    SAMRecord rec = new SAMRecord(header);
    rec.setReadName(name);
    rec.setReferenceIndex(0);
    rec.setAlignmentStart(aln.referenceStart() + 1);
    rec.setCigar(aln.cigar());
    rec.setMappingQuality(60);
    rec.setReadBases(bases);
    rec.setBaseQualities(quals);
    rec.setReadPairedFlag(true);
    rec.setProperPairFlag(true);
    rec.setReadNegativeStrandFlag(reverse);
    rec.setAttribute("RG", SAMPLE);
    SequenceUtil.calculateMdAndNmTags(rec, reference, true, true);
    return rec;
  }

  private static void mate(SAMRecord fwd, SAMRecord rev) {
    int left = Math.min(fwd.getAlignmentStart(), rev.getAlignmentStart());
    int right = Math.max(fwd.getAlignmentEnd(), rev.getAlignmentEnd());
    int tlen = right - left + 1;
    boolean fwdIsLeft = fwd.getAlignmentStart() <= rev.getAlignmentStart();
    for (SAMRecord[] p : new SAMRecord[][] {{fwd, rev}, {rev, fwd}}) {
      SAMRecord r = p[0];
      SAMRecord m = p[1];
      r.setMateReferenceIndex(0);
      r.setMateAlignmentStart(m.getAlignmentStart());
      r.setMateNegativeStrandFlag(m.getReadNegativeStrandFlag());
      r.setMateUnmappedFlag(false);
      r.setAttribute("MC", m.getCigarString());
      boolean isLeft = (r == fwd) == fwdIsLeft;
      r.setInferredInsertSize(isLeft ? tlen : -tlen);
    }
  }

  /** Box-Muller, so that the draws depend only on the generator's doubles. */
  private static double gaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
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

  // ---------------------------------------------------------------------------------------------
  // Files

  /** Writes the sample into {@code dir}; each file appears under its final name only when complete. */
  public Files writeTo(Path dir) throws IOException {
    java.nio.file.Files.createDirectories(dir);
    Path tmp = java.nio.file.Files.createTempDirectory(dir, ".simulate-");
    try {
      writeReference(tmp);
      writeReads(tmp);
      writeTruth(tmp);
      writeConfidentBed(tmp);
      List<String> names = List.of("ref.fa", "ref.fa.fai", "ref.dict", "reads.bam", "reads.bam.bai",
          "truth.vcf.gz", "truth.vcf.gz.tbi", "confident.bed");
      for (String name : names) {
        java.nio.file.Files.move(tmp.resolve(name), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
    } finally {
      deleteRecursively(tmp);
    }
    return new Files(dir, dir.resolve("ref.fa"), dir.resolve("reads.bam"), dir.resolve("truth.vcf.gz"),
        dir.resolve("confident.bed"));
  }

  private SAMSequenceDictionary dictionary() {
    SAMSequenceRecord sq = new SAMSequenceRecord(CONTIG, reference.length);
    sq.setMd5(md5(reference));
    return new SAMSequenceDictionary(List.of(sq));
  }

  private void writeReference(Path dir) throws IOException {
    int lineBases = 60;
    StringBuilder fa = new StringBuilder(reference.length + reference.length / lineBases + 64);
    String headerLine = ">" + CONTIG + "\n";
    fa.append(headerLine);
    for (int i = 0; i < reference.length; i += lineBases) {
      fa.append(new String(reference, i, Math.min(lineBases, reference.length - i), StandardCharsets.US_ASCII)).append('\n');
    }
    java.nio.file.Files.writeString(dir.resolve("ref.fa"), fa, StandardCharsets.US_ASCII);
    java.nio.file.Files.writeString(dir.resolve("ref.fa.fai"),
        CONTIG + "\t" + reference.length + "\t" + headerLine.length() + "\t" + lineBases + "\t" + (lineBases + 1) + "\n",
        StandardCharsets.US_ASCII);
    java.nio.file.Files.writeString(dir.resolve("ref.dict"),
        "@HD\tVN:1.6\n@SQ\tSN:" + CONTIG + "\tLN:" + reference.length + "\tM5:" + md5(reference) + "\n",
        StandardCharsets.US_ASCII);
  }

  private SAMFileHeader samHeader() {
    SAMFileHeader header = new SAMFileHeader(dictionary());
    header.setSortOrder(SAMFileHeader.SortOrder.coordinate);
    SAMReadGroupRecord rg = new SAMReadGroupRecord(SAMPLE);
    rg.setSample(SAMPLE);
    rg.setLibrary("demo-lib");
    rg.setPlatform("ILLUMINA");
    header.addReadGroup(rg);
    SAMProgramRecord pg = new SAMProgramRecord("fastpipe-simulate");
    pg.setProgramName("fastpipe simulate");
    pg.setCommandLine("seed=" + seed + " length=" + reference.length + " coverage=" + coverage);
    header.addProgramRecord(pg);
    return header;
  }

  private void writeReads(Path dir) throws IOException {
    SAMFileHeader header = samHeader();
    List<SAMRecord> records = simulateReads(header);
    records.sort(new SAMRecordCoordinateComparator());
    Path bam = dir.resolve("reads.bam");
    try (SAMFileWriter w = new SAMFileWriterFactory().setCreateIndex(true).makeBAMWriter(header, true, bam)) {
      for (SAMRecord r : records) w.addAlignment(r);
    }
    java.nio.file.Files.move(dir.resolve("reads.bai"), dir.resolve("reads.bam.bai"));
  }

  private void writeTruth(Path dir) {
    Path vcf = dir.resolve("truth.vcf.gz");
    Set<VCFHeaderLine> lines = new LinkedHashSet<>();
    lines.add(new VCFHeaderLine(VCFHeaderVersion.VCF4_2.getFormatString(), VCFHeaderVersion.VCF4_2.getVersionString()));
    lines.add(new VCFFormatHeaderLine(VCFConstants.GENOTYPE_KEY, 1, VCFHeaderLineType.String, "Genotype"));
    lines.add(new VCFHeaderLine("source", "fastpipe simulate (seed=" + seed + ")"));
    VCFHeader header = new VCFHeader(lines, List.of(SAMPLE));
    header.setSequenceDictionary(dictionary());
    try (VariantContextWriter w = new VariantContextWriterBuilder()
        .setOutputPath(vcf)
        .setReferenceDictionary(dictionary())
        .setOptions(java.util.EnumSet.of(Options.INDEX_ON_THE_FLY))
        .build()) {
      w.writeHeader(header);
      for (TruthVariant v : variants) {
        List<Allele> alleles = new ArrayList<>();
        alleles.add(Allele.create(v.ref(), true));
        for (String a : v.alts()) alleles.add(Allele.create(a, false));
        List<Allele> gt = List.of(alleles.get(v.haplotypeAlleles()[0]), alleles.get(v.haplotypeAlleles()[1]));
        w.add(new VariantContextBuilder("truth", CONTIG, v.vcfPosition(), v.end(), alleles)
            .passFilters()
            .genotypes(new GenotypeBuilder(SAMPLE, gt).phased(true).make())
            .make());
      }
    }
  }

  private void writeConfidentBed(Path dir) throws IOException {
    java.nio.file.Files.writeString(dir.resolve("confident.bed"),
        CONTIG + "\t" + confidentStart() + "\t" + confidentEnd() + "\n", StandardCharsets.US_ASCII);
  }

  static String md5(byte[] bases) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bases));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteRecursively(Path p) throws IOException {
    if (!java.nio.file.Files.exists(p)) return;
    try (var s = java.nio.file.Files.walk(p)) {
      for (Path q : s.sorted(Comparator.reverseOrder()).toList()) java.nio.file.Files.deleteIfExists(q);
    }
  }
}
