package dev.fastpipe.streaming.example;

import static dev.fastpipe.streaming.example.ExampleRecordDescriptor.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import org.agrona.MutableDirectBuffer;

/**
 * Writing flyweight of {@link ExampleRecord}: wrap a buffer and an offset, then put the record's
 * parts in the order {@link ExampleRecordDescriptor} draws them, each at its place; the last call
 * of each kind writes what depends on the rest (length, counts, image offset, padding). Every byte
 * of the record (image aside) is written, so a slot that held another record needs no clearing.
 * Reusable and allocation-free: one per producer, {@link #wrap} again for the next record.
 *
 * <pre>{@code
 * int imageAt = encoder.wrap(buffer, at).origin(shard, sequence, partition)
 *     .example(contigIndex, position, label).site(examplesAtSite, depth)
 *     .alleles(ref, alts, alleleDepths).altSubset(subset).floats(features) // floats: optional
 *     .matePairs(rows, pairs) // optional, after the floats
 *     .cycles(cycles, rows) // optional, after the mate pairs
 *     .image(height, width, channels); // then write the image's bytes at imageAt
 * encoder.wrap(buffer, at).origin(...).smallCall(contigIndex, position, depth)
 *     .alleles(ref, alts, alleleDepths).probabilities(p);
 * encoder.wrap(buffer, at).origin(...).refBlock(contigIndex, start, end)
 *     .blockQuality(minGq, minDp, pl).blockBin(gqBin, called, haploid, refBase);
 * encoder.wrap(buffer, at).origin(...).partitionDone(contigIndex, partitionEnd);
 * }</pre>
 *
 * A part missing, out of order (the alleles before the floats and the image) or of another kind's
 * record is an {@link IllegalStateException} at the call that notices it. Single-threaded.
 */
public final class ExampleRecordEncoder {
  private static final int ORIGIN = 1, SITE = 2, ALLELES = 4, SUBSET = 8, FLOATS = 16, QUALITY = 32, MATES = 64,
      CYCLES = 128;

  private MutableDirectBuffer buffer;
  private int offset;
  private int kind;
  private int parts; // the parts of the current record written so far
  private int altCount;
  private int floatCount;
  private int matePairs;
  private int cycles;
  private int limit; // absolute offset just past the variable section written so far

  /** Starts a record at {@code offset} of {@code buffer} (8-byte aligned, room for its length). */
  public ExampleRecordEncoder wrap(MutableDirectBuffer buffer, int offset) {
    this.buffer = buffer;
    this.offset = offset;
    this.kind = 0;
    this.parts = 0;
    this.floatCount = 0;
    this.matePairs = 0;
    this.cycles = 0;
    return this;
  }

  public MutableDirectBuffer buffer() {
    return buffer;
  }

  public int offset() {
    return offset;
  }

  /** Who wrote the record and where it stands in the stream: every kind has them (offsets 16, 24, 32). */
  public ExampleRecordEncoder origin(int shard, long sequence, long partition) {
    buffer.putInt(offset + SHARD_OFFSET, shard, LITTLE_ENDIAN);
    buffer.putLong(offset + SEQUENCE_OFFSET, sequence, LITTLE_ENDIAN);
    buffer.putLong(offset + PARTITION_OFFSET, partition, LITTLE_ENDIAN);
    parts |= ORIGIN;
    return this;
  }

  // --- EXAMPLE and SMALL_CALL ---------------------------------------------------------------

  /** An EXAMPLE of the candidate at {@code position} (0-based start of ref); {@code label} -1: none. */
  public ExampleRecordEncoder example(int contigIndex, int position, int label) {
    start(KIND_EXAMPLE, contigIndex, position, label);
    return this;
  }

  /** EXAMPLE: how many examples the candidate's site has (one per alt subset) and its depth. */
  public ExampleRecordEncoder site(int examplesAtSite, int depth) {
    expect(KIND_EXAMPLE, "site");
    buffer.putInt(offset + EXAMPLES_AT_SITE_OFFSET, examplesAtSite, LITTLE_ENDIAN);
    buffer.putInt(offset + DEPTH_OFFSET, depth, LITTLE_ENDIAN);
    parts |= SITE;
    return this;
  }

  /**
   * A SMALL_CALL of the bi-allelic candidate at {@code position}: label -1, one example at the
   * site, alt subset {0}; {@link #alleles} and {@link #probabilities} follow.
   */
  public ExampleRecordEncoder smallCall(int contigIndex, int position, int depth) {
    start(KIND_SMALL_CALL, contigIndex, position, -1);
    buffer.putInt(offset + EXAMPLES_AT_SITE_OFFSET, 1, LITTLE_ENDIAN);
    buffer.putInt(offset + DEPTH_OFFSET, depth, LITTLE_ENDIAN);
    putSubset(0, -1, 1);
    parts |= SITE | SUBSET;
    return this;
  }

  /** The alleles and their depths ({@code alleleDepths}: ref first, then one per alt), after the header. */
  public ExampleRecordEncoder alleles(String ref, String[] alts, int[] alleleDepths) {
    if (kind != KIND_EXAMPLE && kind != KIND_SMALL_CALL) throw new IllegalStateException("alleles: not an example record");
    if ((parts & FLOATS) != 0) throw new IllegalStateException("alleles after the floats");
    if (alts.length > MAX_ALTS) throw new IllegalArgumentException("too many alts: " + alts.length);
    if (alleleDepths.length != 1 + alts.length) {
      throw new IllegalArgumentException("allele depths must be ref + one per alt");
    }
    altCount = alts.length;
    buffer.putByte(offset + ALT_COUNT_OFFSET, (byte) altCount);
    for (int i = 0; i < alleleDepths.length; i++) {
      buffer.putInt(offset + alleleDepthOffset(i), alleleDepths[i], LITTLE_ENDIAN);
    }
    int at = putString(offset + allelesOffset(altCount), ref);
    for (String a : alts) at = putString(at, a);
    limit = at;
    parts |= ALLELES;
    return this;
  }

  /** EXAMPLE: the alt subset this example stands for (1 or 2 indices into the alts). */
  public ExampleRecordEncoder altSubset(int[] subset) {
    expect(KIND_EXAMPLE, "altSubset");
    if (subset.length < 1 || subset.length > MAX_SUBSET) {
      throw new IllegalArgumentException("alt subset must have 1 or 2 indices");
    }
    putSubset(subset[0], subset.length > 1 ? subset[1] : -1, subset.length);
    parts |= SUBSET;
    return this;
  }

  /** EXAMPLE: the candidate's summary features, after the alleles (null or empty: none). */
  public ExampleRecordEncoder floats(float[] floats) {
    expect(KIND_EXAMPLE, "floats");
    putFloats(floats);
    return this;
  }

  /**
   * EXAMPLE: the read rows of {@code pairs} fragments with both reads in the image,
   * {@code rows[2k]} and {@code rows[2k + 1]} (each 0..{@value ExampleRecordDescriptor#MAX_MATE_ROW}),
   * after the floats (none put: none).
   */
  public ExampleRecordEncoder matePairs(int[] rows, int pairs) {
    expect(KIND_EXAMPLE, "matePairs");
    if ((parts & MATES) != 0) throw new IllegalStateException("mate pairs put twice");
    if ((parts & FLOATS) == 0) putFloats(null);
    if ((parts & CYCLES) != 0) throw new IllegalStateException("mate pairs after the cycles");
    if (pairs < 0 || pairs > (MAX_MATE_ROW + 1) / 2 || 2 * pairs > rows.length) throw new IllegalArgumentException("mate pairs: " + pairs);
    for (int i = 0; i < 2 * pairs; i++) {
      if (rows[i] < 0 || rows[i] > MAX_MATE_ROW) throw new IllegalArgumentException("mate row out of range: " + rows[i]);
      buffer.putByte(limit + i, (byte) rows[i]);
    }
    limit += 2 * pairs;
    matePairs = pairs;
    parts |= MATES;
    return this;
  }

  /**
   * EXAMPLE: the cycles of the first {@code rows} read rows ({@code cycles[r]}, 0..255: see
   * {@link ExampleRecordDescriptor}), after the mate pairs (none put: none); at most
   * {@value ExampleRecordDescriptor#MAX_CYCLE_ROWS} rows.
   */
  public ExampleRecordEncoder cycles(byte[] cycles, int rows) {
    expect(KIND_EXAMPLE, "cycles");
    if ((parts & CYCLES) != 0) throw new IllegalStateException("cycles put twice");
    if (rows < 0 || rows > MAX_CYCLE_ROWS || rows > cycles.length) throw new IllegalArgumentException("cycle rows: " + rows);
    if ((parts & FLOATS) == 0) putFloats(null);
    buffer.putBytes(limit, cycles, 0, rows);
    limit += rows;
    this.cycles = rows;
    parts |= CYCLES;
    return this;
  }

  /**
   * Ends an EXAMPLE with its image's shape: writes the length, the counts, the image offset and the
   * padding before the image, and returns the image's absolute offset, where the caller writes
   * {@code height * width * channels} bytes (row-major HWC). The record's length is
   * {@link ExampleRecordDescriptor#encodedLength}.
   */
  public int image(int height, int width, int channels) {
    expect(KIND_EXAMPLE, "image");
    require(ORIGIN | SITE | ALLELES | SUBSET, "EXAMPLE");
    return finish(height, width, channels);
  }

  /**
   * Ends a SMALL_CALL with the small model's {@code probabilities} {p(hom-ref), p(het), p(hom-alt)}
   * and an empty image; returns its length ({@link ExampleRecordDescriptor#smallCallLength}).
   */
  public int probabilities(float[] probabilities) {
    expect(KIND_SMALL_CALL, "probabilities");
    require(ORIGIN | ALLELES, "SMALL_CALL");
    if (altCount != 1) throw new IllegalArgumentException("a small call is bi-allelic, got " + altCount + " alts");
    if (probabilities.length != SMALL_CALL_FLOATS) throw new IllegalArgumentException("need 3 probabilities");
    putFloats(probabilities);
    return finish(0, 0, 0) - offset;
  }

  // --- PARTITION_DONE ----------------------------------------------------------------------

  /**
   * Writes a PARTITION_DONE marker (length {@link ExampleRecordDescriptor#PARTITION_DONE_LENGTH}):
   * this shard has emitted everything of its partition before {@code partitionEnd} (exclusive).
   */
  public void partitionDone(int contigIndex, int partitionEnd) {
    require(ORIGIN, "PARTITION_DONE");
    start(KIND_PARTITION_DONE, contigIndex, partitionEnd, -1);
    buffer.putInt(offset + LENGTH_OFFSET, PARTITION_DONE_LENGTH, LITTLE_ENDIAN);
    buffer.setMemory(offset + EXAMPLES_AT_SITE_OFFSET, HEADER_LENGTH - EXAMPLES_AT_SITE_OFFSET, (byte) 0);
  }

  // --- REF_BLOCK ---------------------------------------------------------------------------

  /** A REF_BLOCK of the positions [start, end) (length {@link ExampleRecordDescriptor#REF_BLOCK_LENGTH}). */
  public ExampleRecordEncoder refBlock(int contigIndex, int start, int end) {
    if (end <= start) throw new IllegalArgumentException("empty block [" + start + ", " + end + ")");
    start(KIND_REF_BLOCK, contigIndex, start, end); // the block's end is where an example's label is
    buffer.putInt(offset + LENGTH_OFFSET, REF_BLOCK_LENGTH, LITTLE_ENDIAN);
    return this;
  }

  /** REF_BLOCK: its lowest GQ and depth, and the PLs {0/0, 0/<*>, <*>/<*>} at its first position of min GQ. */
  public ExampleRecordEncoder blockQuality(int minGq, int minDp, int[] pl) {
    expect(KIND_REF_BLOCK, "blockQuality");
    buffer.putInt(offset + BLOCK_MIN_GQ_OFFSET, minGq, LITTLE_ENDIAN);
    buffer.putInt(offset + BLOCK_MIN_DP_OFFSET, minDp, LITTLE_ENDIAN);
    for (int g = 0; g < 3; g++) buffer.putInt(offset + BLOCK_PL_OFFSET + 4 * g, pl[g], LITTLE_ENDIAN);
    parts |= QUALITY;
    return this;
  }

  /**
   * Ends a REF_BLOCK: its GQ bin (0-255), whether it is called 0/0 (else ./.), of one copy, and the
   * ASCII reference base at its start.
   */
  public void blockBin(int gqBin, boolean called, boolean haploid, byte refBase) {
    expect(KIND_REF_BLOCK, "blockBin");
    require(ORIGIN | QUALITY, "REF_BLOCK");
    if (gqBin < 0 || gqBin > 255) throw new IllegalArgumentException("GQ bin out of range: " + gqBin);
    buffer.putByte(offset + BLOCK_GQ_BIN_OFFSET, (byte) gqBin);
    buffer.putByte(offset + BLOCK_CALLED_OFFSET, (byte) ((called ? BLOCK_CALLED : 0) | (haploid ? BLOCK_HAPLOID : 0)));
    buffer.putByte(offset + BLOCK_REF_BASE_OFFSET, refBase);
    buffer.putByte(offset + BLOCK_REF_BASE_OFFSET + 1, (byte) 0);
  }

  // -----------------------------------------------------------------------------------------

  /** The first fields of every kind: kind, contig, position (or start), and offset 20 (label or block end). */
  private void start(int kind, int contigIndex, int position, int at20) {
    this.kind = kind;
    buffer.putInt(offset + KIND_OFFSET, kind, LITTLE_ENDIAN);
    buffer.putInt(offset + CONTIG_INDEX_OFFSET, contigIndex, LITTLE_ENDIAN);
    buffer.putInt(offset + POSITION_OFFSET, position, LITTLE_ENDIAN);
    buffer.putInt(offset + LABEL_OFFSET, at20, LITTLE_ENDIAN);
  }

  private void expect(int kind, String part) {
    if (this.kind != kind) throw new IllegalStateException(part + ": the record started is not of that kind");
  }

  private void require(int needed, String what) {
    if ((parts & needed) != needed) {
      throw new IllegalStateException(what + " record incomplete: " + missing(needed & ~parts));
    }
  }

  private static String missing(int m) {
    StringBuilder b = new StringBuilder();
    String[] names = {"origin", "site", "alleles", "altSubset", "floats", "blockQuality"};
    for (int i = 0; i < names.length; i++) if ((m & (1 << i)) != 0) b.append(b.length() == 0 ? "" : ", ").append(names[i]);
    return b.append(" not put").toString();
  }

  private void putSubset(int first, int second, int count) {
    buffer.putByte(offset + SUBSET_COUNT_OFFSET, (byte) count);
    buffer.putByte(offset + SUBSET_OFFSET, (byte) first);
    buffer.putByte(offset + SUBSET_OFFSET + 1, (byte) second);
  }

  private void putFloats(float[] floats) {
    if ((parts & ALLELES) == 0) throw new IllegalStateException("floats before the alleles");
    if ((parts & FLOATS) != 0) throw new IllegalStateException("floats put twice");
    if ((parts & MATES) != 0) throw new IllegalStateException("floats after the mate pairs");
    int n = floats == null ? 0 : floats.length;
    if (n > MAX_FLOATS) throw new IllegalArgumentException("too many floats: " + n);
    for (int i = 0; i < n; i++) buffer.putFloat(limit + 4 * i, floats[i], LITTLE_ENDIAN);
    limit += 4 * n;
    floatCount = n;
    parts |= FLOATS;
  }

  /** Shape, counts, padding, image offset and length; returns the image's absolute offset. */
  private int finish(int height, int width, int channels) {
    int imageRel = align(limit - offset);
    buffer.putInt(offset + LENGTH_OFFSET, imageRel + height * width * channels, LITTLE_ENDIAN);
    buffer.putShort(offset + HEIGHT_OFFSET, (short) height, LITTLE_ENDIAN);
    buffer.putShort(offset + WIDTH_OFFSET, (short) width, LITTLE_ENDIAN);
    buffer.putByte(offset + CHANNELS_OFFSET, (byte) channels);
    buffer.putByte(offset + FLOAT_COUNT_OFFSET, (byte) floatCount);
    buffer.putByte(offset + MATE_PAIRS_OFFSET, (byte) matePairs);
    buffer.putByte(offset + CYCLES_OFFSET, (byte) cycles);
    buffer.putInt(offset + IMAGE_OFFSET_OFFSET, imageRel, LITTLE_ENDIAN);
    for (int at = limit; at < offset + imageRel; at++) buffer.putByte(at, (byte) 0);
    return offset + imageRel;
  }

  private int putString(int at, String s) {
    buffer.putInt(at, s.length(), LITTLE_ENDIAN);
    at += 4;
    for (int i = 0; i < s.length(); i++) buffer.putByte(at + i, (byte) s.charAt(i));
    return at + s.length();
  }
}
