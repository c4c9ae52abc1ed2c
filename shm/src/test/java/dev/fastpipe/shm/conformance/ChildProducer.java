package dev.fastpipe.shm.conformance;

import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.Transports;
import java.util.Arrays;

/**
 * The producer process of the conformance kit's cross-process tests: attaches to one shard of a
 * transport ({@link TransportProvider#attachProducer}) and writes {@link TestRecords}.
 * Arguments: transport address shard count minLen maxLen [key=value ...].
 */
public final class ChildProducer {
  private ChildProducer() {}

  public static void main(String[] args) {
    TransportProvider p = Transports.provider(args[0]);
    TransportOptions opts = TransportOptions.parse(Arrays.asList(args).subList(6, args.length));
    try (ExampleProducer producer = p.attachProducer(args[1], opts)) {
      TestRecords.produce(producer, Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]),
          Integer.parseInt(args[5]));
    }
  }
}
