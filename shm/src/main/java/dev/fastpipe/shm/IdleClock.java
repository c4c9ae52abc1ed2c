package dev.fastpipe.shm;

/**
 * Measures a polling consumer's idle time: the time from the first empty poll to the next poll
 * that delivers something. During a long dry spell it hands out the idle time so far every
 * {@link #FLUSH_NANOS}, so that live metrics see the wait while it lasts rather than all at once
 * when it ends. Costs one nanoTime per empty poll (time spent waiting anyway), none while records
 * flow.
 */
final class IdleClock {
  /** While idle, the idle time so far is handed out at most this often. */
  static final long FLUSH_NANOS = 1_000_000L;

  private long idleSince; // start of the part of the current dry spell not yet handed out; 0: not idle

  /** Records a poll that delivered {@code n} records; returns idle nanoseconds to count now (or 0). */
  long polled(int n) {
    if (n == 0) {
      long now = System.nanoTime();
      if (idleSince == 0) {
        idleSince = now;
        return 0;
      }
      if (now - idleSince < FLUSH_NANOS) return 0;
      long d = now - idleSince;
      idleSince = now;
      return d;
    }
    if (idleSince == 0) return 0;
    long d = System.nanoTime() - idleSince;
    idleSince = 0;
    return d;
  }
}
