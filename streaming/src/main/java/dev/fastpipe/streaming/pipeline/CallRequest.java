package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OptionRange;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.SubcommandLauncher;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.Planner;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.postprocess.VcfProvenance;
import dev.fastpipe.streaming.report.RunSampler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * What {@link StreamingCall} is asked to run: immutable, made by {@link Builder#build}, which holds
 * the defaults of {@code call}'s options and checks every setting once.
 */
public record CallRequest(ExampleSettings examples, Outputs outputs, Transport transport, Inference inference,
    Postprocess postprocess, Observability observability, Journal journal, Workers workers, String commandLine) {

  /** {@code --transport}'s default. */
  public static final String DEFAULT_TRANSPORT = "shm";
  /** {@code --batch-size}'s default (a multiple of the model's fixed chunk). */
  public static final int DEFAULT_BATCH_SIZE = 64;
  /** {@code --consumers}' default. */
  public static final int DEFAULT_CONSUMERS = 1;
  /** {@code --metrics-interval}'s default. */
  public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofMillis(200);
  /** {@code --journal-interval}'s default. */
  public static final Duration DEFAULT_JOURNAL_INTERVAL = Duration.ofSeconds(2);

  /**
   * {@code --batch-size}, checked: 1 to {@link GenotypeModel#MAX_BATCH_SIZE}, the message saying why
   * there is a top (a batch's images are held in memory).
   */
  public static int checkedBatchSize(int batchSize) {
    OptionRange.atLeast("--batch-size", batchSize, 1);
    int max = GenotypeModel.MAX_BATCH_SIZE;
    if (batchSize > max) {
      throw new InputException(String.format(Locale.ROOT, "--batch-size %d: must be %d or less (a batch holds its images in"
          + " memory: %d images of %dx%dx7 float32 take %.1f GiB, per consumer)", batchSize, max, max, GenotypeModel.HEIGHT,
          GenotypeModel.WIDTH, GenotypeModel.largestBatchBytes(max) / (double) (1L << 30)));
    }
    return batchSize;
  }

  /** The VCF; also a gVCF (bgzipped, tabix-indexed) in the same pass, the metrics JSON and the HTML report, each or null. */
  public record Outputs(Path vcf, Path gvcf, Path metrics, Path report) {}

  /** The transport by name, its own options ({@code --transport-opt}, checked by its provider) and the ring capacity per shard. */
  public record Transport(String name, TransportOptions options, int ringBytes) {}

  /**
   * call_variants: the model directory (declared as an input; null: not known here), consumer
   * threads, the batch size, TensorFlow's threads (0: TensorFlow decides), and how long a partial
   * batch may wait for more examples while the rings are dry before it is classified, padded to a
   * whole chunk (zero: as soon as they run dry).
   */
  public record Inference(Path modelDir, int consumers, int batchSize, int intraOpThreads, int interOpThreads,
      Duration maxBatchWait) {}

  /**
   * The VCF's records: LowQual below {@code minQual}, hom-ref GQ, the model's GQ calibration and PASS
   * thresholds (identity: none), and the sample name written (null: the sample called).
   */
  public record Postprocess(double minQual, int minHomRefGq, GqCalibration calibration, String sample) {}

  /**
   * The progress line, and the live metrics: a Prometheus endpoint at {@code metricsPort} (0: any
   * free port; null: none) on {@code metricsBind} (null: 127.0.0.1), serving the final figures
   * {@code metricsLinger} after the run; the figures sampled every {@code metricsInterval}.
   */
  public record Observability(boolean progress, Integer metricsPort, String metricsBind, Duration metricsLinger,
      Duration metricsInterval) {}

  /**
   * The resume journal beside the output ({@link CallJournal}; {@code enabled} false:
   * {@code --no-journal}), whether to continue the interrupted run it records, and at most one
   * checkpoint per {@code interval} (zero: at every partition boundary).
   */
  public record Journal(boolean enabled, boolean resume, Duration interval) {}

  /**
   * The shards: extra JVM flags of worker processes (null: automatic,
   * {@link dev.fastpipe.streaming.plan.WorkerJvm#autoJavaOpts}; FASTPIPE_WORKER_JAVA_OPTS overrides), how they are started
   * (the CLI's entry point; needed with shm), how long a silent one may stay silent (zero: never),
   * and whether the partition size is chosen from the regions and shard count.
   */
  public record Workers(String javaOpts, SubcommandLauncher launcher, Duration shardTimeout, boolean autoPartitionSize) {}

  /** The VCF ({@link Outputs#vcf}). */
  public Path output() {
    return outputs.vcf();
  }

  /** What the VCF is: a bgzipped and indexed VCF, a plain one, or standard output. */
  public VcfCallWriter.Form outputForm() {
    return VcfCallWriter.Form.of(outputs.vcf());
  }

  /**
   * The run's inputs and outputs, checked ({@link RunFiles.Builder#check}): every output location,
   * before any work, so that a bad one is found in a second, not after the run; and none of them
   * may be an input or another output. The run rechecks the inputs before publishing.
   */
  RunFiles files() {
    return CallJournal.declare(examples.declareFiles(RunFiles.builder().modelDirectory("--model", inference.modelDir()))
        .indexedOutput("--output", outputForm() == VcfCallWriter.Form.BGZF ? outputs.vcf() : null)
        .output("--output", outputForm() == VcfCallWriter.Form.PLAIN ? outputs.vcf() : null)
        .indexedOutput("--gvcf", outputs.gvcf())
        .output("--metrics", outputs.metrics())
        .output("--report", outputs.report()), journal.enabled() ? outputs.vcf() : null, outputs.gvcf())
        .check();
  }

  /**
   * What a run of this request refuses before any work, checked without the run: its files (as
   * {@link #files}) and its plan (inputs, regions, the reads against the reference:
   * {@link Planner#forCall}). bench and tune check every configuration so before their first run.
   * Throws InputException.
   */
  public void checkBeforeRun() {
    files();
    Planner.forCall(examples, !workers.autoPartitionSize(), postprocess.sample(), workers.javaOpts(), -1, 0);
  }

  /** What the VCF and gVCF headers record: version, date, model (name, checksum), command line, reference. */
  VcfProvenance provenance() {
    return VcfProvenance.of(inference.modelDir(), commandLine, examples.inputs().reference());
  }

  /** True when the run's live figures are wanted: for the metrics JSON, the report or the endpoint. */
  boolean sampled() {
    return outputs.metrics() != null || outputs.report() != null || observability.metricsPort() != null;
  }

  /** A new builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A request being filled, by the CLI or a test. Its initial values are the defaults of
   * {@code call}'s options, written only here (the CLI's default provider reads them from a fresh
   * builder); {@link #build} checks every setting.
   */
  public static final class Builder {
    private final ExampleSettings.Builder examples = ExampleSettings.builder();
    private Path output;
    private Path gvcf;
    private Path metrics;
    private Path report;
    private String transport = DEFAULT_TRANSPORT;
    private TransportOptions transportOptions = TransportOptions.NONE;
    private int ringBytes = TransportConfig.DEFAULT_RING_BYTES;
    private Path modelDir;
    private int consumers = DEFAULT_CONSUMERS;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int intraOpThreads;
    private int interOpThreads;
    private Duration maxBatchWait = CallVariantsConsumers.DEFAULT_MAX_BATCH_WAIT;
    private double minQual = GenotypeCombiner.DEFAULT_MIN_QUAL;
    private int minHomRefGq = GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ;
    private GqCalibration calibration = GqCalibration.IDENTITY;
    private String sample;
    private boolean progress = true;
    private Integer metricsPort;
    private String metricsBind;
    private Duration metricsLinger = Duration.ZERO;
    private Duration metricsInterval = DEFAULT_METRICS_INTERVAL;
    private boolean journal = true;
    private boolean resume;
    private Duration journalInterval = DEFAULT_JOURNAL_INTERVAL;
    private String workerJavaOpts;
    private SubcommandLauncher launcher;
    private Duration shardTimeout = ShardProcesses.DEFAULT_SHARD_TIMEOUT;
    private boolean autoPartitionSize = true;
    private String commandLine;

    private Builder() {}

    /** The make_examples settings, filled in place; their task is 0 and their gVCF blocks follow {@link #gvcf}. */
    public ExampleSettings.Builder examples() { return examples; }

    public Builder output(Path v) { output = v; return this; }
    public Builder gvcf(Path v) { gvcf = v; return this; }
    public Builder metrics(Path v) { metrics = v; return this; }
    public Builder report(Path v) { report = v; return this; }
    public Builder transport(String v) { transport = v; return this; }
    public Builder transportOptions(TransportOptions v) { transportOptions = v; return this; }
    public Builder ringBytes(int v) { ringBytes = v; return this; }
    public Builder modelDir(Path v) { modelDir = v; return this; }
    public Builder consumers(int v) { consumers = v; return this; }
    public Builder batchSize(int v) { batchSize = v; return this; }
    public Builder intraOpThreads(int v) { intraOpThreads = v; return this; }
    public Builder interOpThreads(int v) { interOpThreads = v; return this; }
    public Builder maxBatchWait(Duration v) { maxBatchWait = v; return this; }
    /** The model's image channels (6, or 7 with insert size): the examples are drawn with them. */
    public Builder channels(int v) { examples.channels(v); return this; }
    public Builder minQual(double v) { minQual = v; return this; }
    public Builder minHomRefGq(int v) { minHomRefGq = v; return this; }
    public Builder calibration(GqCalibration v) { calibration = v; return this; }
    public Builder sample(String v) { sample = v; return this; }
    public Builder progress(boolean v) { progress = v; return this; }
    public Builder metricsPort(Integer v) { metricsPort = v; return this; }
    public Builder metricsBind(String v) { metricsBind = v; return this; }
    public Builder metricsLinger(Duration v) { metricsLinger = v; return this; }
    public Builder metricsInterval(Duration v) { metricsInterval = v; return this; }
    public Builder journal(boolean v) { journal = v; return this; }
    public Builder resume(boolean v) { resume = v; return this; }
    public Builder journalInterval(Duration v) { journalInterval = v; return this; }
    public Builder workerJavaOpts(String v) { workerJavaOpts = v; return this; }
    public Builder launcher(SubcommandLauncher v) { launcher = v; return this; }
    public Builder shardTimeout(Duration v) { shardTimeout = v; return this; }
    public Builder autoPartitionSize(boolean v) { autoPartitionSize = v; return this; }
    public Builder commandLine(String v) { commandLine = v; return this; }

    // The defaults the CLI shows (read from a fresh builder).
    public String transport() { return transport; }
    public int ringBytes() { return ringBytes; }
    public int consumers() { return consumers; }
    public int batchSize() { return batchSize; }
    public double minQual() { return minQual; }
    public Duration metricsLinger() { return metricsLinger; }
    public Duration metricsInterval() { return metricsInterval; }
    public Duration shardTimeout() { return shardTimeout; }
    public Duration maxBatchWait() { return maxBatchWait; }
    public Duration journalInterval() { return journalInterval; }

    /**
     * The request, every setting checked once, before a file is opened: each range (one line
     * naming the option and the value); throws InputException. The files are checked by the run
     * ({@link CallRequest#files}).
     */
    public CallRequest build() {
      ExampleSettings ex = examples.task(0).gvcf(gvcf != null).build();
      OptionRange.atLeast("--consumers", consumers, 1);
      checkedBatchSize(batchSize);
      OptionRange.atLeast("--ring-size", ringBytes, 1024);
      OptionRange.atLeast("--intra-op-threads", intraOpThreads, 0);
      OptionRange.atLeast("--inter-op-threads", interOpThreads, 0);
      OptionRange.finiteAtLeast("--min-qual", minQual, 0);
      OptionRange.between("--min-homref-gq", minHomRefGq, 0, 99);
      SampleNames.requireVcfName("--sample", sample);
      if (metricsPort != null) OptionRange.between("--metrics-port", metricsPort, 0, 65535);
      if (metricsPort == null && metricsBind != null) throw new InputException("--metrics-bind " + metricsBind + ": needs --metrics-port");
      if (metricsLinger == null || metricsLinger.isNegative()) throw new InputException("--metrics-linger must be 0 or more");
      if (metricsPort == null && !metricsLinger.isZero()) throw new InputException("--metrics-linger needs --metrics-port");
      if (maxBatchWait == null || maxBatchWait.isNegative()) {
        throw new InputException("--max-batch-wait must be 0 or more, got " + maxBatchWait);
      }
      if (resume && !journal) throw new InputException("--resume continues a run from its journal: it cannot go with --no-journal");
      if (journalInterval == null || journalInterval.isNegative()) {
        throw new InputException("--journal-interval must be 0 or more, got " + journalInterval);
      }
      if (shardTimeout == null || shardTimeout.isNegative()) {
        throw new InputException("--shard-timeout must be 0 or more, got " + shardTimeout);
      }
      if (output == null) throw new InputException("--output is required");
      VcfCallWriter.Form.of(output); // .vcf.gz, .vcf or - (stdout)
      if (gvcf != null) VcfCallWriter.checkGvcfName(gvcf);
      if (metricsInterval.compareTo(RunSampler.MIN_INTERVAL) < 0 || metricsInterval.compareTo(RunSampler.MAX_INTERVAL) > 0) {
        throw new InputException("--metrics-interval " + metricsInterval.toMillis() + "ms: must be between "
            + RunSampler.MIN_INTERVAL.toMillis() + "ms and " + RunSampler.MAX_INTERVAL.toSeconds() + "s");
      }
      return new CallRequest(ex, new Outputs(output, gvcf, metrics, report),
          new Transport(transport, transportOptions, ringBytes),
          new Inference(modelDir, consumers, batchSize, intraOpThreads, interOpThreads, maxBatchWait),
          new Postprocess(minQual, minHomRefGq, calibration, sample),
          new Observability(progress, metricsPort, metricsBind, metricsLinger, metricsInterval),
          new Journal(journal, resume, journalInterval),
          new Workers(workerJavaOpts, launcher, shardTimeout, autoPartitionSize), commandLine);
    }
  }
}
