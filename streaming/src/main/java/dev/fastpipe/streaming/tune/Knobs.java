package dev.fastpipe.streaming.tune;

import java.util.ArrayList;
import java.util.List;

/**
 * One point of the tuning space: the {@code call} settings tune sweeps. {@code allocator} is null
 * when allocators are not swept (runs then get the launcher's default).
 */
public record Knobs(int shards, int consumers, int batchSize, String ringSize, String transport, String allocator) {

  /** A swept setting and the option that sets it. */
  public enum Dimension {
    SHARDS("--shards"), CONSUMERS("--consumers"), BATCH_SIZE("--batch-size"), RING_SIZE("--ring-size"),
    TRANSPORT("--transport"), ALLOCATOR("--allocator");

    public final String option;

    Dimension(String option) {
      this.option = option;
    }
  }

  /** This point's value of {@code d}, as the option takes it. */
  public String get(Dimension d) {
    return switch (d) {
      case SHARDS -> Integer.toString(shards);
      case CONSUMERS -> Integer.toString(consumers);
      case BATCH_SIZE -> Integer.toString(batchSize);
      case RING_SIZE -> ringSize;
      case TRANSPORT -> transport;
      case ALLOCATOR -> allocator;
    };
  }

  /** This point with {@code d} set to {@code value}. */
  public Knobs with(Dimension d, String value) {
    return switch (d) {
      case SHARDS -> new Knobs(Integer.parseInt(value), consumers, batchSize, ringSize, transport, allocator);
      case CONSUMERS -> new Knobs(shards, Integer.parseInt(value), batchSize, ringSize, transport, allocator);
      case BATCH_SIZE -> new Knobs(shards, consumers, Integer.parseInt(value), ringSize, transport, allocator);
      case RING_SIZE -> new Knobs(shards, consumers, batchSize, value, transport, allocator);
      case TRANSPORT -> new Knobs(shards, consumers, batchSize, ringSize, value, allocator);
      case ALLOCATOR -> new Knobs(shards, consumers, batchSize, ringSize, transport, value);
    };
  }

  /** The options of a run at this point: every setting spelled out. */
  public List<String> args() {
    List<String> a = new ArrayList<>();
    for (Dimension d : Dimension.values()) {
      if (get(d) != null) {
        a.add(d.option);
        a.add(get(d));
      }
    }
    return a;
  }

  /** The options that differ from {@code other}'s, e.g. "--consumers 2 --batch-size 128"; empty when none. */
  public String differences(Knobs other) {
    List<String> a = new ArrayList<>();
    for (Dimension d : Dimension.values()) {
      if (get(d) != null && !get(d).equals(other.get(d))) a.add(d.option + " " + get(d));
    }
    return String.join(" ", a);
  }

  /** A short name for tables and bench configurations: "s2-c1-b64-r16M-shm" (+ "-jemalloc"). */
  public String name() {
    return "s" + shards + "-c" + consumers + "-b" + batchSize + "-r" + ringSize + "-" + transport
        + (allocator == null ? "" : "-" + allocator);
  }
}
