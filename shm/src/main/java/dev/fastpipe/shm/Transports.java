package dev.fastpipe.shm;

import java.util.List;
import org.agrona.BitUtil;

/** Builds a transport by its {@code --transport} name and checks record sizes at configuration time. */
public final class Transports {
  /** Every transport name, in the order benchmarks report them. */
  public static final List<String> NAMES = List.of("shm", "disruptor", "chronicle", "mutex", "disk");

  private Transports() {}

  /** Creates the named transport; throws IllegalArgumentException for an unknown name or a record too big. */
  public static ExampleTransport create(String name, TransportConfig cfg) {
    checkRecordFits(name, cfg.ringBytes(), cfg.maxRecordBytes());
    return switch (name) {
      case "shm" -> ShmTransport.create(cfg);
      case "disruptor" -> new DisruptorTransport(cfg);
      case "chronicle" -> new ChronicleTransport(cfg);
      case "mutex" -> new MutexTransport(cfg);
      case "disk" -> new DiskTransport(cfg);
      default -> throw new IllegalArgumentException("unknown transport '" + name + "' (choose " + String.join(", ", NAMES) + ")");
    };
  }

  /**
   * The largest record the named transport carries with {@code ringBytes} per shard: an eighth of
   * the ring for the ring transports (shm: Agrona's one-to-one ring refuses longer messages;
   * disruptor and mutex apply the same bound, so {@code --ring-size} means the same for each), and
   * no ring bound for chronicle and disk, which have no ring ({@code Integer.MAX_VALUE / 2}).
   */
  public static int maxRecordBytes(String name, int ringBytes) {
    return switch (name) {
      case "chronicle", "disk" -> Integer.MAX_VALUE / 2; // no ring: the only bound is the file format
      default -> ringBytes / 8;
    };
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
    int max = maxRecordBytes(name, ringBytes);
    if (recordBytes > max) {
      throw new IllegalArgumentException("records of " + recordBytes + " bytes do not fit the " + name + " ring of "
          + ringBytes + " bytes (largest record " + max + " bytes = ring/8): raise --ring-size to at least "
          + ringSizeFor(recordBytes));
    }
  }
}
