package dev.fastpipe.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command line picocli cannot parse, told in one line on stderr (exit 2) instead of the whole
 * usage: an unknown option is named first (picocli would report a missing required option before
 * it), with the nearest option of the subcommand ("did you mean --output?"), DeepVariant's
 * spellings mapped to fastpipe's, and a pointer to {@code --help}.
 */
final class OptionErrors implements CommandLine.IParameterExceptionHandler {
  /** DeepVariant's flags (run_deepvariant) and the options of fastpipe's that do their job. */
  static final Map<String, String> DEEPVARIANT = Map.of(
      "--output_vcf", "--output",
      "--output_gvcf", "--gvcf",
      "--num_shards", "--shards",
      "--sample_name", "--sample",
      "--par_regions_bed", "--par-bed",
      "--haploid_contigs", "--haploid-contigs",
      "--customized_model", "--model");

  @Override
  public int handleParseException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    cl.getErr().println(message(ex, args));
    return dev.fastpipe.streaming.ExitStatus.BAD_INPUT.code();
  }

  /** The one line: "fastpipe CMD: PROBLEM; see 'fastpipe CMD --help'". */
  static String message(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    CommandSpec spec = cl.getCommandSpec();
    String unknown = firstUnknownOption(spec, args);
    String problem;
    if (spec.parent() == null && ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
        && !u.getUnmatched().get(0).startsWith("-")) {
      String word = u.getUnmatched().get(0);
      problem = "unknown command " + word + nearest(word, new ArrayList<>(spec.subcommands().keySet()));
    } else if (unknown != null) {
      problem = "unknown option " + unknown + suggestion(spec, unknown);
    } else {
      String m = ex.getMessage() == null ? ex.toString() : ex.getMessage();
      problem = m.replace('\n', ' ').replaceAll("\\s+", " ").strip();
    }
    String name = spec.qualifiedName();
    return name + ": " + problem + "; see '" + name + " --help'";
  }

  /** The first word after the subcommand that looks like an option but is none of {@code spec}'s (null: none). */
  static String firstUnknownOption(CommandSpec spec, String[] args) {
    int i = 0;
    // the subcommand's own words start after its name (the root command has no name in args)
    if (spec.parent() != null) {
      while (i < args.length && !spec.name().equals(args[i]) && !List.of(spec.aliases()).contains(args[i])) i++;
      i++;
    }
    for (; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) return null;
      if (!a.startsWith("-") || a.equals("-") || a.matches("-[0-9.].*")) continue; // a value or a negative number
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      OptionSpec o = spec.findOption(name);
      if (o == null) return name;
      if (!a.contains("=") && o.arity().max() > 0 && !o.type().equals(boolean.class) && !o.type().equals(Boolean.class)) {
        i += Math.max(1, o.arity().min()); // its value
      }
    }
    return null;
  }

  /** " (did you mean --x?)" for the option nearest {@code unknown}, or "" when none is near. */
  static String suggestion(CommandSpec spec, String unknown) {
    String mapped = DEEPVARIANT.get(unknown);
    if (mapped != null && spec.findOption(mapped) != null) {
      return " (DeepVariant's spelling; fastpipe's is " + mapped + ")";
    }
    String typed = unknown.replace('_', '-');
    if (!typed.equals(unknown) && spec.findOption(typed) != null) return " (did you mean " + typed + "?)";
    List<String> names = new ArrayList<>();
    for (OptionSpec o : spec.options()) if (!o.hidden()) names.addAll(List.of(o.names()));
    return nearest(typed, names);
  }

  /** " (did you mean X?)" for the name nearest {@code typed} by edit distance, or "" when none is near. */
  static String nearest(String typed, List<String> names) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String n : names) {
      int d = distance(typed, n);
      if (d < bestDistance) {
        bestDistance = d;
        best = n;
      }
    }
    return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? " (did you mean " + best + "?)" : "";
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
