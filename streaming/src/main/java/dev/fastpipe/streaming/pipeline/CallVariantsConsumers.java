package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.shm.ConsumerLoop;
import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.streaming.callvariants.ExampleClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The call_variants side of a run: M consumer threads, consumer c reading shards c, c + M, ...;
 * each runs the one {@link ConsumerLoop} with an {@link ExampleClassifier} as its handler, and
 * hands results and partition markers to the {@link OrderedRelease}. When its rings run dry for
 * {@link #PARTIAL_BATCH_AFTER_NANOS} a consumer delivers the partition markers it holds, and
 * classifies the partial batch it holds once the batch's first example has waited the maximum
 * batch wait; at the end of its shards' streams it classifies the rest.
 *
 * <p>Why wait: the model runs whole chunks of {@link dev.fastpipe.inference.GenotypeModel#CHUNK_IMAGES}
 * images (a partial one padded), and once the small model calls the easy sites the CNN's examples
 * come a few at a time, so a batch classified at every dry spell was mostly padding: 2,709
 * padding images for 555 examples on a 5 Mb sample, 635 for 69 on sim30x_eval. Holding a partial
 * batch only delays the sites after it (they wait in the {@link OrderedRelease}); the images are
 * in the batch, not in the ring, so no shard waits for it.
 */
public final class CallVariantsConsumers {
  /** How long a ring must stay empty before a partial batch is classified. */
  static final long PARTIAL_BATCH_AFTER_NANOS = 2_000_000L;
  /** The default longest wait of a partial batch (see the class comment): a second. */
  public static final java.time.Duration DEFAULT_MAX_BATCH_WAIT = java.time.Duration.ofSeconds(1);

  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong examplesCalled = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong paddingImages = new AtomicLong();
  /** Per consumer, what its waits for examples cost (filled as each consumer ends). */
  private final Wait[] waits;

  /**
   * What one consumer's waits cost: wall time its rings were empty (from its start, so the shards'
   * start-up counts) and the CPU its thread burnt meanwhile (-1 where the JVM cannot tell).
   */
  public record Wait(int consumer, long waitNanos, long waitCpuNanos) {
    /** CPU while waiting as a share of one core, in %; NaN without a wait or a CPU clock. */
    public double cpuPctOfCore() {
      return waitNanos <= 0 || waitCpuNanos < 0 ? Double.NaN : 100.0 * waitCpuNanos / waitNanos;
    }
  }
  private final AtomicLong smallCalls = new AtomicLong();

  /**
   * Starts {@code min(consumers, shards)} threads. A thread stops early when {@code stop} becomes
   * true; an exception in one goes to {@code onFailure}.
   */
  public CallVariantsConsumers(ExampleTransport transport, int shards, int consumers, GenotypeModel model,
      ReadErrors errors, int batchSize, java.time.Duration maxBatchWait, OrderedRelease release,
      BooleanSupplier stop, Consumer<Throwable> onFailure) {
    long maxWaitNanos = maxBatchWait.toNanos();
    int m = Math.min(consumers, shards);
    waits = new Wait[m];
    for (int c = 0; c < m; c++) {
      int[] mine = IntStream.iterate(c, sh -> sh < shards, sh -> sh + m).toArray();
      ExampleConsumer consumer = transport.consumer(mine);
      int id = c;
      Thread t = new Thread(() -> consume(id, consumer, model, errors, batchSize, maxWaitNanos, release, stop),
          "fastpipe-consumer-" + c);
      t.setUncaughtExceptionHandler((th, e) -> onFailure.accept(e));
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  private void consume(int id, ExampleConsumer consumer, GenotypeModel model, ReadErrors errors,
      int batchSize, long maxWaitNanos, OrderedRelease release, BooleanSupplier stop) {
    try (consumer;
        ExampleClassifier classifier = new ExampleClassifier(model, batchSize, errors, r -> {
          release.add(r);
          examplesCalled.incrementAndGet();
        }, release::partitionDone).onRefBlock(release::addBlock)) {
      ConsumerLoop loop = new ConsumerLoop(batchSize, TransportConfig.backoff())
          .stopWhen(stop)
          .onDry(PARTIAL_BATCH_AFTER_NANOS, () -> {
            if (classifier.hasPending() && classifier.batchWaitNanos(System.nanoTime()) >= maxWaitNanos) {
              classifier.flush();
            }
          });
      try {
        if (loop.run(consumer, classifier)) classifier.flush();
      } finally {
        synchronized (waits) {
          waits[id] = new Wait(id, loop.waits().waitNanos(), loop.waits().waitCpuNanos());
        }
      }
      batches.addAndGet(classifier.batches());
      paddingImages.addAndGet(classifier.paddingImages());
      smallCalls.addAndGet(classifier.smallCalls());
    }
  }

  /** True while a consumer thread runs. */
  public boolean running() {
    return threads.stream().anyMatch(Thread::isAlive);
  }

  /** Waits for every consumer thread to end. */
  public void join() {
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Batches the model ran (known once the consumers have ended). */
  public long batches() {
    return batches.get();
  }

  /** Padding images the model ran in partial batches (known once the consumers have ended). */
  public long paddingImages() {
    return paddingImages.get();
  }

  /** Each ended consumer's waits, in consumer order (known once the consumers have ended). */
  public List<Wait> waits() {
    synchronized (waits) {
      List<Wait> out = new ArrayList<>();
      for (Wait w : waits) if (w != null) out.add(w);
      return out;
    }
  }

  /** Examples classified and handed to the release so far. */
  /** Sites the small model called in make_examples (known once the consumers have ended); included in {@link #examplesCalled}. */
  public long smallCalls() {
    return smallCalls.get();
  }

  /** Examples classified (by the CNN, or SMALL_CALL records) and handed to the release so far. */
  public long examplesCalled() {
    return examplesCalled.get();
  }
}
