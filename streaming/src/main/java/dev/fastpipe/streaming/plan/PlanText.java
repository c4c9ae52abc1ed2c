package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.SettingFields;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * A {@link RunPlan} as {@code java.util.Properties} text, the form a shard process reads on stdin:
 *
 * <pre>
 *   format=2
 *   readsEstimate=41210   readsExpected=-1        (shard count and partition size are settings.*)
 *   readsAt=chr20:1-16384                       (when the index places reads in the regions)
 *   sample=NA12878                              (the sample called, when the read groups name one)
 *   contigs=chr1\tchr2\t...                     (tab-separated: contig names hold no whitespace)
 *   partition.contig / .start / .end / .shard = comma-separated ints, one per partition
 *   settings.GROUP.NAME=value                   (every setting of ExampleSettings, e.g. settings.image.width)
 * </pre>
 *
 * <p>Every setting of {@link ExampleSettings} travels, found by reflection ({@link SettingFields}), so one
 * added there cannot be dropped on the way to a worker (as re-rendered argv once dropped the
 * image size, the downsampling seed and keepQcFail). Plain JDK text rather than a JSON library:
 * a shard JVM reads it in milliseconds, where loading Jackson cost ~0.3 s of CPU per worker.
 */
final class PlanText {
  /** Bumped when the layout changes, so a worker of another build refuses a plan it would misread. */
  static final int FORMAT = 3;

  private static final String SETTING = "settings.";

  private PlanText() {}

  static String write(RunPlan p) {
    Properties t = new Properties();
    t.setProperty("format", Integer.toString(FORMAT));
    t.setProperty("readsEstimate", Long.toString(p.readsEstimate()));
    t.setProperty("readsExpected", Long.toString(p.readsExpected()));
    if (p.readsAt() != null) t.setProperty("readsAt", p.readsAt());
    if (p.sample() != null) t.setProperty("sample", p.sample());
    t.setProperty("contigs", String.join("\t", p.contigNames()));
    t.setProperty("partition.contig", ints(p.contigArray()));
    t.setProperty("partition.start", ints(p.startArray()));
    t.setProperty("partition.end", ints(p.endArray()));
    t.setProperty("partition.shard", ints(p.shardArray()));
    ExampleSettings s = p.settings();
    for (SettingFields.Field f : SettingFields.of(ExampleSettings.class)) {
      Object v = f.get(s);
      if (v != null) t.setProperty(SETTING + f.name(), render(f, v));
    }
    StringWriter w = new StringWriter();
    try {
      t.store(w, "fastpipe run plan");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  static RunPlan read(String text) {
    Properties t = new Properties();
    try {
      t.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new InputException("not a fastpipe run plan: " + e.getMessage());
    }
    String format = t.getProperty("format");
    if (format == null) throw new InputException("not a fastpipe run plan: no format line");
    if (!format.equals(Integer.toString(FORMAT))) {
      throw new InputException("run plan format " + format + " is not this build's " + FORMAT);
    }
    try {
      ExampleSettings s = SettingFields.assemble(ExampleSettings.class, f -> {
        String v = t.getProperty(SETTING + f.name());
        if (v == null && f.type() == List.class) return List.of();
        if (v == null && f.type().isPrimitive()) throw new InputException("run plan: no " + SETTING + f.name());
        return v == null ? null : parse(f, v);
      });
      int[] contig = ints(required(t, "partition.contig"));
      int[] start = ints(required(t, "partition.start"));
      int[] end = ints(required(t, "partition.end"));
      int[] shard = ints(required(t, "partition.shard"));
      if (start.length != contig.length || end.length != contig.length || shard.length != contig.length) {
        throw new InputException("run plan: partition arrays differ in length");
      }
      String contigs = required(t, "contigs");
      return new RunPlan(s, contigs.isEmpty() ? List.of() : Arrays.asList(contigs.split("\t")), contig, start, end, shard,
          Long.parseLong(required(t, "readsEstimate")), t.getProperty("readsAt"),
          Long.parseLong(t.getProperty("readsExpected", "-1")), // optional: only the planner checks it
          t.getProperty("sample"));
    } catch (NumberFormatException e) {
      throw new InputException("run plan: not a number: " + e.getMessage());
    }
  }

  /** {@code s} with every path absolute, so that a plan means the same files from any directory. */
  static ExampleSettings withAbsolutePaths(ExampleSettings s) {
    return SettingFields.assemble(ExampleSettings.class, f -> f.get(s) instanceof Path p ? p.toAbsolutePath() : f.get(s));
  }

  private static String required(Properties t, String key) {
    String v = t.getProperty(key);
    if (v == null) throw new InputException("run plan: no " + key);
    return v;
  }

  private static String render(SettingFields.Field f, Object v) {
    if (v instanceof Path p) return p.toAbsolutePath().toString();
    if (v instanceof List<?> l) return String.join("\t", l.stream().map(String::valueOf).toList());
    Class<?> type = f.type();
    if (type == int.class || type == long.class || type == double.class || type == boolean.class || type == String.class) {
      return String.valueOf(v); // Double.toString round-trips exactly
    }
    throw new IllegalStateException("ExampleSettings." + f.name() + " of type " + type.getName()
        + " has no plan form: teach PlanText");
  }

  private static Object parse(SettingFields.Field f, String v) {
    Class<?> type = f.type();
    if (type == Path.class) return Path.of(v);
    if (type == List.class) return v.isEmpty() ? List.of() : List.of(v.split("\t"));
    if (type == int.class) return Integer.parseInt(v);
    if (type == long.class) return Long.parseLong(v);
    if (type == double.class) return Double.parseDouble(v);
    if (type == boolean.class) return Boolean.parseBoolean(v);
    if (type == String.class) return v;
    throw new IllegalStateException("ExampleSettings." + f.name() + " of type " + type.getName()
        + " has no plan form: teach PlanText");
  }

  private static String ints(int[] a) {
    StringBuilder b = new StringBuilder(a.length * 6);
    for (int i = 0; i < a.length; i++) {
      if (i > 0) b.append(',');
      b.append(a[i]);
    }
    return b.toString();
  }

  private static int[] ints(String s) {
    if (s.isEmpty()) return new int[0];
    String[] parts = s.split(",");
    int[] a = new int[parts.length];
    for (int i = 0; i < parts.length; i++) a[i] = Integer.parseInt(parts[i]);
    return a;
  }
}
