package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.bench.Json;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import dev.fastpipe.testing.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small-model fast path as a user runs it: labelled examples from the training sample
 * (sim30x), {@code train --small-model-only} into a copy of the shipped model, then {@code call}
 * on the evaluation sample (sim30x_eval) with and without {@code --no-small-model}. Both runs must
 * write the same sites with the same fields, nearly always the same genotypes, and the metrics
 * must account for every candidate exactly once.
 */
class SmallModelIT {
  static final String TRAIN = "chr20:9,995,001-10,400,000";
  static final String VALIDATE = "chr20:10,900,001-11,095,000";
  static final String CALL = "chr20:10,000,001-10,400,000";

  @TempDir static Path dir;
  static Path model;

  static LauncherIT.Result fastpipe(String... args) throws Exception {
    LauncherIT.Result r = CallIT.fastpipe(args);
    assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.err());
    return r;
  }

  @BeforeAll
  static void trainASmallModel() throws Exception {
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path bam = SharedData.require("sim30x/SIM30X.bam");
    Path truth = SharedData.require("sim30x/SIM30X.truth.vcf.gz");
    Path bed = SharedData.require("sim30x/SIM30X.confident.bed");
    for (String[] part : new String[][] {{"train", TRAIN}, {"val", VALIDATE}}) {
      fastpipe("make-examples", "--ref", ref.toString(), "--reads", bam.toString(), "--truth-vcf", truth.toString(),
          "--confident-bed", bed.toString(), "--regions", part[1], "--output", dir.resolve(part[0] + ".tfrecord.gz").toString());
    }
    model = dir.resolve("model");
    Path shipped = CallIT.LAUNCHER.getParent().getParent().resolve("models/fastpipe-v2");
    try (Stream<Path> s = Files.walk(shipped)) {
      for (Path p : s.toList()) {
        Path to = model.resolve(shipped.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(to); else Files.copy(p, to);
      }
    }
    LauncherIT.Result r = fastpipe("train", "--small-model-only", "--examples", dir.resolve("train.tfrecord.gz").toString(),
        "--validation", dir.resolve("val.tfrecord.gz").toString(), "--output", model.toString(), "--small-model-min-taken", "20");
    assertTrue(Files.isRegularFile(model.resolve(SmallModel.FILE_NAME)), r.out());
  }

  Path call(String name, Path metrics, String... extra) throws Exception {
    Path out = dir.resolve(name + ".vcf.gz");
    List<String> args = new ArrayList<>(List.of("call", "--ref", SharedData.require("ref/chr20.fa.gz").toString(),
        "--reads", SharedData.require("sim30x_eval/SIM30X_EVAL.bam").toString(), "--regions", CALL, "--model",
        model.toString(), "--output", out.toString(), "--metrics", metrics.toString(), "--no-progress", "--shards", "2"));
    args.addAll(List.of(extra));
    fastpipe(args.toArray(String[]::new));
    return out;
  }

  static List<String[]> records(Path vcfGz) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(vcfGz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.startsWith("#")).map(l -> l.split("\t")).toList();
    }
  }

  @Test
  void smallModelCallsTheSameSitesWithTheSameFieldsAndTheMetricsAddUp() throws Exception {
    Path smallJson = dir.resolve("small.json");
    Path cnnJson = dir.resolve("cnn.json");
    List<String[]> small = records(call("small", smallJson));
    List<String[]> cnn = records(call("cnn", cnnJson, "--no-small-model"));

    assertEquals(cnn.size(), small.size(), "every candidate is a site either way");
    int sameGt = 0;
    int biallelic = 0;
    for (int i = 0; i < cnn.size(); i++) {
      String[] a = small.get(i);
      String[] b = cnn.get(i);
      assertEquals(String.join(" ", List.of(b).subList(0, 5)), String.join(" ", List.of(a).subList(0, 5)), "site " + i);
      assertEquals(b[7], a[7], "INFO at " + b[1]);
      assertEquals(b[8], a[8], "FORMAT keys at " + b[1]); // GT:AD:DP:GQ:PL:VAF for both paths
      String[] fa = a[9].split(":");
      String[] fb = b[9].split(":");
      assertEquals(fb.length, fa.length, "FORMAT values at " + b[1]);
      assertEquals(fb[1], fa[1], "AD at " + b[1]);
      assertEquals(fb[2], fa[2], "DP at " + b[1]);
      assertEquals(fb[5], fa[5], "VAF at " + b[1]);
      assertTrue(a[5].matches("[0-9.]+"), "QUAL at " + b[1] + ": " + a[5]);
      if (fa[0].equals(fb[0])) sameGt++;
      if (!b[4].contains(",")) biallelic++;
    }
    assertTrue(sameGt >= 0.99 * cnn.size(), sameGt + " of " + cnn.size() + " genotypes agree");

    Object s = Json.parse(Files.readString(smallJson));
    Object c = Json.parse(Files.readString(cnnJson));
    double smallCalls = Json.number(s, "small_model_calls");
    double cnnExamples = Json.number(s, "cnn_examples");
    assertTrue(smallCalls > 0, "the small model took some candidates");
    assertTrue(smallCalls <= biallelic, "only bi-allelic sites: " + smallCalls + " > " + biallelic);
    assertEquals(Json.number(s, "examples_called"), smallCalls + cnnExamples);
    assertEquals(Json.number(c, "cnn_examples"), cnnExamples + smallCalls,
        "each candidate the small model took is one example less for the CNN");
    assertEquals(cnnExamples + smallCalls, Json.number(s, "examples_made"),
        "examples made = the CNN's images + the small model's calls, each called once");

    assertEquals(0.0, Json.number(c, "small_model_calls"), "--no-small-model sends everything to the CNN");
    assertEquals("none", Json.at(c, "settings", "small_model"));
    assertEquals(model.resolve(SmallModel.FILE_NAME).toString(), Json.at(s, "settings", "small_model"));
  }
}
