package dev.fastpipe.streaming.example;

/**
 * The layout of one example record, the unit that make_examples writes into a ring slot (or a
 * TFRecord) and call_variants reads back ({@link ExampleRecordEncoder} writes it, {@link ExampleRecord}
 * reads it, both flyweights over a buffer and an offset). All fields little-endian. The record starts at an
 * 8-byte-aligned offset in its buffer (every ring hands out aligned slots), so the image, which
 * starts at an 8-byte-aligned offset from the record start, is aligned in the buffer too.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    Kind (1 = EXAMPLE, 2 = PARTITION_DONE, 4 = SMALL_CALL)     |  0
 *  +---------------------------------------------------------------+
 *  |                  Length of the whole record                   |  4
 *  +---------------------------------------------------------------+
 *  |                  Contig index (reference dictionary)          |  8
 *  +---------------------------------------------------------------+
 *  |   Position (0-based start of ref; marker: partition end, excl) | 12
 *  +---------------------------------------------------------------+
 *  |                  Shard                                        | 16
 *  +---------------------------------------------------------------+
 *  |                  Label (-1 none, else 0, 1, 2)                | 20
 *  +---------------------------------------------------------------+
 *  |                  Sequence (per shard, from 0, all records)    | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Partition index (global, in reference order) | 32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Examples at this site                        | 40
 *  +---------------------------------------------------------------+
 *  |                  Depth (DP)                                   | 44
 *  +-------------------------------+-------------------------------+
 *  |   Image height (uint16)       |   Image width (uint16)        | 48
 *  +---------------+---------------+---------------+---------------+
 *  | Channels (u8) | Alt count (u8)| Subset n (u8) | Floats n (u8) | 52
 *  +---------------+---------------+---------------+---------------+
 *  | Subset[0] (i8)| Subset[1] (i8)| Mate pairs n  | Cycles n (u8) | 56
 *  +---------------+---------------+---------------+---------------+
 *  |          Image offset (from the record start, 8-aligned)      | 60
 *  +---------------------------------------------------------------+
 *  |  Allele depths AD: int32 x (1 + alt count), ref first        ...| 64
 *  +---------------------------------------------------------------+
 *  |  Ref allele: int32 length, ASCII bytes                       ...|
 *  +---------------------------------------------------------------+
 *  |  Each alt allele: int32 length, ASCII bytes                  ...|
 *  +---------------------------------------------------------------+
 *  |  Floats: float32 x (Floats n), unaligned                     ...|
 *  +---------------------------------------------------------------+
 *  |  Mate pairs: 2 x uint8 (read rows) x (Mate pairs n)          ...|
 *  +---------------------------------------------------------------+
 *  |  Cycles: uint8 x (Cycles n), one per read row from the first ...|
 *  +---------------------------------------------------------------+
 *  |  zero padding to an 8-byte boundary                          ...|
 *  +---------------------------------------------------------------+
 *  |  Image: height x width x channels uint8, row-major HWC       ...|
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The floats of an EXAMPLE are the candidate's summary features
 * ({@code makeexamples.CandidateFeatures}, in its order) when make_examples labels examples for
 * training, so that the small model trains on the same examples as the CNN; otherwise Floats n
 * is 0 and the section is empty.
 *
 * <p>The mate pairs of an EXAMPLE are the read rows (0 = the first row below the reference rows)
 * that hold the two reads of one fragment, a pair per fragment with both reads in the image: reads
 * of one fragment are not independent where they overlap (an error in one mate is no evidence of a
 * het when the other shows the reference), and the image cannot show which rows they are. Rows
 * above 254 are not paired (so Mate pairs n, a uint8, is at most 127). A record with none has Mate
 * pairs n = 0 and no section.
 *
 * <p>The cycles of an EXAMPLE are, per read row from the first below the reference rows, the place
 * in its read, in the order the bases were sequenced, of the read's base at the image's centre
 * column ({@code pileup.BaseErrorRate#cycle}: 0 the first base sequenced, 250 the last; 255 none:
 * the read shows no base there): a base's error rate depends on it beyond its quality, and the
 * image cannot show it. Rows past the 255th have none. A record with none has Cycles n = 0 and no
 * section.
 *
 * <p>A SMALL_CALL record (kind 4) is a bi-allelic candidate that make_examples' small model
 * called itself: the EXAMPLE layout with label -1, one example at the site, alt subset {0},
 * an empty image (height, width and channels 0; the image offset is the record's length) and
 * Floats n = 3: the genotype probabilities {p(hom-ref), p(het), p(hom-alt)}. call_variants
 * passes it to the postprocess as it stands, in its place among the examples.
 *
 * <p>A PARTITION_DONE marker is the bare 64-byte header: contig index, position = the partition's
 * end (exclusive, 0-based), partition index, shard and sequence; label -1, everything else 0.
 * It tells a consumer that this shard has emitted everything before that position.
 *
 * <p>A REF_BLOCK record (only when the run makes a gVCF) is the reference confidence of a run of
 * positions [start, end) of one partition that share one GQ bin and one genotype (0/0 or ./.).
 * It is 64 bytes, and its first 40 have the example header's meaning except that offset 20
 * holds the block's end instead of a label. A shard emits a partition's blocks before the
 * partition's PARTITION_DONE marker, so a consumer that sees the marker has every block of it.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Kind (3 = REF_BLOCK)                         |  0
 *  +---------------------------------------------------------------+
 *  |                  Length of the whole record (64)              |  4
 *  +---------------------------------------------------------------+
 *  |                  Contig index (reference dictionary)          |  8
 *  +---------------------------------------------------------------+
 *  |                  Start (0-based, inclusive)                   | 12
 *  +---------------------------------------------------------------+
 *  |                  Shard                                        | 16
 *  +---------------------------------------------------------------+
 *  |                  End (0-based, exclusive)                     | 20
 *  +---------------------------------------------------------------+
 *  |                  Sequence (per shard, from 0, all records)    | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Partition index (global, in reference order) | 32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Min GQ (hom-ref GQ, lowest in the block)     | 40
 *  +---------------------------------------------------------------+
 *  |                  Min DP (lowest depth in the block)           | 44
 *  +---------------------------------------------------------------+
 *  |                  PL 0/0 (at the first position of min GQ)     | 48
 *  +---------------------------------------------------------------+
 *  |                  PL 0/<*>                                     | 52
 *  +---------------------------------------------------------------+
 *  |                  PL <*>/<*>                                   | 56
 *  +---------------+---------------+---------------+---------------+
 *  | GQ bin (u8)   | Flags (u8)    | Ref base (u8) |   reserved    | 60
 *  +---------------+---------------+---------------+---------------+
 * </pre>
 *
 * GQ bin is the blocks' merge key (DeepVariant's quantised GQ); Flags bit 0 (Called) is set for
 * GT 0/0 and clear for ./. (no coverage, a non-ACGT reference base, or counts that favour a
 * non-reference genotype), bit 1 (Haploid) for a block of one copy (GT 0 or ., PLs of 0 and <*>
 * in the first two PL fields); Ref base is the ASCII reference base at Start.
 */
public final class ExampleRecordDescriptor {
  private ExampleRecordDescriptor() {}

  public static final int KIND_EXAMPLE = 1;
  public static final int KIND_PARTITION_DONE = 2;
  public static final int KIND_REF_BLOCK = 3;
  public static final int KIND_SMALL_CALL = 4;

  public static final int KIND_OFFSET = 0;
  public static final int LENGTH_OFFSET = 4;
  public static final int CONTIG_INDEX_OFFSET = 8;
  public static final int POSITION_OFFSET = 12;
  public static final int SHARD_OFFSET = 16;
  public static final int LABEL_OFFSET = 20;
  public static final int SEQUENCE_OFFSET = 24;
  public static final int PARTITION_OFFSET = 32;
  public static final int EXAMPLES_AT_SITE_OFFSET = 40;
  public static final int DEPTH_OFFSET = 44;
  public static final int HEIGHT_OFFSET = 48;
  public static final int WIDTH_OFFSET = 50;
  public static final int CHANNELS_OFFSET = 52;
  public static final int ALT_COUNT_OFFSET = 53;
  public static final int SUBSET_COUNT_OFFSET = 54;
  public static final int FLOAT_COUNT_OFFSET = 55;
  public static final int SUBSET_OFFSET = 56;
  public static final int MATE_PAIRS_OFFSET = 58;
  public static final int CYCLES_OFFSET = 59;
  public static final int IMAGE_OFFSET_OFFSET = 60;
  /** Where the variable-length section (allele depths, alleles) starts. */
  public static final int HEADER_LENGTH = 64;

  public static final int MAX_ALTS = 127;
  public static final int MAX_FLOATS = 255;
  /** A SMALL_CALL's floats: the three genotype probabilities. */
  public static final int SMALL_CALL_FLOATS = 3;
  public static final int MAX_SUBSET = 2;
  public static final int ALIGNMENT = 8;

  public static int align(int n) {
    return (n + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Offset of the allele depth of allele {@code i} (0 = ref) from the record start. */
  public static int alleleDepthOffset(int i) {
    return HEADER_LENGTH + 4 * i;
  }

  /** Offset of the first allele (the ref's length prefix) from the record start. */
  public static int allelesOffset(int altCount) {
    return HEADER_LENGTH + 4 * (1 + altCount);
  }

  /** Offset of the first float from the record start, for these alleles. */
  public static int floatsOffset(String ref, String[] alts) {
    int n = allelesOffset(alts.length) + 4 + ref.length();
    for (String a : alts) n += 4 + a.length();
    return n;
  }

  /** Offset of the image from the record start, for these alleles and no floats. */
  public static int imageOffset(String ref, String[] alts) {
    return imageOffset(ref, alts, 0);
  }

  /** Offset of the image from the record start, for these alleles and {@code floats} floats. */
  public static int imageOffset(String ref, String[] alts, int floats) {
    return imageOffset(ref, alts, floats, 0);
  }

  /** Offset of the image from the record start, for these alleles, {@code floats} floats and {@code matePairs} mate pairs. */
  public static int imageOffset(String ref, String[] alts, int floats, int matePairs) {
    return imageOffset(ref, alts, floats, matePairs, 0);
  }

  /** As {@link #imageOffset(String, String[], int, int)}, with {@code cycles} read rows' cycles. */
  public static int imageOffset(String ref, String[] alts, int floats, int matePairs, int cycles) {
    return align(floatsOffset(ref, alts) + 4 * floats + 2 * matePairs + cycles);
  }

  /** Total length of an EXAMPLE record with these alleles and image shape, without floats. */
  public static int encodedLength(String ref, String[] alts, int height, int width, int channels) {
    return encodedLength(ref, alts, 0, height, width, channels);
  }

  /** Total length of an EXAMPLE record with these alleles, {@code floats} floats and image shape. */
  public static int encodedLength(String ref, String[] alts, int floats, int height, int width, int channels) {
    return encodedLength(ref, alts, floats, 0, height, width, channels);
  }

  /** Total length of an EXAMPLE record with these alleles, {@code floats} floats, {@code matePairs} mate pairs and image shape. */
  public static int encodedLength(String ref, String[] alts, int floats, int matePairs, int height, int width, int channels) {
    return encodedLength(ref, alts, floats, matePairs, 0, height, width, channels);
  }

  /** As {@link #encodedLength(String, String[], int, int, int, int, int)}, with {@code cycles} read rows' cycles. */
  public static int encodedLength(String ref, String[] alts, int floats, int matePairs, int cycles, int height, int width,
      int channels) {
    return imageOffset(ref, alts, floats, matePairs, cycles) + height * width * channels;
  }

  /** The highest read row a mate pair may name (a row is one byte); rows past it are not paired. */
  public static final int MAX_MATE_ROW = 254;

  /** The most read rows whose cycles a record holds (Cycles n is one byte). */
  public static final int MAX_CYCLE_ROWS = 255;

  /** Total length of a SMALL_CALL record with these alleles. */
  public static int smallCallLength(String ref, String[] alts) {
    return imageOffset(ref, alts, SMALL_CALL_FLOATS);
  }

  public static final int PARTITION_DONE_LENGTH = HEADER_LENGTH;

  /** REF_BLOCK fields (the shared header fields keep their offsets above). */
  public static final int BLOCK_END_OFFSET = LABEL_OFFSET;
  public static final int BLOCK_MIN_GQ_OFFSET = 40;
  public static final int BLOCK_MIN_DP_OFFSET = 44;
  public static final int BLOCK_PL_OFFSET = 48;
  public static final int BLOCK_GQ_BIN_OFFSET = 60;
  /** The flags byte: {@link #BLOCK_CALLED} (GT 0/0 or 0, else ./. or .) and {@link #BLOCK_HAPLOID}. */
  public static final int BLOCK_CALLED_OFFSET = 61;
  /** Flag: the block is called hom-ref. */
  public static final int BLOCK_CALLED = 1;
  /** Flag: the block's positions have one copy; its PLs are of 0, <*> and an unused 0. */
  public static final int BLOCK_HAPLOID = 2;
  public static final int BLOCK_REF_BASE_OFFSET = 62;
  public static final int REF_BLOCK_LENGTH = 64;
}
