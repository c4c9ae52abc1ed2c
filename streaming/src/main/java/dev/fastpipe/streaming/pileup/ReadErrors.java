package dev.fastpipe.streaming.pileup;

/**
 * What a sample's reads get wrong, measured once per run on its first reads
 * ({@code makeexamples.ReadErrorSample}) and handed to every call_variants consumer: the strand
 * artifact rate of the SNP likelihoods and the indel error rates of the indel likelihoods
 * ({@link PileupLikelihood}).
 */
public record ReadErrors(StrandArtifactRate strandArtifacts, IndelErrorRate indels) {
  public ReadErrors {
    java.util.Objects.requireNonNull(strandArtifacts, "strandArtifacts");
    java.util.Objects.requireNonNull(indels, "indels");
  }

  /** Nothing measured: both rates assumed. */
  public static ReadErrors assumed() {
    return new ReadErrors(StrandArtifactRate.assumed(), IndelErrorRate.assumed());
  }
}
