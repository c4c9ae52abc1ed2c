package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The consumer idle clock hands out a long dry spell while it lasts, and nothing while records flow. */
class IdleClockTest {

  static void sleepAtLeast(long nanos) throws InterruptedException {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() < end) TimeUnit.NANOSECONDS.sleep(Math.max(1, end - System.nanoTime()));
  }

  @Test
  void aLongDrySpellIsHandedOutWhileItLastsAndInFullWhenItEnds() throws Exception {
    IdleClock clock = new IdleClock();
    assertEquals(0, clock.polled(5), "records flow: not idle");
    long t0 = System.nanoTime();
    assertEquals(0, clock.polled(0), "the spell starts");
    sleepAtLeast(2 * IdleClock.FLUSH_NANOS);
    long during = clock.polled(0);
    assertTrue(during >= 2 * IdleClock.FLUSH_NANOS, "handed out while idle: " + during);
    sleepAtLeast(IdleClock.FLUSH_NANOS / 4);
    long end = clock.polled(3);
    long spell = System.nanoTime() - t0;
    assertTrue(end > 0, "the rest at the end");
    assertTrue(during + end <= spell, "never more than the spell: " + (during + end) + " > " + spell);
    assertEquals(0, clock.polled(1), "records flow again");
  }
}
