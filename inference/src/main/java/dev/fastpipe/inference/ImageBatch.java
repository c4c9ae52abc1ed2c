package dev.fastpipe.inference;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TUint8;

/**
 * Up to {@code capacity} pileup images (row-major HWC, like the example records) held in
 * input tensors of one fixed shape {@code [chunkImages, H, W, C]}: image {@code i} lives in
 * slot {@code i % chunkImages} of chunk {@code i / chunkImages}. The chunks are the batch's
 * memory; there is no other copy. {@link #add} copies an image straight from record memory into
 * its chunk's native buffer: no per-example array, one memcpy for uint8 inputs, one widening pass
 * for float32 inputs (values 0..255 as floats).
 *
 * <p>Batches for inference ({@link GenotypeModel#newBatch}) use {@link GenotypeModel#CHUNK_IMAGES}
 * images per chunk, so the model only ever sees that one input shape, whatever the batch size
 * and however full the batch: see {@link GenotypeModel}. The slots of the last chunk past
 * {@link #size()} keep whatever they held before (stale images, or zeros); the model's outputs
 * for them are ignored. Batches for training ({@link #ImageBatch(int, int, int, int, boolean)})
 * are one chunk of {@code capacity} images and are fed through {@link #input()}, whose first
 * dimension is the number of images: training keeps variable shapes.
 *
 * <p>Not thread-safe: one batch per consumer thread. Reuse it with {@link #clear()}.
 */
public final class ImageBatch implements AutoCloseable {
  private final int capacity;
  private final int chunkImages;
  private final int height;
  private final int width;
  private final int channels;
  private final int imageBytes;
  private final boolean floatInput;
  private final Tensor[] chunks;
  private final UnsafeBuffer[] memory;
  private int size;

  /** A batch of one tensor {@code [capacity, H, W, C]} (training: see {@link #input()}). */
  ImageBatch(int capacity, int height, int width, int channels, boolean floatInput) {
    this(capacity, capacity, height, width, channels, floatInput);
  }

  /** A batch of {@code ceil(capacity / chunkImages)} tensors {@code [chunkImages, H, W, C]}. */
  ImageBatch(int capacity, int chunkImages, int height, int width, int channels, boolean floatInput) {
    if (capacity < 1) throw new IllegalArgumentException("batch capacity must be >= 1: " + capacity);
    if (chunkImages < 1) throw new IllegalArgumentException("images per chunk must be >= 1: " + chunkImages);
    this.capacity = capacity;
    this.chunkImages = chunkImages;
    this.height = height;
    this.width = width;
    this.channels = channels;
    this.imageBytes = height * width * channels;
    this.floatInput = floatInput;
    int n = (capacity + chunkImages - 1) / chunkImages;
    this.chunks = new Tensor[n];
    this.memory = new UnsafeBuffer[n];
    try {
      for (int c = 0; c < n; c++) {
        chunks[c] = allocate(chunkImages);
        memory[c] = TensorMemory.of(chunks[c]);
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private Tensor allocate(int n) {
    Shape shape = Shape.of(n, height, width, channels);
    try {
      return floatInput ? TFloat32.tensorOf(shape) : TUint8.tensorOf(shape);
    } catch (RuntimeException | OutOfMemoryError e) { // out of memory: a tensor without data, or no tensor
      long bytes = (long) capacity * imageBytes * (floatInput ? Float.BYTES : 1);
      throw new BatchAllocationException(String.format(java.util.Locale.ROOT,
          "cannot allocate a batch of %d images of %dx%dx%d %s (%.1f GiB): TensorFlow's allocator is out of memory",
          capacity, height, width, channels, floatInput ? "float32" : "uint8", bytes / (double) (1L << 30)), e);
    }
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
    UnsafeBuffer chunk = memory[slot / chunkImages];
    int at = slot % chunkImages;
    if (floatInput) {
      int base = at * imageBytes * Float.BYTES;
      for (int i = 0; i < length; i++) {
        chunk.putFloat(base + i * Float.BYTES, src.getByte(offset + i) & 0xFF);
      }
    } else {
      chunk.putBytes(at * imageBytes, src, offset, length);
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

  /** Images per chunk: the first dimension of every tensor {@link #chunk} returns. */
  public int chunkImages() {
    return chunkImages;
  }

  /** Chunks that hold at least one of the {@link #size()} images: {@code ceil(size / chunkImages)}. */
  public int filledChunks() {
    return (size + chunkImages - 1) / chunkImages;
  }

  /** Chunk {@code c}, a tensor {@code [chunkImages, H, W, C]} owned by the batch (do not close it). */
  Tensor chunk(int c) {
    return chunks[c];
  }

  /**
   * The {@code size} images as one tensor {@code [size, H, W, C]} (training): the batch's only
   * chunk itself when it is exactly full, else a fresh tensor (one memcpy per chunk) that the
   * caller must close; see {@link #isShared}.
   */
  Tensor input() {
    if (size == chunkImages && chunks.length == 1) return chunks[0];
    Tensor part = allocate(size);
    UnsafeBuffer dst = TensorMemory.of(part);
    long chunkBytes = chunks[0].numBytes();
    long bytes = part.numBytes();
    for (int c = 0; c < filledChunks(); c++) {
      long from = c * chunkBytes;
      dst.putBytes(Math.toIntExact(from), memory[c], 0, Math.toIntExact(Math.min(chunkBytes, bytes - from)));
    }
    return part;
  }

  /** True when {@code t} is one of the batch's own tensors (not to be closed by the caller). */
  boolean isShared(Tensor t) {
    for (Tensor c : chunks) if (c == t) return true;
    return false;
  }

  @Override
  public void close() {
    for (Tensor c : chunks) if (c != null) c.close();
  }
}
