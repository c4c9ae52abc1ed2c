package dev.fastpipe.streaming.pileup;

/**
 * What a sample's reads get wrong, measured once per run on its first reads
 * ({@code makeexamples.ReadErrorSample}) and handed to every call_variants consumer: the strand
 * artifact rate and the bases' error per quality of the SNP likelihoods, and the indel error rates
 * of the indel likelihoods ({@link PileupLikelihood}).
 */
public record ReadErrors(StrandArtifactRate strandArtifacts, IndelErrorRate indels, BaseErrorRate bases) {
  public ReadErrors {
    java.util.Objects.requireNonNull(strandArtifacts, "strandArtifacts");
    java.util.Objects.requireNonNull(indels, "indels");
    java.util.Objects.requireNonNull(bases, "bases");
  }

  /** The two rates with the bases' qualities as they promise. */
  public ReadErrors(StrandArtifactRate strandArtifacts, IndelErrorRate indels) {
    this(strandArtifacts, indels, BaseErrorRate.promised());
  }

  /** Nothing measured: every rate assumed. */
  public static ReadErrors assumed() {
    return new ReadErrors(StrandArtifactRate.assumed(), IndelErrorRate.assumed(), BaseErrorRate.promised());
  }
}
