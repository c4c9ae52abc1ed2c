package dev.fastpipe.streaming.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.report.RunSeries;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The {@code call --metrics} file ({@link RunMetrics#toJson}) as a typed record: written by
 * Jackson ({@link JsonCodec}, fields in this order, snake_case) and read back by bench and tune
 * with {@link #read}, so that a figure is a record's component, not a string key. Figures are
 * rounded to 3 decimals; an optional part (the error, the gVCF counts, the resume journal's
 * figures, the series) is left out when it does not apply.
 *
 * @param status {@code ok} or {@code failed}
 * @param series the run's time series ({@link RunSeries}), or null
 */
public record MetricsFile(String status, @JsonInclude(JsonInclude.Include.NON_NULL) String error,
    Map<String, Object> settings, double wallSeconds, long examplesMade, long examplesCalled, long smallModelCalls,
    long cnnExamples, double examplesPerSecond, long sitesWritten,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long gvcfRecords,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long gvcfBlocks,
    Realignment realignment, @JsonInclude(JsonInclude.Include.NON_NULL) Resume resume, long batches,
    long paddingImages, long maxPendingSites, PeakRss peakRssMb, List<RunMetrics.Stage> stages, List<Ring> rings,
    List<ConsumerWait> consumers, List<Process> processes,
    @JsonInclude(JsonInclude.Include.NON_NULL) RunSeries.Columns series) {

  public MetricsFile {
    settings = settings == null ? Map.of() : settings;
    stages = stages == null ? List.of() : stages;
    rings = rings == null ? List.of() : rings;
    consumers = consumers == null ? List.of() : consumers;
    processes = processes == null ? List.of() : processes;
  }

  /** The realigner's counters summed over the shards ({@link RealignTotals}). */
  public record Realignment(long windowsRealigned, long windowsFallenBack, long readsRealigned, double realignerSeconds) {}

  /** What a resume journal saved: bases done before, their share, and what the checkpoints cost. */
  public record Resume(boolean resumed, long basesTotal, long basesResumed, double shareResumed, double secondsSaved,
      long checkpoints, double journalSeconds) {}

  /** Peak resident set in MiB: the parent's, and each shard process's (none for threads); -1: not known. */
  public record PeakRss(double parent, List<Double> shards) {}

  /**
   * One shard's ring: capacity, mean and max fill, records through it, producer stall and consumer
   * idle time, the stalled producer's CPU (null: not known), records spilled (left out: no spilling).
   */
  public record Ring(int shard, long capacityBytes, double meanFillBytes, long maxFillBytes, long recordsCommitted,
      long recordsConsumed, double producerStallMs, double consumerIdleMs, Double producerStallCpuMs,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long spilledRecords) {}

  /** What one call_variants consumer's waits cost ({@link CallVariantsConsumers.Wait}); null: not known. */
  public record ConsumerWait(int consumer, double waitMs, Double waitCpuMs, Double waitCpuPctOfCore) {}

  /** One process of the run ({@link ProcessFootprint}); shard left out for the parent. */
  public record Process(String role, @JsonInclude(JsonInclude.Include.NON_NULL) Integer shard, long pid,
      String allocator, String mallocConf, long peakRssBytes, long minorFaults, long majorFaults, double cpuSeconds) {}

  /** The stage called {@code name}, or null. */
  public RunMetrics.Stage stage(String name) {
    return stages.stream().filter(s -> name.equals(s.name())).findFirst().orElse(null);
  }

  /** The processes of role {@code role} ({@link ProcessFootprint#INFERENCE}, {@link ProcessFootprint#SHARD}). */
  public List<Process> processes(String role) {
    return processes.stream().filter(p -> role.equals(p.role())).toList();
  }

  /** The file as written: indented JSON ending in a newline. */
  public String toJson() {
    return JsonCodec.pretty(this);
  }

  /**
   * A metrics file's text; fields this build does not know (a later version's) are passed over.
   * IllegalArgumentException with the reason where it is not one.
   */
  public static MetricsFile parse(String json) {
    MetricsFile m;
    try {
      m = JsonCodec.read(JsonCodec.LENIENT, json, MetricsFile.class);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a metrics file: " + e.getMessage(), e);
    }
    if (m == null) throw new IllegalArgumentException("not a metrics file: it is empty");
    return m;
  }

  /** {@code d} to 3 decimals, as the file keeps figures. */
  static double round3(double d) {
    return Double.isFinite(d) ? Math.round(d * 1000) / 1000.0 : d;
  }
}
