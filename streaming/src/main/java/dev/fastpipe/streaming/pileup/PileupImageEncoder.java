package dev.fastpipe.streaming.pileup;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.Arrays;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Draws DeepVariant pileup images (H x W x C uint8, row-major HWC) straight into a buffer: 5
 * reference rows, then one row per read, then zero rows. Reads are drawn as DeepVariant's
 * pileup_image_native.cc draws them: M/=/X bases at their reference column; an insertion or a
 * deletion puts {@link PileupConstants#INDEL_ANCHOR} at its anchor column (the reference base
 * before it), with the quality of the first inserted base or of the base before the deletion;
 * soft clips, N skips, hard clips and pads draw nothing. One reused scratch row, no per-base
 * allocation.
 */
public final class PileupImageEncoder {
  private final PileupChannel[] channels;
  private final int height;
  private final int width;
  private final int c;
  private final byte[] row;
  private final PileupRead pileupRead = new PileupRead();

  public PileupImageEncoder(List<PileupChannel> channels, int height, int width) {
    this.channels = channels.toArray(new PileupChannel[0]);
    this.height = height;
    this.width = width;
    this.c = this.channels.length;
    this.row = new byte[width * c];
  }

  /** DeepVariant's six default channels, plus insert size when {@code count == 7}. */
  public static List<PileupChannel> defaultChannels(int count) {
    if (count != 6 && count != 7) throw new IllegalArgumentException("channels must be 6 or 7");
    List<PileupChannel> six = List.of(new ReadBaseChannel(), new BaseQualityChannel(),
        new MappingQualityChannel(), new StrandChannel(), new ReadSupportsVariantChannel(),
        new BaseDiffersFromRefChannel());
    if (count == 6) return six;
    List<PileupChannel> seven = new java.util.ArrayList<>(six);
    seven.add(new InsertSizeChannel());
    return List.copyOf(seven);
  }

  /**
   * Copies the image of {@code height x width x channels} at {@code src[offset]} to {@code dst[0, ...)}
   * with its reference rows and only the read rows {@code r} (0 = the first after the reference rows)
   * where {@code keep[r]}, in order, moved up; the rows left over are blank.
   */
  public static void copyReadRows(DirectBuffer src, int offset, int height, int width, int channels, boolean[] keep,
      MutableDirectBuffer dst) {
    int rowLength = width * channels;
    int top = PileupConstants.REFERENCE_ROWS * rowLength;
    dst.putBytes(0, src, offset, top);
    int at = top;
    for (int r = 0; r < keep.length && r < height - PileupConstants.REFERENCE_ROWS; r++) {
      if (!keep[r]) continue;
      dst.putBytes(at, src, offset + top + r * rowLength, rowLength);
      at += rowLength;
    }
    dst.setMemory(at, height * rowLength - at, (byte) 0);
  }

  public int height() { return height; }
  public int width() { return width; }
  public int channels() { return c; }
  public int imageLength() { return height * width * c; }
  public int maxReadRows() { return height - PileupConstants.REFERENCE_ROWS; }

  /**
   * Writes one image at {@code buf[at, at + imageLength())}. {@code ref[i]} is the reference base
   * at 0-based position {@code refStart + i}; column 0 is position {@code windowStart}.
   * {@code reads[0, n)} are drawn in order (at most {@link #maxReadRows()}); {@code support[i]}
   * is read i's read-supports-variant state (0, 1, 2).
   */
  public void encode(MutableDirectBuffer buf, int at, byte[] ref, int refStart, int windowStart,
      SAMRecord[] reads, int[] support, int n) {
    int rowLen = width * c;
    // Reference rows.
    for (int col = 0; col < width; col++) {
      byte rb = refAt(ref, refStart, windowStart + col);
      int o = col * c;
      for (int ch = 0; ch < c; ch++) row[o + ch] = (byte) channels[ch].referenceValue(rb);
    }
    int r = 0;
    for (; r < PileupConstants.REFERENCE_ROWS && r < height; r++) buf.putBytes(at + r * rowLen, row);
    int rows = Math.min(n, height - r);
    for (int i = 0; i < rows; i++, r++) {
      drawRead(reads[i], support[i], ref, refStart, windowStart);
      buf.putBytes(at + r * rowLen, row);
    }
    if (r < height) buf.setMemory(at + r * rowLen, (height - r) * rowLen, (byte) 0);
  }

  private static byte refAt(byte[] ref, int refStart, int pos) {
    int i = pos - refStart;
    return i >= 0 && i < ref.length ? ref[i] : (byte) 'N';
  }

  private void drawRead(SAMRecord read, int supportsAlt, byte[] ref, int refStart, int windowStart) {
    Arrays.fill(row, (byte) 0);
    PileupRead pr = pileupRead.set(read.getMappingQuality(), read.getReadNegativeStrandFlag(),
        supportsAlt, read.getReadPairedFlag() ? read.getInferredInsertSize() : 0);
    byte[] bases = read.getReadBases();
    byte[] quals = read.getBaseQualities();
    int refPos = read.getAlignmentStart() - 1;
    int readPos = 0;
    int windowEnd = windowStart + width;
    List<CigarElement> cigar = read.getCigar().getCigarElements();
    for (int e = 0, ne = cigar.size(); e < ne; e++) {
      CigarElement el = cigar.get(e);
      int len = el.getLength();
      switch (el.getOperator()) {
        case M, EQ, X -> {
          int from = Math.max(0, windowStart - refPos);
          int to = Math.min(len, windowEnd - refPos);
          for (int k = from; k < to; k++) {
            int pos = refPos + k;
            pixel(pr, pos - windowStart, bases[readPos + k], qual(quals, readPos + k),
                refAt(ref, refStart, pos));
          }
          refPos += len;
          readPos += len;
        }
        case I -> {
          int col = refPos - 1 - windowStart;
          if (refPos > 0 && col >= 0 && col < width) {
            pixel(pr, col, PileupConstants.INDEL_ANCHOR, qual(quals, readPos), refAt(ref, refStart, refPos - 1));
          }
          readPos += len;
        }
        case D -> {
          int col = refPos - 1 - windowStart;
          if (readPos > 0 && col >= 0 && col < width) {
            pixel(pr, col, PileupConstants.INDEL_ANCHOR, qual(quals, readPos - 1), refAt(ref, refStart, refPos - 1));
          }
          refPos += len;
        }
        case S -> readPos += len;
        case N -> refPos += len;
        default -> { } // H, P: no effect on either coordinate
      }
    }
  }

  /**
   * Whether the {@code len} inserted bases from read index {@code from} reach {@code minBaseQuality}
   * on average (a missing quality counts 0): when an insertion counts, for the candidate's allele
   * count ({@code makeexamples.AlleleCounter}) and for the read's row in the image alike.
   */
  public static boolean insertionQualityOk(byte[] quals, int from, int len, int minBaseQuality) {
    long sum = 0;
    for (int i = 0; i < len; i++) sum += qual(quals, from + i);
    return sum >= (long) minBaseQuality * len;
  }

  private static int qual(byte[] quals, int i) {
    return i < quals.length ? quals[i] : 0;
  }

  private void pixel(PileupRead pr, int col, byte base, int q, byte refBase) {
    int o = col * c;
    for (int ch = 0; ch < c; ch++) row[o + ch] = (byte) channels[ch].readValue(pr, base, q, refBase);
  }

  /**
   * False when the read draws a pixel at {@code position} (0-based) with base quality below
   * {@code minBaseQuality}: DeepVariant leaves such reads out of the image. Where the read inserts
   * bases after {@code position}, what it shows there is the insertion, so the inserted bases'
   * mean quality decides instead of the anchor's, as the candidate's allele count asks
   * ({@code makeexamples.AlleleCounter}).
   */
  public static boolean qualityOkAt(SAMRecord read, int position, int minBaseQuality) {
    byte[] quals = read.getBaseQualities();
    int refPos = read.getAlignmentStart() - 1;
    int readPos = 0;
    boolean ok = true;
    List<CigarElement> cigar = read.getCigar().getCigarElements();
    for (int e = 0, ne = cigar.size(); e < ne && refPos <= position + 1; e++) {
      CigarElement el = cigar.get(e);
      int len = el.getLength();
      switch (el.getOperator()) {
        case M, EQ, X -> {
          boolean anchorsInsertion = position == refPos + len - 1 && e + 1 < ne
              && cigar.get(e + 1).getOperator() == CigarOperator.I;
          if (position >= refPos && position < refPos + len && !anchorsInsertion) {
            ok &= qual(quals, readPos + position - refPos) >= minBaseQuality;
          }
          refPos += len;
          readPos += len;
        }
        case I -> {
          if (refPos - 1 == position) ok &= insertionQualityOk(quals, readPos, len, minBaseQuality);
          readPos += len;
        }
        case D -> {
          if (refPos - 1 == position && readPos > 0) ok &= qual(quals, readPos - 1) >= minBaseQuality;
          refPos += len;
        }
        case S -> readPos += len;
        case N -> refPos += len;
        default -> { }
      }
    }
    return ok;
  }
}
