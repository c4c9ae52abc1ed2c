package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/** Every subcommand's --help renders without picocli format warnings: a '%' in help text must be written '%%'. */
class HelpTextTest {

  static List<CommandLine> everyCommand() {
    List<CommandLine> all = new ArrayList<>();
    List<CommandLine> todo = new ArrayList<>(List.of(Main.commandLine()));
    while (!todo.isEmpty()) {
      CommandLine c = todo.remove(todo.size() - 1);
      all.add(c);
      todo.addAll(c.getSubcommands().values());
    }
    return all;
  }

  /** The texts picocli formats (String.format with no arguments) when it renders the usage. */
  static List<String> formattedTexts(CommandSpec spec) {
    List<String> texts = new ArrayList<>();
    CommandLine.Model.UsageMessageSpec u = spec.usageMessage();
    for (String[] group : List.of(u.description(), u.header(), u.footer(), u.customSynopsis())) texts.addAll(List.of(group));
    for (ArgSpec a : spec.args()) texts.addAll(List.of(a.description()));
    return texts;
  }

  @Test
  void noHelpTextHasAnUnescapedPercentSign() {
    List<String> bad = new ArrayList<>();
    for (CommandLine c : everyCommand()) {
      for (String t : formattedTexts(c.getCommandSpec())) {
        if (t.replace("%%", "").replace("%n", "").contains("%")) bad.add(c.getCommandSpec().qualifiedName() + ": " + t);
      }
    }
    assertEquals(List.of(), bad);
  }

  @Test
  void everyUsageRendersWithoutAWarning() {
    assertTrue(everyCommand().size() > 15, "every subcommand is walked");
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    ByteArrayOutputStream usage = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        PrintStream out = new PrintStream(usage, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      for (CommandLine c : everyCommand()) {
        c.setErr(new java.io.PrintWriter(capture, true));
        c.usage(out);
      }
    } finally {
      System.setErr(err);
    }
    String warnings = captured.toString(StandardCharsets.UTF_8);
    for (String sign : List.of("WARN", "Could not format", "MissingFormatArgument", "UnknownFormatConversion", "Format")) {
      assertFalse(warnings.contains(sign), warnings);
    }
    assertTrue(usage.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ").contains("producer stall % and consumer idle %,"),
        "bench-transport's description shows its % signs");
  }
}
