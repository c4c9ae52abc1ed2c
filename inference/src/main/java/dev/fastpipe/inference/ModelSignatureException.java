package dev.fastpipe.inference;

/** A SavedModel whose serving signature does not take pileup images and return 3 genotype probabilities. */
public final class ModelSignatureException extends RuntimeException {
  public ModelSignatureException(String message) {
    super(message);
  }
}
