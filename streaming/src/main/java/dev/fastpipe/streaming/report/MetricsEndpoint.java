package dev.fastpipe.streaming.report;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.BindException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * {@code call --metrics-port N}: the run's live figures in Prometheus text format at
 * {@code http://127.0.0.1:N/metrics} while it runs (the maintained Prometheus Java client, its own
 * registry, nothing global). Every scrape reads the newest sample the {@link RunSampler} published
 * ({@link #publish}), so a scrape costs the run nothing and sees figures at most one sampling
 * interval old; before the first sample, the metrics have no values yet.
 *
 * <p>Counters ({@code _total}): examples made and called, sites written, per shard examples made,
 * producer stall seconds and CPU seconds, per consumer idle seconds, per stage CPU seconds. Gauges:
 * partitions done and in total, per shard ring fill and capacity in bytes, seconds since the start.
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** Where it listens: this machine only. */
  public static final String HOST = "127.0.0.1";

  private final HTTPServer server;
  private volatile RunSnapshot latest;

  private MetricsEndpoint(HTTPServer server, PrometheusRegistry registry) {
    this.server = server;
    register(registry);
  }

  /**
   * Listens on {@link #HOST}:{@code port} (0: a free port, see {@link #port()}) before the run
   * does any work; a port in use or not allowed is an {@link InputException} naming the option.
   */
  public static MetricsEndpoint start(int port) {
    if (port < 0 || port > 65535) throw new InputException("--metrics-port " + port + ": not a port (0 to 65535)");
    PrometheusRegistry registry = new PrometheusRegistry();
    try {
      HTTPServer server = HTTPServer.builder().hostname(HOST).port(port).registry(registry).buildAndStart();
      return new MetricsEndpoint(server, registry);
    } catch (BindException e) {
      throw new InputException("--metrics-port " + port + ": cannot listen on " + HOST + ":" + port + " ("
          + RootCause.of(e) + "; is another run or program using it?)", e);
    } catch (IOException e) {
      throw new InputException("--metrics-port " + port + ": cannot listen on " + HOST + ":" + port + " ("
          + RootCause.of(e) + ")", e);
    }
  }

  /** The port it listens on. */
  public int port() {
    return server.getPort();
  }

  /** The address to scrape. */
  public String url() {
    return "http://" + HOST + ":" + port() + "/metrics";
  }

  /** The figures the next scrape shows. */
  public void publish(RunSnapshot s) {
    latest = s;
  }

  private void register(PrometheusRegistry r) {
    gauge(r, "fastpipe_run_seconds", "Seconds since the run started (at the newest sample)", s -> s.nanos() / 1e9);
    counter(r, "fastpipe_examples_made", "Examples the make_examples shards have written", RunSnapshot::examplesMade);
    counter(r, "fastpipe_examples_called", "Examples call_variants has classified", RunSnapshot::examplesCalled);
    counter(r, "fastpipe_sites_written", "VCF records written", RunSnapshot::sitesWritten);
    gauge(r, "fastpipe_partitions_done", "Partitions every example of which has been called", RunSnapshot::partitionsDone);
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
    RunSnapshot s = latest;
    if (s != null) action.accept(s);
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
