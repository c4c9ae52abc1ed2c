package dev.fastpipe.streaming.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order of a bench's runs: rounds in which every configuration runs once, in an order shuffled
 * afresh each round by one seeded {@link Random}; first {@code warmup} rounds whose runs are not
 * reported, then {@code rounds} measured ones. On a shared, noisy machine drift (another job, a
 * warming page cache, thermal state) then falls on every configuration alike instead of on the
 * one that ran last, and the same seed gives the same order again.
 */
public final class Schedule {

  /** One run: configuration index, round (warm-up rounds first, numbered from 0) and whether it is a warm-up. */
  public record Slot(int config, int round, boolean warmup) {}

  private Schedule() {}

  public static List<Slot> interleaved(int configs, int warmup, int rounds, long seed) {
    if (configs < 1 || warmup < 0 || rounds < 1) {
      throw new IllegalArgumentException("configs >= 1, warmup >= 0, rounds >= 1; got " + configs + ", " + warmup + ", " + rounds);
    }
    Random random = new Random(seed);
    List<Slot> slots = new ArrayList<>();
    for (int r = 0; r < warmup + rounds; r++) {
      List<Integer> order = new ArrayList<>();
      for (int c = 0; c < configs; c++) order.add(c);
      Collections.shuffle(order, random);
      for (int c : order) slots.add(new Slot(c, r, r < warmup));
    }
    return slots;
  }
}
