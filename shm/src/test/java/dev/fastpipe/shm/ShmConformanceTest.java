package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the built-in shm transport. */
class ShmConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "shm"; }
}
