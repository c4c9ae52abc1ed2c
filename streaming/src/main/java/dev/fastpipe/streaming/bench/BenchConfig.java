package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One configuration of {@code call} that bench runs: a name, environment variables and options,
 * written {@code NAME: [VAR=VALUE ...] [OPTION ...]}, for example
 * {@code "jemalloc-conf: FASTPIPE_MALLOC_CONF=narenas:1 --allocator jemalloc --consumers 2"}.
 * Words are split on spaces; quote a word holding spaces with ' or " (a backslash escapes one
 * character). Leading words of the form {@code NAME=VALUE} with an upper-case name are environment;
 * the rest are options of {@code call} or of the launcher ({@code --allocator},
 * {@code --shard-allocator}, {@code --malloc-conf}, {@code --shard-malloc-conf}), added after the
 * options every configuration shares.
 */
public record BenchConfig(String name, Map<String, String> env, List<String> args) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");
  private static final Pattern ENV = Pattern.compile("([A-Z_][A-Z0-9_]*)=(.*)", Pattern.DOTALL);

  /**
   * The variable that names another build to run this configuration with: a checkout or an
   * unpacked release whose {@code bin/fastpipe} starts the run instead of this one's (so two
   * versions are compared side by side, in one interleaved schedule). Not passed to the run.
   */
  public static final String BUILD = "FASTPIPE_BUILD";

  /** Options bench sets on every run itself. */
  static final List<String> OWN_OPTIONS = List.of("--output", "--metrics", "--no-progress");

  public BenchConfig {
    env = Map.copyOf(env);
    args = List.copyOf(args);
  }

  /** Parses {@code NAME: [VAR=VALUE ...] [OPTION ...]}; InputException naming the text when it is not that. */
  public static BenchConfig parse(String spec) {
    int colon = spec.indexOf(':');
    if (colon < 0) throw new InputException("--config '" + spec + "': expected NAME: [VAR=VALUE ...] [OPTION ...]");
    String name = spec.substring(0, colon).strip();
    if (!NAME.matcher(name).matches()) {
      throw new InputException("--config '" + spec + "': the name '" + name
          + "' must be letters, digits, '.', '_', '+' or '-'");
    }
    List<String> words = words(spec.substring(colon + 1), spec);
    Map<String, String> env = new LinkedHashMap<>();
    int i = 0;
    for (; i < words.size(); i++) {
      var m = ENV.matcher(words.get(i));
      if (!m.matches()) break;
      env.put(m.group(1), m.group(2));
    }
    List<String> args = words.subList(i, words.size());
    for (String a : args) {
      for (String own : OWN_OPTIONS) {
        if (a.equals(own) || a.startsWith(own + "=")) {
          throw new InputException("--config '" + spec + "': bench sets " + own + " on every run itself; remove it");
        }
      }
    }
    String build = env.get(BUILD);
    if (build != null && !Files.isExecutable(Path.of(build, "bin", "fastpipe"))) {
      throw new InputException("--config '" + spec + "': " + BUILD + "=" + build + ": no executable bin/fastpipe there"
          + " (a built checkout or an unpacked release)");
    }
    return new BenchConfig(name, env, args);
  }

  /** The launcher of another build ({@link #BUILD}), or null: this build's. */
  public Path build() {
    String b = env.get(BUILD);
    return b == null ? null : Path.of(b, "bin", "fastpipe").toAbsolutePath().normalize();
  }

  /** Configurations from a file, one per line as {@link #parse} takes; blank lines and # comments skipped. */
  public static List<BenchConfig> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw InputException.reading(file, "cannot read the configurations", e);
    }
    List<BenchConfig> configs = new ArrayList<>();
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).strip();
      if (line.isEmpty() || line.startsWith("#")) continue;
      try {
        configs.add(parse(line));
      } catch (InputException e) {
        throw new InputException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
      }
    }
    return configs;
  }

  /** Checks a set of configurations: at least two (one with {@code allowOne}), names unique. */
  public static void check(List<BenchConfig> configs, boolean allowOne) {
    if (configs.size() < (allowOne ? 1 : 2)) {
      throw new InputException("bench needs at least two configurations (--config or --configs), got " + configs.size());
    }
    for (int i = 0; i < configs.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (configs.get(i).name().equals(configs.get(j).name())) {
          throw new InputException("two configurations are named '" + configs.get(i).name() + "'; names must differ");
        }
      }
    }
  }

  /** The configuration as it was written (quoted where a word needs it). */
  public String text() {
    return name + ": " + options();
  }

  /** Its environment and options as written after the name; empty for none. */
  public String options() {
    List<String> words = new ArrayList<>();
    env.forEach((k, v) -> words.add(k + "=" + quoted(v)));
    args.forEach(a -> words.add(quoted(a)));
    return String.join(" ", words);
  }

  /** {@code w} as a shell word: as is when safe, else in single quotes. */
  public static String quoted(String w) {
    if (!w.isEmpty() && w.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./:=,+@%".indexOf(c) >= 0)) return w;
    return "'" + w.replace("'", "'\\''") + "'";
  }

  /** Splits {@code text} into words: spaces separate, quotes group, a backslash escapes one character. */
  static List<String> words(String text, String spec) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) quote = 0;
        else if (c == '\\' && quote == '"' && i + 1 < text.length()) w.append(text.charAt(++i));
        else w.append(c);
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < text.length()) {
        w.append(text.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) words.add(w.toString());
        w.setLength(0);
        inWord = false;
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (quote != 0) throw new InputException("--config '" + spec + "': a " + quote + " quote is not closed");
    if (inWord) words.add(w.toString());
    return words;
  }
}
