package dev.fastpipe.streaming.testing;

import dev.fastpipe.shm.ExampleProducer;
import java.util.ArrayList;
import java.util.List;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** An in-memory ExampleProducer for tests: keeps a copy of every committed record. */
public final class CapturingProducer implements ExampleProducer {
  private final UnsafeBuffer buf = new UnsafeBuffer(new byte[1 << 20]);
  private int claimed = -1;
  public final List<byte[]> records = new ArrayList<>();
  public boolean ended;

  @Override public int maxRecordLength() { return buf.capacity() - 64; }

  @Override public int claim(int length) {
    if (length > maxRecordLength()) throw new IllegalArgumentException("too long");
    claimed = length;
    return 64; // an aligned, non-zero offset, as a ring slot would be
  }

  @Override public MutableDirectBuffer buffer() { return buf; }

  @Override public void commit() {
    byte[] b = new byte[claimed];
    buf.getBytes(64, b);
    records.add(b);
    buf.setMemory(64, claimed, (byte) 0x5A); // catch any field the encoder forgets to write
    claimed = -1;
  }

  @Override public void abort() { claimed = -1; }
  @Override public void endOfStream() { ended = true; }
  @Override public void close() { endOfStream(); }
}
