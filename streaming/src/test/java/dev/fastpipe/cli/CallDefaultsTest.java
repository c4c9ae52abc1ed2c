package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.pipeline.CallRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** call's option defaults come from CallRequest.Builder, written once: a run without them gets the request's values. */
class CallDefaultsTest {

  static CallCommand parsed(String... extra) {
    CallCommand c = new CallCommand();
    CommandLine cl = new CommandLine(c);
    String[] base = {"--ref", "r.fa", "--reads", "x.bam", "--output", "o.vcf.gz"};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    cl.parseArgs(args);
    return c;
  }

  @Test
  void anOptionNotGivenHasTheSettingsDefault() {
    CallRequest.Builder d = CallRequest.builder();
    CallCommand c = parsed();
    assertEquals(d.transport(), c.transport);
    assertEquals(d.ringBytes(), CallCommand.parseSize("--ring-size", c.ringSize));
    assertEquals(d.consumers(), c.consumers);
    assertEquals(d.batchSize(), c.modelOptions.batchSize());
    assertEquals(d.minQual(), c.minQual);
    assertEquals(d.metricsLinger(), c.metricsLinger);
    assertEquals(d.metricsInterval(), c.metricsInterval);
    assertEquals(d.shardTimeout(), c.shardTimeout);
    assertEquals(d.maxBatchWait(), c.maxBatchWait);
    assertEquals(d.journalInterval(), c.journalInterval);
    assertEquals(64, d.batchSize(), "the CLI's batch size is the settings' one (it once said 256 there and 64 here)");
  }

  @Test
  void aGivenOptionWinsAndTheHelpShowsTheDefaultsAsTheyAreTyped() {
    CallCommand c = parsed("--shard-timeout", "90s", "--consumers", "2", "--ring-size", "4M");
    assertEquals(Duration.ofSeconds(90), c.shardTimeout);
    assertEquals(2, c.consumers);
    assertEquals(4 << 20, CallCommand.parseSize("--ring-size", c.ringSize));
    StringWriter help = new StringWriter();
    new CommandLine(new CallCommand()).usage(new PrintWriter(help));
    String text = help.toString().replaceAll("\\s+", " ");
    assertTrue(text.contains("default 16M"), text);
    assertTrue(text.contains("Default 5m."), text);
    assertTrue(text.contains("(default 200ms)"), text);
    assertTrue(text.contains("(default 1.0)"), text);
  }

  @Test
  void makeExamplesOptionsHaveTheExampleSettingsDefaults() {
    ExampleSettings.Builder d = ExampleSettings.builder();
    MakeExamplesCommand m = new MakeExamplesCommand();
    new CommandLine(m).parseArgs("--ref", "r.fa", "--reads", "x.bam", "--output", "o.tfrecord.gz");
    for (ExampleInputOptions in : new ExampleInputOptions[] {m.input, parsed().input}) {
      assertEquals(d.minMappingQuality(), in.minMapq);
      assertEquals(d.minBaseQuality(), in.minBaseQuality);
      assertEquals(d.snpMinCount(), in.snpMinCount);
      assertEquals(d.snpMinFraction(), in.snpMinFraction);
      assertEquals(d.indelMinCount(), in.indelMinCount);
      assertEquals(d.indelMinFraction(), in.indelMinFraction);
      assertEquals(d.gvcfGqBinSize(), in.gvcfGqBinSize);
      assertEquals(d.realignReads(), in.realignReads);
    }
    assertEquals(d.shards(), m.shards);
    assertEquals(d.task(), m.task);
    assertEquals(d.channels(), m.channels);
    assertEquals(CallCommand.defaultKnobs(dev.fastpipe.streaming.pipeline.ThreadBudget.ofThisMachine(), null).shards(),
        parsed().shards, "call's shard count is its own: from the thread budget");
  }

  @Test
  void defaultsAreWrittenAsTheOptionsReadThem() {
    assertEquals("16M", CallDefaults.bytes(16 << 20));
    assertEquals("512K", CallDefaults.bytes(512 << 10));
    assertEquals("1000", CallDefaults.bytes(1000));
    assertEquals("5m", CallDefaults.time(Duration.ofMinutes(5)));
    assertEquals("90s", CallDefaults.time(Duration.ofSeconds(90)));
    assertEquals("200ms", CallDefaults.time(Duration.ofMillis(200)));
    assertEquals("0", CallDefaults.time(Duration.ZERO));
    assertEquals(Duration.ofMillis(200), new DurationConverter().convert(CallDefaults.time(Duration.ofMillis(200))));
  }
}
