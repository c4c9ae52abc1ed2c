package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.testing.TestGenome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every subcommand validates its inputs as {@code call} does: a FASTA of other contig names or other
 * bases, non-finite probabilities in call-variants' output, a truth file that is not a VCF, an empty
 * or garbage file, a BED naming contigs the reference lacks, a command line picocli cannot parse.
 * Each case is one line on stderr, {@code fastpipe CMD: } then the file (or option) and the problem,
 * exit status 2, nothing on stdout (no results) and no output file written.
 */
class SubcommandInputFaultsTest {
  @TempDir static Path dir;
  static Path ref;
  static Path reads;
  static Path otherNames;
  static Path otherBases;
  static Path garbage;
  static Path empty;
  static Path unknownBed;
  static Path bed;
  static Path vcf;
  static Path offReferenceVcf;
  static Path calls;
  static Path nanCalls;
  static Path infCalls;
  static Path out;

  @BeforeAll
  static void inputs() throws IOException {
    TestGenome g = TestGenome.tiled("chrT", 12_000, 17, 0, 3);
    TestGenome.Written w = g.write(dir, "reads.bam");
    ref = w.fasta();
    reads = w.bam();
    String fasta = Files.readString(ref);
    otherNames = fasta(dir.resolve("names.fa"), fasta.replace(">chrT", ">Z"));
    StringBuilder complement = new StringBuilder(">chrT\n"); // every base another: the same contig, other bases
    for (int i = 0; i < g.ref.length; i++) {
      complement.append("TGCA".charAt("ACGT".indexOf(Character.toUpperCase((char) g.ref[i]))));
      if (i % 60 == 59) complement.append('\n');
    }
    otherBases = fasta(dir.resolve("bases.fa"), complement.toString());
    Random random = new Random(5);
    garbage = dir.resolve("garbage.bin");
    byte[] noise = new byte[3000];
    random.nextBytes(noise);
    Files.write(garbage, noise);
    empty = Files.createFile(dir.resolve("empty.txt"));
    unknownBed = Files.writeString(dir.resolve("unknown.bed"), "chrX\t0\t100\n");
    bed = Files.writeString(dir.resolve("ok.bed"), "chrT\t0\t5000\n");
    int pos = 1000; // a site on chrT, 0-based
    String base = g.refString(pos, pos + 1);
    String alt = base.equals("A") ? "C" : "A";
    vcf = Files.writeString(dir.resolve("calls.vcf"), "##fileformat=VCFv4.2\n##contig=<ID=chrT,length=12000>\n"
        + "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\nchrT\t" + (pos + 1) + "\t.\t" + base + "\t" + alt
        + "\t30\tPASS\t.\tGT\t0/1\n");
    offReferenceVcf = Files.writeString(dir.resolve("chrQ.vcf"), Files.readString(vcf).replace("chrT", "chrQ"));
    String head = "##fastpipe-calls=1\n#contig_index\tposition\tref\talts\talt_subset\texamples_at_site\tdp\tad\tp_hom_ref\tp_het\tp_hom_alt\n";
    String row = "0\t" + pos + "\t" + base + "\t" + alt + "\t0\t1\t30\t15,15\t";
    calls = gzip(dir.resolve("calls.gz"), head + row + "0.01\t0.98\t0.01\n");
    nanCalls = gzip(dir.resolve("nan.calls.gz"), head + row + "NaN\t0.98\t0.01\n");
    infCalls = gzip(dir.resolve("inf.calls.gz"), head + row + "0.01\tInfinity\t0.01\n");
    out = dir.resolve("out");
  }

  static Path fasta(Path p, String text) throws IOException {
    Files.writeString(p, text);
    int length = text.substring(text.indexOf('\n') + 1).replace("\n", "").length();
    String name = text.substring(1, text.indexOf('\n'));
    Files.writeString(Path.of(p + ".fai"), name + "\t" + length + "\t" + (name.length() + 2) + "\t60\t61\n");
    return p;
  }

  static Path gzip(Path p, String text) throws IOException {
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(p))) {
      o.write(text.getBytes(StandardCharsets.US_ASCII));
    }
    return p;
  }

  static Stream<Arguments> faults() {
    String r = ref.toString();
    String b = reads.toString();
    Path vcfOut = out.resolve("o.vcf.gz");
    String o = vcfOut.toString();
    return Stream.of(
        // postprocess
        Arguments.of(List.of("postprocess", "--calls", nanCalls, "--ref", r, "--output", o),
            nanCalls + ": line 3: p_hom_ref NaN: a genotype probability must be a number between 0 and 1"),
        Arguments.of(List.of("postprocess", "--calls", infCalls, "--ref", r, "--output", o),
            infCalls + ": line 3: p_het Infinity: a genotype probability must be a number between 0 and 1"),
        Arguments.of(List.of("postprocess", "--calls", calls, "--ref", otherBases, "--output", o),
            calls + ": the site at chrT:1001 has REF"),
        Arguments.of(List.of("postprocess", "--calls", calls, "--ref", otherNames, "--reads", b, "--output", o),
            b + " and " + otherNames + " share no contig name"),
        Arguments.of(List.of("postprocess", "--calls", calls, "--ref", r, "--reads", garbage, "--output", o),
            garbage + ": not a BAM or CRAM file"),
        Arguments.of(List.of("postprocess", "--calls", garbage, "--ref", r, "--output", o), garbage + ": not gzipped"),
        Arguments.of(List.of("postprocess", "--calls", calls, "--ref", garbage, "--output", o), garbage + ": not a FASTA file"),
        // call-variants
        Arguments.of(List.of("call-variants", "--model", RunContractTest.MODEL, "--examples", empty, "--output", out.resolve("c.gz")),
            empty + ": empty file (0 bytes), not examples"),
        Arguments.of(List.of("call-variants", "--model", RunContractTest.MODEL, "--examples", ref, "--output", out.resolve("c.gz")),
            ref + ": not gzipped, not examples"),
        Arguments.of(List.of("call-variants", "--model", RunContractTest.MODEL, "--examples", calls, "--reads", garbage, "--output", out.resolve("c.gz")),
            garbage + ": not a BAM or CRAM file"),
        // compare
        Arguments.of(List.of("compare", "--ref", r, "--calls", vcf, "--truth", ref), ref + ": not a VCF"),
        Arguments.of(List.of("compare", "--ref", r, "--calls", vcf, "--truth", garbage), garbage + ": not a VCF"),
        Arguments.of(List.of("compare", "--ref", r, "--calls", vcf, "--truth", empty), empty + ": empty file, not a VCF"),
        Arguments.of(List.of("compare", "--ref", r, "--calls", garbage, "--truth", vcf), garbage + ": not a VCF"),
        Arguments.of(List.of("compare", "--ref", r, "--calls", vcf, "--truth", vcf, "--bed", unknownBed),
            unknownBed + ":1: contig chrX is not in " + r),
        Arguments.of(List.of("compare", "--ref", otherNames, "--calls", vcf, "--truth", vcf),
            vcf + ": line 4: contig 'chrT' is not in " + otherNames),
        Arguments.of(List.of("compare", "--ref", r, "--calls", vcf, "--truth", vcf, "--json", vcf),
            "--json " + vcf + ": is the same file as"),
        // plan
        Arguments.of(List.of("plan", "--ref", otherNames, "--reads", b, "--chunks", "2", "--output-dir", out.resolve("p")),
            b + " and " + otherNames + " share no contig name"),
        Arguments.of(List.of("plan", "--ref", r, "--reads", b, "--bed", unknownBed, "--chunks", "2", "--output-dir", out.resolve("p")),
            unknownBed + ":1: contig chrX is not in the reference"),
        Arguments.of(List.of("plan", "--ref", r, "--reads", garbage, "--chunks", "2", "--output-dir", out.resolve("p")),
            garbage + ": not a BAM or CRAM file"),
        // far more chunks than the regions hold: refused before as many chunk files are declared
        Arguments.of(List.of("plan", "--ref", r, "--reads", b, "--chunks", "100000", "--output-dir", out.resolve("p")),
            "--chunks 100000: the regions (12000 bp in 1 interval) can be cut into at most"),
        // make-examples
        Arguments.of(List.of("make-examples", "--ref", otherNames, "--reads", b, "--output", out.resolve("e.tfrecord.gz")),
            b + " and " + otherNames + " share no contig name"),
        Arguments.of(List.of("make-examples", "--ref", r, "--reads", b, "--bed", unknownBed, "--output", out.resolve("e.tfrecord.gz")),
            unknownBed + ":1: contig chrX is not in the reference"),
        Arguments.of(List.of("make-examples", "--ref", r, "--reads", b, "--truth-vcf", ref, "--confident-bed", bed,
            "--output", out.resolve("e.tfrecord.gz")), ref + ": cannot read the truth VCF"),
        Arguments.of(List.of("make-examples", "--ref", r, "--reads", b, "--truth-vcf", offReferenceVcf, "--confident-bed", bed,
            "--output", out.resolve("e.tfrecord.gz")), offReferenceVcf + ": no record lies on a contig of the reference"),
        Arguments.of(List.of("make-examples", "--ref", r, "--reads", empty, "--output", out.resolve("e.tfrecord.gz")),
            empty + ": empty file (0 bytes), not a BAM or CRAM"),
        // tune: its inputs are checked before any run
        Arguments.of(List.of("tune", "--ref", otherNames, "--reads", b, "--json", out.resolve("t.json")),
            b + " and " + otherNames + " share no contig name"),
        Arguments.of(List.of("tune", "--ref", r, "--reads", b, "--bed", unknownBed, "--json", out.resolve("t.json")),
            unknownBed + ":1: contig chrX is not in the reference"),
        // every value tune would sweep is checked before the first run
        Arguments.of(List.of("tune", "--ref", r, "--reads", b, "--batch-sizes", "64,5000", "--json", out.resolve("t.json"),
            "--", "--model", RunContractTest.MODEL, "--sample", "S"), "is refused before any run: fastpipe call: --batch-size 5000: must be 4096 or less"),
        // a command line picocli cannot parse: the problem, not the usage
        Arguments.of(List.of("call", "--ref", r, "--reads", b, "--output", o, "--bogus"),
            "unknown option --bogus"),
        Arguments.of(List.of("bench", "--ref", r), "unknown option --ref"),
        Arguments.of(List.of("call", "--ref", r, "--reads", b, "--output", o, "--shards", "x"),
            "Invalid value for option '--shards': 'x' is not an int"));
  }

  @ParameterizedTest
  @MethodSource("faults")
  void isOneLineNamingTheFileAndTheProblem(List<Object> args, String expected) throws IOException {
    if (Files.exists(out)) {
      try (Stream<Path> s = Files.walk(out)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(out);
    List<String> argv = args.stream().map(Object::toString).toList();
    String command = argv.get(0);
    StringWriter stdout = new StringWriter();
    StringWriter err = new StringWriter();
    PrintStream systemErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8)); // what commands print on System.err
    int exit;
    try {
      CommandLine cl = Main.commandLine();
      cl.setErr(new PrintWriter(err, true));
      cl.setOut(new PrintWriter(stdout, true));
      exit = cl.execute(argv.toArray(String[]::new));
    } finally {
      System.setErr(systemErr);
    }
    String all = err + captured.toString(StandardCharsets.UTF_8);
    String what = String.join(" ", argv) + "\n" + all;
    assertEquals(2, exit, what);
    List<String> lines = all.lines().filter(l -> !l.isBlank()).toList();
    assertEquals(1, lines.size(), what);
    assertTrue(lines.get(0).startsWith("fastpipe " + command + ": "), what);
    assertTrue(lines.get(0).contains(expected), "expected \"" + expected + "\" in: " + lines.get(0));
    assertFalse(all.contains("\tat "), what);
    assertEquals("", stdout.toString(), "no results: " + what);
    List<String> written = new ArrayList<>();
    try (Stream<Path> s = Files.walk(out)) {
      s.filter(Files::isRegularFile).forEach(p -> written.add(p.toString()));
    }
    assertEquals(List.of(), written, "no output: " + what);
  }
}
