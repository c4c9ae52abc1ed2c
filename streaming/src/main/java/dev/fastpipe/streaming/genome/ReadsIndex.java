package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecordIterator;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.SamFiles;
import htsjdk.samtools.SamReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The index of a BAM (.bai or .csi) or CRAM (.crai or .bai), read by us rather than through htsjdk so
 * that it can be checked against the reads it sits beside: htsjdk trusts an index, and one taken from
 * another file gives reads from the wrong place, no reads at all, or a decoding error deep in a run.
 *
 * <p>Checked on reading: the index has one entry per contig of the reads' header; every file offset it
 * holds lies inside the reads file; every place it puts reads lies inside its contig. Then
 * {@link #probe} reads, through htsjdk and this index, the first and last places of a contig where
 * the index says reads start, and finds them there. What the index promises is kept for the run:
 * per contig, the spans in which reads start ({@link #readsWithin}), for a BAM the count of aligned
 * reads, and how many bytes of the file hold the reads of each stretch of a contig
 * ({@link #bytesIn}, what {@code fastpipe plan} balances chunks by).
 */
public final class ReadsIndex {
  /** BAI's bin layout: 16 kb finest bins, 5 levels (CSI gives its own). */
  private static final int BAI_MIN_SHIFT = 14;
  private static final int BAI_DEPTH = 5;
  /** Windows of {@link #bytesIn} for a CRAM, whose index has no bins: 16 kb, as BAI's finest bins. */
  private static final int CRAI_WINDOW_SHIFT = 14;
  /**
   * Compressed bytes per uncompressed byte assumed when the file's own blocks cannot be measured
   * ({@link #bgzfRatio}); BAM compresses about 3 to 4 times.
   */
  static final double BGZF_RATIO = 0.3;
  /** BGZF blocks measured for the ratio of compressed to uncompressed bytes. */
  private static final int RATIO_BLOCKS = 8;

  public final Path reads;
  public final Path path;
  private final SAMFileHeader header;
  /** Aligned reads per contig (BAM indexes); -1 where the index does not say (CRAM, or no pseudo-bin). */
  private final long[] aligned;
  /** Reads placed on each contig, aligned or not; -1 where the index does not say. */
  private final long[] placed;
  /** Per contig, 0-based half-open spans in which the index puts reads' starts, sorted by start then end. */
  private final long[][] spans;
  /** Windows of {@link #bytes} are 2^windowShift bases. */
  private final int windowShift;
  /** Per contig and window, the estimated bytes of the file holding the reads that start there. */
  private final double[][] bytes;

  private ReadsIndex(Path reads, Path path, SAMFileHeader header, long[] aligned, long[] placed, long[][] spans,
      int windowShift, double[][] bytes) {
    this.reads = reads;
    this.path = path;
    this.header = header;
    this.aligned = aligned;
    this.placed = placed;
    this.spans = spans;
    this.windowShift = windowShift;
    this.bytes = bytes;
  }

  /** The index htsjdk would use for {@code reads}, or an error saying there is none. */
  public static Path find(Path reads) {
    Path index = SamFiles.findIndex(reads);
    if (index == null) {
      throw new InputException(reads + ": no index (.bai, .csi or .crai) beside it; index it with samtools index " + reads);
    }
    return index;
  }

  /** Reads the index of {@code reads} (whose header is {@code header}) and checks it against the file. */
  public static ReadsIndex read(Path reads, SAMFileHeader header) {
    Path index = find(reads);
    long readsLength = FileFormat.size(reads);
    if (FileFormat.size(index) == 0) throw new InputException(index + ": empty index file; re-index with samtools index " + reads);
    byte[] magic = FileFormat.raw(index, 0, 4);
    try {
      if (Arrays.equals(magic, new byte[] {'B', 'A', 'I', 1})) {
        return binned(reads, index, header, readsLength, ByteBuffer.wrap(Files.readAllBytes(index)), false);
      }
      if (FileFormat.compression(index) == FileFormat.Compression.PLAIN) {
        throw new InputException(index + ": not a BAM or CRAM index (it starts with \"" + FileFormat.printable(magic, 4) + "\")");
      }
      byte[] text;
      try (InputStream in = new GZIPInputStream(Files.newInputStream(index))) {
        text = in.readAllBytes();
      }
      if (text.length >= 4 && Arrays.equals(Arrays.copyOf(text, 4), new byte[] {'C', 'S', 'I', 1})) {
        return binned(reads, index, header, readsLength, ByteBuffer.wrap(text), true);
      }
      return crai(reads, index, header, readsLength, text);
    } catch (BufferUnderflowException e) {
      throw new InputException(index + ": truncated index (it ends inside an entry); re-index with samtools index " + reads);
    } catch (IOException e) {
      throw InputException.reading(index, "cannot read the index", e);
    }
  }

  /** A .bai, or a .csi (BGZF-decompressed): bins of chunks of virtual file offsets per contig. */
  private static ReadsIndex binned(Path reads, Path index, SAMFileHeader header, long readsLength, ByteBuffer b,
      boolean csi) {
    b.order(ByteOrder.LITTLE_ENDIAN);
    b.position(4);
    int minShift = BAI_MIN_SHIFT;
    int depth = BAI_DEPTH;
    if (csi) {
      minShift = b.getInt();
      depth = b.getInt();
      int aux = b.getInt();
      if (minShift < 0 || minShift > 30 || depth < 0 || depth > 10 || aux < 0) throw corrupt(index, reads, "bad CSI header");
      b.position(b.position() + aux);
    }
    int nRef = b.getInt();
    int nSeq = header.getSequenceDictionary().size();
    if (nRef != nSeq) {
      throw doesNotIndex(index, reads, "the index has " + nRef + " contig" + (nRef == 1 ? "" : "s") + " but the reads' header has " + nSeq);
    }
    int pseudoBin = ((1 << 3 * (depth + 1)) - 1) / 7 + 1;
    long[] aligned = new long[nRef];
    long[] placed = new long[nRef];
    long[][] spans = new long[nRef][];
    // Bytes per window in two parts, combined once the file's compression ratio is known: compressed
    // bytes between the blocks where chunks begin and end, and uncompressed bytes inside blocks.
    double[][] bytes = new double[nRef][];
    double[][] inBlocks = new double[nRef][];
    List<Long> blocks = new ArrayList<>();
    for (int ref = 0; ref < nRef; ref++) {
      SAMSequenceRecord contig = header.getSequence(ref);
      bytes[ref] = new double[windows(contig.getSequenceLength(), minShift)];
      inBlocks[ref] = new double[bytes[ref].length];
      int nBin = b.getInt();
      aligned[ref] = nBin == 0 ? 0 : -1; // a contig without bins holds no read; else the statistics bin says
      placed[ref] = aligned[ref];
      if (nBin < 0 || nBin > pseudoBin + 1) throw corrupt(index, reads, nBin + " bins for contig " + contig.getSequenceName());
      List<long[]> found = new ArrayList<>();
      for (int i = 0; i < nBin; i++) {
        long bin = b.getInt() & 0xffffffffL;
        if (csi) b.getLong(); // the bin's smallest offset of a read overlapping it: checked with the chunks
        int nChunk = b.getInt();
        if (nChunk < 0) throw corrupt(index, reads, nChunk + " chunks in a bin");
        if (nChunk > b.remaining() / 16) throw new BufferUnderflowException(); // truncated
        if (bin == pseudoBin) {
          if (nChunk != 2) throw corrupt(index, reads, "a statistics bin of " + nChunk + " chunks");
          offsetsInside(index, reads, readsLength, b.getLong(), b.getLong());
          aligned[ref] = b.getLong();
          placed[ref] = aligned[ref] + b.getLong(); // and the placed unaligned ones
          continue;
        }
        if (bin >= pseudoBin) throw corrupt(index, reads, "bin " + bin + " beyond the index's levels");
        double compressed = 0;
        double inBlock = 0;
        for (int c = 0; c < nChunk; c++) {
          long begin = b.getLong();
          long end = b.getLong();
          offsetsInside(index, reads, readsLength, begin, end);
          compressed += (end >>> 16) - (begin >>> 16);
          inBlock += (end & 0xffff) - (begin & 0xffff);
          if (blocks.size() < 1 << 16) blocks.add(begin >>> 16);
        }
        if (nChunk > 0) {
          long[] span = binSpan(index, reads, contig, (int) bin, minShift, depth);
          found.add(span);
          spread(bytes[ref], minShift, span[0], span[1], compressed);
          spread(inBlocks[ref], minShift, span[0], span[1], inBlock);
        }
      }
      if (!csi) {
        int nIntervals = b.getInt();
        if (nIntervals < 0) throw corrupt(index, reads, nIntervals + " linear-index entries");
        if (nIntervals > b.remaining() / 8) throw new BufferUnderflowException(); // truncated
        for (int i = 0; i < nIntervals; i++) {
          long offset = b.getLong();
          if (offset >>> 16 > readsLength) {
            throw doesNotIndex(index, reads, "it points at byte " + (offset >>> 16) + ", past the end of the reads (" + readsLength + " bytes)");
          }
        }
      }
      spans[ref] = sorted(found);
    }
    double ratio = bgzfRatio(reads, readsLength, blocks);
    for (int ref = 0; ref < nRef; ref++) {
      for (int w = 0; w < bytes[ref].length; w++) bytes[ref][w] = Math.max(0, bytes[ref][w] + ratio * inBlocks[ref][w]);
    }
    return new ReadsIndex(reads, index, header, aligned, placed, spans, minShift, bytes);
  }

  /**
   * Compressed bytes per uncompressed byte of the reads' BGZF blocks, measured on up to
   * {@link #RATIO_BLOCKS} blocks where the index's chunks begin, spread over the file (a block's
   * header gives its compressed size, its last four bytes its uncompressed size); {@link #BGZF_RATIO}
   * when none can be read. It weighs the part of a chunk that lies inside one block.
   */
  private static double bgzfRatio(Path reads, long readsLength, List<Long> blocks) {
    long compressed = 0;
    long uncompressed = 0;
    int n = Math.min(RATIO_BLOCKS, blocks.size());
    for (int i = 0; i < n; i++) {
      long at = blocks.get((int) ((long) i * blocks.size() / n));
      if (at + 18 > readsLength) continue;
      byte[] h = FileFormat.raw(reads, at, 18);
      if ((h[0] & 0xff) != 0x1f || (h[1] & 0xff) != 0x8b || h[12] != 'B' || h[13] != 'C') continue;
      int size = ((h[16] & 0xff) | (h[17] & 0xff) << 8) + 1;
      if (at + size > readsLength) continue;
      byte[] t = FileFormat.raw(reads, at + size - 4, 4);
      long isize = (t[0] & 0xffL) | (t[1] & 0xffL) << 8 | (t[2] & 0xffL) << 16 | (t[3] & 0xffL) << 24;
      if (isize == 0) continue;
      compressed += size;
      uncompressed += isize;
    }
    return uncompressed == 0 ? BGZF_RATIO : (double) compressed / uncompressed;
  }

  /** Windows of 2^shift bases that cover {@code length} bases. */
  private static int windows(long length, int shift) {
    return (int) Math.max(1, (length + (1L << shift) - 1) >>> shift);
  }

  /** Adds {@code amount} to the windows of [start, end), each in proportion to its overlap. */
  private static void spread(double[] windows, int shift, long start, long end, double amount) {
    if (end <= start || amount == 0) return;
    double perBase = amount / (end - start);
    for (long w = start >>> shift; w < windows.length && (w << shift) < end; w++) {
      long from = Math.max(start, w << shift);
      long to = Math.min(end, (w + 1) << shift);
      windows[(int) w] += perBase * (to - from);
    }
  }

  /** The 0-based span of {@code bin}, clipped to the contig; a bin that starts past its end is a mismatch. */
  private static long[] binSpan(Path index, Path reads, SAMSequenceRecord contig, int bin, int minShift, int depth) {
    int level = 0;
    while (level < depth && bin >= firstBin(level + 1)) level++;
    long size = 1L << (minShift + 3 * (depth - level));
    long start = (bin - firstBin(level)) * size;
    if (start >= contig.getSequenceLength()) {
      throw doesNotIndex(index, reads, "it puts reads at " + contig.getSequenceName() + ":" + (start + 1)
          + ", past the end of " + contig.getSequenceName() + " (length " + contig.getSequenceLength() + ") in the reads' header");
    }
    return new long[] {start, Math.min(start + size, contig.getSequenceLength())};
  }

  private static int firstBin(int level) {
    return ((1 << 3 * level) - 1) / 7;
  }

  private static void offsetsInside(Path index, Path reads, long readsLength, long begin, long end) {
    long first = begin >>> 16;
    long last = end >>> 16;
    if (first >= readsLength || last > readsLength) {
      throw doesNotIndex(index, reads, "it points at byte " + Math.max(first, last) + ", past the end of the reads ("
          + readsLength + " bytes)");
    }
    if (Long.compareUnsigned(begin, end) > 0) throw corrupt(index, reads, "a chunk that ends before it begins");
  }

  /** A .crai: gzipped text, one line per slice: contig, start (1-based), span, container offset, ... */
  private static ReadsIndex crai(Path reads, Path index, SAMFileHeader header, long readsLength, byte[] text)
      throws IOException {
    int nSeq = header.getSequenceDictionary().size();
    List<List<long[]>> found = new ArrayList<>();
    double[][] bytes = new double[nSeq][];
    for (int i = 0; i < nSeq; i++) {
      found.add(new ArrayList<>());
      bytes[i] = new double[windows(header.getSequence(i).getSequenceLength(), CRAI_WINDOW_SHIFT)];
    }
    BufferedReader lines = new BufferedReader(new InputStreamReader(new java.io.ByteArrayInputStream(text), StandardCharsets.US_ASCII));
    String line;
    int n = 0;
    while ((line = lines.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      String[] f = line.split("\t");
      long[] v = new long[6];
      try {
        if (f.length != 6) throw new NumberFormatException();
        for (int i = 0; i < 6; i++) v[i] = Long.parseLong(f[i].trim());
      } catch (NumberFormatException e) {
        throw new InputException(index + ":" + n + ": not a BAM or CRAM index line");
      }
      int ref = (int) v[0];
      if (ref >= nSeq || ref < -2) {
        throw doesNotIndex(index, reads, "line " + n + " is about contig #" + (ref + 1) + " but the reads' header has " + nSeq);
      }
      if (v[3] < 0 || v[3] >= readsLength) {
        throw doesNotIndex(index, reads, "line " + n + " points at byte " + v[3] + ", past the end of the reads ("
            + readsLength + " bytes)");
      }
      if (ref < 0 || v[2] <= 0) continue; // unplaced reads, or a multi-contig slice
      SAMSequenceRecord contig = header.getSequence(ref);
      long start = v[1] - 1;
      if (start >= contig.getSequenceLength() || start < 0) {
        throw doesNotIndex(index, reads, "line " + n + " puts reads at " + contig.getSequenceName() + ":" + v[1]
            + ", outside " + contig.getSequenceName() + " (length " + contig.getSequenceLength() + ") in the reads' header");
      }
      long end = Math.min(start + v[2], contig.getSequenceLength());
      found.get(ref).add(new long[] {start, end});
      spread(bytes[ref], CRAI_WINDOW_SHIFT, start, end, Math.max(0, v[5])); // the slice's bytes
    }
    long[] unknown = new long[nSeq];
    Arrays.fill(unknown, -1);
    long[][] spans = new long[nSeq][];
    for (int i = 0; i < nSeq; i++) spans[i] = sorted(found.get(i));
    return new ReadsIndex(reads, index, header, unknown, unknown, spans, CRAI_WINDOW_SHIFT, bytes);
  }

  /** Spans as one array, {start, end} pairs sorted by start, then end. */
  private static long[] sorted(List<long[]> spans) {
    spans.sort((a, c) -> a[0] != c[0] ? Long.compare(a[0], c[0]) : Long.compare(a[1], c[1]));
    long[] out = new long[spans.size() * 2];
    for (int i = 0; i < spans.size(); i++) {
      out[2 * i] = spans.get(i)[0];
      out[2 * i + 1] = spans.get(i)[1];
    }
    return out;
  }

  /** True when the index places no read on any contig (an empty or unaligned BAM/CRAM). */
  public boolean placesNoReads() {
    for (long[] s : spans) if (s.length > 0) return false;
    return true;
  }

  /**
   * Why the index says no read is aligned on any contig, or null when it counts aligned reads or
   * cannot tell (CRAM): it places no read at all ({@link #placesNoReads}), or its statistics (a BAM's
   * pseudo-bins) count every read it places as flagged unmapped (placed beside an unmapped mate).
   */
  public String whyNoAlignedReads() {
    if (placesNoReads()) return "places none on any contig";
    long placedReads = 0;
    for (int ref = 0; ref < aligned.length; ref++) {
      if (aligned[ref] != 0) return null; // aligned reads here, or not counted
      placedReads += placed[ref];
    }
    return "places " + placedReads + " on contigs, every one flagged unmapped";
  }

  /** Aligned reads on contig {@code ref} (the header's index) per the index; -1 when it does not say. */
  public long alignedOn(int ref) {
    return aligned[ref];
  }

  /** Reads placed on contig {@code ref}, aligned or flagged unaligned beside their mates; -1 when the index does not say. */
  public long placedOn(int ref) {
    return placed[ref];
  }

  /**
   * The estimated bytes of the reads file that hold the reads starting in [{@code start}, {@code end})
   * (0-based) of contig {@code ref}: from the index's chunks (BAI, CSI: each bin's chunks, spread
   * evenly over the bin, so resolved to its finest bins, 16 kb for a BAI) or slices (CRAI: each
   * slice's size over its span); a window only partly inside counts in proportion. What it costs
   * to call a region grows with these bytes, not with its length.
   */
  public double bytesIn(int ref, long start, long end) {
    double[] w = bytes[ref];
    long length = header.getSequence(ref).getSequenceLength();
    double sum = 0;
    for (long i = Math.max(0, start) >>> windowShift; i < w.length && (i << windowShift) < end; i++) {
      long windowEnd = Math.min(length, (i + 1) << windowShift); // the last window stops at the contig's end
      long from = Math.max(start, i << windowShift);
      long to = Math.min(end, windowEnd);
      if (to > from) sum += w[(int) i] * (to - from) / (windowEnd - (i << windowShift));
    }
    return sum;
  }

  /** The size of the windows in which {@link #bytesIn} knows where reads start: 2^shift bases. */
  public int windowShift() {
    return windowShift;
  }

  /** True when the index is older than the reads: the reads may have changed after indexing. */
  public boolean olderThanReads() {
    try {
      return Files.getLastModifiedTime(path).compareTo(Files.getLastModifiedTime(reads)) < 0;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A span of contig {@code ref} inside [{@code start}, {@code end}) (0-based) in which the index says
   * reads start, as {@code chr:start-end} (1-based), or null when it promises none there.
   */
  public String readsWithin(int ref, int start, int end) {
    long[] s = spans[ref];
    int lo = 0;
    int hi = s.length / 2;
    while (lo < hi) { // first span starting at or after start
      int mid = (lo + hi) >>> 1;
      if (s[2 * mid] < start) lo = mid + 1; else hi = mid;
    }
    for (int i = lo; i < s.length / 2 && s[2 * i] < end; i++) {
      if (s[2 * i + 1] <= end) return locus(ref, s[2 * i], s[2 * i + 1]);
    }
    return null;
  }

  /**
   * Reads through {@code reader} (which uses this index) the first and the last of the smallest spans
   * of contig {@code ref} where the index says reads start; finding none there, or failing to decode
   * what the index points at, means the index is not this file's. A CRAM whose reference checksums
   * do not match {@code reference} is named as such.
   */
  public void probe(SamReader reader, int ref, Path reference) {
    long[] s = spans[ref];
    if (s.length == 0) return;
    long smallest = Long.MAX_VALUE;
    for (int i = 0; i < s.length; i += 2) smallest = Math.min(smallest, s[i + 1] - s[i]);
    int first = -1;
    int last = -1;
    for (int i = 0; i < s.length; i += 2) {
      if (s[i + 1] - s[i] != smallest) continue;
      if (first < 0) first = i;
      last = i;
    }
    for (int i : first == last ? new int[] {first} : new int[] {first, last}) {
      String name = header.getSequence(ref).getSequenceName();
      String where = locus(ref, s[i], s[i + 1]);
      boolean found;
      try (SAMRecordIterator it = reader.queryOverlapping(name, (int) s[i] + 1, (int) s[i + 1])) {
        found = it.hasNext();
      } catch (RuntimeException e) {
        String why = RootCause.of(e, reads);
        if (why.contains("MD5") && why.contains("reference")) {
          throw new InputException(reads + " was not encoded against " + reference + ": " + why, e);
        }
        throw doesNotIndex(path, reads, "reading " + where + ", where it places reads, fails: " + why);
      }
      if (!found) throw doesNotIndex(path, reads, "it places reads at " + where + " but there are none there");
    }
  }

  /** The error for a run that read no reads where this index says there are some. */
  public static InputException noReadsWhereIndexed(Path reads, String where) {
    return doesNotIndex(find(reads), reads, "it places reads at " + where + " but make_examples read none in the regions");
  }

  /** The error for a run over whole contigs that read another number of reads than the index counts there. */
  public static InputException readsMissing(Path reads, long seen, long counted) {
    return new InputException(reads + ": make_examples read " + seen + " reads on the regions' contigs, but its index "
        + find(reads).getFileName() + " counts " + counted + " there: the file is damaged or the index is not its own"
        + " (check it with samtools quickcheck -v " + reads + "; re-index with samtools index)");
  }

  private String locus(int ref, long start, long end) {
    return header.getSequence(ref).getSequenceName() + ":" + (start + 1) + "-" + end;
  }

  static InputException doesNotIndex(Path index, Path reads, String why) {
    return new InputException(index + " does not index " + reads + ": " + why + "; re-index with samtools index " + reads);
  }

  private static InputException corrupt(Path index, Path reads, String why) {
    return new InputException(index + ": not a valid index (" + why + "); re-index with samtools index " + reads);
  }
}
