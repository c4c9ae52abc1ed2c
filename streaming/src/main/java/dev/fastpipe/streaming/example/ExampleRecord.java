package dev.fastpipe.streaming.example;

import static dev.fastpipe.streaming.example.ExampleRecordDescriptor.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import dev.fastpipe.inference.ImageShape;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;

/**
 * Flyweight over one example record laid out as {@link ExampleRecordDescriptor} draws it: wrap a
 * buffer and an offset, read fields in place. Nothing is copied until an accessor that returns a
 * String or array is called. Reusable: {@link #wrap} again for the next record.
 *
 * <p>Writing is its twin's, {@link ExampleRecordEncoder}: wrap a {@link org.agrona.MutableDirectBuffer}
 * at an offset, put the parts in wire order, then write the image (rows straight into the buffer)
 * at the offset it returns.
 */
public final class ExampleRecord {
  private DirectBuffer buffer;
  private int offset;

  public ExampleRecord wrap(DirectBuffer buffer, int offset) {
    this.buffer = buffer;
    this.offset = offset;
    return this;
  }

  public DirectBuffer buffer() {
    return buffer;
  }

  public int offset() {
    return offset;
  }

  public int kind() {
    return buffer.getInt(offset + KIND_OFFSET, LITTLE_ENDIAN);
  }

  public boolean isExample() {
    return kind() == KIND_EXAMPLE;
  }

  public boolean isPartitionDone() {
    return kind() == KIND_PARTITION_DONE;
  }

  public boolean isRefBlock() {
    return kind() == KIND_REF_BLOCK;
  }

  /** A bi-allelic candidate called by make_examples' small model: no image, 3 probabilities. */
  public boolean isSmallCall() {
    return kind() == KIND_SMALL_CALL;
  }

  /** How many floats the record carries (EXAMPLE: summary features or none; SMALL_CALL: 3). */
  public int floatCount() {
    return buffer.getByte(offset + FLOAT_COUNT_OFFSET) & 0xFF;
  }

  /** Float {@code i} of the record's float section. */
  public float floatAt(int i) {
    return buffer.getFloat(floatsAt() + 4 * i, LITTLE_ENDIAN);
  }

  /** Absolute offset of the mate pairs' section: just after the floats. */
  private int matePairsAt() {
    return floatsAt() + 4 * floatCount();
  }

  /** Absolute offset of the cycles' section: just after the mate pairs. */
  private int cyclesAt() {
    return matePairsAt() + 2 * matePairCount();
  }

  /** Absolute offset of the first float: just after the alleles. */
  private int floatsAt() {
    int at = offset + allelesOffset(altCount());
    for (int i = 0; i <= altCount(); i++) at += 4 + buffer.getInt(at, LITTLE_ENDIAN);
    return at;
  }

  /** EXAMPLE: how many fragments have both reads among the image's rows (see {@link #mateRow}). */
  public int matePairCount() {
    return kind() == KIND_EXAMPLE ? buffer.getByte(offset + MATE_PAIRS_OFFSET) & 0xFF : 0;
  }

  /** EXAMPLE: how many read rows, from the first, have their cycle in the record (see {@link #cycles}). */
  public int cycleCount() {
    return kind() == KIND_EXAMPLE ? buffer.getByte(offset + CYCLES_OFFSET) & 0xFF : 0;
  }

  /**
   * EXAMPLE: per read row (0 = the first below the reference rows), the place in its read of its
   * base at the centre column ({@code pileup.BaseErrorRate#cycle}; 255 where not known, rows past the
   * record's cycles included); into {@code into} when it has at least {@code rows} entries, else a new
   * array; null when the record has none.
   */
  public byte[] cycles(int rows, byte[] into) {
    int n = cycleCount();
    if (n == 0) return null;
    byte[] c = into != null && into.length >= rows ? into : new byte[rows];
    int known = Math.min(n, rows);
    buffer.getBytes(cyclesAt(), c, 0, known);
    java.util.Arrays.fill(c, known, rows, (byte) 0xFF);
    return c;
  }

  /** EXAMPLE: the read row (0 = the first below the reference rows) of mate {@code side} (0 or 1) of pair {@code k}. */
  public int mateRow(int k, int side) {
    return buffer.getByte(matePairsAt() + 2 * k + side) & 0xFF;
  }

  /**
   * EXAMPLE: per read row (0 = the first below the reference rows), the row of its mate, or -1;
   * into {@code into} when it has at least {@code rows} entries, else a new array; null when the
   * record has no mate pairs.
   */
  public int[] mateOfRows(int rows, int[] into) {
    int n = matePairCount();
    if (n == 0) return null;
    int[] mate = into != null && into.length >= rows ? into : new int[rows];
    java.util.Arrays.fill(mate, 0, rows, -1);
    int at = matePairsAt();
    for (int k = 0; k < n; k++) {
      int a = buffer.getByte(at + 2 * k) & 0xFF;
      int b = buffer.getByte(at + 2 * k + 1) & 0xFF;
      if (a < rows && b < rows) {
        mate[a] = b;
        mate[b] = a;
      }
    }
    return mate;
  }

  /** The record's floats, copied into {@code into} (length >= {@link #floatCount()}); returns {@code into}. */
  public float[] floats(float[] into) {
    int at = floatsAt();
    for (int i = 0, n = floatCount(); i < n; i++) into[i] = buffer.getFloat(at + 4 * i, LITTLE_ENDIAN);
    return into;
  }

  /** REF_BLOCK: the block's end (0-based, exclusive); its start is {@link #position()}. */
  public int blockEnd() {
    return buffer.getInt(offset + BLOCK_END_OFFSET, LITTLE_ENDIAN);
  }

  /** REF_BLOCK: the lowest hom-ref GQ of the block's positions. */
  public int blockMinGq() {
    return buffer.getInt(offset + BLOCK_MIN_GQ_OFFSET, LITTLE_ENDIAN);
  }

  /** REF_BLOCK: the lowest depth of the block's positions. */
  public int blockMinDp() {
    return buffer.getInt(offset + BLOCK_MIN_DP_OFFSET, LITTLE_ENDIAN);
  }

  /** REF_BLOCK: PL of genotype {@code g} (0 = 0/0, 1 = 0/<*>, 2 = <*>/<*>) at the block's first position of min GQ. */
  public int blockPl(int g) {
    return buffer.getInt(offset + BLOCK_PL_OFFSET + 4 * g, LITTLE_ENDIAN);
  }

  /** REF_BLOCK: the GQ bin every position of the block falls in. */
  public int blockGqBin() {
    return buffer.getByte(offset + BLOCK_GQ_BIN_OFFSET) & 0xFF;
  }

  /** REF_BLOCK: true for GT 0/0, false for ./. . */
  public boolean blockCalled() {
    return (buffer.getByte(offset + BLOCK_CALLED_OFFSET) & BLOCK_CALLED) != 0;
  }

  /** REF_BLOCK: whether the block's positions have one copy (its GT is 0 or ., its PLs those of 0 and <*>). */
  public boolean blockHaploid() {
    return (buffer.getByte(offset + BLOCK_CALLED_OFFSET) & BLOCK_HAPLOID) != 0;
  }

  /** REF_BLOCK: the ASCII reference base at the block's start. */
  public byte blockRefBase() {
    return buffer.getByte(offset + BLOCK_REF_BASE_OFFSET);
  }

  public int length() {
    return buffer.getInt(offset + LENGTH_OFFSET, LITTLE_ENDIAN);
  }

  public int contigIndex() {
    return buffer.getInt(offset + CONTIG_INDEX_OFFSET, LITTLE_ENDIAN);
  }

  /** 0-based start of the ref allele; for a PARTITION_DONE marker, the partition's end (exclusive). */
  public int position() {
    return buffer.getInt(offset + POSITION_OFFSET, LITTLE_ENDIAN);
  }

  public int shard() {
    return buffer.getInt(offset + SHARD_OFFSET, LITTLE_ENDIAN);
  }

  public int label() {
    return buffer.getInt(offset + LABEL_OFFSET, LITTLE_ENDIAN);
  }

  public long sequence() {
    return buffer.getLong(offset + SEQUENCE_OFFSET, LITTLE_ENDIAN);
  }

  public long partition() {
    return buffer.getLong(offset + PARTITION_OFFSET, LITTLE_ENDIAN);
  }

  public int examplesAtSite() {
    return buffer.getInt(offset + EXAMPLES_AT_SITE_OFFSET, LITTLE_ENDIAN);
  }

  public int depth() {
    return buffer.getInt(offset + DEPTH_OFFSET, LITTLE_ENDIAN);
  }

  public int height() {
    return buffer.getShort(offset + HEIGHT_OFFSET, LITTLE_ENDIAN) & 0xFFFF;
  }

  public int width() {
    return buffer.getShort(offset + WIDTH_OFFSET, LITTLE_ENDIAN) & 0xFFFF;
  }

  public int channels() {
    return buffer.getByte(offset + CHANNELS_OFFSET) & 0xFF;
  }

  /** The image's height x width x channels (a new object: see {@link #hasShape} for hot loops). */
  public ImageShape shape() {
    return new ImageShape(height(), width(), channels());
  }

  /** Whether the image is {@code shape}, read in place. */
  public boolean hasShape(ImageShape shape) {
    return height() == shape.height() && width() == shape.width() && channels() == shape.channels();
  }

  public int altCount() {
    return buffer.getByte(offset + ALT_COUNT_OFFSET) & 0xFF;
  }

  public int altSubsetCount() {
    return buffer.getByte(offset + SUBSET_COUNT_OFFSET) & 0xFF;
  }

  /** The i-th alt index (0-based into {@link #alts()}) of this example's alt subset. */
  public int altSubset(int i) {
    return buffer.getByte(offset + SUBSET_OFFSET + i);
  }

  public int[] altSubset() {
    int[] r = new int[altSubsetCount()];
    for (int i = 0; i < r.length; i++) r[i] = altSubset(i);
    return r;
  }

  /** Allele depth of allele {@code i}: 0 = ref, 1.. = alts. */
  public int alleleDepth(int i) {
    return buffer.getInt(offset + alleleDepthOffset(i), LITTLE_ENDIAN);
  }

  public int[] alleleDepths() {
    int[] r = new int[1 + altCount()];
    for (int i = 0; i < r.length; i++) r[i] = alleleDepth(i);
    return r;
  }

  public String ref() {
    int at = offset + allelesOffset(altCount());
    return string(at);
  }

  public String[] alts() {
    int n = altCount();
    String[] r = new String[n];
    int at = offset + allelesOffset(n);
    at += 4 + buffer.getInt(at, LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      r[i] = string(at);
      at += 4 + buffer.getInt(at, LITTLE_ENDIAN);
    }
    return r;
  }

  private String string(int at) {
    int len = buffer.getInt(at, LITTLE_ENDIAN);
    byte[] b = new byte[len];
    buffer.getBytes(at + 4, b);
    return new String(b, StandardCharsets.US_ASCII);
  }

  /** Absolute offset of the image in the wrapped buffer. */
  public int imageOffset() {
    return offset + buffer.getInt(offset + IMAGE_OFFSET_OFFSET, LITTLE_ENDIAN);
  }

  public int imageLength() {
    return height() * width() * channels();
  }

  /** Pixel value (0..255) at row, column, channel. */
  public int pixel(int row, int col, int channel) {
    return buffer.getByte(imageOffset() + (row * width() + col) * channels() + channel) & 0xFF;
  }

  @Override
  public String toString() {
    if (isRefBlock()) {
      return "REF_BLOCK{contig=" + contigIndex() + ", start=" + position() + ", end=" + blockEnd() + ", gq=" + blockMinGq()
          + ", bin=" + blockGqBin() + ", called=" + blockCalled() + ", minDp=" + blockMinDp() + ", partition="
          + partition() + "}";
    }
    if (isSmallCall()) {
      float[] p = floats(new float[SMALL_CALL_FLOATS]);
      return "SMALL_CALL{contig=" + contigIndex() + ", pos=" + position() + ", ref=" + ref() + ", alts="
          + String.join(",", alts()) + ", p=" + java.util.Arrays.toString(p) + ", shard=" + shard() + ", seq=" + sequence() + "}";
    }
    if (isPartitionDone()) {
      return "PARTITION_DONE{contig=" + contigIndex() + ", end=" + position() + ", partition="
          + partition() + ", shard=" + shard() + ", seq=" + sequence() + "}";
    }
    return "EXAMPLE{contig=" + contigIndex() + ", pos=" + position() + ", ref=" + ref() + ", alts="
        + String.join(",", alts()) + ", subset=" + java.util.Arrays.toString(altSubset())
        + ", label=" + label() + ", shard=" + shard() + ", seq=" + sequence() + ", image="
        + height() + "x" + width() + "x" + channels() + "}";
  }

  // ---------------------------------------------------------------------------------------
  // Encoding

  /** Length of an EXAMPLE record for these alleles and image shape (see the descriptor). */
  public static int encodedLength(String ref, String[] alts, int height, int width, int channels) {
    return ExampleRecordDescriptor.encodedLength(ref, alts, height, width, channels);
  }
}
