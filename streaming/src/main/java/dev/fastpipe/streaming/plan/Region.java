package dev.fastpipe.streaming.plan;

/** A 0-based, half-open interval on contig {@code contigIndex} of the reference dictionary. */
public record Region(int contigIndex, String contig, int start, int end) {
  public int length() {
    return end - start;
  }
}
