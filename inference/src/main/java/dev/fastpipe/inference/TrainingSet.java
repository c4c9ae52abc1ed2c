package dev.fastpipe.inference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.DirectBuffer;

/**
 * Labelled pileup images held in memory for training (one copy per example; training sets
 * here are thousands of examples, ~130 KB each). Labels: 0 hom-ref, 1 het, 2 hom-alt.
 */
public final class TrainingSet {
  private final ImageShape shape;
  private final List<byte[]> images = new ArrayList<>();
  private int[] labels = new int[1024];

  public TrainingSet(int channels) {
    this.shape = ImageShape.deepVariant(channels);
  }

  /** Copies one image ({@code shape().bytes()} bytes at {@code offset}) with its label. */
  public void add(DirectBuffer src, int offset, int length, int label) {
    if (length != shape.bytes()) {
      throw new IllegalArgumentException("image has " + length + " bytes, expected " + shape.bytes() + " (" + shape + ")");
    }
    if (label < 0 || label > 2) throw new IllegalArgumentException("label must be 0, 1 or 2: " + label);
    byte[] copy = new byte[length];
    src.getBytes(offset, copy);
    if (images.size() == labels.length) labels = Arrays.copyOf(labels, labels.length * 2);
    labels[images.size()] = label;
    images.add(copy);
  }

  public int size() {
    return images.size();
  }

  /** The shape of every image in the set: DeepVariant's 100 x 221 with the set's channels. */
  public ImageShape shape() {
    return shape;
  }

  public int channels() {
    return shape.channels();
  }

  public int imageBytes() {
    return shape.bytes();
  }

  byte[] image(int i) {
    return images.get(i);
  }

  public int label(int i) {
    return labels[i];
  }

  /** Examples per label: {hom-ref, het, hom-alt}. */
  public int[] labelCounts() {
    int[] c = new int[3];
    for (int i = 0; i < images.size(); i++) c[labels[i]]++;
    return c;
  }
}
