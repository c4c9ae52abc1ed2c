package dev.fastpipe.cli;

import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.streaming.example.ExampleRecord;
import org.agrona.MutableDirectBuffer;

/**
 * Test hook for crash handling: passes records through, then halts the process (no shutdown
 * hooks, as a crash or kill -9 would) once {@code partitions} partitions have been committed.
 */
final class FailingProducer implements ExampleProducer {
  private final ExampleProducer delegate;
  private final int partitions;
  private final ExampleRecord view = new ExampleRecord();
  private int claimed;
  private int done;

  FailingProducer(ExampleProducer delegate, int partitions) {
    this.delegate = delegate;
    this.partitions = partitions;
  }

  @Override public int maxRecordLength() { return delegate.maxRecordLength(); }

  @Override public int claim(int length) { return claimed = delegate.claim(length); }

  @Override public MutableDirectBuffer buffer() { return delegate.buffer(); }

  @Override
  public void commit() {
    boolean marker = view.wrap(delegate.buffer(), claimed).isPartitionDone();
    delegate.commit();
    if (marker && ++done >= partitions) {
      System.err.println("fastpipe shard-worker: failing on purpose after " + done + " partitions");
      Runtime.getRuntime().halt(3);
    }
  }

  @Override public void abort() { delegate.abort(); }

  @Override public void endOfStream() { delegate.endOfStream(); }

  @Override public void close() { delegate.close(); }
}
