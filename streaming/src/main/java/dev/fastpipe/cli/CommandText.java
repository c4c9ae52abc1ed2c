package dev.fastpipe.cli;

import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;

/** The command line a user typed, as one line a shell reads back (for the VCF header's ##fastpipe_command). */
final class CommandText {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,+@%^-]+");

  private CommandText() {}

  /** {@code fastpipe} and the arguments the root command parsed, each quoted where a shell needs it. */
  static String of(CommandSpec spec) {
    var parsed = spec.root().commandLine().getParseResult();
    return of(parsed == null ? List.of() : parsed.originalArgs());
  }

  static String of(List<String> args) {
    StringBuilder b = new StringBuilder("fastpipe");
    for (String a : args) b.append(' ').append(quote(a));
    return b.toString();
  }

  /** {@code a} as a shell word: as it is when plain, else in single quotes. */
  static String quote(String a) {
    if (!a.isEmpty() && PLAIN.matcher(a).matches()) return a;
    return "'" + a.replace("'", "'\\''") + "'";
  }
}
