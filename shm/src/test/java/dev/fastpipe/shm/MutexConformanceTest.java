package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the built-in mutex transport. */
class MutexConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "mutex"; }
}
