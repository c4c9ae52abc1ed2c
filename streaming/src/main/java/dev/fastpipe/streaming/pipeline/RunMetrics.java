package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.report.RunSeries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
  private static double round3(double d) {
    return MetricsFile.round3(d);
  }

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

  /** The run's figures as the typed record of the {@code --metrics} file. */
  public synchronized MetricsFile toFile() {
    double parent = -1;
    List<Double> shardRss = new ArrayList<>(); // VmHWM in MiB of this process and of each shard process
    for (ProcessFootprint f : processes) {
      double mib = f.peakRssBytes() < 0 ? -1 : round3(f.peakRssBytes() / (1024.0 * 1024.0));
      if (f.role().equals(ProcessFootprint.INFERENCE)) parent = mib;
      else shardRss.add(mib);
    }
    List<MetricsFile.Ring> ringRows = new ArrayList<>();
    for (RingSamples rs : rings) {
      TransportStats last = rs.last;
      ringRows.add(new MetricsFile.Ring(rs.shard, rs.capacity, round3(rs.samples == 0 ? 0 : rs.fillSum / rs.samples),
          rs.maxFill, last == null ? 0 : last.recordsCommitted(), last == null ? 0 : last.recordsConsumed(),
          round3(last == null ? 0 : last.producerStallNanos() / 1e6), round3(last == null ? 0 : last.consumerIdleNanos() / 1e6),
          last == null || last.producerStallCpuNanos() < 0 ? null : round3(last.producerStallCpuNanos() / 1e6),
          spilledRecords != null && rs.shard < spilledRecords.length ? spilledRecords[rs.shard] : null));
    }
    // What waiting cost: a consumer's wall time with nothing to read and its thread's CPU meanwhile.
    List<MetricsFile.ConsumerWait> waits = consumerWaits.stream().map(w -> new MetricsFile.ConsumerWait(w.consumer(),
        round3(w.waitNanos() / 1e6), w.waitCpuNanos() < 0 ? null : round3(w.waitCpuNanos() / 1e6),
        Double.isNaN(w.cpuPctOfCore()) ? null : round3(w.cpuPctOfCore()))).toList();
    List<MetricsFile.Process> procs = processes.stream().map(f -> new MetricsFile.Process(f.role(),
        f.shard() >= 0 ? f.shard() : null, f.pid(), f.allocator(), f.mallocConf(), f.peakRssBytes(), f.minorFaults(),
        f.majorFaults(), round3(f.cpuSeconds()))).toList();
    Map<String, Object> shownSettings = new LinkedHashMap<>();
    settings.forEach((k, v) -> shownSettings.put(k, v instanceof Double || v instanceof Float
        ? (Object) round3(((Number) v).doubleValue()) : v instanceof Number || v instanceof Boolean ? v : String.valueOf(v)));
    return new MetricsFile(failure == null ? "ok" : "failed",
        failure == null ? null : failure.replaceAll("\\p{Cntrl}", " "), shownSettings, round3(wallSeconds), examplesMade,
        examplesCalled, smallModelCalls, examplesCalled - smallModelCalls,
        round3(wallSeconds > 0 ? examplesCalled / wallSeconds : 0), sitesWritten,
        gvcfRecords >= 0 ? gvcfRecords : null, gvcfRecords >= 0 ? gvcfBlocks : null,
        new MetricsFile.Realignment(realignment.windows(), realignment.fallbacks(), realignment.reads(),
            round3(realignment.seconds())),
        !journal ? null : new MetricsFile.Resume(basesResumed > 0, basesTotal, basesResumed,
            round3(basesTotal > 0 ? (double) basesResumed / basesTotal : 0), round3(secondsResumed), checkpoints,
            round3(journalSeconds)),
        batches, paddingImages, maxPendingSites, new MetricsFile.PeakRss(parent, shardRss),
        stages.stream().map(st -> new Stage(st.name(), round3(st.wallSeconds()), round3(st.cpuSeconds()))).toList(),
        ringRows, waits, procs, series == null ? null : series.columns());
  }

  /** The {@code --metrics} file's text ({@link MetricsFile}). */
  public String toJson() {
    return toFile().toJson();
  }

  /** Writes the JSON under a temporary name, then renames it into place. */
  public void write(Path path) throws IOException {
    OutputFiles.writeString(path, ".json", toJson(), "metrics");
  }

  /** Writes the JSON under a temporary name, staged in {@code tx}: it appears with the run's other outputs. */
  public void stage(OutputFiles.Transaction tx, Path path) throws IOException {
    tx.writeString(path, ".json", toJson(), "metrics");
  }
}
