package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the built-in chronicle transport. */
class ChronicleConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "chronicle"; }
}
