package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMReadGroupRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The run contract, through the real command path (picocli, {@link Main}'s error handling, the
 * runtime), in this JVM: an output that names an input, or another output, is refused before any
 * work with one line naming both options and the file, exit status 2, the input's bytes unchanged;
 * every numeric option out of its range is one line naming the option and the value; a run whose
 * metrics cannot be written publishes no VCF either.
 */
class RunContractTest {
  @TempDir static Path dir;
  static TestGenome.Written in;
  static Path bai;
  static Path fai;
  static Path bed;

  /** The shipped model, beside the module (the tests run in streaming/). */
  static final Path MODEL = Path.of("").toAbsolutePath().getParent().resolve(ModelOptions.SHIPPED_MODEL);

  @BeforeAll
  static void writeInputs() throws IOException {
    TestGenome g = TestGenome.tiled("chrT", 12_000, 17, 0, 3);
    SAMReadGroupRecord rg = new SAMReadGroupRecord("lane-S1");
    rg.setSample("S1");
    g.header.addReadGroup(rg);
    g.reads.forEach(r -> r.setAttribute("RG", "lane-S1"));
    in = g.write(dir, "reads.bam");
    bai = dir.resolve("reads.bai");
    fai = Path.of(in.fasta() + ".fai");
    bed = Files.writeString(dir.resolve("regions.bed"), "chrT\t1000\t5000\n");
  }

  record Result(int exit, String err) {}

  static Result fastpipe(List<String> args) {
    CommandLine cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    return new Result(cl.execute(args.toArray(String[]::new)), err.toString());
  }

  static List<String> call(Path out, String... extra) {
    List<String> a = new ArrayList<>(List.of("call", "--ref", in.fasta().toString(), "--reads", in.bam().toString(),
        "--output", out.toString(), "--model", MODEL.toString(), "--transport", "disruptor", "--shards", "1",
        "--no-progress"));
    a.addAll(List.of(extra));
    return a;
  }

  static String sha(Path p) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }

  /** The one line of a refused command: exit 2, one line starting "fastpipe CMD: ", no stack trace. */
  static String oneLine(Result r, String command) {
    assertEquals(2, r.exit(), r.err());
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r.err());
    assertTrue(lines.get(0).startsWith("fastpipe " + command + ": "), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    return lines.get(0);
  }

  /**
   * Runs {@code args}, expects it refused naming every one of {@code named}, with the bytes of
   * every file of {@code kept} unchanged and nothing under {@code notPublished}.
   */
  static void refused(List<String> args, List<Path> kept, List<Path> notPublished, String... named) throws Exception {
    String command = args.get(0);
    Map<Path, String> before = new LinkedHashMap<>();
    for (Path p : kept) before.put(p, sha(p));
    String line = oneLine(fastpipe(args), command);
    for (String n : named) assertTrue(line.contains(n), "names " + n + ": " + line);
    for (Path p : kept) assertEquals(before.get(p), sha(p), p + " must be byte-identical: " + line);
    for (Path p : notPublished) assertFalse(Files.exists(p), p + " must not be written: " + line);
  }

  static List<Path> inputFiles() {
    return List.of(in.fasta(), fai, in.bam(), bai, bed);
  }

  @Test
  void callRefusesAnOutputThatIsAnInput() throws Exception {
    Path out = dir.resolve("refused.vcf.gz");
    List<Path> none = List.of(out, Path.of(out + ".tbi"));
    refused(call(out, "--metrics", in.bam().toString()), inputFiles(), none, "--metrics", "--reads", in.bam().toString());
    refused(call(out, "--report", in.fasta().toString()), inputFiles(), none, "--report", "--ref", in.fasta().toString());
    refused(call(out, "--metrics", bai.toString()), inputFiles(), none, "--metrics", "--reads index", bai.toString());
    refused(call(out, "--report", fai.toString()), inputFiles(), none, "--report", "--ref index", fai.toString());
    refused(call(out, "--bed", bed.toString(), "--metrics", bed.toString()), inputFiles(), none, "--metrics", "--bed");
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), in.bam());
    refused(call(out, "--metrics", link.toString()), inputFiles(), none, "--metrics " + link, "--reads " + in.bam());
    Path hard = Files.createLink(dir.resolve("hard.html"), in.fasta());
    refused(call(out, "--report", hard.toString()), inputFiles(), none, "--report " + hard, "--ref " + in.fasta());
  }

  /**
   * The resume journal's files beside the output are outputs too: an input at the partial VCF's name
   * was deleted before it was read ("BED file not found"), and --metrics naming the journal directory
   * failed only after the whole run.
   */
  @Test
  void callRefusesAnInputOrOutputWhereTheJournalWrites() throws Exception {
    Path out = dir.resolve("journaled.vcf.gz");
    List<Path> none = List.of(out, Path.of(out + ".tbi"));
    Path partial = Files.writeString(dir.resolve(".journaled.vcf.gz.fastpipe-partial"), "chrT\t1000\t5000\n");
    List<Path> kept = new ArrayList<>(inputFiles());
    kept.add(partial);
    refused(call(out, "--bed", partial.toString()), kept, none, "--output journal", "--bed " + partial);
    Path journalDir = dir.resolve("journaled.vcf.gz.fastpipe-journal");
    refused(call(out, "--metrics", journalDir.toString()), inputFiles(), none, "--metrics", "--output journal");
    Files.createDirectory(journalDir); // left by an interrupted run
    Path inside = Files.writeString(journalDir.resolve("plan"), "chrT\t1000\t5000\n");
    kept.add(inside);
    refused(call(out, "--bed", inside.toString()), kept, none, "--output journal", "--bed " + inside);
    // without a journal, those names are free
    assertEquals(0, fastpipe(call(out, "--bed", partial.toString(), "--no-journal")).exit());
    Files.delete(inside);
    Files.delete(journalDir);
    Files.delete(partial);
  }

  /**
   * bench checks every configuration's call before the first round: a bad option in the second
   * configuration fails at once, naming it, and the first is not run.
   */
  @Test
  void benchRefusesABadConfigurationBeforeTheFirstRun() throws Exception {
    Path work = dir.resolve("bench-work");
    for (String[] c : new String[][] {
        {"b: --bogus", "fastpipe call: unknown option --bogus; see 'fastpipe call --help'"},
        {"b: --min-base-quality 94", "fastpipe call: --min-base-quality 94: must be between 0 and 93"}}) {
      String line = oneLine(fastpipe(List.of("bench", "--config", "a: --shards 1", "--config", c[0], "--repeats", "1",
          "--warmup", "0", "--work-dir", work.toString(), "--", "--ref", in.fasta().toString(), "--reads",
          in.bam().toString(), "--model", MODEL.toString(), "--transport", "disruptor")), "bench");
      assertEquals("fastpipe bench: configuration 'b' is refused before any run: " + c[1], line);
      try (var files = Files.list(work)) {
        assertEquals(List.of(), files.toList(), "no run: " + line);
      }
    }
  }

  /** A --gvcf name that is no gVCF's is named as --gvcf's, with what it needs (not --output's .vcf or -). */
  @Test
  void callRefusesAGvcfNameThatIsNotBgzipped() throws Exception {
    Path out = dir.resolve("gvcfname.vcf.gz");
    for (String name : List.of("g.txt", "g.g.vcf")) {
      Path g = dir.resolve(name);
      refused(call(out, "--gvcf", g.toString()), inputFiles(), List.of(out, g),
          "--gvcf " + g + ": must end with .vcf.gz: the gVCF is written bgzipped with a .tbi index");
    }
  }

  @Test
  void callRefusesTwoOutputsThatAreOneFile() throws Exception {
    Path out = dir.resolve("two.vcf.gz");
    Path json = dir.resolve("two.json");
    List<Path> none = List.of(out, Path.of(out + ".tbi"), json);
    refused(call(out, "--metrics", out.toString()), inputFiles(), none, "--metrics", "--output", out.toString());
    refused(call(out, "--report", out.toString()), inputFiles(), none, "--report", "--output");
    refused(call(out, "--metrics", json.toString(), "--report", json.toString()), inputFiles(), none, "--report", "--metrics");
    Path g = dir.resolve("two.g.vcf.gz");
    refused(call(out, "--gvcf", g.toString(), "--metrics", g.toString()), inputFiles(), List.of(out, g), "--metrics", "--gvcf");
    refused(call(out, "--gvcf", out.toString()), inputFiles(), none, "--gvcf", "--output");
    refused(call(out, "--metrics", out + ".tbi"), inputFiles(), none, "--metrics", "--output index");
  }

  @Test
  void everyOtherSubcommandRefusesAnOutputThatIsAnInput() throws Exception {
    Path ex = Files.write(dir.resolve("ex.tfrecord.gz"), new byte[] {1, 2, 3});
    Path calls = Files.write(dir.resolve("calls.gz"), new byte[] {4, 5, 6});
    List<Path> kept = new ArrayList<>(inputFiles());
    kept.addAll(List.of(ex, calls));
    refused(List.of("make-examples", "--ref", in.fasta().toString(), "--reads", in.bam().toString(), "--output",
        in.bam().toString()), kept, List.of(), "--output", "--reads");
    Path exOut = dir.resolve("me.tfrecord.gz");
    refused(List.of("make-examples", "--ref", in.fasta().toString(), "--reads", in.bam().toString(), "--output",
        exOut.toString(), "--gvcf-blocks", exOut.toString()), kept, List.of(exOut), "--gvcf-blocks", "--output");
    refused(List.of("call-variants", "--examples", ex.toString(), "--output", ex.toString(), "--model", MODEL.toString()),
        kept, List.of(), "--output", "--examples");
    Path vcfIn = Files.copy(calls, dir.resolve("calls.vcf.gz"));
    kept.add(vcfIn);
    refused(List.of("postprocess", "--calls", vcfIn.toString(), "--ref", in.fasta().toString(), "--output",
        vcfIn.toString()), kept, List.of(), "--output", "--calls");
    Path pp = dir.resolve("pp.vcf.gz");
    refused(List.of("postprocess", "--calls", calls.toString(), "--ref", in.fasta().toString(), "--output",
        pp.toString(), "--gvcf", pp.toString(), "--gvcf-blocks", ex.toString()), kept, List.of(pp), "--gvcf", "--output");
    Path chunkBed = Files.writeString(dir.resolve("chunk-0001-of-0001.bed"), "chrT\t0\t12000\n");
    kept.add(chunkBed);
    refused(List.of("plan", "--ref", in.fasta().toString(), "--reads", in.bam().toString(), "--bed", chunkBed.toString(),
        "--chunks", "1", "--output-dir", dir.toString()), kept, List.of(), "--output-dir", "--bed");
    Path simDir = Files.createDirectories(dir.resolve("sim"));
    Path confident = Files.writeString(simDir.resolve("confident.bed"), "chrT\t0\t12000\n");
    kept.add(confident);
    refused(List.of("simulate", "--output", simDir.toString(), "--ref", in.fasta().toString(), "--bed",
        confident.toString()), kept, List.of(simDir.resolve("reads.bam")), "--output", "--bed");
    Path modelDir = Files.createDirectories(dir.resolve("trained"));
    Path train = Files.copy(ex, modelDir.resolve("train.tfrecord.gz"));
    refused(List.of("train", "--examples", train.toString(), "--output", modelDir.toString()), List.of(train), List.of(),
        "--output", "--examples");
    refused(List.of("tune", "--ref", in.fasta().toString(), "--reads", in.bam().toString(), "--json", bai.toString()),
        kept, List.of(), "--json", "--reads index");
  }

  @Test
  void everyNumericOptionOutOfItsRangeIsOneLineNamingIt() throws Exception {
    Path out = dir.resolve("range.vcf.gz");
    String[][] cases = {
      {"--min-qual", "NaN"}, {"--min-qual", "-1"}, {"--snp-min-fraction", "-0.1"}, {"--snp-min-fraction", "NaN"},
      {"--snp-min-fraction", "1.5"}, {"--snp-min-count", "-1"}, {"--indel-min-count", "-1"},
      {"--indel-min-fraction", "-1"}, {"--intra-op-threads", "-1"}, {"--inter-op-threads", "-1"},
      {"--min-mapq", "-1"}, {"--min-base-quality", "-3"}, {"--consumers", "0"}, {"--batch-size", "0"},
    };
    for (String[] c : cases) {
      refused(call(out, c[0], c[1]), inputFiles(), List.of(out), c[0] + " " + c[1]);
    }
    // a batch's images are held in memory: TensorFlow's allocator would fail on a huge one
    refused(call(out, "--batch-size", "100000000"), inputFiles(), List.of(out), "--batch-size 100000000: must be 4096 or less"
        + " (a batch holds its images in memory: 4096 images of 100x221x7 float32 take 2.4 GiB, per consumer)");
    // qualities top out at 93 (SAM's '~'): a higher minimum would silently drop every base
    refused(call(out, "--min-base-quality", "94"), inputFiles(), List.of(out), "--min-base-quality 94: must be between 0 and 93");
    refused(call(out, "--ring-size", "17179869185G"), inputFiles(), List.of(out), "--ring-size 17179869185G");
    refused(call(out, "--sample", "S\t1"), inputFiles(), List.of(out), "--sample \"S\\t1\"", "control character");
    refused(call(out, "--sample", "S\n1"), inputFiles(), List.of(out), "--sample \"S\\n1\"");
    refused(List.of("postprocess", "--calls", Files.write(dir.resolve("c.gz"), new byte[] {1}).toString(), "--ref",
        in.fasta().toString(), "--output", out.toString(), "--min-qual", "NaN"), inputFiles(), List.of(out), "--min-qual NaN");
  }

  @Test
  void aModelDirectoryWithoutItsWeightsIsNamedBeforeAnyWork() throws Exception {
    Path out = dir.resolve("model.vcf.gz");
    Path noWeights = Files.createDirectories(dir.resolve("no-weights"));
    Files.copy(MODEL.resolve("saved_model.pb"), noWeights.resolve("saved_model.pb"));
    List<String> args = call(out);
    args.set(args.indexOf(MODEL.toString()), noWeights.toString());
    refused(args, inputFiles(), List.of(out), "--model " + noWeights, "no variables/variables.index");
    Path empty = Files.createDirectories(dir.resolve("empty-model"));
    args.set(args.indexOf(noWeights.toString()), empty.toString());
    refused(args, inputFiles(), List.of(out), "--model " + empty, "no saved_model.pb");
  }

  @Test
  void aBedLineOffItsContigIsOneLineNamingTheFileAndLine() throws Exception {
    Path out = dir.resolve("bed.vcf.gz");
    Path negative = Files.writeString(dir.resolve("negative.bed"), "chrT\t100\t200\nchrT\t-5\t100\n");
    refused(call(out, "--bed", negative.toString()), inputFiles(), List.of(out), negative + ":2: the start -5 is negative");
    Path past = Files.writeString(dir.resolve("past.bed"), "chrT\t11000\t12001\n");
    refused(call(out, "--bed", past.toString()), inputFiles(), List.of(out),
        past + ":1: the end 12001 is past the end of contig chrT (length 12000)");
    Path reversed = Files.writeString(dir.resolve("reversed.bed"), "chrT\t900\t100\n");
    refused(call(out, "--bed", reversed.toString()), inputFiles(), List.of(out), reversed + ":1: the start 900 is after the end 100");
  }

  @Test
  void aRunWhoseMetricsCannotBeWrittenPublishesNoVcf() throws Exception {
    Path ok = dir.resolve("ok.vcf.gz");
    Path okJson = dir.resolve("ok.json");
    Result first = fastpipe(call(ok, "--metrics", okJson.toString(), "--regions", "chrT:2001-6000"));
    assertEquals(0, first.exit(), first.err());
    assertTrue(Files.size(ok) > 0 && Files.size(Path.of(ok + ".tbi")) > 0 && Files.size(okJson) > 0, "a run that works");

    Path out = dir.resolve("tx.vcf.gz");
    Path json = dir.resolve("tx.json");
    // The metrics' temporary name is taken by a directory: writing the metrics fails after the VCF is done.
    Path blocker = Files.createDirectory(OutputFiles.temporary(json, ".json"));
    Result r = fastpipe(call(out, "--metrics", json.toString(), "--regions", "chrT:2001-6000"));
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(json + ": cannot write the metrics"), r.err());
    assertFalse(Files.exists(out), "no VCF published without its metrics");
    assertFalse(Files.exists(Path.of(out + ".tbi")), "nor its index");
    assertFalse(Files.exists(json));
    Files.deleteIfExists(blocker); // (the failed write removes its temporary, here the empty directory)
    try (Stream<Path> s = Files.list(dir)) {
      List<String> left = s.map(p -> p.getFileName().toString()).filter(n -> n.contains("tx.")).toList();
      assertEquals(List.of(), left, "no temporaries left");
    }
  }
}
