package dev.fastpipe.shm;

import org.agrona.DirectBuffer;

/**
 * Receives one record, zero-copy: {@code buffer[offset, offset + length)} is valid only during
 * the call (ring memory is released after the batch is consumed). Copy what must outlive it.
 */
@FunctionalInterface
public interface RecordHandler {
  void onRecord(int shard, DirectBuffer buffer, int offset, int length);
}
