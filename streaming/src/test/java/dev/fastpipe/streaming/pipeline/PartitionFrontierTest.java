package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PartitionFrontierTest {

  @Test
  void frontierAdvancesOnlyOverAContiguousPrefix() {
    PartitionFrontier f = new PartitionFrontier(6);
    assertEquals(0, f.markDone(1)); // shard 1 finished partition 1 first
    assertEquals(0, f.markDone(3));
    assertEquals(2, f.markDone(0)); // 0 and 1 now final
    assertEquals(2, f.markDone(4));
    assertEquals(5, f.markDone(2));
    assertFalse(f.complete());
    assertEquals(5, f.doneCount());
    assertEquals(6, f.markDone(5));
    assertTrue(f.complete());
  }

  @Test
  void rejectsPartitionsOutsideTheRun() {
    PartitionFrontier f = new PartitionFrontier(2);
    assertThrows(IllegalArgumentException.class, () -> f.markDone(2));
    assertThrows(IllegalArgumentException.class, () -> f.markDone(-1));
  }
}
