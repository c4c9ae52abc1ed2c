package dev.fastpipe.streaming.pipeline;

/**
 * How one {@code call} shares the machine's cores between make_examples shards, call_variants
 * consumers and TensorFlow's thread pools, so that together they fit the cores instead of
 * TensorFlow taking one thread per core while every shard also runs (which made the machine
 * switch between threads and TensorFlow's pool spin while the shards had the cores).
 *
 * <p>The rule, for C cores: one consumer; TensorFlow gets {@code max(1, C / 4)} intra-op threads
 * and one inter-op thread (the graph is a chain: nothing runs side by side); the shards get the
 * rest, {@code max(1, C - intraOp)}. make_examples is most of the work once the small model calls
 * the easy sites and the CNN is one network, and a consumer with nothing to classify parks
 * (it costs a few percent of a core), so the shards get the cores and inference a quarter.
 * Every figure can be set by hand ({@code --shards}, {@code --consumers}, {@code --intra-op-threads},
 * {@code --inter-op-threads}).
 *
 * @param cores the cores the budget was made for
 * @param shards make_examples shards (processes for the shm transport)
 * @param consumers call_variants consumer threads
 * @param intraOpThreads TensorFlow intra-op threads per session
 * @param interOpThreads TensorFlow inter-op threads per session
 */
public record ThreadBudget(int cores, int shards, int consumers, int intraOpThreads, int interOpThreads) {

  public ThreadBudget {
    if (cores < 1 || shards < 1 || consumers < 1 || intraOpThreads < 1 || interOpThreads < 1) {
      throw new IllegalArgumentException("thread budget figures must be >= 1: " + cores + " cores, " + shards
          + " shards, " + consumers + " consumers, " + intraOpThreads + "/" + interOpThreads + " TensorFlow threads");
    }
  }

  /** The budget for {@code cores} cores (see the class comment for the rule). */
  public static ThreadBudget forCores(int cores) {
    int c = Math.max(1, cores);
    int intra = Math.max(1, c / 4);
    return new ThreadBudget(c, Math.max(1, c - intra), 1, intra, 1);
  }

  /** The budget for the cores this JVM may use. */
  public static ThreadBudget ofThisMachine() {
    return forCores(Runtime.getRuntime().availableProcessors());
  }

  /** "2 cores: 1 shard, 1 consumer, TensorFlow 1+1 threads", for help text and logs. */
  public String describe() {
    return cores + " cores: " + shards + (shards == 1 ? " shard, " : " shards, ") + consumers
        + (consumers == 1 ? " consumer, " : " consumers, ") + "TensorFlow " + intraOpThreads + " intra-op + "
        + interOpThreads + " inter-op";
  }
}
