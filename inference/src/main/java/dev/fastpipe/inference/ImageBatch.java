package dev.fastpipe.inference;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TUint8;

/**
 * Up to {@code capacity} pileup images laid out as one input tensor {@code [capacity, H, W, C]}
 * (row-major HWC, like the example records). {@link #add} copies an image straight from record
 * memory into the tensor's native buffer: no per-example array, one memcpy for uint8 inputs,
 * one widening pass for float32 inputs (values 0..255 as floats).
 *
 * <p>Not thread-safe: one batch per consumer thread. Reuse it with {@link #clear()}.
 */
public final class ImageBatch implements AutoCloseable {
  private final int capacity;
  private final int height;
  private final int width;
  private final int channels;
  private final int imageBytes;
  private final boolean floatInput;
  private final Tensor tensor;
  private final UnsafeBuffer memory;
  private int size;

  ImageBatch(int capacity, int height, int width, int channels, boolean floatInput) {
    if (capacity < 1) throw new IllegalArgumentException("batch capacity must be >= 1: " + capacity);
    this.capacity = capacity;
    this.height = height;
    this.width = width;
    this.channels = channels;
    this.imageBytes = height * width * channels;
    this.floatInput = floatInput;
    this.tensor = allocate(capacity);
    this.memory = TensorMemory.of(tensor);
  }

  private Tensor allocate(int n) {
    Shape shape = Shape.of(n, height, width, channels);
    return floatInput ? TFloat32.tensorOf(shape) : TUint8.tensorOf(shape);
  }

  /** Creates a batch for uint8 (false) or float32 (true) inputs of {@code shape} images. */
  public static ImageBatch create(int capacity, ImageShape shape, boolean floatInput) {
    return new ImageBatch(capacity, shape.height(), shape.width(), shape.channels(), floatInput);
  }

  /** Creates a batch for uint8 (false) or float32 (true) inputs of {@code [H, W, C]} images. */
  public static ImageBatch create(int capacity, int height, int width, int channels, boolean floatInput) {
    return new ImageBatch(capacity, height, width, channels, floatInput);
  }

  /**
   * Copies one image of {@code length == height*width*channels} bytes from {@code src} at
   * {@code offset} into the next slot; returns the slot index.
   */
  public int add(DirectBuffer src, int offset, int length) {
    if (size == capacity) throw new IllegalStateException("batch is full (" + capacity + ")");
    if (length != imageBytes) {
      throw new IllegalArgumentException(
          "image has " + length + " bytes, the model expects " + height + "x" + width + "x" + channels
              + " = " + imageBytes);
    }
    int slot = size++;
    if (floatInput) {
      int base = slot * imageBytes * Float.BYTES;
      for (int i = 0; i < length; i++) {
        memory.putFloat(base + i * Float.BYTES, src.getByte(offset + i) & 0xFF);
      }
    } else {
      memory.putBytes(slot * imageBytes, src, offset, length);
    }
    return slot;
  }

  public int size() {
    return size;
  }

  public int capacity() {
    return capacity;
  }

  public boolean isFull() {
    return size == capacity;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public int imageBytes() {
    return imageBytes;
  }

  public void clear() {
    size = 0;
  }

  /**
   * The tensor to feed: the batch tensor itself when full, else a fresh tensor of the first
   * {@code size} images (one memcpy) that the caller must close; see {@link #isShared}.
   */
  Tensor input() {
    if (size == capacity) return tensor;
    Tensor part = allocate(size);
    UnsafeBuffer dst = TensorMemory.of(part);
    dst.putBytes(0, memory, 0, Math.toIntExact(part.numBytes()));
    return part;
  }

  boolean isShared(Tensor t) {
    return t == tensor;
  }

  @Override
  public void close() {
    tensor.close();
  }
}
