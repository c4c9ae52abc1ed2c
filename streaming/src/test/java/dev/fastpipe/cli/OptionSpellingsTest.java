package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.Plural;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * One spelling per meaning across subcommands (--repeats for repeat counts, --output-dir for a
 * directory of outputs, --json FILE), the old spellings still parsed but hidden, one help width,
 * and counts with their nouns in the right number.
 */
class OptionSpellingsTest {

  /** The subcommand {@code name} after parsing {@code args} (its options set, nothing run). */
  @SuppressWarnings("unchecked")
  static <T> T parsed(String... args) {
    CommandLine cl = Main.commandLine();
    CommandLine.ParseResult r = cl.parseArgs(args);
    return (T) r.subcommand().commandSpec().userObject();
  }

  static String usage(String command) {
    StringWriter w = new StringWriter();
    Main.commandLine().getSubcommands().get(command).usage(new PrintWriter(w));
    return w.toString();
  }

  @Test
  void repeatCountsAreSpelledRepeatsEverywhereAndTheOldSpellingsStillParse() {
    assertEquals(7, ((BenchCommand) parsed("bench", "--repeats", "7", "--config", "a:", "--config", "b:")).repeats());
    assertEquals(7, ((BenchCommand) parsed("bench", "--runs", "7", "--config", "a:", "--config", "b:")).repeats());
    assertEquals(5, ((BenchCommand) parsed("bench", "--config", "a:", "--config", "b:")).repeats(), "the default");
    assertEquals(4, ((BenchInferenceCommand) parsed("bench-inference", "--repeats", "4")).repeats());
    assertEquals(4, ((BenchInferenceCommand) parsed("bench-inference", "--rounds", "4")).repeats());
    assertEquals(3, ((BenchInferenceCommand) parsed("bench-inference")).repeats());
    assertEquals(2, ((BenchTransportCommand) parsed("bench-transport", "--repeats", "2")).repeats());
    assertEquals(2, ((BenchTransportCommand) parsed("bench-transport", "--repeat", "2")).repeats());
    assertEquals(5, ((BenchTransportCommand) parsed("bench-transport")).repeats());
    assertEquals(3, ((TuneCommand) parsed("tune", "--ref", "r.fa", "--reads", "r.bam", "--repeats", "3")).repeats);
    for (String command : List.of("bench", "bench-inference", "bench-transport", "tune")) {
      String help = usage(command);
      assertTrue(help.contains("--repeats"), command + ":\n" + help);
      for (String old : List.of("--runs", "--rounds", "--repeat=", "--repeat ")) assertFalse(help.contains(old), command + " shows " + old);
    }
  }

  @Test
  void aDirectoryOfOutputsIsOutputDirAndSimulatesOutputStillParses() {
    assertEquals(Path.of("s"), ((SimulateCommand) parsed("simulate", "--output-dir", "s")).outputDir());
    assertEquals(Path.of("s"), ((SimulateCommand) parsed("simulate", "--output", "s")).outputDir());
    assertEquals(null, ((SimulateCommand) parsed("simulate")).outputDir());
    for (String command : List.of("simulate", "demo", "plan")) assertTrue(usage(command).contains("--output-dir"), command);
    assertFalse(usage("simulate").contains("--output "), "the old spelling is hidden");
  }

  @Test
  void everyJsonOptionTakesAFile() {
    List<String> flags = new ArrayList<>();
    for (CommandLine c : HelpTextTest.everyCommand()) {
      var json = c.getCommandSpec().findOption("--json");
      if (json != null && (json.arity().max() < 1 || !json.type().equals(Path.class))) flags.add(c.getCommandName());
    }
    assertEquals(List.of(), flags, "--json without a FILE");
  }

  @Test
  void statsIsTheCommandAndVcfStatsAHiddenAlias() {
    assertTrue(parsed("stats", "x.vcf") instanceof VcfStatsCommand);
    assertTrue(parsed("vcf-stats", "x.vcf") instanceof VcfStatsCommand.Alias);
    StringWriter w = new StringWriter();
    Main.commandLine().usage(new PrintWriter(w));
    assertTrue(w.toString().contains("  stats "), w.toString());
    assertFalse(w.toString().contains("vcf-stats"), "the old name is not listed");
  }

  @Test
  void everyCommandsHelpHasOneWidth() {
    for (CommandLine c : HelpTextTest.everyCommand()) {
      assertEquals(Main.HELP_WIDTH, c.getCommandSpec().usageMessage().width(), c.getCommandSpec().qualifiedName());
    }
  }

  @Test
  void countsTakeTheirNounInTheRightNumber() {
    assertEquals("1 run", Plural.of(1, "run"));
    assertEquals("0 runs", Plural.of(0, "run"));
    assertEquals("2 warm-up rounds", Plural.of(2, "warm-up round"));
  }
}
