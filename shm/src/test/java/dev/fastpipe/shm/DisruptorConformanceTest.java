package dev.fastpipe.shm;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the built-in disruptor transport. */
class DisruptorConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "disruptor"; }
}
