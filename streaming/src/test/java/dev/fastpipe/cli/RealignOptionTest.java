package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.plan.ExampleSettings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --realign-reads} is on by default for make-examples and call; {@code --no-realign-reads} turns it off. */
class RealignOptionTest {
  static boolean realign(ExampleInputOptions in) {
    return in.applyTo(ExampleSettings.builder()).realignReads();
  }

  @Test
  void onByDefaultAndNegatable() {
    String[] base = {"--ref", "r.fa", "--reads", "r.bam", "--output", "o"};
    MakeExamplesCommand me = new MakeExamplesCommand();
    new CommandLine(me).parseArgs(base);
    assertTrue(realign(me.input));
    me = new MakeExamplesCommand();
    new CommandLine(me).parseArgs(append(base, "--no-realign-reads"));
    assertFalse(realign(me.input));
    me = new MakeExamplesCommand();
    new CommandLine(me).parseArgs(append(base, "--realign-reads"));
    assertTrue(realign(me.input));
    CallCommand call = new CallCommand();
    new CommandLine(call).parseArgs(base);
    assertTrue(realign(call.input));
    call = new CallCommand();
    new CommandLine(call).parseArgs(append(base, "--no-realign-reads"));
    assertFalse(realign(call.input));
    assertTrue(ExampleSettings.builder().realignReads(), "the library default is on too");
  }

  static String[] append(String[] a, String x) {
    String[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = x;
    return out;
  }
}
