package dev.fastpipe.streaming.makeexamples;

/** Counters of one make_examples task. */
public final class MakeExamplesStats {
  public long partitions;
  /** Reads that start inside this task's partitions and pass the filters (each counted once). */
  public long reads;
  /** Reads that start inside this task's partitions and were dropped by the filters. */
  public long readsFiltered;
  /** Reads stored without base qualities, given {@code --default-base-quality} (each counted where it was fetched). */
  public long readsWithoutQualities;
  /** Candidate sites (one per position with at least one alt allele passing the thresholds). */
  public long candidates;
  /** Candidate alt alleles (one per candidates-VCF record). */
  public long candidateAlleles;
  /** Indel alleles that were no candidate as alignment shadows of a stronger one ({@code ShadowAlleles}). */
  public long shadowAlleles;
  public long examples;
  /** Bi-allelic candidates the small model called (SMALL_CALL records, no image). */
  public long smallCalls;
  /** REF_BLOCK records emitted (gVCF runs only). */
  public long refBlocks;
  public long skippedAtContigEdge;
  public long skippedNotConfident;
  public long bytesWritten;
  /** Realignment windows assembled into non-reference haplotypes (counted by the partition of their start). */
  public long realignedWindows;
  /** Of {@link #realignedWindows}: those whose haplotypes are the reads' own indels (no assembled one). */
  public long realignedFromReadIndels;
  /** Of {@link #realignedWindows}: assembled ones whose graph lost the reads' best-supported indel, offered beside its haplotypes. */
  public long realignedWithReadIndel;
  /** Realignment windows over a cap (or without an acyclic graph nor an indel two reads show): their reads kept their alignments. */
  public long realignFallbackWindows;
  /** Reads given a new alignment by the realigner (counted by the partition of their start). */
  public long realignedReads;
  /** Time in the realigner. */
  public long realignNanos;
  public long nanos;

  /** Reads that start inside this task's partitions, passing the filters or not. */
  public long readsSeen() {
    return reads + readsFiltered;
  }

  public double seconds() {
    return nanos / 1e9;
  }

  @Override
  public String toString() {
    double s = Math.max(seconds(), 1e-9);
    return String.format(
        "partitions=%d reads=%d filtered=%d candidates=%d alleles=%d examples=%d"
            + " edge_skipped=%d not_confident=%d bytes=%d seconds=%.2f examples/s=%.0f reads/s=%.0f",
        partitions, reads, readsFiltered, candidates, candidateAlleles, examples,
        skippedAtContigEdge, skippedNotConfident, bytesWritten, seconds(), examples / s, reads / s)
        + (refBlocks > 0 ? " ref_blocks=" + refBlocks : "") + (shadowAlleles > 0 ? " shadow_alleles=" + shadowAlleles : "")
        + (readsWithoutQualities > 0 ? " reads_without_qualities=" + readsWithoutQualities : "") + (smallCalls > 0 ? " small_calls=" + smallCalls : "")
        + String.format(" realigned_windows=%d from_read_indels=%d with_read_indel=%d realign_fallbacks=%d realigned_reads=%d realign_seconds=%.2f",
            realignedWindows, realignedFromReadIndels, realignedWithReadIndel, realignFallbackWindows, realignedReads, realignNanos / 1e9);
  }
}
