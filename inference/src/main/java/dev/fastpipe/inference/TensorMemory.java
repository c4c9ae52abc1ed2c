package dev.fastpipe.inference;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;

/** A writable view of a tensor's native memory, so records can be copied into it in place. */
final class TensorMemory {
  private TensorMemory() {}

  /** Wraps the whole data area of {@code tensor}; valid while the tensor is open. */
  static UnsafeBuffer of(Tensor tensor) {
    long bytes = tensor.numBytes();
    UnsafeBuffer view =
        tensor
            .asRawTensor()
            .data()
            .accept(
                new DataStorageVisitor<UnsafeBuffer>() {
                  @Override
                  public UnsafeBuffer visit(long address, long length, long scale) {
                    return new UnsafeBuffer(address, Math.toIntExact(bytes));
                  }

                  @Override
                  public UnsafeBuffer visit(ByteBuffer buffer) {
                    return buffer.isDirect() ? new UnsafeBuffer(buffer) : null;
                  }

                  @Override
                  public UnsafeBuffer fallback() {
                    return null;
                  }
                });
    if (view == null) {
      throw new IllegalStateException("tensor memory is not directly addressable: " + tensor.dataType());
    }
    return view;
  }
}
