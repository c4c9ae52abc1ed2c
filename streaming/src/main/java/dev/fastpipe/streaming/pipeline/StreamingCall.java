package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.shm.Transports;
import dev.fastpipe.streaming.makeexamples.ReadErrorSample;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.plan.CallPlan;
import dev.fastpipe.streaming.plan.Planner;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.GvcfAssembler;
import dev.fastpipe.streaming.postprocess.SiteAssembler;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.postprocess.VcfProvenance;
import htsjdk.samtools.SAMSequenceDictionary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code fastpipe call}: BAM/CRAM + FASTA to VCF in one streaming pass. This class only wires the
 * parts together, each of which has one job:
 * <ol>
 *   <li>{@link Planner}: the {@link RunPlan} (partitions and their shards, computed once, handed to every
 *       shard), the sample, each partition's work and the workers' JVM flags, resolved once;
 *   <li>{@link Shards}: the make_examples shards (processes for {@code shm}, threads otherwise),
 *       writing examples into the transport;
 *   <li>{@link CallVariantsConsumers}: consumer threads classifying examples as they arrive;
 *   <li>{@link OrderedRelease}: sites written in reference order as soon as every partition
 *       before them is done;
 *   <li>{@link RunMetrics} and {@link ProgressReporter}; {@link RunObservation} (the sampled time
 *       series, the HTML report, the live metrics endpoint), which only reads.
 * </ol>
 * Nothing but the VCF reaches the disk (except with {@code --transport disk}, the classic
 * baseline, whose files are removed). Errors are domain exceptions
 * ({@link dev.fastpipe.streaming.InputException}, {@link ShardFailedException}).
 */
public final class StreamingCall {

  /** What a run did. */
  public record Summary(long examples, long sites, long pass, long refCall, long lowQual, double seconds,
      RunMetrics metrics) {}

  /** Example records allow alleles this long (on top of the image). */
  static final int ALLELE_BYTES_ALLOWANCE = 16 * 1024;

  /** How often the run's watch loop samples rings and looks for failed shards. */
  static final long WATCH_MILLIS = 100;

  private StreamingCall() {}

  /**
   * Runs the pipeline. The model is loaded by {@code modelLoader} while the shards start (it is
   * closed at the end); its channel count must equal {@code s.examples().image().channels()}.
   */
  public static Summary run(CallRequest s, Supplier<GenotypeModel> modelLoader, PrintStream err) {
    return run(s, modelLoader, err, null);
  }

  /** Told after each journal checkpoint; a test stops the run here as a kill would. */
  interface CheckpointHook {
    void written(int checkpoints, CallJournal.Checkpoint c);
  }

  static Summary run(CallRequest s, Supplier<GenotypeModel> modelLoader, PrintStream err, CheckpointHook hook) {
    return run(s, modelLoader, err, hook, CallJournal.FILES);
  }

  static Summary run(CallRequest s, Supplier<GenotypeModel> modelLoader, PrintStream err, CheckpointHook hook,
      CallJournal.ChannelOpener journalFiles) {
    long t0 = System.nanoTime();
    RunFiles files = s.files(); // every output location and input, before any work
    try (RunObservation observation = RunObservation.open(s, err); // a metrics port in use: before any work
        OutputFiles.Transaction outputs = new OutputFiles.Transaction();
        // the lock before anything is read or written: a second run of this output stops here
        CallJournal journal = s.journal().enabled() ? CallJournal.open(s.output(), journalFiles, err) : null) {
      Summary done;
      try {
        done = run(s, modelLoader, err, t0, observation, files, outputs, journal, hook);
      } catch (RuntimeException | Error e) {
        outputs.close(); // staged outputs (the partial files among them) dropped first: the journal looks for them
        if (journal != null) journal.afterFailure(e);
        observation.writeFailure(e, (System.nanoTime() - t0) / 1e9); // --metrics and --report, marked failed
        observation.linger(false);
        throw e;
      }
      observation.linger(true); // the outputs are published: the endpoint may serve the final figures a while
      return done;
    }
  }

  /**
   * The run proper. Every output (VCF, gVCF, their indexes, metrics, report) is written complete
   * under its temporary name and staged in {@code outputs}; they are renamed into place together
   * at the end, once the inputs are found unchanged, or not at all.
   */
  private static Summary run(CallRequest s, Supplier<GenotypeModel> modelLoader, PrintStream err, long t0,
      RunObservation observation, RunFiles files, OutputFiles.Transaction outputs, CallJournal journal,
      CheckpointHook hook) {
    CallJournal.Checkpoint from = null; // the interrupted run's last checkpoint that holds, or null: from the start
    if (journal != null) {
      CallJournal.Resume resume = journal.start(PlanIdentity.of(s, files), s.journal().resume(), s.outputs().gvcf());
      resume.notes().forEach(n -> err.println("fastpipe: " + n));
      from = resume.from();
    }
    CallPlan planned = Planner.forCall(s.examples(), !s.workers().autoPartitionSize(), s.postprocess().sample(),
        s.workers().javaOpts(), from == null ? -1 : from.contig(), from == null ? 0 : from.position());
    planned.notes().forEach(n -> err.println("fastpipe: " + n));
    RunPlan plan = planned.run();
    SAMSequenceDictionary dict = planned.dictionary();
    String sample = planned.sample();
    double[] work = planned.work();
    String workerOpts = planned.workerJavaOpts();
    observation.sample(sample);
    int shards = plan.shards();
    RunMetrics metrics = metricsOf(s, plan, workerOpts);
    observation.attach(metrics);

    long basesBefore = from == null ? 0 : from.basesDone();
    long totalBases = basesBefore + plan.bases();
    if (from != null) resuming(s, from, plan, dict, err);
    metrics.journal = journal != null;
    metrics.basesTotal = totalBases;
    metrics.basesResumed = basesBefore;
    metrics.secondsResumed = from == null ? 0 : from.elapsedSeconds();

    ExampleTransport transport = openTransport(s, plan);
    VcfProvenance provenance = s.provenance();
    VcfCallWriter writer;
    VcfCallWriter gvcfWriter;
    try {
      writer = openWriter(s, s.output(), false, journal, from == null ? -1 : from.vcf().to(), dict, sample, provenance);
    } catch (RuntimeException e) {
      transport.close();
      throw e;
    }
    try {
      gvcfWriter = s.outputs().gvcf() == null ? null
          : openWriter(s, s.outputs().gvcf(), true, journal, from == null ? -1 : from.gvcf().to(), dict, sample, provenance);
    } catch (RuntimeException e) {
      writer.abort();
      transport.close();
      throw e;
    }
    OrderedRelease release = new OrderedRelease(plan,
        new SiteAssembler(new GenotypeCombiner(s.postprocess().minQual(), s.postprocess().minHomRefGq(), planned.haploid(), s.postprocess().calibration())), writer, new PartitionFrontier(work), gvcfWriter,
        from == null || from.gvcfState() == null ? GvcfAssembler.State.START : from.gvcfState());
    if (journal != null) {
      if (from == null) { // the header, so that every later checkpoint's bytes follow on from a checked start
        try {
          journal.append(new CallJournal.Checkpoint(-1, 0, 0, totalBases, 0, writer.sync(),
              gvcfWriter == null ? null : gvcfWriter.sync(), gvcfWriter == null ? null : GvcfAssembler.State.START));
        } catch (RuntimeException e) {
          writer.abort();
          if (gvcfWriter != null) gvcfWriter.abort();
          transport.close();
          throw e;
        }
      }
      release.onBoundary(new Checkpoints(journal, plan, writer, gvcfWriter, basesBefore, totalBases,
          metrics.secondsResumed, t0, s.journal().interval(), metrics, hook));
    }
    Shards shardSet = Shards.forTransport(transport, s.workers().launcher(), workerOpts, s.workers().shardTimeout());
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread onSignal = abortOnSignal(failure, shardSet, writer, gvcfWriter, outputs, journal);
    Runtime.getRuntime().addShutdownHook(onSignal);
    RunProbe probe = new RunProbe(t0, transport, shardSet, release, writer, Math.min(s.inference().consumers(), shards));
    GenotypeModel model = null;
    boolean ok = false;
    CallVariantsConsumers consumers = null;
    try {
      long producersStart = System.nanoTime();
      shardSet.start(plan, transport);
      observation.start(probe);
      observation.mark("shards start", producersStart);
      model = modelLoader.get(); // loads while the shards start up
      if (model.channels() != plan.settings().image().channels()) {
        throw new InputException(model.describe() + " takes " + model.channels() + "-channel images but the examples have "
            + plan.settings().image().channels() + " channels");
      }
      metrics.settings.put("model", model.describe());
      model.warmUp(); // TensorFlow's first-run cost, while the shards are still starting

      // Measured while the shards start: the first reads of the file, whatever the regions, so every
      // scatter job and resume of the sample fits the same rates.
      ReadErrors errors = ReadErrorSample.measure(plan.settings(), ReadErrorSample.READS);
      StrandArtifactRate artifacts = errors.strandArtifacts();
      // three significant digits (a Double would be rounded to three decimals, and the rate can be 1e-7)
      metrics.settings.put("strand_artifact_rate", new java.math.BigDecimal(artifacts.rate(), new java.math.MathContext(3)));
      metrics.settings.put("strand_artifact_columns", artifacts.columns());
      metrics.settings.put("indel_error_rates", errors.indels().describe());
      metrics.settings.put("base_error_rates", errors.bases().describe());

      long consumersStart = System.nanoTime();
      observation.mark("call_variants starts", consumersStart);
      consumers = new CallVariantsConsumers(transport, shards, s.inference().consumers(), model, errors, s.inference().batchSize(), s.inference().maxBatchWait(), release,
          () -> failure.get() != null, e -> failure.compareAndSet(null, e));
      probe.consumers(consumers);
      CallVariantsConsumers running = consumers;
      try (ProgressReporter progress =
          new ProgressReporter(err, release.frontier(), running::examplesCalled, s.observability().progress())) {
        watch(consumers, shardSet, transport, metrics, failure, release);
      }
      ShardFailedException f = shardSet.await(30, TimeUnit.SECONDS);
      if (f != null) throw f;
      long consumersEnd = System.nanoTime();
      ShardReport.Totals made = ShardReport.Totals.of(shardSet.reports(), shards);
      if (made.readsSeen() >= 0) plan.requireReadsSeen(made.readsSeen());

      release.finish();
      metrics.sampleRings(stats(transport, shards));
      if (transport instanceof dev.fastpipe.shm.SpillTransport spill) {
        metrics.spilledRecords = java.util.stream.IntStream.range(0, shards).mapToLong(spill::spilled).toArray();
      }
      writer.stage(outputs);
      if (gvcfWriter != null) gvcfWriter.stage(outputs);

      metrics.wallSeconds = (System.nanoTime() - t0) / 1e9;
      counted(metrics, consumers, writer, gvcfWriter, made);
      double producerCpu = made.cpuSeconds();
      // This process runs the consumers, TensorFlow and the postprocess (and, with threads, the shards).
      double consumerSideCpu = Math.max(0, processCpuSeconds() - (shardSet.inProcesses() ? 0 : producerCpu));
      long producersEnd = shardSet.endNanos() != 0 ? shardSet.endNanos() : consumersEnd;
      observation.mark("make_examples ends", producersEnd);
      metrics.stages.add(new RunMetrics.Stage("make_examples", (producersEnd - producersStart) / 1e9, producerCpu));
      metrics.stages.add(new RunMetrics.Stage("call_variants", (consumersEnd - consumersStart) / 1e9, consumerSideCpu));
      metrics.stages.add(new RunMetrics.Stage("postprocess", release.seconds(), release.seconds()));
      metrics.series = observation.finish();
      metrics.processes.add(ProcessFootprint.self(ProcessFootprint.INFERENCE, -1));
      shardSet.reports().stream().map(ShardReport::footprint).filter(java.util.Objects::nonNull)
          .forEach(metrics.processes::add);
      if (s.outputs().metrics() != null) metrics.stage(outputs, s.outputs().metrics());
      observation.writeReport(metrics, writer, metrics.series, outputs);
      files.requireInputsUnchanged(); // a reference or reads rewritten under the run: publish nothing
      outputs.commit(); // all of them, or none
      ok = true;
      if (journal != null) journal.finished();
      return new Summary(consumers.examplesCalled(), writer.written(), writer.pass(), writer.refCall(),
          writer.lowQual(), metrics.wallSeconds, metrics);
    } catch (ShardFailedException e) {
      if (e.getCause() instanceof InputException bad) throw bad; // a shard found bad input: say what
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted");
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    } finally {
      failure.compareAndSet(null, new CancellationException("the run stopped"));
      if (consumers != null) consumers.join(); // they stop at once on the failure set above
      observation.stopSampling(); // no more samples of what is about to be closed
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running already
      }
      shardSet.close();
      transport.close();
      if (!ok) {
        asFarAsItGot(metrics, writer, consumers, shardSet, shards);
        writer.abort();
        if (gvcfWriter != null) gvcfWriter.abort();
      }
      if (model != null) model.close();
    }
  }

  /** The run's metrics, opened with the settings it runs under. */
  private static RunMetrics metricsOf(CallRequest s, RunPlan plan, String workerOpts) {
    RunMetrics metrics = new RunMetrics();
    metrics.settings.put("transport", s.transport().name());
    if (!s.transport().options().isEmpty()) metrics.settings.put("transportOptions", s.transport().options().toString());
    metrics.settings.put("shards", plan.shards());
    metrics.settings.put("consumers", s.inference().consumers());
    metrics.settings.put("cores", Runtime.getRuntime().availableProcessors());
    metrics.settings.put("intra_op_threads", s.inference().intraOpThreads());
    metrics.settings.put("inter_op_threads", s.inference().interOpThreads());
    metrics.settings.put("batch_size", s.inference().batchSize());
    metrics.settings.put("ring_bytes", s.transport().ringBytes());
    metrics.settings.put("partitions", plan.partitions());
    metrics.settings.put("worker_java_opts", workerOpts);
    metrics.settings.put("small_model", s.examples().inputs().smallModel() == null ? "none" : s.examples().inputs().smallModel().toString());
    return metrics;
  }

  /** Checks that the journal's checkpoint {@code from} and the rest of the regions add up, and says where the run resumes. */
  private static void resuming(CallRequest s, CallJournal.Checkpoint from, RunPlan plan, SAMSequenceDictionary dict, PrintStream err) {
    long basesBefore = from.basesDone();
    long totalBases = basesBefore + plan.bases();
    if (totalBases != from.bases()) {
      throw new InputException("--resume " + s.output() + ": the journal's regions hold " + from.bases() + " bases but "
          + basesBefore + " done and " + plan.bases() + " left make " + totalBases + "; run without --resume");
    }
    err.printf("fastpipe: resuming %s from %s:%,d: %.1f %% of the regions' bases were done (%.1f s of work kept)%n",
        s.output(), dict.getSequence(from.contig()).getSequenceName(), from.position() + 1L,
        100.0 * basesBefore / totalBases, from.elapsedSeconds());
  }

  /**
   * The writer of the VCF (or with {@code gvcf} the gVCF) at {@code out}: plain, or with a journal
   * kept beside the output, continuing its partial file from byte {@code resumeAt} (-1: from the start).
   */
  private static VcfCallWriter openWriter(CallRequest s, java.nio.file.Path out, boolean gvcf, CallJournal journal, long resumeAt,
      SAMSequenceDictionary dict, String sample, VcfProvenance provenance) {
    double minQual = s.postprocess().minQual();
    return journal == null ? new VcfCallWriter(out, dict, sample, minQual, gvcf, provenance)
        : VcfCallWriter.journaled(out, CallJournal.partialOf(out), resumeAt, dict, sample, minQual, gvcf, provenance);
  }

  /** What a finished run counted: examples made and called, batches, waits, records written. */
  private static void counted(RunMetrics metrics, CallVariantsConsumers consumers, VcfCallWriter writer, VcfCallWriter gvcfWriter,
      ShardReport.Totals made) {
    metrics.examplesCalled = consumers.examplesCalled();
    metrics.smallModelCalls = consumers.smallCalls();
    metrics.batches = consumers.batches();
    metrics.paddingImages = consumers.paddingImages();
    metrics.consumerWaits.addAll(consumers.waits());
    metrics.sitesWritten = writer.written();
    if (gvcfWriter != null) {
      metrics.gvcfRecords = gvcfWriter.written();
      metrics.gvcfBlocks = gvcfWriter.blocks();
    }
    metrics.examplesMade = made.examples();
    metrics.realignment = made.realignment();
  }

  /**
   * What Ctrl-C or SIGTERM does (a shutdown hook): stop the shards and drop the partial VCF, gVCF and
   * every staged output; the journal stays for --resume once it holds finished work. Ring files
   * have their own hook.
   */
  private static Thread abortOnSignal(AtomicReference<Throwable> failure, Shards shardSet, VcfCallWriter writer,
      VcfCallWriter gvcfWriter, OutputFiles.Transaction outputs, CallJournal journal) {
    return new Thread(() -> {
      failure.compareAndSet(null, new CancellationException("stopped by a signal"));
      shardSet.close();
      writer.abort();
      if (gvcfWriter != null) gvcfWriter.abort();
      outputs.close();
      if (journal != null) journal.afterFailure(null);
    }, "fastpipe-call-abort");
  }

  /** The counts of a run that failed, for its --metrics and --report. */
  private static void asFarAsItGot(RunMetrics m, VcfCallWriter writer, CallVariantsConsumers consumers, Shards shards,
      int shardCount) {
    try {
      m.sitesWritten = writer.written();
      if (consumers != null) {
        m.examplesCalled = consumers.examplesCalled();
        m.smallModelCalls = consumers.smallCalls();
      }
      m.examplesMade = ShardReport.Totals.of(shards.reports(), shardCount).examples();
    } catch (RuntimeException e) {
      // counts of a broken run: what could be read is enough
    }
  }

  /**
   * The journal's checkpoints, at partition boundaries (under the release's lock), at most one per
   * interval: the writers' buffered records synced as complete BGZF blocks, then one journal line.
   */
  private static final class Checkpoints implements OrderedRelease.Boundary {
    private final CallJournal journal;
    private final VcfCallWriter writer;
    private final VcfCallWriter gvcfWriter;
    private final long basesBefore;
    private final long totalBases;
    private final double secondsBefore;
    private final long t0;
    private final long intervalNanos;
    private final RunMetrics metrics;
    private final CheckpointHook hook;
    private final long[] basesUpTo; // bases of the plan's partitions before partition i
    private long lastNanos = Long.MIN_VALUE;

    Checkpoints(CallJournal journal, RunPlan plan, VcfCallWriter writer, VcfCallWriter gvcfWriter, long basesBefore,
        long totalBases, double secondsBefore, long t0, java.time.Duration interval, RunMetrics metrics, CheckpointHook hook) {
      this.journal = journal;
      this.writer = writer;
      this.gvcfWriter = gvcfWriter;
      this.basesBefore = basesBefore;
      this.totalBases = totalBases;
      this.secondsBefore = secondsBefore;
      this.t0 = t0;
      this.intervalNanos = interval.toNanos();
      this.metrics = metrics;
      this.hook = hook;
      basesUpTo = new long[plan.partitions() + 1];
      for (int i = 0; i < plan.partitions(); i++) {
        var p = plan.partition(i);
        basesUpTo[i + 1] = basesUpTo[i] + (p.end() - p.start());
      }
    }

    @Override
    public void reached(int frontier, dev.fastpipe.streaming.plan.Partition next, GvcfAssembler.State gvcf) {
      long now = System.nanoTime();
      if (journal.broken() || (lastNanos != Long.MIN_VALUE && now - lastNanos < intervalNanos)) return;
      lastNanos = now;
      CallJournal.Checkpoint c = new CallJournal.Checkpoint(next.contigIndex(), next.start(), basesBefore + basesUpTo[frontier],
          totalBases, secondsBefore + (now - t0) / 1e9, writer.sync(), gvcfWriter == null ? null : gvcfWriter.sync(),
          gvcfWriter == null ? null : gvcf);
      journal.append(c);
      metrics.checkpoints++;
      metrics.journalSeconds += (System.nanoTime() - now) / 1e9;
      if (hook != null) hook.written((int) metrics.checkpoints, c);
    }
  }

  /** The transport for the plan's shards; for shm, first removes rings of crashed runs. */
  private static ExampleTransport openTransport(CallRequest s, RunPlan plan) {
    // the image, its rows' mate pairs (2 bytes a pair, at most a pair per two rows) and the alleles
    int maxRecord = plan.settings().shape().bytes() + plan.settings().shape().height() + ALLELE_BYTES_ALLOWANCE;
    String runId = TransportConfig.uniqueRunId("call");
    TransportConfig cfg = TransportConfig.of(plan.shards(), maxRecord).withRunId(runId).withRingBytes(s.transport().ringBytes());
    try {
      if (s.transport().name().equals("shm")) ShmTransport.removeStaleRuns(cfg.dir()); // rings of crashed runs
      return Transports.create(s.transport().name(), cfg, s.transport().options());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new InputException(e.getMessage());
    }
  }

  /**
   * Until the consumers are done: samples ring fill for the metrics every {@link #WATCH_MILLIS},
   * and stops everything at the first failure (a shard's or a consumer's), which it rethrows.
   */
  private static void watch(CallVariantsConsumers consumers, Shards shards, ExampleTransport transport,
      RunMetrics metrics, AtomicReference<Throwable> failure, OrderedRelease release) {
    while (consumers.running() && failure.get() == null) {
      metrics.sampleRings(stats(transport, transport.shards()));
      metrics.samplePendingSites(release.pendingSites());
      ShardFailedException f = shards.failure();
      if (f != null) {
        failure.compareAndSet(null, f);
        break;
      }
      shards.allEnded(); // notes when the last shard ended
      try {
        Thread.sleep(WATCH_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure.compareAndSet(null, new CancellationException("interrupted"));
      }
    }
    Throwable t = failure.get();
    if (t != null) {
      consumers.join();
      if (t instanceof RuntimeException re) throw re;
      throw new IllegalStateException(t);
    }
  }

  private static List<TransportStats> stats(ExampleTransport transport, int shards) {
    List<TransportStats> st = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      try {
        st.add(transport.stats(i));
      } catch (RuntimeException e) {
        st.add(null);
      }
    }
    return st;
  }

  private static double processCpuSeconds() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) return sun.getProcessCpuTime() / 1e9;
    return 0;
  }
}
