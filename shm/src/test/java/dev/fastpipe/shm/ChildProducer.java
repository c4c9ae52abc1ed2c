package dev.fastpipe.shm;

import java.nio.file.Path;

/** Test helper run in a separate JVM: attaches to a ring file and writes test records. */
public final class ChildProducer {
  public static void main(String[] args) {
    Path ring = Path.of(args[0]);
    int shard = Integer.parseInt(args[1]);
    long count = Long.parseLong(args[2]);
    try (ShmProducer p = ShmTransport.attachProducer(ring, TransportConfig.backoff())) {
      TestRecords.produce(p, shard, count, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    }
  }
}
