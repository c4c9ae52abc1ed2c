package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --shard-timeout} takes 90s, 5m, 1h, 500ms or plain seconds. */
class DurationConverterTest {
  private final DurationConverter c = new DurationConverter();

  @Test
  void unitsAndPlainSeconds() {
    assertEquals(Duration.ofSeconds(90), c.convert("90s"));
    assertEquals(Duration.ofMinutes(5), c.convert("5m"));
    assertEquals(Duration.ofSeconds(300), c.convert("300"));
    assertEquals(Duration.ofHours(1), c.convert("1H"));
    assertEquals(Duration.ofMillis(500), c.convert("500ms"));
    assertEquals(Duration.ZERO, c.convert("0"));
  }

  @Test
  void anythingElseNamesTheForms() {
    for (String bad : new String[] {"5x", "-1", "", "1.5m", "99999999999s"}) {
      CommandLine.TypeConversionException e = assertThrows(CommandLine.TypeConversionException.class, () -> c.convert(bad));
      assertTrue(e.getMessage().contains("90s, 5m"), e.getMessage());
    }
  }

  @Test
  void callDefaultsToFiveMinutes() {
    CallCommand call = new CallCommand();
    new CommandLine(call).parseArgs("--ref", "r.fa", "--reads", "r.bam", "--output", "o.vcf.gz");
    assertEquals(Duration.ofMinutes(5), call.shardTimeout);
    new CommandLine(call).parseArgs("--ref", "r.fa", "--reads", "r.bam", "--output", "o.vcf.gz", "--shard-timeout", "30s");
    assertEquals(Duration.ofSeconds(30), call.shardTimeout);
  }
}
