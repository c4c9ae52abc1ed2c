package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.testing.SharedData;
import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriter;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
import htsjdk.samtools.SamReader;
import htsjdk.samtools.SamReaderFactory;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Valid but unusual BAMs give the VCF of the plain BAM they were rewritten from: {@code sim30x_eval}'s
 * reads over 40 kb, rewritten with htsjdk one way each (SEQ with {@code =} for reference bases, {@code =}/{@code X}
 * CIGAR operations, hard clips, padding, MAPQ 255, secondary, supplementary and unmapped-but-placed
 * records, CRAM), are called by {@code call} in this JVM; the VCF records must equal the original's. Reads
 * without base qualities are refused with one line, or called at {@code --default-base-quality Q}.
 */
class UnusualReadsIT {
  static final String CONTIG = "chr20";
  static final int START = 10_100_001;
  static final int END = 10_140_000;
  static final Path MODEL = Path.of("").toAbsolutePath().getParent().resolve(ModelOptions.SHIPPED_MODEL);

  @TempDir static Path dir;
  static Path ref;
  static SAMFileHeader header;
  static List<SAMRecord> reads;
  static ReferenceSequenceFile fasta;
  static List<String> original;

  @BeforeAll
  static void originalCall() throws IOException {
    ref = SharedData.require("ref/chr20.fa.gz");
    Path bam = SharedData.require("sim30x_eval/SIM30X_EVAL.bam");
    fasta = ReferenceSequenceFileFactory.getReferenceSequenceFile(ref);
    reads = new ArrayList<>();
    try (SamReader r = SamReaderFactory.makeDefault().open(bam);
        SAMRecordIterator it = r.queryOverlapping(CONTIG, START - 1000, END + 1000)) {
      header = r.getFileHeader();
      it.forEachRemaining(reads::add);
    }
    original = call(write("plain.bam", reads), "");
    assertTrue(original.size() > 20, "the 40 kb hold calls: " + original.size());
  }

  record Result(int exit, String err, List<String> records) {}

  /** The VCF body of {@code call} on {@code reads} (threads, one shard) after checking it succeeded with {@code warning}. */
  static List<String> call(Path reads, String warning) throws IOException {
    Result r = run(reads);
    assertEquals(0, r.exit(), r.err());
    if (!warning.isEmpty()) assertTrue(r.err().contains(warning), r.err());
    else assertTrue(!r.err().contains("warning"), r.err());
    return r.records();
  }

  static Result run(Path reads, String... extra) throws IOException {
    Path out = dir.resolve(reads.getFileName() + ".vcf.gz");
    // call writes its warnings and summary to System.err: catch them with picocli's own lines
    java.io.PrintStream stderr = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    CommandLine cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    int exit;
    try {
      List<String> args = new ArrayList<>(List.of("call", "--ref", ref.toString(), "--reads", reads.toString(),
          "--output", out.toString(), "--regions", CONTIG + ":" + START + "-" + END, "--model", MODEL.toString(),
          "--transport", "disruptor", "--shards", "1", "--no-progress"));
      args.addAll(List.of(extra));
      exit = cl.execute(args.toArray(String[]::new));
    } finally {
      System.setErr(stderr);
    }
    List<String> body = new ArrayList<>();
    if (exit == 0) {
      try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(new GZIPInputStream(Files.newInputStream(out))))) {
        in.lines().filter(l -> !l.startsWith("#")).forEach(body::add);
      }
    }
    return new Result(exit, err + captured.toString(java.nio.charset.StandardCharsets.UTF_8), body);
  }

  static Path write(String name, List<SAMRecord> records) {
    Path p = dir.resolve(name);
    SAMFileHeader h = header.clone();
    h.setSortOrder(SAMFileHeader.SortOrder.coordinate);
    SAMFileWriterFactory f = new SAMFileWriterFactory().setCreateIndex(true);
    try (SAMFileWriter w = name.endsWith(".cram") ? f.makeCRAMWriter(h, true, p, ref) : f.makeWriter(h, true, p, ref)) {
      records.forEach(w::addAlignment);
    }
    return p;
  }

  static List<SAMRecord> rewritten(Function<SAMRecord, List<SAMRecord>> how) {
    List<SAMRecord> out = new ArrayList<>();
    for (SAMRecord r : reads) out.addAll(how.apply(r.deepCopy()));
    return out;
  }

  /** The VCF records of {@code reads} equal the original's; the message lists the first records that differ. */
  static void sameAsOriginal(Path reads) throws IOException {
    List<String> got = call(reads, "");
    List<String> missing = original.stream().filter(l -> !got.contains(l)).limit(3).toList();
    List<String> extra = got.stream().filter(l -> !original.contains(l)).limit(3).toList();
    assertTrue(original.equals(got), reads.getFileName() + ": " + original.size() + " records expected, " + got.size()
        + " written; expected but not written: " + missing + "; written instead: " + extra);
  }

  static byte[] refBases(SAMRecord r) {
    return fasta.getSubsequenceAt(r.getContig(), r.getAlignmentStart(), r.getAlignmentEnd()).getBases();
  }

  /** Calls {@code f} at each aligned (M) base: (read offset, reference offset from the alignment start). */
  interface AlignedBase { void at(int readPos, int refOffset); }

  static void forAligned(SAMRecord r, AlignedBase f) {
    int readPos = 0;
    int refOff = 0;
    for (CigarElement e : r.getCigar()) {
      CigarOperator op = e.getOperator();
      if (op.isAlignment()) for (int k = 0; k < e.getLength(); k++) f.at(readPos + k, refOff + k);
      if (op.consumesReadBases()) readPos += e.getLength();
      if (op.consumesReferenceBases()) refOff += e.getLength();
    }
  }

  @Test
  void seqWithEqualsForReferenceBases() throws IOException {
    int[] replaced = {0};
    List<SAMRecord> rs = rewritten(r -> {
      if (r.getReadUnmappedFlag()) return List.of(r);
      byte[] b = r.getReadBases().clone();
      byte[] rb = refBases(r);
      forAligned(r, (q, o) -> {
        if (Character.toUpperCase(b[q]) == Character.toUpperCase(rb[o])) {
          b[q] = '=';
          replaced[0]++;
        }
      });
      r.setReadBases(b);
      return List.of(r);
    });
    assertTrue(replaced[0] > 1_000_000, "bases written as '=': " + replaced[0]);
    sameAsOriginal(write("equals-seq.bam", rs));
  }

  @Test
  void cigarWithSequenceMatchAndMismatchOperations() throws IOException {
    List<SAMRecord> rs = rewritten(r -> {
      if (r.getReadUnmappedFlag()) return List.of(r);
      byte[] b = r.getReadBases();
      byte[] rb = refBases(r);
      List<CigarElement> out = new ArrayList<>();
      int readPos = 0;
      int refOff = 0;
      for (CigarElement e : r.getCigar()) {
        if (e.getOperator() == CigarOperator.M) {
          for (int k = 0; k < e.getLength(); k++) {
            boolean same = Character.toUpperCase(b[readPos + k]) == Character.toUpperCase(rb[refOff + k]);
            add(out, same ? CigarOperator.EQ : CigarOperator.X);
          }
        } else {
          out.add(e);
        }
        if (e.getOperator().consumesReadBases()) readPos += e.getLength();
        if (e.getOperator().consumesReferenceBases()) refOff += e.getLength();
      }
      r.setCigar(new Cigar(out));
      return List.of(r);
    });
    assertTrue(rs.stream().anyMatch(r -> r.getCigarString().contains("X")), "mismatches written as X");
    sameAsOriginal(write("eqx-cigar.bam", rs));
  }

  /** Appends one base of {@code op}, lengthening the last element when it is the same operation. */
  static void add(List<CigarElement> out, CigarOperator op) {
    int last = out.size() - 1;
    if (last >= 0 && out.get(last).getOperator() == op) {
      out.set(last, new CigarElement(out.get(last).getLength() + 1, op));
    } else {
      out.add(new CigarElement(1, op));
    }
  }

  @Test
  void hardClipsAndPadding() throws IOException {
    List<SAMRecord> rs = rewritten(r -> {
      if (r.getReadUnmappedFlag()) return List.of(r);
      List<CigarElement> out = new ArrayList<>();
      out.add(new CigarElement(7, CigarOperator.H));
      for (CigarElement e : r.getCigar()) {
        CigarOperator op = e.getOperator();
        if (op == CigarOperator.I || op == CigarOperator.D) out.add(new CigarElement(2, CigarOperator.P));
        if (op == CigarOperator.M && e.getLength() > 20) {
          out.add(new CigarElement(10, CigarOperator.M));
          out.add(new CigarElement(1, CigarOperator.P));
          out.add(new CigarElement(e.getLength() - 10, CigarOperator.M));
        } else {
          out.add(e);
        }
      }
      out.add(new CigarElement(3, CigarOperator.H));
      r.setCigar(new Cigar(out));
      return List.of(r);
    });
    sameAsOriginal(write("clips-padding.bam", rs));
  }

  @Test
  void mappingQuality255IsTheCapOfTheMappingQualityChannel() throws IOException {
    List<SAMRecord> rs = rewritten(r -> {
      if (r.getMappingQuality() == 60) r.setMappingQuality(255);
      return List.of(r);
    });
    sameAsOriginal(write("mapq255.bam", rs));
  }

  @Test
  void secondarySupplementaryAndPlacedUnmappedRecordsAreLeftOut() throws IOException {
    int[] n = {0};
    List<SAMRecord> rs = rewritten(r -> {
      if (r.getReadUnmappedFlag() || n[0]++ % 3 != 0) return List.of(r);
      SAMRecord secondary = r.deepCopy();
      secondary.setSecondaryAlignment(true);
      secondary.setReadBases(SAMRecord.NULL_SEQUENCE); // SEQ and QUAL '*', as aligners write secondaries
      secondary.setBaseQualities(SAMRecord.NULL_QUALS);
      SAMRecord supplementary = r.deepCopy();
      supplementary.setSupplementaryAlignmentFlag(true);
      SAMRecord unmapped = r.deepCopy(); // an unmapped mate placed at its mate's position, as bwa writes it
      unmapped.setReadUnmappedFlag(true);
      unmapped.setCigarString("*");
      unmapped.setMappingQuality(0);
      unmapped.setReadName(r.getReadName() + "-u");
      return List.of(r, secondary, supplementary, unmapped);
    });
    sameAsOriginal(write("extra-records.bam", rs));
  }

  @Test
  void cram() throws IOException {
    sameAsOriginal(write("reads.cram", reads));
  }

  @Test
  void readsWithoutBaseQualitiesAreRefusedUnlessGivenADefaultQuality() throws IOException {
    List<SAMRecord> rs = rewritten(r -> {
      r.setBaseQualities(SAMRecord.NULL_QUALS);
      return List.of(r);
    });
    Path noQuals = write("no-quals.bam", rs);
    Result refused = run(noQuals);
    assertEquals(2, refused.exit(), refused.err());
    List<String> lines = refused.err().lines().filter(l -> l.startsWith("fastpipe")).toList();
    assertEquals(1, lines.size(), "[" + refused.err() + "]");
    assertTrue(lines.get(0).startsWith("fastpipe call: " + noQuals + ": read ")
        && lines.get(0).contains("has no base qualities (QUAL is '*'); call such reads with --default-base-quality Q"), lines.get(0));
    assertTrue(!Files.exists(dir.resolve("no-quals.bam.vcf.gz")), "no VCF");

    Result r = run(noQuals, "--default-base-quality", "30");
    assertEquals(0, r.exit(), r.err());
    Set<String> sites = sites(original);
    Set<String> got = sites(r.records());
    long same = got.stream().filter(sites::contains).count();
    assertTrue(same >= 0.9 * sites.size(), "calls at " + same + " of the " + sites.size() + " sites: " + r.err());
  }

  /** CHROM:POS:REF:ALT of the records called as variants (PASS). */
  static Set<String> sites(List<String> records) {
    return records.stream().map(l -> l.split("\t")).filter(f -> f[6].equals("PASS"))
        .map(f -> f[0] + ":" + f[1] + ":" + f[3] + ":" + f[4]).collect(Collectors.toSet());
  }
}
