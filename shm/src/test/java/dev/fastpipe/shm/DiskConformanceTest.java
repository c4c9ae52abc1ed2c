package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the built-in disk transport. */
class DiskConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "disk"; }
}
