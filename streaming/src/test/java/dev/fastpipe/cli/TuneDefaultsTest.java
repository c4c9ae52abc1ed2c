package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastpipe.streaming.pipeline.ThreadBudget;
import dev.fastpipe.streaming.tune.Knobs;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** tune measures everything against what {@code call} runs when given no settings. */
class TuneDefaultsTest {

  /** What a {@code call} given only its inputs would run, read from the parsed command. */
  static Knobs callsOwnSettings(String allocator) {
    CallCommand call = new CallCommand();
    new CommandLine(call).parseArgs("--ref", "ref.fa", "--reads", "reads.bam", "--output", "out.vcf.gz");
    return new Knobs(call.shards, call.consumers, call.modelOptions.batchSize(), call.ringSize, call.transport, allocator);
  }

  @Test
  void sweptCountsBelowOneAreRefusedNamingTheOption() {
    var e = org.junit.jupiter.api.Assertions.assertThrows(UserError.class,
        () -> TuneCommand.requirePositive("--shards", java.util.List.of(2, -1)));
    org.junit.jupiter.api.Assertions.assertEquals("--shards -1: every value must be 1 or more", e.getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(UserError.class,
        () -> TuneCommand.requirePositive("--batch-sizes", java.util.List.of(0)));
    TuneCommand.requirePositive("--consumers", java.util.List.of(1, 2));
    TuneCommand.requirePositive("--shards", null); // not given: the defaults
  }

  @Test
  void aZeroBudgetIsRefusedBeforeAnyRun() {
    var cl = Main.commandLine();
    var err = new java.io.StringWriter();
    cl.setErr(new java.io.PrintWriter(err, true));
    cl.setOut(new java.io.PrintWriter(new java.io.StringWriter(), true));
    org.junit.jupiter.api.Assertions.assertEquals(2, cl.execute("tune", "--ref", "no.fa", "--reads", "no.bam", "--budget", "0"));
    org.junit.jupiter.api.Assertions.assertEquals("fastpipe tune: --budget must be more than 0 (e.g. 10m), got 0",
        err.toString().strip());
  }

  @Test
  void tunesDefaultsAreWhatCallRunsOnThisMachine() {
    assertEquals(callsOwnSettings(null), TuneCommand.defaults(ThreadBudget.ofThisMachine(), null));
    assertEquals(callsOwnSettings("glibc"), TuneCommand.defaults(ThreadBudget.ofThisMachine(), "glibc"));
  }

  @Test
  void theDefaultShardsAreTheThreadBudgetsNotTheCoreCount() {
    assertEquals(1, TuneCommand.defaults(ThreadBudget.forCores(2), null).shards(), "2 cores: 1 shard, as call");
    assertEquals(6, TuneCommand.defaults(ThreadBudget.forCores(8), null).shards(), "8 cores: 6 shards, as call");
    assertEquals(List.of("--shards", "1", "--consumers", "1", "--batch-size", "64", "--ring-size", "16M", "--transport", "shm"),
        TuneCommand.defaults(ThreadBudget.forCores(2), null).args());
  }

  @Test
  void aRingSizeEqualToTheDefaultIsTheDefaultsConfigurationAndNoOtherIs() {
    assertEquals(List.of("4M", "16M", "64M"), TuneCommand.ringSizes(List.of("4M", "16m", "16777216", "64M"), "16M"));
    Knobs d = TuneCommand.defaults(ThreadBudget.forCores(2), null);
    assertEquals(d, d.with(Knobs.Dimension.RING_SIZE, TuneCommand.ringSizes(List.of("16777216"), d.ringSize()).get(0)));
  }
}
