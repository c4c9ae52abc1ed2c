package dev.fastpipe.streaming.bench;

/** A bench that cannot stand: a run failed, or runs wrote different VCF records. The CLI exits 1. */
public class BenchFailedException extends RuntimeException {
  public BenchFailedException(String message) {
    super(message);
  }
}
