package dev.fastpipe.inference;

/**
 * TensorFlow could not allocate a batch's input tensors: its CPU allocator ran out of memory
 * (TensorFlow answers with a tensor without data, which its Java API reads as a
 * NullPointerException). The message says how many images of what size the batch asked for.
 */
public final class BatchAllocationException extends RuntimeException {
  BatchAllocationException(String message, Throwable cause) {
    super(message, cause);
  }
}
