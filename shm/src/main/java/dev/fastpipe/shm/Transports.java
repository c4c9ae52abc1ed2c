package dev.fastpipe.shm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.agrona.BitUtil;

/**
 * The transports on the class path ({@link TransportProvider}s found through
 * {@link ServiceLoader}), by their {@code --transport} name, and the checks every one gets at
 * configuration time: the name, its options and the record size.
 */
public final class Transports {
  /** The built-in transports, in the order benchmarks report them. */
  public static final List<String> NAMES = List.of("shm", "disruptor", "chronicle", "mutex", "disk", "seqring");

  private Transports() {}

  /** Every provider on the class path: the built-ins in {@link #NAMES} order, then the others by name. */
  public static Map<String, TransportProvider> providers() {
    List<TransportProvider> found = new ArrayList<>();
    for (TransportProvider p : ServiceLoader.load(TransportProvider.class, loader())) found.add(p);
    found.sort(Comparator.comparingInt((TransportProvider p) -> NAMES.contains(p.name()) ? NAMES.indexOf(p.name()) : NAMES.size())
        .thenComparing(TransportProvider::name));
    Map<String, TransportProvider> byName = new LinkedHashMap<>();
    for (TransportProvider p : found) {
      TransportProvider twin = byName.put(p.name(), p);
      if (twin != null && twin.getClass() != p.getClass()) {
        throw new IllegalStateException("two transports are named '" + p.name() + "': " + twin.getClass().getName()
            + " and " + p.getClass().getName() + " (remove one jar from the class path)");
      }
    }
    return byName;
  }

  private static ClassLoader loader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : Transports.class.getClassLoader();
  }

  /** The names of {@link #providers()}. */
  public static List<String> names() {
    return List.copyOf(providers().keySet());
  }

  /** The provider of {@code name}; IllegalArgumentException listing the available ones otherwise. */
  public static TransportProvider provider(String name) {
    Map<String, TransportProvider> all = providers();
    TransportProvider p = all.get(name);
    if (p == null) {
      throw new IllegalArgumentException("unknown transport '" + name + "' (available: " + String.join(", ", all.keySet()) + ")");
    }
    return p;
  }

  /**
   * Everything checked before a run starts: the name, the options (by the provider) and that
   * records of {@code recordBytes} fit a ring of {@code ringBytes}. Returns the provider.
   */
  public static TransportProvider check(String name, int ringBytes, int recordBytes, TransportOptions opts) {
    TransportProvider p = provider(name);
    p.validate(opts);
    checkRecordFits(p, ringBytes, recordBytes);
    return p;
  }

  /** Creates the named transport with no options of its own. */
  public static ExampleTransport create(String name, TransportConfig cfg) {
    return create(name, cfg, TransportOptions.NONE);
  }

  /** Creates the named transport; IllegalArgumentException for an unknown name, a bad option or a record too big. */
  public static ExampleTransport create(String name, TransportConfig cfg, TransportOptions opts) {
    return check(name, cfg.ringBytes(), cfg.maxRecordBytes(), opts).create(cfg, opts);
  }

  /** The largest record the named transport carries with {@code ringBytes} per shard ({@link TransportProvider#maxRecordBytes}). */
  public static int maxRecordBytes(String name, int ringBytes) {
    return provider(name).maxRecordBytes(ringBytes);
  }

  /** The smallest power-of-two ring size that carries records of {@code recordBytes}. */
  public static long ringSizeFor(int recordBytes) {
    return BitUtil.findNextPositivePowerOfTwo((long) recordBytes * 8);
  }

  /**
   * Call at startup: throws IllegalArgumentException naming the size to raise when a record of
   * {@code recordBytes} cannot fit the named transport's ring of {@code ringBytes}.
   */
  public static void checkRecordFits(String name, int ringBytes, int recordBytes) {
    checkRecordFits(provider(name), ringBytes, recordBytes);
  }

  private static void checkRecordFits(TransportProvider p, int ringBytes, int recordBytes) {
    int max = p.maxRecordBytes(ringBytes);
    if (recordBytes > max) {
      throw new IllegalArgumentException("records of " + recordBytes + " bytes do not fit the " + p.name() + " ring of "
          + ringBytes + " bytes (largest record " + max + " bytes): raise --ring-size to at least "
          + ringSizeFor(recordBytes));
    }
  }
}
