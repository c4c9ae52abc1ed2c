package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.report.RunSeries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one {@code fastpipe call} run did, written as JSON by {@code --metrics}: per-stage wall and
 * CPU seconds, examples made and called, examples/s, per ring its capacity, mean and max fill,
 * producer stall and consumer idle time and the stalled producer's CPU, per call_variants consumer
 * the wall and CPU time of its waits, per process ({@link ProcessFootprint}) its role, the
 * allocator mapped into it, its MALLOC_CONF, peak RSS, page faults and CPU seconds; and, when the
 * run was sampled, its time series ({@link RunSeries}).
 */
public final class RunMetrics {

  /** One stage's cost. CPU seconds are summed over its threads or processes. */
  public record Stage(String name, double wallSeconds, double cpuSeconds) {}

  /** Fill samples and final counters of one shard's ring. */
  public static final class RingSamples {
    final int shard;
    long capacity;
    long maxFill;
    double fillSum;
    long samples;
    TransportStats last;

    RingSamples(int shard) {
      this.shard = shard;
    }

    void add(TransportStats s) {
      capacity = s.capacityBytes();
      maxFill = Math.max(maxFill, Math.max(s.fillBytes(), s.maxFillBytes()));
      fillSum += s.fillBytes();
      samples++;
      last = s;
    }
  }

  /** Records each shard spilled to disk segments ({@code --transport-opt spill-after}); null when spilling is off. */
  public long[] spilledRecords;

  public final Map<String, Object> settings = new LinkedHashMap<>();
  public final List<Stage> stages = new ArrayList<>();
  private final List<RingSamples> rings = new ArrayList<>();
  /** The run's processes at their end: the parent first, then shard processes in shard order. */
  public final List<ProcessFootprint> processes = new ArrayList<>();
  /** What each call_variants consumer's waits for examples cost (in-process consumers). */
  public final List<CallVariantsConsumers.Wait> consumerWaits = new ArrayList<>();
  public long examplesMade;
  /** Results handed to the postprocess: CNN examples plus small-model calls. */
  public long examplesCalled;
  /** Bi-allelic candidates the small model called in make_examples (no image, no CNN). */
  public long smallModelCalls;
  /** Model batches run, and the padding images in them (partial batches run whole fixed-shape chunks). */
  public long batches;
  public long paddingImages;
  public long sitesWritten;
  /** The make_examples realigner's counters, summed over the shards. */
  public RealignTotals realignment = RealignTotals.NONE;
  /** gVCF records written (sites and blocks) and blocks among them; -1 without a gVCF. */
  public long gvcfRecords = -1;
  public long gvcfBlocks = -1;
  public double wallSeconds;
  /** Null: the run succeeded; else why it failed (the figures are then as far as it got). */
  public String failure;
  /** Whether the run kept a resume journal; the regions' bases, those an interrupted run had finished (resumed). */
  public boolean journal;
  public long basesTotal;
  public long basesResumed;
  /** The wall seconds the interrupted run(s) had spent on what was resumed: the time the resume saved. */
  public double secondsResumed;
  /** Journal checkpoints written, and the seconds they took (syncs included). */
  public long checkpoints;
  public double journalSeconds;
  /** The run's live figures over time, or null when it was not sampled. */
  public RunSeries series;
  /** The most sites the ordered release held at once, waiting for the partitions before them. */
  private long maxPendingSites;

  /** Notes how many sites wait in the ordered release now. */
  public synchronized void samplePendingSites(long sites) {
    maxPendingSites = Math.max(maxPendingSites, sites);
  }

  public synchronized void sampleRings(List<TransportStats> stats) {
    while (rings.size() < stats.size()) rings.add(new RingSamples(rings.size()));
    for (int i = 0; i < stats.size(); i++) if (stats.get(i) != null) rings.get(i).add(stats.get(i));
  }

  public synchronized String toJson() {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"status\": ").append(failure == null ? "\"ok\"" : "\"failed\"").append(",\n");
    if (failure != null) b.append("  \"error\": ").append(q(failure.replaceAll("\\p{Cntrl}", " "))).append(",\n");
    b.append("  \"settings\": {");
    int i = 0;
    for (var e : settings.entrySet()) {
      b.append(i++ == 0 ? "" : ", ").append(q(e.getKey())).append(": ").append(value(e.getValue()));
    }
    b.append("},\n");
    b.append("  \"wall_seconds\": ").append(num(wallSeconds)).append(",\n");
    b.append("  \"examples_made\": ").append(examplesMade).append(",\n");
    b.append("  \"examples_called\": ").append(examplesCalled).append(",\n");
    b.append("  \"small_model_calls\": ").append(smallModelCalls).append(",\n");
    b.append("  \"cnn_examples\": ").append(examplesCalled - smallModelCalls).append(",\n");
    b.append("  \"examples_per_second\": ").append(num(wallSeconds > 0 ? examplesCalled / wallSeconds : 0)).append(",\n");
    b.append("  \"sites_written\": ").append(sitesWritten).append(",\n");
    if (gvcfRecords >= 0) {
      b.append("  \"gvcf_records\": ").append(gvcfRecords).append(",\n");
      b.append("  \"gvcf_blocks\": ").append(gvcfBlocks).append(",\n");
    }
    b.append("  \"realignment\": {\"windows_realigned\": ").append(realignment.windows())
        .append(", \"windows_fallen_back\": ").append(realignment.fallbacks())
        .append(", \"reads_realigned\": ").append(realignment.reads())
        .append(", \"realigner_seconds\": ").append(num(realignment.seconds())).append("},\n");
    if (journal) {
      b.append("  \"resume\": {\"resumed\": ").append(basesResumed > 0)
          .append(", \"bases_total\": ").append(basesTotal)
          .append(", \"bases_resumed\": ").append(basesResumed)
          .append(", \"share_resumed\": ").append(num(basesTotal > 0 ? (double) basesResumed / basesTotal : 0))
          .append(", \"seconds_saved\": ").append(num(secondsResumed))
          .append(", \"checkpoints\": ").append(checkpoints)
          .append(", \"journal_seconds\": ").append(num(journalSeconds)).append("},\n");
    }
    b.append("  \"batches\": ").append(batches).append(",\n");
    b.append("  \"padding_images\": ").append(paddingImages).append(",\n");
    b.append("  \"max_pending_sites\": ").append(maxPendingSites).append(",\n");
    // Peak resident set (VmHWM, MiB) of this process and of each shard process (none for threads):
    // the processes' footprints below, in MiB.
    double parent = -1;
    StringBuilder shards = new StringBuilder();
    for (ProcessFootprint f : processes) {
      double mib = f.peakRssBytes() < 0 ? -1 : f.peakRssBytes() / (1024.0 * 1024.0);
      if (f.role().equals(ProcessFootprint.INFERENCE)) parent = mib;
      else shards.append(shards.length() == 0 ? "" : ", ").append(num(mib));
    }
    b.append("  \"peak_rss_mb\": {\"parent\": ").append(num(parent)).append(", \"shards\": [").append(shards)
        .append("]},\n");
    b.append("  \"stages\": [");
    for (int s = 0; s < stages.size(); s++) {
      Stage st = stages.get(s);
      b.append(s == 0 ? "\n" : ",\n").append("    {\"name\": ").append(q(st.name()))
          .append(", \"wall_seconds\": ").append(num(st.wallSeconds()))
          .append(", \"cpu_seconds\": ").append(num(st.cpuSeconds())).append("}");
    }
    b.append("\n  ],\n  \"rings\": [");
    for (int r = 0; r < rings.size(); r++) {
      RingSamples rs = rings.get(r);
      TransportStats last = rs.last;
      b.append(r == 0 ? "\n" : ",\n").append("    {\"shard\": ").append(rs.shard)
          .append(", \"capacity_bytes\": ").append(rs.capacity)
          .append(", \"mean_fill_bytes\": ").append(num(rs.samples == 0 ? 0 : rs.fillSum / rs.samples))
          .append(", \"max_fill_bytes\": ").append(rs.maxFill)
          .append(", \"records_committed\": ").append(last == null ? 0 : last.recordsCommitted())
          .append(", \"records_consumed\": ").append(last == null ? 0 : last.recordsConsumed())
          .append(", \"producer_stall_ms\": ").append(num(last == null ? 0 : last.producerStallNanos() / 1e6))
          .append(", \"consumer_idle_ms\": ").append(num(last == null ? 0 : last.consumerIdleNanos() / 1e6))
          .append(", \"producer_stall_cpu_ms\": ")
          .append(last == null || last.producerStallCpuNanos() < 0 ? "null" : num(last.producerStallCpuNanos() / 1e6));
      if (spilledRecords != null && rs.shard < spilledRecords.length) b.append(", \"spilled_records\": ").append(spilledRecords[rs.shard]);
      b.append("}");
    }
    // What waiting cost: a consumer's wall time with nothing to read and its thread's CPU meanwhile.
    b.append("\n  ],\n  \"consumers\": [");
    for (int c = 0; c < consumerWaits.size(); c++) {
      CallVariantsConsumers.Wait w = consumerWaits.get(c);
      b.append(c == 0 ? "\n" : ",\n").append("    {\"consumer\": ").append(w.consumer())
          .append(", \"wait_ms\": ").append(num(w.waitNanos() / 1e6))
          .append(", \"wait_cpu_ms\": ").append(w.waitCpuNanos() < 0 ? "null" : num(w.waitCpuNanos() / 1e6))
          .append(", \"wait_cpu_pct_of_core\": ").append(Double.isNaN(w.cpuPctOfCore()) ? "null" : num(w.cpuPctOfCore()))
          .append("}");
    }
    b.append("\n  ],\n  \"processes\": [");
    for (int p = 0; p < processes.size(); p++) {
      ProcessFootprint f = processes.get(p);
      b.append(p == 0 ? "\n" : ",\n").append("    {\"role\": ").append(q(f.role()))
          .append(f.shard() >= 0 ? ", \"shard\": " + f.shard() : "")
          .append(", \"pid\": ").append(f.pid())
          .append(", \"allocator\": ").append(q(f.allocator()))
          .append(", \"malloc_conf\": ").append(q(f.mallocConf()))
          .append(", \"peak_rss_bytes\": ").append(f.peakRssBytes())
          .append(", \"minor_faults\": ").append(f.minorFaults())
          .append(", \"major_faults\": ").append(f.majorFaults())
          .append(", \"cpu_seconds\": ").append(num(f.cpuSeconds())).append("}");
    }
    b.append("\n  ]");
    if (series != null) b.append(",\n  \"series\": ").append(series.toJson("  "));
    b.append("\n}\n");
    return b.toString();
  }

  /** Writes the JSON under a temporary name, then renames it into place. */
  public void write(Path path) throws IOException {
    OutputFiles.writeString(path, ".json", toJson(), "metrics");
  }

  /** Writes the JSON under a temporary name, staged in {@code tx}: it appears with the run's other outputs. */
  public void stage(OutputFiles.Transaction tx, Path path) throws IOException {
    tx.writeString(path, ".json", toJson(), "metrics");
  }

  private static String value(Object v) {
    if (v instanceof Number n) return n instanceof Double || n instanceof Float ? num(n.doubleValue()) : n.toString();
    if (v instanceof Boolean bo) return bo.toString();
    return q(String.valueOf(v));
  }

  private static String num(double d) {
    return String.format(Locale.ROOT, "%.3f", d);
  }

  private static String q(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
