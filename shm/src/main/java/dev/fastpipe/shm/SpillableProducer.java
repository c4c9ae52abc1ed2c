package dev.fastpipe.shm;

/**
 * A ring producer whose wait on a full ring can be bounded, so that {@link SpillTransport} can
 * send the record to a disk segment instead of stalling longer.
 */
interface SpillableProducer extends ExampleProducer {
  /**
   * As {@link #claim}, but gives up after waiting {@code maxWaitNanos} on a full ring: returns -1
   * (nothing claimed; the wait is counted as producer stall).
   */
  int claimWithin(int length, long maxWaitNanos);

  /** Records committed to this ring so far (by this producer and earlier ones of the shard). */
  long committedRecords();
}
