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

  /**
   * A warning when the shards and call_variants together want more cores than there are: busy
   * threads = shards + the larger of the consumers and TensorFlow's intra-op threads (which do the
   * consumers' work; 0, TensorFlow decides, counts as one per core). Empty when they fit, or are
   * no more than the budget's own. (On 2 cores, 2 shards cost 20 % more CPU than 1 in a bench of
   * sim30x_eval; 8 shards and 4 consumers ran at 2.6x the wall.)
   */
  public static java.util.Optional<String> oversubscription(int shards, int consumers, int intraOpThreads, int cores) {
    int tf = intraOpThreads <= 0 ? cores : intraOpThreads;
    int busy = shards + Math.max(consumers, tf);
    ThreadBudget fit = forCores(cores); // on 1 core the budget itself is 1 shard + 1 TensorFlow thread
    if (busy <= Math.max(cores, fit.shards() + Math.max(fit.consumers(), fit.intraOpThreads()))) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(shards + (shards == 1 ? " shard" : " shards") + " + " + Math.max(consumers, tf)
        + " call_variants thread" + (Math.max(consumers, tf) == 1 ? "" : "s") + " (" + consumers + " consumer"
        + (consumers == 1 ? "" : "s") + ", " + (intraOpThreads <= 0 ? "TensorFlow's own" : intraOpThreads)
        + " intra-op) want " + busy + " cores but there " + (cores == 1 ? "is 1" : "are " + cores)
        + ": oversubscribed, the run gets slower, not faster; the thread budget here is " + fit.describe());
  }

  /** "2 cores: 1 shard, 1 consumer, TensorFlow 1+1 threads", for help text and logs. */
  public String describe() {
    return cores + " cores: " + shards + (shards == 1 ? " shard, " : " shards, ") + consumers
        + (consumers == 1 ? " consumer, " : " consumers, ") + "TensorFlow " + intraOpThreads + " intra-op + "
        + interOpThreads + " inter-op";
  }
}
