package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ThreadBudgetTest {

  @Test
  void shardsAndTensorFlowTogetherFitTheCores() {
    for (int cores = 2; cores <= 256; cores++) {
      ThreadBudget b = ThreadBudget.forCores(cores);
      assertEquals(cores, b.shards() + b.intraOpThreads(), "cores " + cores);
      assertEquals(1, b.consumers());
      assertEquals(1, b.interOpThreads());
      assertTrue(b.intraOpThreads() <= Math.max(1, cores / 4), "inference gets at most a quarter");
    }
  }

  @Test
  void moreBusyThreadsThanCoresIsOversubscribedButTheBudgetNever() {
    for (int cores : new int[] {1, 2, 3, 4, 8, 16, 64}) {
      ThreadBudget b = ThreadBudget.forCores(cores);
      assertEquals(java.util.Optional.empty(),
          ThreadBudget.oversubscription(b.shards(), b.consumers(), b.intraOpThreads(), cores), cores + " cores");
    }
    String w = ThreadBudget.oversubscription(8, 4, 1, 2).orElseThrow();
    assertEquals("8 shards + 4 call_variants threads (4 consumers, 1 intra-op) want 12 cores but there are 2:"
        + " oversubscribed, the run gets slower, not faster; the thread budget here is 2 cores: 1 shard, 1 consumer,"
        + " TensorFlow 1 intra-op + 1 inter-op", w);
    assertTrue(ThreadBudget.oversubscription(2, 1, 1, 2).isPresent(), "2 shards + TensorFlow on 2 cores");
    assertTrue(ThreadBudget.oversubscription(6, 1, 0, 8).isPresent(), "TensorFlow's own pool takes every core");
    assertEquals(java.util.Optional.empty(), ThreadBudget.oversubscription(4, 2, 2, 8));
  }

  @Test
  void smallMachines() {
    assertEquals(new ThreadBudget(1, 1, 1, 1, 1), ThreadBudget.forCores(1));
    assertEquals(new ThreadBudget(1, 1, 1, 1, 1), ThreadBudget.forCores(0), "no fewer than one of each");
    assertEquals(new ThreadBudget(2, 1, 1, 1, 1), ThreadBudget.forCores(2));
    assertEquals(new ThreadBudget(8, 6, 1, 2, 1), ThreadBudget.forCores(8));
    assertEquals(new ThreadBudget(16, 12, 1, 4, 1), ThreadBudget.forCores(16));
    assertEquals("2 cores: 1 shard, 1 consumer, TensorFlow 1 intra-op + 1 inter-op", ThreadBudget.forCores(2).describe());
  }

  @Test
  void rejectsZeroThreads() {
    assertThrows(IllegalArgumentException.class, () -> new ThreadBudget(4, 0, 1, 1, 1));
  }
}
