package dev.fastpipe.shm;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A transport's own settings, given as {@code --transport-opt key=value} (repeatable): an
 * immutable map checked once by the transport's {@link TransportProvider#validate provider}. A key
 * may be scoped to one transport as {@code NAME.key=value} ({@code bench-transport} runs several
 * at once); {@link #forTransport} gives a transport its scoped keys and the unscoped ones.
 *
 * <p>Every error is one line naming the option: {@code transport disk: option gzip=maybe: expected
 * true or false}.
 */
public final class TransportOptions {
  /** No options. */
  public static final TransportOptions NONE = new TransportOptions(Map.of());

  private final Map<String, String> values;

  private TransportOptions(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * Parses {@code key=value} words; a key is letters, digits, '-' or '_', optionally after
   * {@code NAME.}. IllegalArgumentException (one line) for a word without '=', a bad key or a key
   * given twice.
   */
  public static TransportOptions parse(List<String> keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : keyValues) {
      int eq = kv.indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("--transport-opt '" + kv + "': expected key=value");
      String key = kv.substring(0, eq);
      if (!key.matches("([A-Za-z0-9_-]+\\.)?[A-Za-z0-9_-]+")) {
        throw new IllegalArgumentException("--transport-opt '" + kv + "': a key is letters, digits, '-' or '_' (NAME.key for one transport)");
      }
      if (m.put(key, kv.substring(eq + 1)) != null) throw new IllegalArgumentException("--transport-opt " + key + " given twice");
    }
    return new TransportOptions(m);
  }

  /** Builds options from a map (tests, code); the same key rules as {@link #parse}. */
  public static TransportOptions of(Map<String, String> values) {
    return parse(values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
  }

  /** The transports named by scoped keys ({@code NAME.key}). */
  public Set<String> scopes() {
    Set<String> s = new TreeSet<>();
    for (String k : values.keySet()) if (k.contains(".")) s.add(k.substring(0, k.indexOf('.')));
    return s;
  }

  /** The options one transport sees: its {@code NAME.key} entries (scope removed) over the unscoped ones. */
  public TransportOptions forTransport(String name) {
    Map<String, String> m = new LinkedHashMap<>();
    values.forEach((k, v) -> { if (!k.contains(".")) m.put(k, v); });
    values.forEach((k, v) -> { if (k.startsWith(name + ".")) m.put(k.substring(name.length() + 1), v); });
    return new TransportOptions(m);
  }

  /** Every key and value, in the order given. */
  public Map<String, String> asMap() {
    return values;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The options as {@code key=value} words again (to hand on to a producer process). */
  public List<String> words() {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  /** Throws (one line) when a key is not among {@code known}. */
  public void requireOnly(String transport, Set<String> known) {
    for (String k : values.keySet()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("transport " + transport + ": unknown option '" + k + "'"
            + (known.isEmpty() ? " (it takes no options)" : " (known: " + String.join(", ", new TreeSet<>(known)) + ")"));
      }
    }
  }

  /** The value of {@code key}, or {@code dflt}. */
  public String get(String key, String dflt) {
    return values.getOrDefault(key, dflt);
  }

  /** true/false (also yes/no, 1/0); a one-line error naming the transport otherwise. */
  public boolean bool(String transport, String key, boolean dflt) {
    String v = values.get(key);
    if (v == null) return dflt;
    return switch (v.toLowerCase(java.util.Locale.ROOT)) {
      case "true", "yes", "1" -> true;
      case "false", "no", "0" -> false;
      default -> throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": expected true or false");
    };
  }

  /** A whole number in [min, max]; a one-line error otherwise. */
  public long number(String transport, String key, long dflt, long min, long max) {
    String v = values.get(key);
    if (v == null) return dflt;
    long n;
    try {
      n = Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": expected a whole number");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": must be in " + min + ".." + max);
    }
    return n;
  }

  /**
   * A duration such as {@code 200ms}, {@code 5s}, {@code 50us} or {@code 100ns} (a bare number is
   * milliseconds) in [min, max] nanoseconds, as nanoseconds, or {@code dflt}; a one-line error otherwise.
   */
  public long duration(String transport, String key, long dflt, long minNanos, long maxNanos) {
    String v = values.get(key);
    if (v == null) return dflt;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,12})(ns|us|ms|s)?").matcher(v.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": expected a duration such as 200ms, 5s or 50us");
    }
    long n = Long.parseLong(m.group(1));
    long unit = switch (m.group(2) == null ? "ms" : m.group(2)) {
      case "ns" -> 1L;
      case "us" -> 1_000L;
      case "s" -> 1_000_000_000L;
      default -> 1_000_000L;
    };
    long nanos = n * unit;
    if (nanos < minNanos || nanos > maxNanos) {
      throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": must be in "
          + minNanos / 1_000_000 + "ms.." + maxNanos / 1_000_000_000 + "s");
    }
    return nanos;
  }

  /** An existing, writable directory, or {@code dflt}; a one-line error otherwise. */
  public Path directory(String transport, String key, Path dflt) {
    String v = values.get(key);
    if (v == null) return dflt;
    Path p = Path.of(v);
    if (!java.nio.file.Files.isDirectory(p)) throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": no such directory");
    if (!java.nio.file.Files.isWritable(p)) throw new IllegalArgumentException("transport " + transport + ": option " + key + "=" + v + ": directory is not writable");
    return p;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TransportOptions t && t.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return String.join(" ", words());
  }
}
