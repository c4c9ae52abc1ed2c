package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * workflow/Snakefile run as a user runs it ({@code snakemake -s workflow/Snakefile --cores 2 --config
 * ...}), on a 3-contig simulated sample (90 kb: a contig with reads, one without, an unplaced
 * {@code chrUn_gl000220}): the gathered VCF of a 4-chunk scatter has exactly the records of one
 * {@code call}, and its gVCF the same variant records and bases; a chunk that fails is retried, and
 * a rerun runs only that chunk; two samples give a merged cohort gVCF; bad inputs stop the run
 * before any job. Skipped where snakemake, bcftools or tabix is not installed.
 */
class WorkflowIT {
  static final Path SNAKEFILE = Path.of("..", "workflow", "Snakefile").toAbsolutePath().normalize();
  /** Half the pileup image (221 columns): a variant this close to a cut has the cut inside its image. */
  static final int HALF_IMAGE = 110;

  @TempDir static Path dir;
  static Path ref;
  static Path reads;
  static Path truth;
  static Path sheet;
  static List<String> whole;
  static Path wholeGvcf;

  record Run(int exit, String output) {}

  static boolean installed(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  @BeforeAll
  static void sample() throws Exception {
    assumeTrue(installed("snakemake", "--version"), "snakemake not installed (apt-get install snakemake); skipping");
    assumeTrue(installed("bcftools", "--version") && installed("tabix", "--version"), "bcftools/tabix not installed; skipping");
    // Seed 12 puts variants 33, 86 (an insertion) and 36 bp from the plan's three cuts.
    Path sim = dir.resolve("sim");
    LauncherIT.Result s = LauncherIT.run(Map.of(), "simulate", "--output-dir", sim.toString(), "--contigs", "3",
        "--length", "90000", "--seed", "12", "--quiet");
    assertEquals(0, s.exit(), s.err());
    ref = sim.resolve("ref.fa");
    reads = sim.resolve("reads.bam");
    truth = sim.resolve("truth.vcf.gz");
    sheet = Files.writeString(dir.resolve("samples.tsv"), "sample\treads\nDEMO\tsim/reads.bam\n");
    wholeGvcf = dir.resolve("whole.g.vcf.gz");
    whole = call(dir.resolve("whole.vcf.gz"), null, "--gvcf", wholeGvcf.toString());
    assertTrue(whole.size() > 50, "variants to compare: " + whole.size());
  }

  /** {@code bin/fastpipe call} over {@code bed} (null: the whole genome); the VCF's records. */
  static List<String> call(Path out, Path bed, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("call", "--no-progress", "--shards", "2", "--ref", ref.toString(),
        "--reads", reads.toString(), "--output", out.toString()));
    if (bed != null) args.addAll(List.of("--bed", bed.toString()));
    args.addAll(List.of(more));
    LauncherIT.Result r = LauncherIT.run(Map.of(), args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    return records(out);
  }

  /**
   * The header but its provenance lines (date, version, model, command: chunk 1's command line in a
   * gathered VCF) and the PASS filter line htslib adds when bcftools writes a header.
   */
  static List<String> header(Path vcf) throws IOException {
    return dev.fastpipe.testing.VcfText.withoutProvenance(vcf).stream()
        .filter(l -> l.startsWith("#") && !l.startsWith("##FILTER=<ID=PASS,")).toList();
  }

  /** The records (every line but the header) of a bgzipped VCF. */
  static List<String> records(Path vcf) throws IOException {
    List<String> out = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(vcf)),
        StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) if (!line.startsWith("#")) out.add(line);
    }
    return out;
  }

  /** A gVCF's variant records (ALT more than {@code <*>}). */
  static List<String> variantRecords(Path gvcf) throws IOException {
    return records(gvcf).stream().filter(l -> !l.split("\t")[4].equals("<*>")).toList();
  }

  /** The bases a gVCF states (records and blocks), as contig:start-end runs with touching ones joined. */
  static List<String> basesStated(Path gvcf) throws IOException {
    List<String> runs = new ArrayList<>();
    String contig = null;
    long start = -1;
    long end = -1;
    for (String l : records(gvcf)) {
      String[] f = l.split("\t");
      long pos = Long.parseLong(f[1]);
      Matcher m = Pattern.compile("(?:^|;)END=(\\d+)").matcher(f[7]);
      long last = m.find() ? Long.parseLong(m.group(1)) : pos + f[3].length() - 1;
      if (f[0].equals(contig) && pos <= end + 1) {
        end = Math.max(end, last);
        continue;
      }
      if (contig != null) runs.add(contig + ":" + start + "-" + end);
      contig = f[0];
      start = pos;
      end = last;
    }
    if (contig != null) runs.add(contig + ":" + start + "-" + end);
    return runs;
  }

  /** snakemake on workflow/Snakefile in {@code workdir}, with {@code config} (key=value) and {@code more} options. */
  static Run snakemake(Path workdir, List<String> config, String... more) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("snakemake", "-s", SNAKEFILE.toString(), "-d", workdir.toString(),
        "--cores", "2"));
    cmd.addAll(List.of(more));
    cmd.add("--config");
    cmd.addAll(config);
    Path log = Files.createTempFile(dir, "snakemake", ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(900, TimeUnit.SECONDS), "snakemake did not finish: " + String.join(" ", cmd));
    return new Run(p.exitValue(), Files.readString(log));
  }

  /** The count of {@code rule}'s jobs in the first "Job stats" table of a run (0 when absent). */
  static int jobs(Run run, String rule) {
    Matcher m = Pattern.compile("(?m)^" + rule + "\\s+(\\d+)\\s").matcher(run.output());
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /**
   * A fastpipe that logs the BED of every call (with " --resume" when it is asked to resume) and fails
   * chunk 3's while {@code FAIL} exists beside it.
   */
  static Path flakyFastpipe(Path at) throws IOException {
    Files.createDirectories(at);
    Path script = at.resolve("fastpipe");
    Files.writeString(script, "#!/bin/sh\n"
        + "dir=$(dirname \"$0\")\n"
        + "if [ \"$1\" = call ]; then\n"
        + "  resume=\n"
        + "  for a in \"$@\"; do case \"$a\" in *.bed) bed=$(basename \"$a\");; --resume) resume=' --resume';; esac; done\n"
        + "  echo \"$bed$resume\" >> \"$dir/calls.log\"\n"
        + "  case \"$bed\" in chunk-0003-*) if [ -e \"$dir/FAIL\" ]; then\n"
        + "    echo 'fastpipe call: injected failure' >&2; exit 1; fi;; esac\n"
        + "fi\n"
        + "exec " + LauncherIT.LAUNCHER + " \"$@\"\n");
    assertTrue(script.toFile().setExecutable(true));
    return script;
  }

  @Test
  void aFailedChunkIsRetriedARerunRunsOnlyItAndTheGatheredVcfHasTheRecordsOfOneCall() throws Exception {
    Path work = dir.resolve("run");
    Path fake = flakyFastpipe(dir.resolve("flaky"));
    Path fail = Files.writeString(dir.resolve("flaky/FAIL"), "");
    Path calls = dir.resolve("flaky/calls.log");
    List<String> config = List.of("samples=" + sheet, "ref=" + ref, "chunks=4", "outdir=out", "threads=1",
        "retries=1", "gvcf=true", "fastpipe=" + fake);

    Run first = snakemake(work, config, "--keep-going");
    assertNotEquals(0, first.exit(), first.output());
    assertTrue(first.output().contains("fastpipe call: injected failure"), "the chunk's error line is shown: " + first.output());
    List<String> attempts = Files.readAllLines(calls);
    assertEquals(List.of("chunk-0003-of-0004.bed", "chunk-0003-of-0004.bed --resume"),
        attempts.stream().filter(b -> b.startsWith("chunk-0003-of-0004.bed")).toList(),
        "tried, then retried once, resuming from what the first attempt finished: " + attempts);
    assertTrue(attempts.stream().filter(b -> b.endsWith("--resume")).count() == 1, "first attempts do not resume: " + attempts);
    assertEquals(5, attempts.size(), attempts.toString());
    Path chunks = work.resolve("out/chunks/DEMO");
    for (String done : List.of("0001", "0002", "0004")) {
      assertTrue(Files.exists(chunks.resolve("chunk-" + done + "-of-0004.vcf.gz")), done + " done");
    }
    assertFalse(Files.exists(chunks.resolve("chunk-0003-of-0004.vcf.gz")), "no output of the failed chunk");
    assertFalse(Files.exists(work.resolve("out/DEMO.vcf.gz")), "nothing gathered");
    FileTime before = Files.getLastModifiedTime(chunks.resolve("chunk-0001-of-0004.vcf.gz"));

    Files.delete(fail);
    Files.delete(calls);
    Run second = snakemake(work, config);
    assertEquals(0, second.exit(), second.output());
    assertEquals(List.of("chunk-0003-of-0004.bed"), Files.readAllLines(calls), "only the missing chunk is called again");
    assertEquals(1, jobs(second, "call_chunk"), second.output());
    assertEquals(1, jobs(second, "gather"), second.output());
    assertEquals(1, jobs(second, "gather_gvcf"), second.output());
    assertEquals(0, jobs(second, "cohort"), "one sample, no cohort: " + second.output());
    assertEquals(0, jobs(second, "plan"), second.output());
    assertEquals(before, Files.getLastModifiedTime(chunks.resolve("chunk-0001-of-0004.vcf.gz")));

    Path gathered = work.resolve("out/DEMO.vcf.gz");
    assertEquals(whole, records(gathered), "4 chunks gathered = one call over the same genome");
    assertEquals(header(dir.resolve("whole.vcf.gz")), header(gathered), "the same header but the provenance lines");
    try (VCFFileReader indexed = new VCFFileReader(gathered, true)) {
      int n = 0;
      for (var it = indexed.query("demo1", 1, 72_000); it.hasNext(); it.next()) n++;
      assertEquals(whole.stream().filter(l -> l.startsWith("demo1\t")).count(), n, "the .tbi finds demo1's records");
    }
    // The gathered gVCF: the whole call's variant records and the same bases stated; a reference
    // block that spans a cut is two blocks, split there.
    Path gvcf = work.resolve("out/DEMO.g.vcf.gz");
    assertTrue(Files.exists(Path.of(gvcf + ".tbi")));
    assertEquals(variantRecords(wholeGvcf), variantRecords(gvcf));
    assertEquals(basesStated(wholeGvcf), basesStated(gvcf));
    // Where the plan cut, for the record: the called variants closest to each cut.
    List<String> near = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      List<String> bed = Files.readAllLines(work.resolve("out/plan/DEMO/chunk-000" + k + "-of-0004.bed"));
      String[] last = bed.get(bed.size() - 1).split("\t");
      int cut = Integer.parseInt(last[2]);
      whole.stream().map(l -> l.split("\t")).filter(f -> f[0].equals(last[0]))
          .filter(f -> Math.abs(Integer.parseInt(f[1]) - cut) <= HALF_IMAGE)
          .forEach(f -> near.add(last[0] + ":" + cut + " ~ " + f[1] + " " + f[3] + ">" + f[4]));
    }
    System.out.println("WorkflowIT: variants within " + HALF_IMAGE + " bp of a cut: " + near);
  }

  @Test
  void chunksCutRightAtVariantsStillGiveTheRecordsOfOneCall() throws Exception {
    // Cuts placed by hand, not on plan's 1 kb grid: a SNP is the last base of chunk 1, an indel's
    // anchor the first base of chunk 3.
    List<VariantContext> demo1 = new ArrayList<>();
    try (VCFFileReader t = new VCFFileReader(truth, false)) {
      for (VariantContext v : t) if (v.getContig().equals("demo1")) demo1.add(v);
    }
    VariantContext snp = demo1.stream().filter(v -> v.isSNP() && v.getStart() > 15_000).findFirst().orElseThrow();
    VariantContext indel = demo1.stream().filter(v -> v.isIndel() && v.getStart() > snp.getStart() + 10_000)
        .findFirst().orElseThrow();
    int cut1 = snp.getStart(); // 0-based end of chunk 1 = the SNP's 1-based position
    int cut2 = indel.getStart() - 1;
    Path d = Files.createDirectories(dir.resolve("exact"));
    List<String> gathered = new ArrayList<>();
    String[] beds = {"demo1\t0\t" + cut1 + "\n", "demo1\t" + cut1 + "\t" + cut2 + "\n",
        "demo1\t" + cut2 + "\t72000\ndemo2\t0\t9000\nchrUn_gl000220\t0\t9000\n"};
    for (int k = 0; k < beds.length; k++) {
      Path bed = Files.writeString(d.resolve("c" + k + ".bed"), beds[k]);
      gathered.addAll(call(d.resolve("c" + k + ".vcf.gz"), bed));
    }
    assertTrue(gathered.stream().anyMatch(l -> l.startsWith("demo1\t" + snp.getStart() + "\t")), "the SNP is called");
    assertTrue(gathered.stream().anyMatch(l -> l.startsWith("demo1\t" + indel.getStart() + "\t")), "the indel is called");
    assertEquals(whole, gathered);
  }

  @Test
  void twoSamplesGiveTheirGvcfsAndACohortMergedByBcftools() throws Exception {
    // A second sample: the same reads under another name (SM), enough for the cohort rule's plumbing.
    Path other = dir.resolve("sim/DEMO2.bam");
    try (var in = htsjdk.samtools.SamReaderFactory.makeDefault().open(reads)) {
      var header = in.getFileHeader().clone();
      header.getReadGroups().forEach(rg -> rg.setSample("DEMO2"));
      try (var out = new htsjdk.samtools.SAMFileWriterFactory().setCreateIndex(true).makeBAMWriter(header, true, other)) {
        for (var r : in) out.addAlignment(r);
      }
    }
    Files.move(dir.resolve("sim/DEMO2.bai"), Path.of(other + ".bai"));
    Path two = Files.writeString(dir.resolve("two.tsv"), "sample\treads\nDEMO\tsim/reads.bam\nDEMO2\tsim/DEMO2.bam\n");
    Path bed = Files.writeString(dir.resolve("cohort.bed"), "demo1\t10000\t30000\n");
    Path work = dir.resolve("cohort");
    Run r = snakemake(work, List.of("samples=" + two, "ref=" + ref, "bed=" + bed, "chunks=1", "outdir=out",
        "threads=1", "gvcf=true"));
    assertEquals(0, r.exit(), r.output());
    assertEquals(2, jobs(r, "call_chunk"), r.output());
    assertEquals(1, jobs(r, "cohort"), r.output());
    Path cohort = work.resolve("out/cohort.g.vcf.gz");
    try (VCFFileReader merged = new VCFFileReader(cohort, true)) {
      assertEquals(List.of("DEMO", "DEMO2"), merged.getFileHeader().getGenotypeSamples());
      int variants = 0;
      for (VariantContext v : merged) {
        if (v.getAlternateAlleles().size() > 1 || !v.getAlternateAllele(0).isSymbolic()) {
          variants++;
          assertEquals(v.getGenotype("DEMO").getGenotypeString(), v.getGenotype("DEMO2").getGenotypeString(),
              "the same reads, the same genotype at " + v.getContig() + ":" + v.getStart());
        }
      }
      assertEquals(variantRecords(work.resolve("out/DEMO.g.vcf.gz")).size(), variants, "one merged record per site");
    }
    // Each chunk log holds what fastpipe said, not TensorFlow's start-up lines.
    for (String sample : List.of("DEMO", "DEMO2")) {
      String log = Files.readString(work.resolve("out/logs/" + sample + "/chunk-0001-of-0001.log"));
      assertEquals(List.of(), TensorFlowLogIT.tensorFlowLines(log), log);
    }
  }

  /** Runs the workflow on bad input and checks it stops before any job with one line naming {@code named}. */
  static void refused(List<String> config, String named, String... options) throws Exception {
    Path work = Files.createTempDirectory(dir, "bad");
    Run r = snakemake(work, config, options);
    assertNotEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains(named), "names " + named + ": " + r.output());
    assertFalse(r.output().contains("rule ") || r.output().contains("Job stats"), "no job ran: " + r.output());
    assertFalse(Files.exists(work.resolve("out")), "nothing written");
  }

  @Test
  void badInputsStopTheRunBeforeAnyJobNamingTheSampleAndTheFile() throws Exception {
    String fp = "fastpipe workflow: the inputs were rejected before any job ran:\nfastpipe plan: ";
    Path twice = Files.writeString(dir.resolve("twice.tsv"), "sample\treads\nDEMO\tsim/reads.bam\nDEMO\tsim/reads.bam\n");
    refused(List.of("samples=" + twice, "ref=" + ref, "outdir=out"), fp + twice + ":3: sample DEMO is named twice (first on line 2)");

    Path missing = Files.writeString(dir.resolve("missing.tsv"), "sample\treads\nDEMO\tsim/reads.bam\nB\tb.bam\n");
    refused(List.of("samples=" + missing, "ref=" + ref, "outdir=out"), fp + missing + ":3: sample B: reads " + dir.resolve("b.bam")
        + " not found");

    refused(List.of("samples=" + sheet, "ref=" + ref, "outdir=out", "chunks=500"),
        fp + "--chunks 500: the regions (90000 bp in 3 intervals) can be cut into at most 90 chunks");

    Path other = new TestGenome("demo1", 50_000, 1).writeFasta(Files.createDirectories(dir.resolve("other")));
    refused(List.of("samples=" + sheet, "ref=" + other, "outdir=out"), fp + "sample DEMO: " + reads + " and " + other
        + " disagree: contig demo1 has length 72000 in the reads but 50000 in the reference");

    refused(List.of("samples=" + sheet, "outdir=out"), "fastpipe workflow: config key 'ref' is missing");
  }

  @Test
  void optionsTheRulesCannotHonourAreRefusedBeforeAnyJob() throws Exception {
    List<String> config = List.of("samples=" + sheet, "ref=" + ref, "outdir=out", "chunks=4");
    refused(config, "fastpipe workflow: --use-conda: the rules declare no conda environment", "--use-conda");
    // No singularity here (Debian 12 has none): refused; with one, the default image is not built in this directory.
    refused(config, installed("sh", "-c", "command -v singularity")
        ? "fastpipe workflow: --use-singularity: image " : "fastpipe workflow: --use-singularity: no 'singularity' command on PATH",
        "--use-singularity");
    List<String> port = new ArrayList<>(config);
    port.add("call_args=--min-qual 2 --metrics-port 9100");
    refused(port, "fastpipe workflow: config call_args: --metrics-port 9100 would be bound by each of the 4 chunk jobs");
  }

  @Test
  void chunkJobsKeepCallsThreadBudgetUnlessShardsAreAskedFor() throws Exception {
    List<String> config = List.of("samples=" + sheet, "ref=" + ref, "outdir=out", "chunks=2", "threads=2");
    Run chosen = snakemake(Files.createTempDirectory(dir, "dry"), config, "-n", "-p");
    assertEquals(0, chosen.exit(), chosen.output());
    List<String> calls = chosen.output().lines().filter(l -> l.contains(" call --no-progress ")).toList();
    assertEquals(2, calls.size(), chosen.output());
    assertTrue(calls.stream().noneMatch(l -> l.contains("--shards")), "call chooses its shards: " + calls);
    List<String> asked = new ArrayList<>(config);
    asked.add("shards=3");
    Run fixed = snakemake(Files.createTempDirectory(dir, "dry"), asked, "-n", "-p");
    assertEquals(0, fixed.exit(), fixed.output());
    assertEquals(2, fixed.output().lines().filter(l -> l.contains(" call --no-progress ") && l.contains(" --shards 3 ")).count(),
        fixed.output());
  }
}
