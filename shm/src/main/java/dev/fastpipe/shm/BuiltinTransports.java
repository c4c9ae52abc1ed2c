package dev.fastpipe.shm;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The providers of the built-in transports, registered in
 * {@code META-INF/services/dev.fastpipe.shm.TransportProvider} exactly as a plug-in registers its own.
 */
public final class BuiltinTransports {
  private BuiltinTransports() {}

  private static final String DIR = "dir";
  private static final String KEEP = "keep";
  private static final String GZIP = "gzip";

  private static Map<String, String> opts(String... keyAndHelp) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keyAndHelp.length; i += 2) m.put(keyAndHelp[i], keyAndHelp[i + 1]);
    return m;
  }

  /** The options of the ring transports (shm, seqring): the ring directory and spilling ({@link SpillTransport}). */
  private static Map<String, String> ringOptions() {
    Map<String, String> m = opts(DIR, "directory of the ring files (default /dev/shm, or -Dfastpipe.shm.dir)");
    SpillTransport.describe(m);
    return m;
  }

  private static void validateRing(TransportProvider p, TransportOptions o) {
    o.requireOnly(p.name(), p.options().keySet());
    o.directory(p.name(), DIR, null);
    SpillTransport.afterNanos(p.name(), o);
    SpillTransport.spillDir(p.name(), o);
    if (o.asMap().containsKey(SpillTransport.DIR) && SpillTransport.afterNanos(p.name(), o) < 0) {
      throw new IllegalArgumentException("transport " + p.name() + ": option " + SpillTransport.DIR + " needs " + SpillTransport.AFTER);
    }
  }

  /** With spilling on, a full ring no longer makes the producer wait (past the bound). */
  private static TransportProvider.Capabilities ringCapabilities(TransportProvider p, TransportOptions o) {
    TransportProvider.Capabilities c = p.capabilities();
    return SpillTransport.afterNanos(p.name(), o) < 0 ? c : new TransportProvider.Capabilities(c.crossProcess(), false, c.streaming());
  }

  /** shm: Agrona one-to-one rings in memory-mapped files; producers may be other processes. */
  public static final class Shm implements TransportProvider {
    @Override public String name() { return "shm"; }
    @Override public String description() { return "Agrona one-to-one rings in /dev/shm files (lock-free; producers in threads or processes)"; }
    @Override public Map<String, String> options() { return ringOptions(); }
    @Override public void validate(TransportOptions o) { validateRing(this, o); }
    @Override public Capabilities capabilities() { return new Capabilities(true, true, true); }
    @Override public Capabilities capabilities(TransportOptions o) { return ringCapabilities(this, o); }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) {
      return SpillTransport.wrap(name(), ShmTransport.create(cfg.withDir(o.directory(name(), DIR, cfg.dir()))), o);
    }
    @Override public ExampleProducer attachProducer(String address, TransportOptions o) {
      return SpillTransport.attach(name(), ShmTransport.attachProducer(Path.of(address), TransportConfig.backoff()), address, o);
    }
  }

  /** seqring: the shm files with sequence-stamped slots (no zeroing pass); producers may be other processes. */
  public static final class SeqRing implements TransportProvider {
    @Override public String name() { return "seqring"; }
    @Override public String description() { return "sequence-stamped slots in /dev/shm files (lock-free, no zeroing pass; threads or processes)"; }
    @Override public Map<String, String> options() { return ringOptions(); }
    @Override public void validate(TransportOptions o) { validateRing(this, o); }
    @Override public Capabilities capabilities() { return new Capabilities(true, true, true); }
    @Override public Capabilities capabilities(TransportOptions o) { return ringCapabilities(this, o); }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) {
      return SpillTransport.wrap(name(), SeqRingTransport.create(cfg.withDir(o.directory(name(), DIR, cfg.dir()))), o);
    }
    @Override public ExampleProducer attachProducer(String address, TransportOptions o) {
      return SpillTransport.attach(name(), SeqRingTransport.attachProducer(Path.of(address), TransportConfig.backoff()), address, o);
    }
  }

  /** disruptor: LMAX single-producer rings of pre-allocated slots (threads). */
  public static final class Disruptor implements TransportProvider {
    @Override public String name() { return "disruptor"; }
    @Override public String description() { return "LMAX Disruptor single-producer rings of pre-allocated slots (threads)"; }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) { return new DisruptorTransport(cfg); }
  }

  /** chronicle: a Chronicle Queue per shard (memory-mapped files, no ring bound). */
  public static final class Chronicle implements TransportProvider {
    @Override public String name() { return "chronicle"; }
    @Override public String description() { return "a Chronicle Queue per shard (memory-mapped files; never full; threads)"; }
    @Override public Map<String, String> options() {
      return opts(DIR, "directory of the queues (default /dev/shm)", KEEP, "true: keep the queues after the run, for replay (default false)");
    }
    @Override public void validate(TransportOptions o) {
      TransportProvider.super.validate(o);
      o.directory(name(), DIR, null);
      o.bool(name(), KEEP, false);
    }
    @Override public int maxRecordBytes(int ringBytes) { return Integer.MAX_VALUE / 2; }
    @Override public Capabilities capabilities() { return new Capabilities(false, false, true); }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) {
      return new ChronicleTransport(cfg.withDir(o.directory(name(), DIR, cfg.dir())).withKeepFiles(o.bool(name(), KEEP, cfg.keepFiles())));
    }
  }

  /** mutex: the DeepVariant-shaped baseline, one locked buffer per shard (threads). */
  public static final class Mutex implements TransportProvider {
    @Override public String name() { return "mutex"; }
    @Override public String description() { return "DeepVariant-shaped baseline: a lock and two conditions per shard buffer (threads)"; }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) { return new MutexTransport(cfg); }
  }

  /** disk: the classic path, TFRecord files written whole, then read. */
  public static final class Disk implements TransportProvider {
    @Override public String name() { return "disk"; }
    @Override public String description() { return "classic: each shard writes a TFRecord file, read once the shard has ended (threads)"; }
    @Override public Map<String, String> options() {
      return opts(DIR, "directory of the files (default /dev/shm; bench-transport: java.io.tmpdir)",
          GZIP, "false: plain .tfrecord instead of .tfrecord.gz (default true)",
          KEEP, "true: keep the files after the run (default false)");
    }
    @Override public void validate(TransportOptions o) {
      TransportProvider.super.validate(o);
      o.directory(name(), DIR, null);
      o.bool(name(), GZIP, true);
      o.bool(name(), KEEP, false);
    }
    @Override public int maxRecordBytes(int ringBytes) { return Integer.MAX_VALUE / 2; }
    @Override public Capabilities capabilities() { return new Capabilities(false, false, false); }
    @Override public ExampleTransport create(TransportConfig cfg, TransportOptions o) {
      return new DiskTransport(cfg.withDir(o.directory(name(), DIR, cfg.dir())).withGzip(o.bool(name(), GZIP, cfg.gzip()))
          .withKeepFiles(o.bool(name(), KEEP, cfg.keepFiles())));
    }
  }
}
