package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.callvariants.CallsFile;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordEncoder;
import dev.fastpipe.streaming.example.TfRecordExampleWriter;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** train -> call-variants -> postprocess on synthetic examples, in process. */
class ClassicPathTest {
  private static final int C = 6;

  /** 30 reads; label k (0/1/2) makes k*15 of them support the alt across the centre. */
  private static void paint(org.agrona.MutableDirectBuffer buf, int at, int label, Random r) {
    buf.setMemory(at, 100 * 221 * C, (byte) 0);
    for (int row = 5; row < 35; row++) {
      boolean supports = row - 5 < label * 15;
      for (int col = 80; col < 141; col++) {
        int p = at + (row * 221 + col) * C;
        buf.putByte(p, (byte) (50 + r.nextInt(200)));
        buf.putByte(p + 1, (byte) 180);
        buf.putByte(p + 2, (byte) 200);
        buf.putByte(p + 4, (byte) (supports ? 254 : 127));
        buf.putByte(p + 5, (byte) (supports && col == 110 ? 254 : 0));
      }
    }
  }

  private static void writeExamples(Path file, int sites, boolean labelled) {
    Random r = new Random(11);
    try (TfRecordExampleWriter w = new TfRecordExampleWriter(file)) {
      long seq = 0;
      for (int s = 0; s < sites; s++) {
        int label = s % 3;
        write(w, s * 10, labelled ? label : -1, new String[] {"G"}, new int[] {0}, 1, label, r, seq++);
      }
      // one multi-allelic het-het site: A -> G and A -> T, 15 reads each
      String[] alts = {"G", "T"};
      write(w, sites * 10 + 5, labelled ? 1 : -1, alts, new int[] {0}, 3, 1, r, seq++);
      write(w, sites * 10 + 5, labelled ? 1 : -1, alts, new int[] {1}, 3, 1, r, seq++);
      write(w, sites * 10 + 5, labelled ? 2 : -1, alts, new int[] {0, 1}, 3, 2, r, seq++);
    }
  }

  private static void write(TfRecordExampleWriter w, int pos, int label, String[] alts, int[] subset, int atSite,
      int painted, Random r, long seq) {
    int len = ExampleRecord.encodedLength("A", alts, 100, 221, C);
    int at = w.claim(len);
    int[] ad = new int[alts.length + 1];
    ad[0] = 30 - painted * 15;
    for (int i = 1; i < ad.length; i++) ad[i] = painted * 15 / alts.length;
    int img = new ExampleRecordEncoder().wrap(w.buffer(), at).origin(0, seq, 0).example(0, pos, label).site(atSite, 30)
        .alleles("A", alts, ad).altSubset(subset).image(100, 221, C);
    paint(w.buffer(), img, painted, r);
    w.commit();
  }

  /** Runs a subcommand in this JVM; its stderr goes to {@code err}, its stdout is dropped. */
  static int run(StringWriter err, String... args) {
    CommandLine cl = Main.commandLine();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    return cl.execute(args);
  }

  @Test
  void trainCallAndPostprocessSyntheticExamples(@TempDir Path tmp) throws Exception {
    Path train = tmp.resolve("train.tfrecord.gz");
    Path ex = tmp.resolve("ex.tfrecord.gz");
    writeExamples(train, 60, true);
    writeExamples(ex, 12, false);
    Path model = tmp.resolve("model");
    StringWriter err = new StringWriter();
    assertEquals(0, run(err, "train", "--examples", train.toString(), "--validation", train.toString(), "--output",
        model.toString(), "--epochs", "8", "--batch-size", "16", "--learning-rate", "0.01", "--seed", "3"), err.toString());
    assertTrue(Files.isRegularFile(model.resolve("saved_model.pb")));

    Path calls = tmp.resolve("calls.gz");
    assertEquals(0, run(err, "call-variants", "--examples", ex.toString(), "--output", calls.toString(), "--model",
        model.toString(), "--batch-size", "4", "--sample", "SYN1"), err.toString());
    CallsFile.Contents contents = CallsFile.read(calls);
    assertEquals(15, contents.results().size());
    assertEquals("SYN1", contents.meta().get("sample"));

    Path ref = tmp.resolve("ref.fa");
    Files.writeString(ref, ">chrS\n" + "A".repeat(200) + "\n>chrT\n" + "C".repeat(50) + "\n");
    Files.writeString(tmp.resolve("ref.fa.fai"), "chrS\t200\t6\t200\t201\nchrT\t50\t213\t50\t51\n");
    Path vcf = tmp.resolve("out.vcf.gz");
    assertEquals(0, run(err, "postprocess", "--calls", calls.toString(), "--ref", ref.toString(), "--output",
        vcf.toString()), err.toString());
    try (VCFFileReader r = new VCFFileReader(vcf, true)) {
      assertEquals(List.of("SYN1"), r.getFileHeader().getGenotypeSamples());
      assertEquals(2, r.getFileHeader().getSequenceDictionary().size());
      List<VariantContext> vcs = r.iterator().toList();
      assertEquals(13, vcs.size());
      for (int i = 1; i < vcs.size(); i++) assertTrue(vcs.get(i - 1).getStart() < vcs.get(i).getStart());
      for (int s = 0; s < 12; s++) {
        VariantContext vc = vcs.get(s);
        assertEquals(s * 10 + 1, vc.getStart());
        int label = s % 3;
        if (label == 0) assertTrue(vc.getFilters().contains("RefCall"), vc.toString());
        else assertEquals(label == 1 ? "A/G" : "G/G", vc.getGenotype(0).getGenotypeString(true), vc.toString());
      }
      VariantContext multi = vcs.get(12);
      assertEquals(2, multi.getAlternateAlleles().size());
      assertEquals("G/T", multi.getGenotype(0).getGenotypeString(true), multi.toString());
      assertEquals(6, multi.getGenotype(0).getPL().length);
    }
  }

  @Test
  void userErrorsAreOneLineAndLeaveNoOutput(@TempDir Path tmp) throws Exception {
    StringWriter err = new StringWriter();
    Path ex = tmp.resolve("ex.tfrecord.gz");
    writeExamples(ex, 3, false);
    assertEquals(2, run(err, "call-variants", "--examples", ex.toString(), "--output", tmp.resolve("c.gz").toString(),
        "--model", tmp.resolve("nope").toString()));
    assertTrue(err.toString().contains("--model " + tmp.resolve("nope") + ": model directory not found"), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());

    err = new StringWriter();
    Path bogus = tmp.resolve("bogus.gz");
    Files.writeString(bogus, "hello");
    Path ref = tmp.resolve("ref.fa");
    Files.writeString(ref, ">c\nA\n");
    Files.writeString(tmp.resolve("ref.fa.fai"), "c\t1\t3\t1\t2\n");
    assertEquals(2, run(err, "postprocess", "--calls", bogus.toString(), "--ref", ref.toString(), "--output",
        tmp.resolve("o.vcf.gz").toString()));
    assertTrue(err.toString().contains("bogus.gz: not gzipped"), err.toString());
    assertFalse(Files.exists(tmp.resolve("o.vcf.gz")));
    assertFalse(Files.exists(tmp.resolve("c.gz")));

    err = new StringWriter();
    assertEquals(2, run(err, "train", "--examples", ex.toString(), "--output", tmp.resolve("m").toString()));
    assertTrue(err.toString().contains("has no label"), err.toString());
  }
}
