package dev.fastpipe.streaming.pileup;

/**
 * One channel of a DeepVariant pileup image: the uint8 drawn for each reference-row column and
 * for each base a read puts in the window. One small class per channel, as DeepVariant's
 * deepvariant/channels/ does, so adding a channel is adding a file. Implementations are
 * stateless; read-level facts come through {@link PileupRead}.
 */
public interface PileupChannel {
  /** DeepVariant's channel name (read_base, base_quality, ...). */
  String name();

  /** Value in the reference rows at a column whose reference base is {@code refBase}. */
  int referenceValue(byte refBase);

  /**
   * Value for one drawn read base. {@code base} is the read's base, or {@link
   * PileupConstants#INDEL_ANCHOR} at the anchor column of an insertion or deletion.
   */
  int readValue(PileupRead read, byte base, int baseQuality, byte refBase);
}
