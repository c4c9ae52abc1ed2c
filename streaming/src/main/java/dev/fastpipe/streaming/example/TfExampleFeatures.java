package dev.fastpipe.streaming.example;

/** Feature names of the tf.Example written for each example record. */
public final class TfExampleFeatures {
  private TfExampleFeatures() {}

  /** DeepVariant: the raw image bytes, H x W x C uint8, row-major. */
  public static final String IMAGE_ENCODED = "image/encoded";
  /** DeepVariant: int64 [height, width, channels]. */
  public static final String IMAGE_SHAPE = "image/shape";
  /** DeepVariant: serialized CallVariantsOutput.AltAlleleIndices (field 1, packed int32). */
  public static final String ALT_ALLELE_INDICES = "alt_allele_indices/encoded";
  /** DeepVariant: int64 0/1/2, present only for labelled examples. */
  public static final String LABEL = "label";
  /** fastpipe: the record's bytes before the image (header, depths, alleles), to rebuild it. */
  public static final String FASTPIPE_HEADER = "fastpipe/header";
  /** fastpipe: "contig_index:position" readable without decoding the header. */
  public static final String LOCUS = "fastpipe/locus";
}
