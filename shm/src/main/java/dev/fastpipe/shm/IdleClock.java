package dev.fastpipe.shm;

/**
 * Measures a polling consumer's idle time: the time from the first empty poll to the next poll
 * that delivers something. Costs one nanoTime per transition, none while records flow.
 */
final class IdleClock {
  private long idleSince;

  /** Records a poll that delivered {@code n} records; returns idle nanoseconds just ended (or 0). */
  long polled(int n) {
    if (n == 0) {
      if (idleSince == 0) idleSince = System.nanoTime();
      return 0;
    }
    if (idleSince == 0) return 0;
    long d = System.nanoTime() - idleSince;
    idleSince = 0;
    return d;
  }
}
