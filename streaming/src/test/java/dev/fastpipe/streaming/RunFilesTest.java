package dev.fastpipe.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one check of a run's files: outputs never touch inputs or each other, by file identity. */
class RunFilesTest {
  @TempDir Path dir;

  private String refused(RunFiles.Builder b) {
    return assertThrows(InputException.class, b::check).getMessage();
  }

  @Test
  void anOutputThatIsAnInputOrItsCompanionIsRefusedNamingBoth() throws IOException {
    Path ref = Files.writeString(dir.resolve("ref.fa"), ">q\nACGT\n");
    Path fai = Files.writeString(dir.resolve("ref.fa.fai"), "q\t4\t3\t4\t5\n");
    Path dict = Files.writeString(dir.resolve("ref.dict"), "@HD\n");
    Path bam = Files.writeString(dir.resolve("reads.bam"), "BAM");
    Path bai = Files.writeString(dir.resolve("reads.bai"), "BAI");
    assertEquals("--metrics " + bam + ": is the same file as --reads " + bam + "; an output must not overwrite an input",
        refused(RunFiles.builder().reference("--ref", ref).reads("--reads", bam).output("--metrics", bam)));
    assertTrue(refused(RunFiles.builder().reads("--reads", bam).output("--report", bai)).contains("--reads index " + bai));
    assertTrue(refused(RunFiles.builder().reference("--ref", ref).output("--report", fai)).contains("--ref index " + fai));
    assertTrue(refused(RunFiles.builder().reference("--ref", ref).output("--report", dict)).contains("--ref dictionary"));
    // a .tbi written beside an indexed output is an output too
    Path vcf = dir.resolve("truth.vcf.gz");
    Path tbi = Files.writeString(dir.resolve("truth.vcf.gz.tbi"), "TBI");
    assertTrue(refused(RunFiles.builder().input("--truth", tbi).indexedOutput("--output", vcf))
        .startsWith("--output index " + tbi + ": is the same file as --truth"));
  }

  @Test
  void symlinksHardLinksAndOtherSpellingsAreTheSameFile() throws IOException {
    Path bam = Files.writeString(dir.resolve("reads.bam"), "BAM");
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), bam);
    Path hard = Files.createLink(dir.resolve("hard.json"), bam);
    Path sub = Files.createDirectory(dir.resolve("sub"));
    Path dotted = sub.resolve("../reads.bam");
    for (Path alias : List.of(link, hard, dotted)) {
      String m = refused(RunFiles.builder().reads("--reads", bam).output("--metrics", alias));
      assertTrue(m.startsWith("--metrics " + alias + ": is the same file as --reads " + bam), m);
    }
    // a symlinked directory, a file not there yet: the real directory + name
    Path linkedDir = Files.createSymbolicLink(dir.resolve("linked"), sub);
    String m = refused(RunFiles.builder().output("--metrics", sub.resolve("run.json")).output("--report",
        linkedDir.resolve("run.json")));
    assertTrue(m.contains("--report") && m.contains("--metrics") && m.endsWith("every output needs a file of its own"), m);
    assertEquals("BAM", Files.readString(bam), "checking writes nothing");
  }

  @Test
  void twoOutputsMayNotBeOneFileAndDistinctOnesPass() throws IOException {
    Path out = dir.resolve("out.vcf.gz");
    assertTrue(refused(RunFiles.builder().indexedOutput("--output", out).output("--metrics", out))
        .startsWith("--metrics " + out + ": is the same file as --output " + out));
    assertTrue(refused(RunFiles.builder().indexedOutput("--output", out).output("--metrics", dir.resolve("out.vcf.gz.tbi")))
        .contains("--output index"));
    RunFiles ok = RunFiles.builder().indexedOutput("--output", out).indexedOutput("--gvcf", dir.resolve("out.g.vcf.gz"))
        .output("--metrics", dir.resolve("run.json")).output("--report", dir.resolve("run.html")).check();
    assertEquals(6, ok.outputs().size());
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of(), s.toList(), "the check leaves no probe behind");
    }
  }

  @Test
  void aModelDirectorysFilesAreInputsAndAReplacedDirectoryMayHoldNone() throws IOException {
    Path model = Files.createDirectories(dir.resolve("model/variables"));
    Path pb = Files.writeString(model.resolveSibling("saved_model.pb"), "PB");
    Path vars = Files.writeString(model.resolve("variables.index"), "IDX");
    assertTrue(refused(RunFiles.builder().modelDirectory("--model", pb.getParent()).output("--metrics", vars))
        .contains("is the same file as --model " + vars));
    Path examples = Files.writeString(dir.resolve("model/train.tfrecord.gz"), "EX");
    String m = refused(RunFiles.builder().inputs("--examples", List.of(examples)).replacedDirectory("--output", pb.getParent()));
    assertTrue(m.startsWith("--output " + pb.getParent() + ": holds --examples " + examples), m);
    RunFiles.builder().inputs("--examples", List.of(examples)).replacedDirectory("--output", dir.resolve("new")).check();
  }

  @Test
  void aModelDirectorysDocumentationIsGuardedButNotAnInput() throws IOException {
    Path model = Files.createDirectories(dir.resolve("model/recipe"));
    Path pb = Files.writeString(model.resolveSibling("saved_model.pb"), "PB");
    Path calibration = Files.writeString(model.resolveSibling("calibration.json"), "{}");
    Path notes = Files.writeString(model.resolveSibling("MODEL.md"), "# model");
    Path recipe = Files.writeString(model.resolve("train.sh"), "echo");
    assertTrue(refused(RunFiles.builder().modelDirectory("--model", pb.getParent()).output("--metrics", notes))
        .contains("is the same file as --model " + notes), "no output over the model's documentation");
    assertTrue(refused(RunFiles.builder().modelDirectory("--model", pb.getParent()).output("--metrics", recipe))
        .contains("is the same file as --model " + recipe), "nor over its recipe");

    RunFiles files = RunFiles.builder().modelDirectory("--model", pb.getParent()).check();
    assertEquals(List.of(calibration, pb), files.inputs().stream().map(RunFiles.Declared::path).sorted().toList(),
        "the run's inputs (its resume identity) are the files a loader reads");
    Files.writeString(notes, "# model, with a new figure");
    Files.writeString(recipe, "echo again");
    files.requireInputsUnchanged(); // documentation edited under a run: the run goes on
    Files.writeString(calibration, "{\"format\": 2}");
    assertTrue(assertThrows(InputException.class, files::requireInputsUnchanged).getMessage()
        .startsWith("--model " + calibration + ": changed during the run"));
  }

  @Test
  void plannedOutputsAreComparedThoughTheirDirectoryIsNotThereYet() throws IOException {
    Path bed = Files.writeString(dir.resolve("chunk-0001-of-0002.bed"), "q\t0\t4\n");
    assertTrue(refused(RunFiles.builder().input("--bed", bed).plannedOutput("--output-dir", bed))
        .startsWith("--output-dir " + bed + ": is the same file as --bed"));
    RunFiles.builder().input("--bed", bed).plannedOutput("--output-dir", dir.resolve("new/chunk-0001-of-0002.bed")).check();
  }

  /** Outputs are told apart by hashing, not each against every other: a plan of 100,000 chunks is checked, and a clash among them found. */
  @Test
  void manyOutputsAreCheckedAndAClashAmongThemFound() {
    RunFiles.Builder b = RunFiles.builder();
    int n = 100_000;
    for (int k = 1; k <= n; k++) b.plannedOutput("--output-dir", dir.resolve("chunk-" + k + ".bed"));
    assertEquals(n, b.check().outputs().size());
    b.plannedOutput("--output-dir", dir.resolve("p/../chunk-1.bed"));
    assertEquals("--output-dir " + dir.resolve("p/../chunk-1.bed") + ": is the same file as --output-dir "
        + dir.resolve("chunk-1.bed") + "; every output needs a file of its own",
        refused(b));
  }

  @Test
  void anInputThatChangesAfterTheCheckFailsTheRun() throws IOException {
    Path ref = Files.writeString(dir.resolve("ref.fa"), ">q\nACGTACGT\n");
    Path bam = Files.writeString(dir.resolve("reads.bam"), "BAM");
    RunFiles files = RunFiles.builder().reference("--ref", ref).reads("--reads", bam).check();
    files.requireInputsUnchanged();
    Files.writeString(ref, ">q\nACGT\n"); // truncated under the run
    String m = assertThrows(InputException.class, files::requireInputsUnchanged).getMessage();
    assertTrue(m.startsWith("--ref " + ref + ": changed during the run (its size went from 12 to 8 bytes)"), m);

    RunFiles again = RunFiles.builder().reads("--reads", bam).check();
    Files.setLastModifiedTime(bam, FileTime.fromMillis(Files.getLastModifiedTime(bam).toMillis() - 60_000));
    assertTrue(assertThrows(InputException.class, again::requireInputsUnchanged).getMessage().contains("it was modified"));
    RunFiles gone = RunFiles.builder().reads("--reads", bam).check();
    Files.delete(bam);
    assertTrue(assertThrows(InputException.class, gone::requireInputsUnchanged).getMessage().contains("it is gone"));
  }

  @Test
  void aTransactionPublishesAllOrNothing() throws IOException {
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.html");
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) {
      tx.writeString(a, ".json", "{}", "metrics");
      tx.writeString(b, ".html", "<p>", "report");
      assertFalse(Files.exists(a) || Files.exists(b), "nothing under a final name before the commit");
      // closed without a commit
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of(), s.toList(), "the temporaries are gone");
    }
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) {
      tx.writeString(a, ".json", "{}", "metrics");
      Files.createDirectory(OutputFiles.temporary(b, ".html")); // the second cannot be written
      IOException e = assertThrows(IOException.class, () -> tx.writeString(b, ".html", "<p>", "report"));
      assertTrue(e.getMessage().startsWith(b + ": cannot write the report"), e.getMessage());
    }
    assertFalse(Files.exists(a), "the first output is not published when the second fails");
    Files.deleteIfExists(OutputFiles.temporary(b, ".html"));
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) {
      tx.writeString(a, ".json", "{}", "metrics");
      tx.writeString(b, ".html", "<p>", "report");
      tx.commit();
    }
    assertEquals("{}", Files.readString(a));
    assertEquals("<p>", Files.readString(b));
  }
}
