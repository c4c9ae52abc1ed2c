package dev.fastpipe.streaming.report;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import dev.fastpipe.streaming.FastpipeVersion;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.BindException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * {@code call --metrics-port N}: the run's live figures in Prometheus text format at
 * {@code http://ADDR:N/metrics} ({@code --metrics-bind ADDR}, default 127.0.0.1) while it runs,
 * and after it for {@code --metrics-linger} (the maintained Prometheus Java client, its own
 * registry, nothing global). Every scrape reads the newest sample the {@link RunSampler} published
 * ({@link #publish}), so a scrape costs the run nothing and sees figures at most one sampling
 * interval old; before the first sample, the counters read 0 (never an empty page).
 *
 * <p>{@code fastpipe_build_info{version,model,sample}} 1. Counters ({@code _total}): examples made
 * (every example the shards made: CNN images and small-model calls) and called, sites written,
 * partitions done, per shard examples made, producer stall seconds and CPU seconds, per consumer
 * idle seconds, per stage CPU seconds. Gauges: partitions in total, per shard ring fill and
 * capacity in bytes, seconds since the start, {@code fastpipe_run_finished} (0 while the run
 * lasts, 1 after) and {@code fastpipe_run_failed}. The JVM's and the process's own metrics
 * ({@code jvm_*}, {@code process_*}) come from the client's JVM instrumentation.
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** Where it listens by default: this machine only ({@code --metrics-bind} widens it). */
  public static final String HOST = "127.0.0.1";

  /** What the counters read before the first sample: zeros, no shards yet. */
  private static final RunSnapshot NOTHING_YET =
      new RunSnapshot(0, 0, 0, 0, 0, 0, List.of(), new long[0], new long[RunSnapshot.STAGES.size()]);

  /**
   * The HTTP server's logger: a scraper that gives up mid-answer (its timeout, on a loaded node)
   * would otherwise print a SEVERE stack trace into the run's stderr; the scraper sees the failed
   * scrape itself. Held here so that the setting stays (JUL keeps loggers weakly).
   */
  private static final java.util.logging.Logger SERVER_LOG = quiet("io.prometheus.metrics.exporter.httpserver");

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
    log.setLevel(java.util.logging.Level.OFF);
    return log;
  }

  private final HTTPServer server;
  private final String host;
  private volatile RunSnapshot latest = NOTHING_YET;
  private volatile String model = "";
  private volatile String sample = "";
  private volatile int finished; // 1 once the run has ended
  private volatile int failed; // 1 when it failed

  private MetricsEndpoint(HTTPServer server, String host, PrometheusRegistry registry) {
    this.server = server;
    this.host = host;
    register(registry);
    JvmMetrics.builder().register(registry); // jvm_* and process_*, the client's own instrumentation
  }

  /**
   * Listens on {@link #HOST}:{@code port} (0: a free port, see {@link #port()}) before the run
   * does any work; a port in use or not allowed is an {@link InputException} naming the option.
   */
  public static MetricsEndpoint start(int port) {
    return start(HOST, port);
  }

  /**
   * Listens on {@code host}:{@code port} ({@code --metrics-bind}: an address of this machine, e.g.
   * 0.0.0.0 for every interface, so that a central Prometheus can scrape it).
   */
  public static MetricsEndpoint start(String host, int port) {
    if (port < 0 || port > 65535) throw new InputException("--metrics-port " + port + ": not a port (0 to 65535)");
    try {
      java.net.InetAddress.getByName(host);
    } catch (java.net.UnknownHostException | SecurityException e) {
      throw new InputException("--metrics-bind " + host + ": not an address of this machine (" + RootCause.of(e) + ")", e);
    }
    PrometheusRegistry registry = new PrometheusRegistry();
    try {
      HTTPServer server = HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
      return new MetricsEndpoint(server, host, registry);
    } catch (BindException e) {
      throw new InputException("--metrics-port " + port + ": cannot listen on " + host + ":" + port + " ("
          + RootCause.of(e) + "; is another run or program using it?)", e);
    } catch (IOException e) {
      throw new InputException("--metrics-port " + port + ": cannot listen on " + host + ":" + port + " ("
          + RootCause.of(e) + ")", e);
    }
  }

  /** The build_info labels known once the run has resolved them: the model's name and the sample. */
  public void describe(String modelName, String sampleName) {
    if (modelName != null) model = modelName;
    if (sampleName != null) sample = sampleName;
  }

  /** The run has ended ({@code ok}: it succeeded); the figures stay as they are. */
  public void finished(boolean ok) {
    failed = ok ? 0 : 1;
    finished = 1;
  }

  /** The port it listens on. */
  public int port() {
    return server.getPort();
  }

  /** The address to scrape. */
  public String url() {
    String h = host.contains(":") ? "[" + host + "]" : host; // an IPv6 address
    return "http://" + h + ":" + port() + "/metrics";
  }

  /** The figures the next scrape shows. */
  public void publish(RunSnapshot s) {
    latest = s;
  }

  private void register(PrometheusRegistry r) {
    GaugeWithCallback.builder().name("fastpipe_build_info").help("fastpipe's version, the model and the sample of the run")
        .labelNames("version", "model", "sample")
        .callback(cb -> cb.call(1, FastpipeVersion.get(), model, sample)).register(r);
    GaugeWithCallback.builder().name("fastpipe_run_finished").help("1 once the run has ended (its final figures), else 0")
        .callback(cb -> cb.call(finished)).register(r);
    GaugeWithCallback.builder().name("fastpipe_run_failed").help("1 when the run ended in a failure, else 0")
        .callback(cb -> cb.call(failed)).register(r);
    gauge(r, "fastpipe_run_seconds", "Seconds since the run started (at the newest sample)", s -> s.nanos() / 1e9);
    counter(r, "fastpipe_examples_made", "Examples the make_examples shards have made: CNN images and small-model calls",
        RunSnapshot::examplesMade);
    counter(r, "fastpipe_examples_called", "Examples call_variants has classified", RunSnapshot::examplesCalled);
    counter(r, "fastpipe_sites_written", "VCF records written", RunSnapshot::sitesWritten);
    counter(r, "fastpipe_partitions_done", "Partitions every example of which has been called", RunSnapshot::partitionsDone);
    gauge(r, "fastpipe_partitions", "Partitions in the run", RunSnapshot::partitions);
    perShard(r, true, "fastpipe_shard_examples_made", "Examples each shard has written", sh -> sh.examplesMade());
    perShard(r, false, "fastpipe_ring_fill_bytes", "Bytes waiting in each shard's ring", sh -> sh.fillBytes());
    perShard(r, false, "fastpipe_ring_capacity_bytes", "Capacity of each shard's ring (0: unbounded)",
        sh -> sh.capacityBytes() == Long.MAX_VALUE ? 0 : sh.capacityBytes());
    perShard(r, true, "fastpipe_producer_stall_seconds", "Seconds each shard waited on a full ring",
        sh -> sh.producerStallNanos() / 1e9);
    perShard(r, true, "fastpipe_shard_cpu_seconds", "CPU seconds each shard (process or thread) has used",
        sh -> sh.cpuNanos() / 1e9);
    CounterWithCallback.builder().name("fastpipe_consumer_idle_seconds")
        .help("Seconds each call_variants consumer found all of its rings empty").labelNames("consumer")
        .callback(cb -> withLatest(s -> {
          for (int c = 0; c < s.consumers(); c++) cb.call(s.consumerIdleNanos(c) / 1e9, Integer.toString(c));
        })).register(r);
    CounterWithCallback.builder().name("fastpipe_cpu_seconds")
        .help("CPU seconds per stage: make_examples (shards), call_variants (TensorFlow, consumers, JVM), postprocess")
        .labelNames("stage")
        .callback(cb -> withLatest(s -> {
          List<String> stages = RunSnapshot.STAGES;
          for (int i = 0; i < stages.size(); i++) cb.call(s.stageCpuNanos(i) / 1e9, stages.get(i));
        })).register(r);
  }

  private void withLatest(Consumer<RunSnapshot> action) {
    action.accept(latest);
  }

  private void counter(PrometheusRegistry r, String name, String help, ToDoubleFunction<RunSnapshot> f) {
    CounterWithCallback.builder().name(name).help(help)
        .callback(cb -> withLatest(s -> cb.call(f.applyAsDouble(s)))).register(r);
  }

  private void gauge(PrometheusRegistry r, String name, String help, ToDoubleFunction<RunSnapshot> f) {
    GaugeWithCallback.builder().name(name).help(help)
        .callback(cb -> withLatest(s -> cb.call(f.applyAsDouble(s)))).register(r);
  }

  private void perShard(PrometheusRegistry r, boolean counter, String name, String help,
      ToDoubleFunction<RunSnapshot.Shard> f) {
    if (counter) {
      CounterWithCallback.builder().name(name).help(help).labelNames("shard")
          .callback(cb -> withLatest(s -> {
            for (int i = 0; i < s.shards().size(); i++) cb.call(f.applyAsDouble(s.shards().get(i)), Integer.toString(i));
          })).register(r);
    } else {
      GaugeWithCallback.builder().name(name).help(help).labelNames("shard")
          .callback(cb -> withLatest(s -> {
            for (int i = 0; i < s.shards().size(); i++) cb.call(f.applyAsDouble(s.shards().get(i)), Integer.toString(i));
          })).register(r);
    }
  }

  /** Stops listening. */
  @Override
  public void close() {
    server.close();
  }
}
