package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the seqring transport (sequence-stamped slots, no zeroing pass). */
class SeqRingConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "seqring"; }
}
