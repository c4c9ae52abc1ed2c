package dev.fastpipe.shm;

import java.util.Map;

/**
 * A transport as a plug-in: found by {@link java.util.ServiceLoader} on the class path (a jar with
 * {@code META-INF/services/dev.fastpipe.shm.TransportProvider} naming the class; a public no-argument
 * constructor), chosen by its {@link #name()} with {@code --transport NAME} in {@code call} and
 * {@code bench-transport}. The five built-ins register the same way. How to write one, and the
 * conformance kit it should pass: docs/tools.md, "Writing a transport".
 */
public interface TransportProvider {

  /** The {@code --transport} name: lower-case letters, digits and '-'; unique on the class path. */
  String name();

  /** One line for lists of the available transports. */
  String description();

  /** The keys {@code --transport-opt key=value} accepts, each with a one-line description (may be empty). */
  default Map<String, String> options() {
    return Map.of();
  }

  /**
   * Checks {@code opts} before anything is created; throws IllegalArgumentException with one line
   * naming the option. The default accepts only the keys of {@link #options()}; override to check
   * values too (and call this first).
   */
  default void validate(TransportOptions opts) {
    opts.requireOnly(name(), options().keySet());
  }

  /**
   * The largest record this transport carries with {@code ringBytes} per shard; {@code Integer.MAX_VALUE / 2}
   * for one without a ring bound. The default is an eighth of the ring, as the built-in rings.
   */
  default int maxRecordBytes(int ringBytes) {
    return ringBytes / 8;
  }

  /** Creates a run's transport; {@code opts} has been {@link #validate validated}. */
  ExampleTransport create(TransportConfig cfg, TransportOptions opts);

  /** What the transport can do, for the conformance kit and for {@code call}. */
  default Capabilities capabilities() {
    return Capabilities.IN_PROCESS_RING;
  }

  /**
   * What the transport can do with {@code opts} (e.g. shm and seqring with {@code spill-after} no
   * longer make a producer wait on a full ring). The default ignores the options.
   */
  default Capabilities capabilities(TransportOptions opts) {
    return capabilities();
  }

  /**
   * A producer in another process, attached to shard {@code address} of a transport created by
   * {@link #create} ({@link ExampleTransport#address}). Only where {@link Capabilities#crossProcess()}.
   */
  default ExampleProducer attachProducer(String address, TransportOptions opts) {
    throw new UnsupportedOperationException("transport " + name() + " has no producers in other processes");
  }

  /**
   * @param crossProcess producers may run in other processes ({@link #attachProducer})
   * @param bounded a full ring makes the producer wait (back-pressure); false: it never waits (files, queues)
   * @param streaming the consumer sees records before their producer ends its stream (false: disk)
   */
  record Capabilities(boolean crossProcess, boolean bounded, boolean streaming) {
    public static final Capabilities IN_PROCESS_RING = new Capabilities(false, true, true);
  }
}
