package dev.fastpipe.streaming.smallmodel;

import java.util.Arrays;

/** Labelled feature vectors for the small model: one row per bi-allelic example, with its type (SNP or indel). */
public final class FeatureTable {
  private final int width;
  private float[] x = new float[0];
  private int[] labels = new int[0];
  private boolean[] snp = new boolean[0];
  private int n;

  public FeatureTable(int width) {
    if (width < 1) throw new IllegalArgumentException("feature width must be >= 1");
    this.width = width;
  }

  /** Adds a row: {@code features[0, width)}, genotype label 0, 1 or 2, and whether it is a SNP. */
  public void add(float[] features, int label, boolean isSnp) {
    if (label < 0 || label > 2) throw new IllegalArgumentException("label must be 0, 1 or 2, got " + label);
    if (n == labels.length) {
      int cap = Math.max(16, 2 * n);
      x = Arrays.copyOf(x, cap * width);
      labels = Arrays.copyOf(labels, cap);
      snp = Arrays.copyOf(snp, cap);
    }
    System.arraycopy(features, 0, x, n * width, width);
    labels[n] = label;
    snp[n] = isSnp;
    n++;
  }

  public int size() {
    return n;
  }

  public int width() {
    return width;
  }

  public int label(int row) {
    return labels[row];
  }

  public boolean isSnp(int row) {
    return snp[row];
  }

  public float value(int row, int feature) {
    return x[row * width + feature];
  }

  /** Row {@code row}'s features copied into {@code into}; returns it. */
  public float[] row(int row, float[] into) {
    System.arraycopy(x, row * width, into, 0, width);
    return into;
  }
}
