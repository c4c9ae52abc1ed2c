package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScheduleTest {

  @Test
  void warmUpRoundsComeFirstAndEveryRoundRunsEachConfigurationOnce() {
    List<Schedule.Slot> slots = Schedule.interleaved(3, 2, 5, 42);
    assertEquals(3 * 7, slots.size());
    for (int round = 0; round < 7; round++) {
      List<Schedule.Slot> inRound = slots.subList(round * 3, round * 3 + 3);
      Set<Integer> configs = new HashSet<>();
      for (Schedule.Slot s : inRound) {
        assertEquals(round, s.round());
        assertEquals(round < 2, s.warmup());
        configs.add(s.config());
      }
      assertEquals(Set.of(0, 1, 2), configs, "round " + round);
    }
  }

  @Test
  void theSameSeedGivesTheSameOrderAndTheOrderIsShuffled() {
    assertEquals(Schedule.interleaved(4, 1, 10, 7), Schedule.interleaved(4, 1, 10, 7));
    assertNotEquals(Schedule.interleaved(4, 1, 10, 7), Schedule.interleaved(4, 1, 10, 8));
    // Shuffled per round: over 10 rounds of 4, configuration 0 does not always run first.
    Set<Integer> firsts = new HashSet<>();
    List<Schedule.Slot> slots = Schedule.interleaved(4, 0, 10, 7);
    for (int r = 0; r < 10; r++) firsts.add(slots.get(r * 4).config());
    assertTrue(firsts.size() > 1, "first of each round: " + firsts);
  }

  @Test
  void badCountsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Schedule.interleaved(2, -1, 3, 1));
    assertThrows(IllegalArgumentException.class, () -> Schedule.interleaved(2, 0, 0, 1));
  }
}
