package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OptionRange;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.SubcommandLauncher;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.makeexamples.MakeExamplesOptions;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.postprocess.VcfProvenance;
import dev.fastpipe.streaming.report.RunSampler;
import java.nio.file.Path;
import java.time.Duration;

/** What {@link StreamingCall} is asked to run. Public fields, filled by the CLI or by tests. */
public final class CallSettings {
  /** Inputs, regions, shard count and make_examples thresholds; task is set per shard. */
  public MakeExamplesOptions examples = new MakeExamplesOptions();
  public Path output;
  /** Also write a gVCF here (bgzipped, tabix-indexed) in the same pass; null: none. */
  public Path gvcf;
  public String transport = DEFAULT_TRANSPORT;
  /** The transport's own options ({@code --transport-opt key=value}), validated by its provider. */
  public TransportOptions transportOptions = TransportOptions.NONE;
  public int ringBytes = TransportConfig.DEFAULT_RING_BYTES;
  public int batchSize = DEFAULT_BATCH_SIZE;
  public int consumers = DEFAULT_CONSUMERS;

  /**
   * The defaults of {@code call}'s options live in this class, as its fields' initial values: the
   * CLI's default provider reads them from a fresh instance, so none is written twice.
   */
  public static final String DEFAULT_TRANSPORT = "shm";
  /** {@code --batch-size}'s default (a multiple of the model's fixed chunk). */
  public static final int DEFAULT_BATCH_SIZE = 64;
  /** {@code --consumers}' default. */
  public static final int DEFAULT_CONSUMERS = 1;
  /** TensorFlow threads the model was loaded with (0: TensorFlow decides), for the metrics' settings. */
  public int intraOpThreads;
  public int interOpThreads;
  public Path metrics;
  /** The model directory, declared as an input ({@link #files}); null: not known here. */
  public Path modelDir;
  /** The HTML run report ({@code --report}), or null. */
  public Path report;
  /**
   * Serve live metrics in Prometheus text format on 127.0.0.1 at this port ({@code --metrics-port};
   * 0: any free port, named on stderr), or null: none.
   */
  public Integer metricsPort;
  /** The address the metrics endpoint listens on ({@code --metrics-bind}); null: 127.0.0.1, this machine only. */
  public String metricsBind;
  /** How long the endpoint serves the final figures after the run ({@code --metrics-linger}); zero: it closes at once. */
  public Duration metricsLinger = Duration.ZERO;
  /** How often the run's live figures are sampled for {@link #metrics}, {@link #report} and {@link #metricsPort}. */
  public Duration metricsInterval = DEFAULT_METRICS_INTERVAL;

  /** {@code --metrics-interval}'s default. */
  public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofMillis(200);
  /**
   * The sample name written in the VCF; null: the sample called ({@code examples.sample}, else the
   * reads' only one).
   */
  public String sample;
  public boolean progress = true;
  /** The command line as typed, for the VCF header's {@code ##fastpipe_command}; null: not recorded. */
  public String commandLine;
  public double minQual = GenotypeCombiner.DEFAULT_MIN_QUAL;
  public int minHomRefGq = GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ;
  /** The model's GQ calibration and PASS thresholds ({@code calibration.json}); identity: none. */
  public GqCalibration calibration = GqCalibration.IDENTITY;
  /** Partition size chosen automatically from the regions and shard count ({@link dev.fastpipe.streaming.makeexamples.RunPlan#autoPartitionSize}). */
  public boolean autoPartitionSize = true;
  /** Image channels of the model (6, or 7 with insert size); the loaded model must agree. */
  public int channels = 6;
  /**
   * Extra JVM flags for shard worker processes; null = automatic ({@link ShardProcesses#autoJavaOpts});
   * FASTPIPE_WORKER_JAVA_OPTS overrides.
   */
  public String workerJavaOpts;
  /** How shard worker processes are started (the CLI's entry point); needed with the shm transport. */
  public SubcommandLauncher launcher;
  /** A shard process whose heartbeat stands still this long stops the run (zero: never; shm only). */
  public Duration shardTimeout = ShardProcesses.DEFAULT_SHARD_TIMEOUT;
  /**
   * How long a partial batch may wait for more examples while the rings are dry before it is
   * classified, padded to a whole chunk ({@link CallVariantsConsumers#DEFAULT_MAX_BATCH_WAIT}; zero:
   * as soon as the rings run dry).
   */
  public Duration maxBatchWait = CallVariantsConsumers.DEFAULT_MAX_BATCH_WAIT;
  /**
   * Keep a resume journal beside the output ({@link CallJournal}: the plan's identity and, durably,
   * the finished prefix of the regions), so that a killed run can be resumed; false: {@code --no-journal}.
   */
  public boolean journal = true;
  /** Continue the interrupted run recorded in the journal ({@code --resume}); needs {@link #journal}. */
  public boolean resume;
  /** At most one journal checkpoint (two or three fsyncs) per this interval; zero: at every partition boundary. */
  public Duration journalInterval = DEFAULT_JOURNAL_INTERVAL;

  /** {@code --journal-interval}'s default. */
  public static final Duration DEFAULT_JOURNAL_INTERVAL = Duration.ofSeconds(2);

  /**
   * Checks what can be checked before opening a file, once: every setting's range (one line naming
   * the option and the value), then the run's files ({@link #files}). Throws InputException naming
   * the setting; returns the checked files, whose inputs the run rechecks before publishing.
   */
  RunFiles validate() {
    MakeExamplesOptions ex = examples;
    ex.channels = channels;
    ex.task = 0;
    ex.gvcf = gvcf != null;
    try {
      ex.validate();
    } catch (IllegalArgumentException e) {
      throw new InputException(e.getMessage());
    }
    OptionRange.atLeast("--consumers", consumers, 1);
    OptionRange.atLeast("--batch-size", batchSize, 1);
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
    // Every output location, before any work: a bad one is found in a second, not after the run;
    // and none of them may be an input or another output.
    return files();
  }

  /** The run's inputs and outputs, checked ({@link RunFiles.Builder#check}). */
  RunFiles files() {
    return CallJournal.declare(examples.declareFiles(RunFiles.builder().modelDirectory("--model", modelDir))
        .indexedOutput("--output", outputForm() == VcfCallWriter.Form.BGZF ? output : null)
        .output("--output", outputForm() == VcfCallWriter.Form.PLAIN ? output : null)
        .indexedOutput("--gvcf", gvcf)
        .output("--metrics", metrics)
        .output("--report", report), journal ? output : null, gvcf)
        .check();
  }

  /** What {@link #output} names: a bgzipped and indexed VCF, a plain one, or standard output. */
  public VcfCallWriter.Form outputForm() {
    return VcfCallWriter.Form.of(output);
  }

  /** What the VCF and gVCF headers record: version, date, model (name, checksum), command line, reference. */
  VcfProvenance provenance() {
    return VcfProvenance.of(modelDir, commandLine, examples.reference);
  }

  /** True when the run's live figures are wanted: for the metrics JSON, the report or the endpoint. */
  boolean sampled() {
    return metrics != null || report != null || metricsPort != null;
  }
}
