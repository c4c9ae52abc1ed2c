package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.cli.ExampleInputOptions;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.ShmTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportStats;
import dev.fastpipe.shm.Transports;
import dev.fastpipe.streaming.callvariants.ExampleClassifier;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.makeexamples.InputFiles;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesOptions;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.makeexamples.Partition;
import dev.fastpipe.streaming.makeexamples.Region;
import dev.fastpipe.streaming.makeexamples.Regions;
import dev.fastpipe.streaming.postprocess.GenotypeCall;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.SiteAssembler;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import htsjdk.samtools.SAMSequenceDictionary;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.IdleStrategy;

/**
 * {@code fastpipe call}: BAM/CRAM + FASTA to VCF in one streaming pass. make_examples shards
 * (processes for {@code shm}, threads otherwise) write examples into the transport while
 * call_variants consumers classify them and the postprocess writes finished sites in reference
 * order as soon as every partition before them is done. Nothing but the VCF reaches the disk
 * (except with {@code --transport disk}, the classic baseline, whose files are removed).
 */
public final class StreamingCall {

  /** What to run. Public fields, filled by the CLI or by tests. */
  public static final class Settings {
    /** Inputs, regions, shard count and make_examples thresholds; task is set per shard. */
    public MakeExamplesOptions examples = new MakeExamplesOptions();
    public Path output;
    public String transport = "shm";
    public int ringBytes = TransportConfig.DEFAULT_RING_BYTES;
    public int batchSize = 256;
    public int consumers = 1;
    public Path metrics;
    public String sample;
    public boolean progress = true;
    public double minQual = GenotypeCombiner.DEFAULT_MIN_QUAL;
    public int minHomRefGq = GenotypeCombiner.DEFAULT_MIN_HOMREF_GQ;
    /** Partition size chosen automatically from the regions and shard count (see {@link #autoPartitionSize}). */
    public boolean autoPartitionSize = true;
    /** Image channels of the model (6, or 7 with insert size); the loaded model must agree. */
    public int channels = 6;
    /**
     * Extra JVM flags for shard worker processes; null = automatic: C1 only
     * (-XX:TieredStopAtLevel=1) when each shard has under {@link #C1_ONLY_BELOW_READS_PER_SHARD}
     * reads, where C2 compilation costs more CPU than it saves; FASTPIPE_WORKER_JAVA_OPTS overrides.
     */
    public String workerJavaOpts;
    /** Test hook: extra arguments for shard worker processes (e.g. a failure injection). */
    public List<String> workerExtraArgs = List.of();
  }

  /** What a run did. */
  public record Summary(long examples, long sites, long pass, long refCall, long lowQual, double seconds,
      RunMetrics metrics) {}

  /** Shard process arguments carry the ring file; examples records allow alleles this long. */
  static final int ALLELE_BYTES_ALLOWANCE = 16 * 1024;

  /**
   * Below this many reads per shard (about a minute of make_examples), worker JVMs skip C2: on
   * short shards C2 compiles cost more CPU than they save (see {@link Settings#workerJavaOpts}).
   */
  public static final long C1_ONLY_BELOW_READS_PER_SHARD = 5_000_000L;

  private final Settings s;
  private final java.util.function.Supplier<GenotypeModel> modelLoader;
  private GenotypeModel model;
  private final PrintStream err;
  private final RunMetrics metrics = new RunMetrics();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicLong examplesCalled = new AtomicLong();
  private final AtomicLong producerCpuNanos = new AtomicLong();
  private final AtomicLong examplesMadeByThreads = new AtomicLong();
  /** When the last shard finished (0 until then). */
  private final AtomicLong producersEndNanos = new AtomicLong();
  private volatile boolean aborted;

  private PartitionFrontier frontier;
  private int[] partitionContig;
  private int[] partitionStart;
  private SiteAssembler assembler;
  private VcfCallWriter writer;
  private final long[] byFilter = new long[3];
  private long postprocessNanos;

  private StreamingCall(Settings s, java.util.function.Supplier<GenotypeModel> modelLoader, PrintStream err) {
    this.s = s;
    this.modelLoader = modelLoader;
    this.err = err;
  }

  /**
   * Runs the pipeline. The model is loaded by {@code modelLoader} while the shards start (it is
   * closed at the end); its channel count must equal {@code s.channels}.
   */
  public static Summary run(Settings s, java.util.function.Supplier<GenotypeModel> modelLoader, PrintStream err) {
    return new StreamingCall(s, modelLoader, err).run();
  }

  private Summary run() {
    long t0 = System.nanoTime();
    MakeExamplesOptions ex = s.examples;
    checkSettings(ex);

    SAMSequenceDictionary dict;
    List<Region> regions;
    long readsUpperBound;
    try (InputFiles in = new InputFiles(ex.reference, ex.reads)) {
      dict = in.dictionary;
      regions = Regions.resolve(in.dictionary, in.readContigs, ex.regions, ex.regionsBed);
      readsUpperBound = alignedReadsOnContigs(in, regions);
    }
    long regionBases = regions.stream().mapToLong(r -> r.end() - r.start()).sum();
    if (s.autoPartitionSize) ex.partitionSize = autoPartitionSize(regionBases, ex.shards);
    int partitions = planPartitions(regions, ex.partitionSize);
    int shards = Math.min(ex.shards, partitions); // a shard without a partition would only idle
    ex.shards = shards;

    int maxRecord = ex.height * ex.width * ex.channels + ALLELE_BYTES_ALLOWANCE;
    String runId = "call" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
    TransportConfig cfg = TransportConfig.of(shards, maxRecord).withRunId(runId).withRingBytes(s.ringBytes);
    long work = readsUpperBound >= 0 ? readsUpperBound : regionBases / 30 * 150; // bases -> ~30x reads
    String workerOpts = s.workerJavaOpts != null ? s.workerJavaOpts
        : work / shards < C1_ONLY_BELOW_READS_PER_SHARD ? "-XX:TieredStopAtLevel=1" : "";
    metrics.settings.put("transport", s.transport);
    metrics.settings.put("shards", shards);
    metrics.settings.put("consumers", s.consumers);
    metrics.settings.put("batch_size", s.batchSize);
    metrics.settings.put("ring_bytes", s.ringBytes);
    metrics.settings.put("partitions", partitions);
    metrics.settings.put("worker_java_opts", workerOpts);

    assembler = new SiteAssembler(new GenotypeCombiner(s.minQual, s.minHomRefGq));
    ExampleTransport transport;
    try {
      if (s.transport.equals("shm")) ShmTransport.removeStaleRuns(cfg.dir()); // rings of crashed runs
      transport = Transports.create(s.transport, cfg);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new InputException(e.getMessage());
    }
    writer = new VcfCallWriter(s.output, dict, s.sample, s.minQual);
    ShardProcesses processes = new ShardProcesses(workerOpts);
    List<Thread> producerThreads = new ArrayList<>();
    // Ctrl-C or SIGTERM: stop the shards and drop the partial VCF (ring files have their own hook).
    Thread onSignal = new Thread(() -> {
      aborted = true;
      processes.close();
      writer.abort();
    }, "fastpipe-call-abort");
    Runtime.getRuntime().addShutdownHook(onSignal);
    boolean ok = false;
    try (ProgressReporter progress = new ProgressReporter(err, frontier, examplesCalled::get, s.progress)) {
      long producersStart = System.nanoTime();
      if (transport instanceof ShmTransport shm) {
        for (int i = 0; i < shards; i++) processes.start(i, workerArgs(shm, i));
      } else {
        for (int i = 0; i < shards; i++) producerThreads.add(startProducerThread(transport, i));
      }
      // The model loads while the shards start up.
      model = modelLoader.get();
      if (model.channels() != ex.channels) {
        throw new InputException(model.describe() + " takes " + model.channels() + "-channel images but the examples have "
            + ex.channels + " channels");
      }
      metrics.settings.put("model", model.describe());

      long consumersStart = System.nanoTime();
      List<Thread> consumerThreads = startConsumers(transport, shards);
      watch(consumerThreads, transport, shards, processes);
      ShardProcesses.Failure f = processes.awaitAll(30, TimeUnit.SECONDS);
      if (f != null) throw new ShardFailedException(f.message());
      for (Thread t : producerThreads) join(t);
      long consumersEnd = System.nanoTime();

      long pp0 = System.nanoTime();
      writeCalls(assembler.finish());
      postprocessNanos += System.nanoTime() - pp0;
      sampleRings(transport, shards);
      writer.close();
      ok = true;

      metrics.wallSeconds = (System.nanoTime() - t0) / 1e9;
      metrics.examplesCalled = examplesCalled.get();
      metrics.sitesWritten = writer.written();
      boolean inProcesses = !processes.processes().isEmpty();
      double producerCpu = inProcesses ? WorkerStats.sumCpuSeconds(processes) : producerCpuNanos.get() / 1e9;
      metrics.examplesMade = inProcesses ? WorkerStats.sumExamples(processes) : examplesMadeByThreads.get();
      // This process runs the consumers, TensorFlow and the postprocess (and, with threads, the shards).
      double consumerSideCpu = Math.max(0, processCpuSeconds() - (inProcesses ? 0 : producerCpu));
      long producersEnd = producersEndNanos.get() != 0 ? producersEndNanos.get() : consumersEnd;
      metrics.stages.add(new RunMetrics.Stage("make_examples", (producersEnd - producersStart) / 1e9, producerCpu));
      metrics.stages.add(new RunMetrics.Stage("call_variants", (consumersEnd - consumersStart) / 1e9, consumerSideCpu));
      metrics.stages.add(new RunMetrics.Stage("postprocess", postprocessNanos / 1e9, postprocessNanos / 1e9));
      if (s.metrics != null) metrics.write(s.metrics);
      return new Summary(examplesCalled.get(), writer.written(), byFilter[0], byFilter[1], byFilter[2],
          metrics.wallSeconds, metrics);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e.getMessage(), e);
    } finally {
      aborted = !ok;
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running already
      }
      processes.close();
      for (Thread t : producerThreads) t.interrupt();
      transport.close();
      if (!ok) writer.abort();
      if (model != null) model.close();
    }
  }

  private void checkSettings(MakeExamplesOptions ex) {
    ex.channels = s.channels;
    ex.task = 0;
    try {
      ex.validate();
    } catch (IllegalArgumentException e) {
      throw new InputException(e.getMessage());
    }
    if (s.consumers < 1) throw new InputException("--consumers must be >= 1, got " + s.consumers);
    if (s.batchSize < 1) throw new InputException("--batch-size must be >= 1, got " + s.batchSize);
    if (s.output == null || !s.output.getFileName().toString().endsWith(".vcf.gz")) {
      throw new InputException(s.output + ": output must end with .vcf.gz");
    }
    Path outDir = s.output.toAbsolutePath().getParent();
    if (!Files.isDirectory(outDir) || !Files.isWritable(outDir)) {
      throw new InputException(s.output + ": cannot write there (" + outDir + " is not a writable directory)");
    }
  }

  /** Lays out the partitions (the VCF is released partition by partition); returns their count. */
  private int planPartitions(List<Region> regions, int partitionSize) {
    List<Partition> parts = new ArrayList<>();
    Partition.forEach(regions, partitionSize, parts::add);
    if (parts.isEmpty()) throw new InputException("no region to call: the regions are empty");
    partitionContig = new int[parts.size()];
    partitionStart = new int[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      partitionContig[i] = parts.get(i).contigIndex();
      partitionStart[i] = parts.get(i).start();
    }
    frontier = new PartitionFrontier(parts.size());
    return parts.size();
  }

  /** M consumer threads; consumer c takes shards c, c + M, ... */
  private List<Thread> startConsumers(ExampleTransport transport, int shards) {
    List<Thread> threads = new ArrayList<>();
    int consumers = Math.min(s.consumers, shards);
    for (int c = 0; c < consumers; c++) {
      int[] mine = java.util.stream.IntStream.iterate(c, sh -> sh < shards, sh -> sh + consumers).toArray();
      ExampleConsumer consumer = transport.consumer(mine);
      Thread t = new Thread(() -> consume(consumer), "fastpipe-consumer-" + c);
      t.setUncaughtExceptionHandler((th, e) -> fail(e));
      threads.add(t);
      t.start();
    }
    return threads;
  }

  /**
   * Until the consumers are done: samples ring fill for the metrics, notes when the shard
   * processes have all exited, and stops everything at the first failure (rethrown here).
   */
  private void watch(List<Thread> consumers, ExampleTransport transport, int shards, ShardProcesses processes) {
    while (consumers.stream().anyMatch(Thread::isAlive) && failure.get() == null) {
      sampleRings(transport, shards);
      ShardProcesses.Failure f = processes.firstFailure();
      if (f != null) {
        fail(new ShardFailedException(f.message()));
        break;
      }
      if (producersEndNanos.get() == 0 && processes.processes().size() == shards && processes.allExited()) {
        producersEndNanos.set(System.nanoTime());
      }
      sleep(100);
    }
    Throwable t = failure.get();
    if (t != null) {
      aborted = true;
      for (Thread c : consumers) join(c);
      if (t instanceof RuntimeException re) throw re;
      throw new IllegalStateException(t);
    }
  }

  private void sampleRings(ExampleTransport transport, int shards) {
    List<TransportStats> st = new ArrayList<>();
    for (int i = 0; i < shards; i++) st.add(safeStats(transport, i));
    metrics.sampleRings(st);
  }

  /**
   * About 8 partitions per shard, in whole kb, between 1 kb and 100 kb. Round-robin 1 kb partitions
   * (DeepVariant's default) make every shard decode nearly every BAM block, since a compressed
   * block spans far more than 1 kb of reads; larger partitions keep that overlap small while
   * still balancing shards (a 30x BGZF block holds ~3 kb of reads, so 100 kb partitions waste
   * little, and reads concentrated in part of a contig still spread over the shards). Examples do
   * not depend on the partition size.
   */
  public static int autoPartitionSize(long regionBases, int shards) {
    long target = regionBases / (8L * Math.max(1, shards));
    long kb = Math.max(1, (target + 999) / 1000);
    return (int) Math.min(100, kb) * 1000;
  }

  /**
   * An upper bound on the reads a run will see: the BAM index's aligned-record counts of the
   * contigs the regions touch; -1 when the index has no such counts (CRAM).
   */
  static long alignedReadsOnContigs(InputFiles in, List<Region> regions) {
    try {
      if (in.readsPath.toString().endsWith(".cram")) return -1;
      htsjdk.samtools.BAMIndex bam = in.reads.indexing().getIndex();
      long total = 0;
      for (String contig : regions.stream().map(Region::contig).distinct().toList()) {
        int ref = in.reads.getFileHeader().getSequenceIndex(contig);
        if (ref >= 0) total += bam.getMetaData(ref).getAlignedRecordCount();
      }
      return total;
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private List<String> workerArgs(ShmTransport shm, int shard) {
    MakeExamplesOptions ex = s.examples;
    List<String> a = new ArrayList<>(List.of("shard-worker",
        "--task", Integer.toString(shard), "--shards", Integer.toString(ex.shards),
        "--ring-file", shm.path(shard).toString(), "--channels", Integer.toString(ex.channels),
        "--parent-pid", Long.toString(ProcessHandle.current().pid())));
    a.addAll(ExampleInputOptions.workerArgs(ex));
    a.addAll(s.workerExtraArgs);
    return a;
  }

  private Thread startProducerThread(ExampleTransport transport, int shard) {
    MakeExamplesOptions opts = s.examples.forTask(shard);
    ExampleProducer producer = transport.producer(shard);
    Thread t = new Thread(() -> {
      MakeExamplesStats st = MakeExamples.run(opts, producer);
      examplesMadeByThreads.addAndGet(st.examples);
      producerCpuNanos.addAndGet(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
      producersEndNanos.accumulateAndGet(System.nanoTime(), Math::max);
    }, "fastpipe-shard-" + shard);
    t.setUncaughtExceptionHandler((th, e) -> fail(new ShardFailedException(
        "shard " + shard + " failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()), e)));
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * One consumer thread: poll, batch, classify, hand results to the postprocess. It stops when its
   * shards are done or when {@link #watch} (or a failing thread) sets {@code aborted}.
   */
  private void consume(ExampleConsumer consumer) {
    IdleStrategy idle = TransportConfig.backoff();
    try (consumer;
        ExampleClassifier classifier = new ExampleClassifier(model, s.batchSize, r -> {
          assembler.add(r);
          examplesCalled.incrementAndGet();
        }, this::partitionDone)) {
      long idleSince = 0;
      while (!aborted) {
        int n = consumer.poll(classifier, s.batchSize);
        long now = System.nanoTime();
        if (n > 0) {
          idleSince = 0;
          idle.reset();
        } else {
          if (consumer.finished()) break;
          if (idleSince == 0) idleSince = now;
          // The ring ran dry: classify a partial batch rather than sit on it, after a short grace.
          if (classifier.hasPending() && now - idleSince > 2_000_000) classifier.flush();
          idle.idle();
        }
      }
      if (!aborted) classifier.flush();
    }
  }

  /** A shard finished a partition: release every site before the first unfinished partition. */
  private synchronized void partitionDone(int shard, int contigIndex, int endExclusive, long partition) {
    int before = frontier.frontier();
    int after = frontier.markDone((int) partition);
    if (after == before) return;
    long t0 = System.nanoTime();
    List<GenotypeCall> calls = after < partitionStart.length
        ? assembler.completeBefore(partitionContig[after], partitionStart[after])
        : assembler.completeBefore(Integer.MAX_VALUE, Integer.MAX_VALUE);
    writeCalls(calls);
    postprocessNanos += System.nanoTime() - t0;
  }

  /** Writes released calls; callers hold this object's lock across release and write, so order holds. */
  private synchronized void writeCalls(List<GenotypeCall> calls) {
    for (GenotypeCall c : calls) {
      writer.write(c);
      byFilter[switch (c.filter()) {
        case GenotypeCall.PASS -> 0;
        case GenotypeCall.REF_CALL -> 1;
        default -> 2;
      }]++;
    }
  }

  private void fail(Throwable t) {
    failure.compareAndSet(null, t);
    aborted = true;
  }

  private static TransportStats safeStats(ExampleTransport t, int shard) {
    try {
      return t.stats(shard);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static double processCpuSeconds() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) return sun.getProcessCpuTime() / 1e9;
    return 0;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted");
    }
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
