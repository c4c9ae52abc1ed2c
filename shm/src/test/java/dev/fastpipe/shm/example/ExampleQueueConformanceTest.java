package dev.fastpipe.shm.example;

import dev.fastpipe.shm.conformance.TransportConformance;

/** The conformance kit over the example plug-in, as a third party runs it. */
class ExampleQueueConformanceTest extends TransportConformance {
  @Override protected String transportName() { return "example-queue"; }
}
