package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.testing.SharedData;
import htsjdk.variant.variantcontext.Genotype;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code call --gvcf} end to end through bin/fastpipe on sim30x_eval: the same gVCF for any shard
 * count, transport and partition size, and from the classic disk path; every base of the region
 * exactly once; the gVCF's variant records are the VCF's; two samples' gVCFs merge with bcftools
 * into genotypes that agree with the single-sample calls; bad outputs fail before any work.
 */
class GvcfIT {
  static final String CONTIG = "chr20";
  static final int FIRST = 10_100_001; // 1-based, inclusive: the region called
  static final int LAST = 10_250_000;
  static final String REGION = CONTIG + ":" + FIRST + "-" + LAST;

  @TempDir static Path dir;
  static Path gvcf;
  static Path vcf;

  static List<String> call(String sample, Path out, Path gvcfOut, String... extra) {
    List<String> a = new ArrayList<>(List.of("call", "--ref", SharedData.require("ref/chr20.fa.gz").toString(),
        "--reads", SharedData.require(sample).toString(), "--regions", REGION, "--output", out.toString(),
        "--no-progress"));
    if (gvcfOut != null) a.addAll(List.of("--gvcf", gvcfOut.toString()));
    a.addAll(List.of(extra));
    return a;
  }

  static LauncherIT.Result run(List<String> args) throws Exception {
    LauncherIT.Result r = LauncherIT.run(Map.of(), args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    return r;
  }

  /** The lines of a bgzipped VCF but its provenance lines (date, version, model, command, reference). */
  static List<String> body(Path vcfGz) throws IOException {
    return dev.fastpipe.testing.VcfText.withoutProvenance(vcfGz);
  }

  @BeforeAll
  static void callOnce() throws Exception {
    vcf = dir.resolve("shm3.vcf.gz");
    gvcf = dir.resolve("shm3.g.vcf.gz");
    run(call("sim30x_eval/SIM30X_EVAL.bam", vcf, gvcf, "--shards", "3"));
  }

  @Test
  void sameGvcfForAnyShardCountTransportAndPartitionSize() throws Exception {
    List<String> expected = body(gvcf);
    String[][] variants = {
      {"--shards", "1", "--transport", "shm"},
      {"--shards", "2", "--transport", "disruptor", "--partition-size", "700"},
      {"--shards", "2", "--transport", "disk", "--partition-size", "2500"},
    };
    for (String[] v : variants) {
      Path out = dir.resolve("v.vcf.gz");
      Path g = dir.resolve("v.g.vcf.gz");
      run(call("sim30x_eval/SIM30X_EVAL.bam", out, g, v));
      assertEquals(expected, body(g), "gVCF of " + String.join(" ", v));
      assertEquals(body(vcf), body(out), "VCF of " + String.join(" ", v));
    }
  }

  @Test
  void everyBaseOfTheRegionIsInExactlyOneBlockOrVariantRecord() throws Exception {
    int[] owner = new int[LAST - FIRST + 1]; // 0: nothing, 1: a block, 2: a variant record
    int blocks = 0;
    for (String line : body(gvcf)) {
      if (line.startsWith("#")) continue;
      String[] f = line.split("\t");
      assertEquals(CONTIG, f[0]);
      int pos = Integer.parseInt(f[1]);
      boolean block = f[4].equals("<*>");
      int end = block ? Integer.parseInt(f[7].substring("END=".length())) : pos + f[3].length() - 1;
      if (block) blocks++;
      assertTrue(pos >= FIRST && end <= LAST, "record outside the region: " + line);
      for (int p = pos; p <= end; p++) {
        int was = owner[p - FIRST];
        // Variant records may overlap each other (as in any VCF); a block overlaps nothing.
        assertTrue(was == 0 || (was == 2 && !block), "position " + p + " twice, at " + line);
        if (!block && was == 2) continue;
        owner[p - FIRST] = block ? 1 : 2;
      }
      if (!block) assertTrue(f[4].endsWith(",<*>"), "a variant record carries <*>: " + line);
    }
    for (int p = 0; p < owner.length; p++) assertTrue(owner[p] != 0, "position " + (FIRST + p) + " not covered");
    assertTrue(blocks > 100, "blocks: " + blocks);
  }

  @Test
  void theGvcfsVariantRecordsAreTheVcfsRecords() throws Exception {
    List<String> fromGvcf = new ArrayList<>();
    for (String line : body(gvcf)) {
      if (line.startsWith("#")) continue;
      String[] f = line.split("\t");
      if (f[4].equals("<*>")) continue;
      fromGvcf.add(withoutNonRef(f));
    }
    List<String> records = body(vcf).stream().filter(l -> !l.startsWith("#")).toList();
    assertEquals(records, fromGvcf);
    assertTrue(records.size() > 50, "records: " + records.size());
  }

  /** A gVCF variant line as the VCF has it: <*> out of ALT, its AD and VAF entries and its PLs dropped. */
  static String withoutNonRef(String[] f) {
    String[] keys = f[8].split(":");
    String[] values = f[9].split(":");
    int alleles = f[4].split(",").length; // alts with <*>; alleles with ref = alleles + 1
    for (int i = 0; i < keys.length; i++) {
      List<String> v = new ArrayList<>(Arrays.asList(values[i].split(",")));
      int drop = switch (keys[i]) {
        case "AD", "VAF" -> 1;
        case "PL" -> alleles + 1; // genotypes a/<*> for a = 0..<*>
        default -> 0;
      };
      values[i] = String.join(",", v.subList(0, v.size() - drop));
    }
    String[] g = f.clone();
    g[4] = f[4].substring(0, f[4].length() - ",<*>".length());
    g[9] = String.join(":", values);
    return String.join("\t", g);
  }

  @Test
  void theClassicDiskPathWritesTheSameGvcf() throws Exception {
    String ref = SharedData.require("ref/chr20.fa.gz").toString();
    String reads = SharedData.require("sim30x_eval/SIM30X_EVAL.bam").toString();
    List<String> blockFiles = new ArrayList<>();
    List<String> examples = new ArrayList<>();
    for (int task = 0; task < 2; task++) {
      Path ex = dir.resolve("ex" + task + ".tfrecord.gz");
      Path bl = dir.resolve("blocks" + task + ".tfrecord.gz");
      run(List.of("make-examples", "--ref", ref, "--reads", reads, "--regions", REGION, "--shards", "2", "--task",
          "" + task, "--output", ex.toString(), "--gvcf-blocks", bl.toString()));
      examples.add(ex.toString());
      blockFiles.add(bl.toString());
    }
    Path calls = dir.resolve("calls.gz");
    List<String> cv = new ArrayList<>(List.of("call-variants", "--output", calls.toString(), "--ref", ref, "--reads", reads,
        "--examples"));
    cv.addAll(examples);
    run(cv);
    Path out = dir.resolve("classic.vcf.gz");
    Path g = dir.resolve("classic.g.vcf.gz");
    // The shipped model's GQ calibration, as call applies it from the model directory.
    String calibration = Path.of("..").resolve(ModelOptions.SHIPPED_MODEL).resolve("calibration.json").toAbsolutePath()
        .normalize().toString();
    List<String> pp = new ArrayList<>(List.of("postprocess", "--calls", calls.toString(), "--ref", ref, "--output",
        out.toString(), "--gvcf", g.toString(), "--calibration", calibration, "--gvcf-blocks"));
    pp.addAll(blockFiles);
    run(pp);
    // The classic path has no small model: compare with a streaming run that sends every
    // candidate to the CNN too (with the small model, the sites it takes carry its own GQ and PL).
    Path cnnVcf = dir.resolve("cnn.vcf.gz");
    Path cnnGvcf = dir.resolve("cnn.g.vcf.gz");
    run(call("sim30x_eval/SIM30X_EVAL.bam", cnnVcf, cnnGvcf, "--no-small-model"));
    assertEquals(body(cnnGvcf), body(g));
    assertEquals(body(cnnVcf), body(out));
  }

  @Test
  void twoSamplesMergeIntoACohortThatAgreesWithTheSingleSampleCalls() throws Exception {
    assumeTrue(CompareCallersIT.onPath("bcftools"), "bcftools not installed");
    Path otherVcf = dir.resolve("sim30x.vcf.gz");
    Path otherGvcf = dir.resolve("sim30x.g.vcf.gz");
    run(call("sim30x/SIM30X.bam", otherVcf, otherGvcf, "--shards", "2"));
    Path merged = dir.resolve("cohort.vcf.gz");
    Process p = new ProcessBuilder("bcftools", "merge", "-g", SharedData.require("ref/chr20.fa.gz").toString(),
        gvcf.toString(), otherGvcf.toString(), "-Oz", "-o", merged.toString()).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), log);

    TreeSet<Integer> truthSites = new TreeSet<>();
    for (String truth : List.of("sim30x_eval/SIM30X_EVAL.truth.vcf.gz", "sim30x/SIM30X.truth.vcf.gz")) {
      try (VCFFileReader r = new VCFFileReader(SharedData.require(truth), false)) {
        for (VariantContext v : r) {
          if (v.getContig().equals(CONTIG) && v.getStart() >= FIRST && v.getStart() <= LAST) truthSites.add(v.getStart());
        }
      }
    }
    Map<String, Map<Integer, VariantContext>> single = Map.of("SIM30X_EVAL", genotypes(vcf), "SIM30X", genotypes(otherVcf));
    int checked = 0;
    try (VCFFileReader r = new VCFFileReader(merged, false)) {
      assertEquals(List.of("SIM30X_EVAL", "SIM30X"), r.getFileHeader().getGenotypeSamples());
      for (VariantContext v : r) {
        if (!truthSites.contains(v.getStart()) || v.getAlternateAlleles().stream().allMatch(a -> a.getDisplayString().equals("<*>"))) {
          continue;
        }
        for (String sample : single.keySet()) {
          Genotype g = v.getGenotype(sample);
          VariantContext own = single.get(sample).get(v.getStart());
          String mergedRef = v.getReference().getBaseString();
          String merged1 = g.isNoCall() ? "./." : alleles(g, "");
          // A sample with its own record there has that genotype, its alleles extended as bcftools
          // extends them to the cohort's longest REF; one without has a reference block there.
          String expected;
          if (own != null) {
            Genotype og = own.getGenotypes().get(0);
            String ownRef = own.getReference().getBaseString();
            assertTrue(mergedRef.startsWith(ownRef), mergedRef + " vs " + ownRef);
            expected = og.isNoCall() ? "./." : alleles(og, mergedRef.substring(ownRef.length()));
          } else {
            if (g.isNoCall()) continue; // a ./. block (no coverage): nothing to compare
            expected = mergedRef + "/" + mergedRef;
          }
          assertEquals(expected, merged1, sample + " at " + v.getContig() + ":" + v.getStart());
          checked++;
        }
      }
    }
    assertTrue(checked > 100, "genotypes compared: " + checked);
  }

  /** Position -> record, for a single-sample VCF. */
  static Map<Integer, VariantContext> genotypes(Path vcfGz) {
    Map<Integer, VariantContext> m = new HashMap<>();
    try (VCFFileReader r = new VCFFileReader(vcfGz, false)) {
      for (VariantContext v : r) m.put(v.getStart(), v.fullyDecode(r.getFileHeader(), false));
    }
    return m;
  }

  /** A genotype as its sorted allele strings, each with {@code suffix} appended (e.g. A/G). */
  static String alleles(Genotype g, String suffix) {
    return g.getAlleles().stream().map(a -> a.getDisplayString() + suffix).sorted().reduce((a, b) -> a + "/" + b)
        .orElse("");
  }

  @Test
  void anUnwritableGvcfFailsBeforeAnyWorkAndWritesNothing() throws Exception {
    Path d = Files.createDirectory(dir.resolve("bad"));
    Path out = d.resolve("x.vcf.gz");
    LauncherIT.Result r = LauncherIT.run(Map.of(), call("sim30x_eval/SIM30X_EVAL.bam", out,
        Path.of("/proc/fastpipe-test.g.vcf.gz")).toArray(String[]::new));
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("--gvcf") || r.err().contains("fastpipe-test.g.vcf.gz"), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    LauncherIT.Result same = LauncherIT.run(Map.of(), call("sim30x_eval/SIM30X_EVAL.bam", out, out).toArray(String[]::new));
    assertEquals(2, same.exit(), same.err());
    assertTrue(same.err().contains("same file"), same.err());
    assertEquals(List.of(), OutputFaultsIT.names(d));
  }

  @Test
  void aRunThatFailsLeavesNeitherTheVcfNorTheGvcf() throws Exception {
    Path small = OutputFaultsIT.smallTmpfs(dir.resolve("small"), "16k");
    try {
      Path d = Files.createDirectory(dir.resolve("fails"));
      Path out = d.resolve("calls.vcf.gz");
      LauncherIT.Result r = LauncherIT.run(Map.of(), call("sim30x_eval/SIM30X_EVAL.bam", out,
          small.resolve("calls.g.vcf.gz"), "--shards", "2", "--no-journal").toArray(String[]::new));
      assertTrue(r.exit() != 0, r.err());
      assertTrue(r.err().contains("No space left on device"), r.err());
      assertEquals(List.of(), OutputFaultsIT.names(d), "no VCF when the gVCF failed");
      assertEquals(List.of(), OutputFaultsIT.names(small), "no partial gVCF");
      // with the journal (the default), what was finished before the disk filled may stay for --resume
      r = LauncherIT.run(Map.of(),
          call("sim30x_eval/SIM30X_EVAL.bam", out, small.resolve("calls.g.vcf.gz"), "--shards", "2").toArray(String[]::new));
      assertTrue(r.exit() != 0 && r.err().contains("No space left on device"), r.err());
      for (Path left : List.of(d, small)) {
        assertTrue(OutputFaultsIT.names(left).stream().allMatch(n -> n.endsWith(".fastpipe-journal")
            || n.endsWith(".fastpipe-partial")), "only the journal and partial files: " + OutputFaultsIT.names(left));
      }
    } finally {
      new ProcessBuilder("umount", small.toString()).start().waitFor();
    }
  }
}
