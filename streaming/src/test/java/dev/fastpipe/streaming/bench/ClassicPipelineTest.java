package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassicPipelineTest {
  private static final List<String> FP = List.of("bin/fastpipe");

  @Test
  void eachOptionOfCallGoesToTheStagesThatTakeIt() {
    ClassicPipeline p = new ClassicPipeline("classic", List.of("--ref", "r.fa", "--reads=x.bam", "--bed", "b.bed",
        "--model", "m", "--shards", "2", "--no-realign-reads", "--min-qual", "3"));
    List<List<List<String>>> stages = p.commands(FP, Path.of("/w/run-4.vcf.gz"));
    assertEquals(3, stages.size());
    assertEquals(2, stages.get(0).size(), "one make-examples per task");
    assertEquals(List.of("bin/fastpipe", "make-examples", "--ref", "r.fa", "--reads", "x.bam", "--bed", "b.bed",
        "--no-realign-reads", "--shards", "2", "--task", "1", "--output", "/w/run-4.examples-1.tfrecord.gz"), stages.get(0).get(1));
    assertEquals(List.of("bin/fastpipe", "call-variants", "--examples", "/w/run-4.examples-0.tfrecord.gz",
        "/w/run-4.examples-1.tfrecord.gz", "--ref", "r.fa", "--reads", "x.bam", "--model", "m", "--output", "/w/run-4.calls.gz"),
        stages.get(1).get(0));
    assertEquals(List.of("bin/fastpipe", "postprocess", "--ref", "r.fa", "--min-qual", "3", "--calls", "/w/run-4.calls.gz",
        "--output", "/w/run-4.vcf.gz"), stages.get(2).get(0));
  }

  @Test
  void anOptionNoStageTakesIsRefusedNamingTheConfiguration() {
    InputException e = assertThrows(InputException.class, () -> new ClassicPipeline("old", List.of("--ref", "r.fa", "--transport", "disk")));
    assertTrue(e.getMessage().startsWith("configuration 'old' runs the classic pipeline"), e.getMessage());
    assertTrue(e.getMessage().contains("no --transport"), e.getMessage());
    assertThrows(InputException.class, () -> new ClassicPipeline("c", List.of("--shards", "0")));
    assertThrows(InputException.class, () -> new ClassicPipeline("c", List.of("--model")));
  }

  @Test
  void thePipelineVariableIsClassicOrStreaming() {
    assertTrue(ClassicPipeline.wanted(BenchConfig.parse("c: FASTPIPE_PIPELINE=classic")));
    assertFalse(ClassicPipeline.wanted(BenchConfig.parse("s: FASTPIPE_PIPELINE=streaming --consumers 2")));
    assertFalse(ClassicPipeline.wanted(BenchConfig.parse("s: --consumers 2")));
    InputException e = assertThrows(InputException.class, () -> ClassicPipeline.wanted(BenchConfig.parse("x: FASTPIPE_PIPELINE=disk")));
    assertTrue(e.getMessage().contains("expected streaming, classic or bcftools"), e.getMessage());
    assertEquals("bcftools", ClassicPipeline.kind(BenchConfig.parse("b: FASTPIPE_PIPELINE=bcftools")));
  }

  @Test
  void bcftoolsGetsTheInputsAndRefusesFastpipesOwnOptions() {
    BcftoolsPeer b = new BcftoolsPeer("bcf", List.of("--ref", "r.fa", "--reads", "my reads.bam", "--bed=b.bed"));
    assertEquals(List.of("bash", "-o", "pipefail", "-c",
        "bcftools mpileup -f r.fa -R b.bed 'my reads.bam' | bcftools call -mv -Oz -o /w/run-1.vcf.gz"), b.command(Path.of("/w/run-1.vcf.gz")));
    InputException e = assertThrows(InputException.class, () -> new BcftoolsPeer("bcf", List.of("--ref", "r.fa", "--reads", "x.bam", "--shards", "2")));
    assertTrue(e.getMessage().contains("not --shards"), e.getMessage());
    assertThrows(InputException.class, () -> new BcftoolsPeer("bcf", List.of("--ref", "r.fa")));
  }

  @Test
  void theCpuOfChildrenThatEndedIsCounted() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc");
    double before = ClassicPipeline.childrenCpuSeconds();
    Process p = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
    assertEquals(0, p.waitFor());
    assertTrue(ClassicPipeline.childrenCpuSeconds() > before, "a busy child's CPU was not counted: " + before + " -> " + ClassicPipeline.childrenCpuSeconds());
  }
}
