package dev.fastpipe.cli;

import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import dev.fastpipe.streaming.makeexamples.CandidateFeatures;
import dev.fastpipe.streaming.pipeline.CallRequest;
import dev.fastpipe.streaming.pipeline.StreamingCall;
import dev.fastpipe.streaming.pipeline.ThreadBudget;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import dev.fastpipe.streaming.tune.Knobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fastpipe call}: reads + reference to an indexed VCF in one streaming pass. */
@Command(
    name = "call",
    header = "Call variants: BAM/CRAM + FASTA -> indexed VCF in one streaming pass (no intermediate files).",
    mixinStandardHelpOptions = true,
    usageHelpWidth = 110,
    defaultValueProvider = CallDefaults.class,
    description = {
      "Call germline variants: BAM/CRAM + FASTA -> bgzipped, tabix-indexed VCF, in one streaming pass.",
      "make_examples shards write pileup examples into per-shard rings (shm: one process per shard,",
      "lock-free rings in /dev/shm); call_variants consumers classify them with TensorFlow while the",
      "shards run; sites are written in reference order as soon as every shard has passed them.",
      "No intermediate files (except --transport disk, the classic baseline; its files are removed)."
    })
public final class CallCommand implements Callable<Integer> {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;
  @Mixin ExampleInputOptions input;
  @Mixin ModelOptions modelOptions;

  @Option(names = "--output", required = true, paramLabel = "OUT.vcf.gz",
      description = "The VCF: OUT.vcf.gz (bgzipped, with OUT.vcf.gz.tbi), OUT.vcf (plain, no index), or - (standard"
          + " output, no index; messages stay on stderr). A file appears only when the run succeeds.")
  Path output;

  @Option(names = "--gvcf", paramLabel = "OUT.g.vcf.gz",
      description = "Also write a gVCF (bgzipped, with .tbi) in the same pass: the VCF's sites with <*> added, and"
          + " reference blocks with GQ, MIN_DP and PL for every other base of the regions. Appears only with the VCF.")
  Path gvcf;

  @Option(names = "--shards", paramLabel = "N",
      description = "make_examples shards (default: from the thread budget, the cores less TensorFlow's intra-op"
          + " threads; here ${DEFAULT-VALUE}).")
  int shards = defaultKnobs(ThreadBudget.ofThisMachine(), null).shards();

  @Option(names = "--transport", paramLabel = "NAME",
      description = "shm (processes, /dev/shm rings), disruptor, chronicle, mutex, seqring (threads), disk "
          + "(classic: files, then inference), or a plug-in's name (docs/tools.md); an unknown name lists those"
          + " on the class path. Default ${DEFAULT-VALUE}.")
  String transport;

  @Option(names = "--transport-opt", paramLabel = "KEY=VALUE",
      description = "An option of the transport, checked by it (repeatable), e.g. shm's dir=/dev/shm, disk's gzip=false.")
  java.util.List<String> transportOpts = new java.util.ArrayList<>();

  @Option(names = "--ring-size", paramLabel = "BYTES",
      description = "Ring capacity per shard, e.g. 4M, 16M, 1G (power of two for shm; default ${DEFAULT-VALUE}).")
  String ringSize;

  @Option(names = "--consumers", paramLabel = "M",
      description = "call_variants consumer threads; shards are split among them (default ${DEFAULT-VALUE}).")
  int consumers;

  @Option(names = "--metrics", paramLabel = "run.json",
      description = "Write per-stage wall/CPU seconds, examples/s and per-ring fill, stall and idle figures as JSON.")
  Path metrics;

  @Option(names = "--report", paramLabel = "run.html",
      description = "Write a self-contained HTML page: settings, final figures and charts over time of examples/s"
          + " per stage, ring fill, producer stall, consumer idle and CPU per stage.")
  Path report;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Serve live metrics in Prometheus text format at http://ADDR:PORT/metrics (--metrics-bind) while"
          + " the run lasts (0: any free port, named on stderr).")
  Integer metricsPort;

  @Option(names = "--metrics-bind", paramLabel = "ADDR",
      description = "The address --metrics-port listens on: 127.0.0.1 (default: this machine only), 0.0.0.0 (every"
          + " interface, for a central Prometheus), or one interface's address.")
  String metricsBind;

  @Option(names = "--metrics-linger", paramLabel = "TIME", converter = DurationConverter.class,
      description = "After the run, keep serving its final metrics this long (30s, 2m; plain seconds), so that the"
          + " last scrape sees them (fastpipe_run_finished 1). Default ${DEFAULT-VALUE}: stop at once.")
  Duration metricsLinger;

  @Option(names = "--metrics-interval", paramLabel = "TIME", converter = DurationConverter.class,
      description = "How often --metrics, --report and --metrics-port sample the run: 100ms, 1s (default ${DEFAULT-VALUE}).")
  Duration metricsInterval;

  @Option(names = "--min-qual", paramLabel = "Q",
      description = "Variant calls with QUAL below Q get FILTER LowQual (default ${DEFAULT-VALUE}); with the model's GQ"
          + " calibration, indel calls below QUAL 5 do as well.")
  double minQual;

  @Option(names = "--no-gq-calibration",
      description = "Write the model's own GQ and PLs and no GQ-based LowQual (nor the indel QUAL 5 floor), even when"
          + " the model directory has a GQ calibration (calibration.json: calibrated GQ, per-type PASS thresholds).")
  boolean noGqCalibration;

  @Option(names = "--count-likelihood", paramLabel = "snp=W:E|W:pileup[:V[:Q]],indel=...",
      description = "Stack the allele depths' binomial likelihood (weight W in 0..1, per-read error E) on the network's"
          + " probabilities at bi-allelic sites, instead of what the model's calibration.json says ('none': off);"
          + " snp=W:pileup or indel=W:pileup weighs the example's pileup likelihood instead (each read's error from its"
          + " base and mapping quality; at indels only the reads that span the repeat); W:pileup:V weighs it V instead"
          + " where the sample's reads slip within the GQ map's envelope in every repeat class, W:pileup:V:Q weighs it Q"
          + " where the sample's bases of Q30 and above err at 3 times their promise or more (the shipped model:"
          + " snp=0.5:pileup:0.5:0.85,indel=0.5:pileup:0.85). For fitting a model's"
          + " calibration; with --no-gq-calibration it applies alone.")
  String countLikelihood;

  @Option(names = "--no-small-model",
      description = "Send every candidate to the CNN, even when the model directory has a small model (small_model.json).")
  boolean noSmallModel;

  @Option(names = "--no-progress", description = "No progress line on stderr.")
  boolean noProgress;

  @Option(names = "--shard-timeout", paramLabel = "TIME", converter = DurationConverter.class,
      description = "Stop the run when a shard process sends no heartbeat for this long: 90s, 5m, or seconds;"
          + " 0 = never (shm shards; a shard waiting on a full ring is not silent). Default ${DEFAULT-VALUE}.")
  Duration shardTimeout;

  @Option(names = "--max-batch-wait", paramLabel = "TIME", converter = DurationConverter.class,
      description = "How long a partial batch of CNN examples may wait for more while the rings are dry before it is"
          + " classified padded to a whole chunk of 64 images: 500ms, 2s; 0 = at once. Longer: less padding"
          + " (fewer model runs), sites written later. Default ${DEFAULT-VALUE}.")
  Duration maxBatchWait;

  @Option(names = "--resume",
      description = "Continue the interrupted run of this --output from its journal: the finished partitions are kept,"
          + " the rest is called and appended, and the records equal an uninterrupted run's. Refused (one line naming"
          + " it) when an input, the model or a setting that changes the VCF differs; without a journal it says so and"
          + " starts from the beginning. See docs/call.md, Resume.")
  boolean resume;

  @Option(names = "--no-journal",
      description = "Keep no resume journal (OUT.vcf.gz.fastpipe-journal/ and the partial files beside the outputs),"
          + " so a killed run cannot be resumed.")
  boolean noJournal;

  @Option(names = "--journal-interval", paramLabel = "TIME", converter = DurationConverter.class,
      description = "At most one journal checkpoint (an fsync of the VCF, the gVCF and the journal) per TIME; a kill"
          + " loses at most the work since the last one. 0 = at every partition boundary. Default ${DEFAULT-VALUE}.")
  Duration journalInterval;

  @Override
  public Integer call() {
    CallRequest s = request().build();
    ThreadBudget.oversubscription(shards, s.inference().consumers(), s.inference().intraOpThreads(),
            Runtime.getRuntime().availableProcessors())
        .ifPresent(w -> System.err.println("fastpipe: warning: " + w));
    StreamingCall.Summary r = StreamingCall.run(s, modelOptions::load, System.err);
    {
      System.err.printf("fastpipe call: %d examples, %d sites (PASS %d, RefCall %d, LowQual %d) in %.1f s"
              + " (%.0f examples/s) via %s, %s -> %s%n",
          r.examples(), r.sites(), r.pass(), r.refCall(), r.lowQual(), r.seconds(),
          r.examples() / Math.max(r.seconds(), 1e-9), transport, shardCount(s.examples().sharding().shards()),
          s.outputForm() == dev.fastpipe.streaming.postprocess.VcfCallWriter.Form.STDOUT ? "standard output" : output);
      if (s.examples().inputs().smallModel() != null) {
        long small = r.metrics().smallModelCalls;
        System.err.printf("fastpipe call: small model called %d sites, the CNN %d examples (small model share %.1f %%)%n",
            small, r.examples() - small, 100.0 * small / Math.max(1, r.examples()));
      }
      if (r.metrics().settings.get("strand_artifact_rate") instanceof Number rate) {
        System.err.printf("fastpipe call: strand artifacts %.2g per site, fitted to %,d pileup columns of the first reads%n",
            rate.doubleValue(), r.metrics().settings.get("strand_artifact_columns"));
      }
      if (r.metrics().settings.get("indel_error_rates") instanceof String indels) {
        System.err.println("fastpipe call: indel errors per read: " + indels);
      }
      if (r.metrics().settings.get("base_error_rates") instanceof String bases) {
        System.err.println("fastpipe call: base errors by quality: " + bases);
      }
      if (r.metrics().basesResumed > 0) {
        System.err.printf("fastpipe call: resumed: %.1f %% of the regions' bases came from the interrupted run,"
                + " which had spent %.1f s on them%n",
            100.0 * r.metrics().basesResumed / Math.max(1, r.metrics().basesTotal), r.metrics().secondsResumed);
      }
      if (gvcf != null) {
        System.err.printf("fastpipe call: gVCF %d records (%d reference blocks) -> %s%n", r.metrics().gvcfRecords,
            r.metrics().gvcfBlocks, gvcf);
      }
    }
    return 0;
  }

  /**
   * Checks a call with options {@code args} (and {@code output} as its --output) as the run would
   * before any work, without running it: its command line, settings, files and plan. bench and tune
   * check every configuration so before their first round. What the run would refuse (exit 2) is an
   * InputException with the run's one line ("fastpipe call: ...").
   */
  static void check(List<String> args, Path output) {
    List<String> argv = new ArrayList<>(List.of("call"));
    argv.addAll(args);
    argv.addAll(List.of("--output", output.toString(), "--no-progress"));
    String[] line = argv.toArray(String[]::new);
    try {
      CommandLine call = Main.commandLine().parseArgs(line).subcommand().commandSpec().commandLine();
      ((CallCommand) call.getCommand()).request().build().checkBeforeRun();
    } catch (CommandLine.ParameterException e) {
      throw new InputException(OptionErrors.message(e, line), e);
    } catch (RuntimeException e) {
      if (Main.exitStatus(e) != ExitStatus.BAD_INPUT) throw e;
      throw new InputException("fastpipe call: " + Main.oneLine(e), e);
    }
  }

  /** The request this command line makes, to be built (and so checked) by the caller; throws for a bad option. */
  CallRequest.Builder request() {
    CallRequest.Builder s = CallRequest.builder().launcher(Main.LAUNCHER);
    ThreadBudget budget = ThreadBudget.ofThisMachine();
    modelOptions.defaultThreads(budget.intraOpThreads(), budget.interOpThreads());
    s.intraOpThreads(modelOptions.intraOpThreads()).interOpThreads(modelOptions.interOpThreads());
    input.applyTo(s.examples());
    if (shards < 1) throw new UserError("--shards must be >= 1, got " + shards);
    s.examples().shards(shards);
    s.autoPartitionSize(!input.partitionSizeGiven()).output(output).gvcf(gvcf).transport(transport)
        .transportOptions(TransportOptionsArg.forOne(transport, transportOpts))
        .ringBytes(parseSize("--ring-size", ringSize)).batchSize(modelOptions.batchSize()).channels(modelOptions.channels());
    if (!noSmallModel) {
      Path smallModel = SmallModel.find(modelOptions.modelDir());
      s.examples().smallModel(smallModel);
      if (smallModel != null) SmallModel.load(smallModel, CandidateFeatures.NAMES); // named before any work
    }
    GqCalibration calibration = noGqCalibration ? GqCalibration.IDENTITY
        : GqCalibration.forModel(modelOptions.modelDir()); // checked before any work
    if (countLikelihood != null) calibration = calibration.withCounts(countLikelihood(countLikelihood));
    s.calibration(calibration).consumers(consumers).metrics(metrics).report(report).modelDir(modelOptions.modelDir())
        .metricsPort(metricsPort).metricsBind(metricsBind).metricsLinger(metricsLinger).metricsInterval(metricsInterval);
    ReferenceIndex.dictionary(input.ref); // a missing reference or .fai is named before the outputs are checked
    s.minQual(minQual).progress(!noProgress).commandLine(CommandText.of(spec)).shardTimeout(shardTimeout)
        .maxBatchWait(maxBatchWait);
    // A journal keeps complete BGZF blocks: plain (.vcf) and standard-output runs have none. A gVCF
    // is always bgzipped (CallRequest checks its name, VcfCallWriter.checkGvcfName).
    boolean bgzf = VcfCallWriter.Form.of(output) == VcfCallWriter.Form.BGZF;
    if (resume && !bgzf) {
      throw new InputException("--resume " + output + ": only a .vcf.gz output keeps a resume journal");
    }
    return s.journal(!noJournal && bgzf).resume(resume).journalInterval(journalInterval);
  }

  /**
   * The settings tune sweeps as call runs them when none is given, on a machine with {@code budget}
   * ({@code allocator}: the launcher's, or null when not swept). The options above take their
   * defaults from here.
   */
  static Knobs defaultKnobs(ThreadBudget budget, String allocator) {
    return new Knobs(budget.shards(), CallRequest.DEFAULT_CONSUMERS, CallRequest.DEFAULT_BATCH_SIZE,
        CallDefaults.bytes(TransportConfig.DEFAULT_RING_BYTES), CallRequest.DEFAULT_TRANSPORT, allocator);
  }

  /** "1 shard", "3 shards". */
  static String shardCount(int shards) {
    return shards + (shards == 1 ? " shard" : " shards");
  }

  /** Bytes from "16777216", "16M", "512k" or "1G". */
  static int parseSize(String option, String text) {
    String t = text.trim().toUpperCase();
    long unit = 1;
    if (t.endsWith("IB")) t = t.substring(0, t.length() - 2);
    else if (t.endsWith("B")) t = t.substring(0, t.length() - 1);
    switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
      case 'K' -> unit = 1L << 10;
      case 'M' -> unit = 1L << 20;
      case 'G' -> unit = 1L << 30;
      default -> unit = 1;
    }
    if (unit != 1) t = t.substring(0, t.length() - 1);
    long v;
    try {
      v = Math.multiplyExact(Long.parseLong(t), unit);
    } catch (NumberFormatException e) {
      throw new UserError(option + " " + text + ": expected bytes such as 16777216, 16M or 1G");
    } catch (ArithmeticException overflow) {
      throw new UserError(option + " " + text + ": must be between 1K and 1G");
    }
    if (v < 1024 || v > Integer.MAX_VALUE) {
      throw new UserError(option + " " + text + ": must be between 1K and 1G");
    }
    return (int) v;
  }


  /** {@code --count-likelihood}'s value, or a one-line error naming the option. */
  static dev.fastpipe.streaming.postprocess.AlleleCountLikelihood countLikelihood(String spec) {
    try {
      return dev.fastpipe.streaming.postprocess.AlleleCountLikelihood.parse(spec);
    } catch (IllegalArgumentException e) {
      throw new dev.fastpipe.streaming.InputException("--count-likelihood " + spec + ": " + e.getMessage());
    }
  }
}
