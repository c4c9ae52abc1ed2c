package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.ReferenceIndex.FaiEntry;
import htsjdk.samtools.seekablestream.SeekablePathStream;
import htsjdk.samtools.util.BlockCompressedInputStream;
import htsjdk.samtools.util.GZIIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks that a .fai describes its FASTA, and a .gzi its bgzipped FASTA: a few small reads per
 * contig rather than a pass over the bases.
 *
 * <p>Taken in file order, the .fai's contigs must tile the FASTA: each contig's {@code >NAME} line
 * ends where the .fai says its bases start, its first line holds {@code lineBases} bases and its
 * last line ends where the next contig's header begins; after the last contig only blank lines may
 * follow. A .fai of another or an older FASTA breaks the tiling at once, and so does a contig that
 * samtools faidx left out (it keeps the first of two contigs of one name). A .gzi must list the
 * FASTA's BGZF blocks: each sampled entry is a block header whose sizes lead to the next entry.
 */
final class FastaLayout {
  /** The longest header line (with the blank lines before it) read between two contigs. */
  private static final int MAX_HEADER = 1 << 20;
  /** How many .gzi entries are checked at most (evenly spaced, the last one included). */
  private static final int GZI_SAMPLES = 512;

  private FastaLayout() {}

  static void check(Path fasta, Path fai, List<FaiEntry> entries) {
    try (Bytes bytes = Bytes.open(fasta)) {
      List<FaiEntry> inFile = new ArrayList<>(entries);
      inFile.sort(Comparator.comparingLong(FaiEntry::offset));
      Map<String, FaiEntry> byName = new HashMap<>();
      for (FaiEntry e : entries) byName.put(e.name(), e);
      long at = 0; // where the next header line may begin
      for (FaiEntry e : inFile) {
        header(bytes, fasta, fai, at, e, byName);
        at = firstLineAndEnd(bytes, fasta, fai, e, e == inFile.get(inFile.size() - 1));
      }
      InputException more = unlisted(fasta, fai, at, bytes, byName);
      if (more != null) throw more;
    } catch (IOException | RuntimeException e) {
      if (e instanceof InputException ie) throw ie;
      throw InputException.reading(fasta, "cannot read the reference", e);
    }
  }

  /** Between {@code from} and the contig's first base: blank lines, then {@code >NAME...}. */
  private static void header(Bytes bytes, Path fasta, Path fai, long from, FaiEntry e, Map<String, FaiEntry> byName)
      throws IOException {
    long gap = e.offset() - from;
    if (gap > MAX_HEADER) throw Objects.requireNonNull(unlisted(fasta, fai, from, bytes, byName));
    if (gap < e.name().length() + 2) {
      throw doesNotIndex(fai, fasta, "contig " + e.name() + " (line " + e.line() + ") starts at byte " + e.offset()
          + (gap < 0 ? ", inside the contig before it" : ", with no room for its header line"));
    }
    byte[] b = bytes.read(from, (int) gap);
    int i = 0;
    while (i < b.length && (b[i] == '\n' || b[i] == '\r' || b[i] == ' ' || b[i] == '\t')) i++;
    if (i < b.length && b[i] == '>') {
      int end = i + 1;
      while (end < b.length && b[end] != '\n' && b[end] != '\r' && b[end] != ' ' && b[end] != '\t') end++;
      String name = new String(b, i + 1, end - i - 1, StandardCharsets.US_ASCII);
      int eol = end;
      while (eol < b.length && b[eol] != '\n') eol++;
      if (name.equals(e.name()) && eol == b.length - 1) return;
      if (!name.equals(e.name()) && byName.containsKey(name)) throw twice(fasta, name, from + i);
    }
    throw doesNotIndex(fai, fasta, "the header line of contig " + e.name() + " (line " + e.line()
        + ") is not where its bases start, byte " + e.offset());
  }

  /** Checks the first line and the end of the contig's bases; returns the offset just past its last line. */
  private static long firstLineAndEnd(Bytes bytes, Path fasta, Path fai, FaiEntry e, boolean last) throws IOException {
    if (e.length() == 0) return e.offset();
    int firstLine = (int) Math.min(e.length(), e.lineBases());
    byte[] line = bytes.read(e.offset(), e.lineBytes());
    int bases = 0;
    while (bases < line.length && line[bases] != '\n' && line[bases] != '\r' && line[bases] != '>') bases++;
    boolean wholeLine = e.length() <= e.lineBases() || (line.length == e.lineBytes() && line[line.length - 1] == '\n');
    if (bases < firstLine || !wholeLine) {
      throw doesNotIndex(fai, fasta, "the first line of contig " + e.name() + " (line " + e.line() + ") has "
          + (bases < firstLine ? "only " + bases : "more than " + e.lineBases()) + " bases, not " + firstLine);
    }
    int eolBytes = e.lineBytes() - e.lineBases();
    long full = e.length() / e.lineBases();
    int rest = (int) (e.length() % e.lineBases());
    long end = e.offset() + full * e.lineBytes() + (rest > 0 ? rest + eolBytes : 0);
    long lastBase = e.offset() + (rest > 0 ? full * e.lineBytes() + rest - 1 : (full - 1) * e.lineBytes() + e.lineBases() - 1);
    byte[] around = bytes.read(lastBase, 1 + eolBytes);
    boolean baseThere = around.length > 0 && around[0] != '\n' && around[0] != '\r' && around[0] != '>';
    boolean lineEnds = around.length == 1 + eolBytes ? around[around.length - 1] == '\n' : last && around.length >= 1;
    if (!baseThere || !lineEnds) {
      throw doesNotIndex(fai, fasta, "contig " + e.name() + " (line " + e.line() + ") does not end after "
          + e.length() + " bases where the index puts its end, byte " + lastBase);
    }
    return Math.min(end, bytes.length());
  }

  /**
   * The error for what follows {@code at} when it is not blank: a second contig of a listed name, or
   * one the index lacks; null when only blank lines follow.
   */
  private static InputException unlisted(Path fasta, Path fai, long at, Bytes bytes, Map<String, FaiEntry> byName)
      throws IOException {
    byte[] b = bytes.read(at, 4096);
    int i = 0;
    while (i < b.length && Character.isWhitespace(b[i])) i++;
    if (i == b.length) return null;
    String text = new String(b, i, b.length - i, StandardCharsets.US_ASCII);
    if (text.startsWith(">")) {
      String name = text.substring(1).split("\\s", 2)[0];
      if (byName.containsKey(name)) return twice(fasta, name, at + i);
      return doesNotIndex(fai, fasta, "contig " + name + " at byte " + (at + i) + " is not in the index");
    }
    return doesNotIndex(fai, fasta, "the bytes from " + (at + i) + " belong to no contig the index lists");
  }

  private static InputException twice(Path fasta, String name, long at) {
    return new InputException(fasta + ": contig " + name + " appears twice (the second time at byte " + at
        + "); contig names must be unique");
  }

  static InputException doesNotIndex(Path index, Path file, String why) {
    return new InputException(index + " does not index " + file + ": " + why + "; rebuild it with samtools faidx " + file);
  }

  /** Random access to the decompressed bytes of a FASTA, plain or bgzipped. */
  private interface Bytes extends AutoCloseable {
    /** Up to {@code n} bytes from {@code offset} (fewer at the end of the file). */
    byte[] read(long offset, int n) throws IOException;

    long length() throws IOException;

    @Override
    void close() throws IOException;

    static Bytes open(Path fasta) throws IOException {
      if (FileFormat.compression(fasta) != FileFormat.Compression.BGZF) {
        FileChannel ch = FileChannel.open(fasta);
        return new Bytes() {
          public byte[] read(long offset, int n) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate(n);
            while (buf.hasRemaining() && ch.read(buf, offset + buf.position()) > 0) {
              // until n bytes or the end of the file
            }
            return Arrays.copyOf(buf.array(), buf.position());
          }

          public long length() throws IOException {
            return ch.size();
          }

          public void close() throws IOException {
            ch.close();
          }
        };
      }
      Path gziPath = ReferenceIndex.gziPath(fasta);
      if (!FileFormat.hasBgzfEof(fasta)) {
        throw new InputException(fasta + ": truncated: it does not end with the BGZF end-of-file block");
      }
      GZIIndex gzi;
      try {
        gzi = GZIIndex.loadIndex(gziPath);
      } catch (IOException | RuntimeException e) {
        throw InputException.reading(gziPath, "not a .gzi index", e);
      }
      checkGzi(fasta, gziPath, gzi);
      BlockCompressedInputStream in = new BlockCompressedInputStream(new SeekablePathStream(fasta));
      List<GZIIndex.IndexEntry> entries = gzi.getIndexEntries();
      long lastStart = entries.isEmpty() ? 0 : entries.get(entries.size() - 1).getUncompressedOffset();
      in.seek(gzi.getVirtualOffsetForSeek(lastStart));
      long length = lastStart + in.readAllBytes().length;
      return new Bytes() {
        public byte[] read(long offset, int n) throws IOException {
          if (offset >= length) return new byte[0];
          in.seek(gzi.getVirtualOffsetForSeek(offset));
          return in.readNBytes((int) Math.min(n, length - offset));
        }

        public long length() {
          return length;
        }

        public void close() throws IOException {
          in.close();
        }
      };
    }
  }

  /**
   * Each sampled .gzi entry must be a BGZF block header in the FASTA whose compressed size leads to
   * the next entry's offset and whose uncompressed size to the next entry's uncompressed offset.
   */
  private static void checkGzi(Path fasta, Path gziPath, GZIIndex gzi) {
    List<GZIIndex.IndexEntry> e = new ArrayList<>(gzi.getIndexEntries());
    e.add(0, null); // the first block, at 0, is implicit
    long size = FileFormat.size(fasta);
    int step = Math.max(1, e.size() / GZI_SAMPLES);
    List<Integer> sampled = new ArrayList<>();
    for (int i = 0; i < e.size(); i += step) sampled.add(i);
    if (sampled.get(sampled.size() - 1) != e.size() - 1) sampled.add(e.size() - 1);
    for (int i : sampled) {
      long c = i == 0 ? 0 : e.get(i).getCompressedOffset();
      long u = i == 0 ? 0 : e.get(i).getUncompressedOffset();
      byte[] h = c < size ? FileFormat.raw(fasta, c, 18) : new byte[0];
      boolean header = h.length == 18 && (h[0] & 0xff) == 0x1f && (h[1] & 0xff) == 0x8b && h[12] == 'B' && h[13] == 'C';
      if (!header) {
        throw new InputException(gziPath + " does not index " + fasta + ": entry " + i + " points at byte " + c
            + ", which is not the start of a BGZF block; rebuild it with samtools faidx " + fasta);
      }
      long blockSize = ((h[16] & 0xff) | (h[17] & 0xff) << 8) + 1;
      byte[] isizeBytes = FileFormat.raw(fasta, c + blockSize - 4, 4);
      long isize = isizeBytes.length < 4 ? -1
          : (isizeBytes[0] & 0xffL) | (isizeBytes[1] & 0xffL) << 8 | (isizeBytes[2] & 0xffL) << 16 | (isizeBytes[3] & 0xffL) << 24;
      if (i + 1 < e.size()) {
        GZIIndex.IndexEntry next = e.get(i + 1);
        if (next.getCompressedOffset() != c + blockSize || next.getUncompressedOffset() != u + isize) {
          throw new InputException(gziPath + " does not index " + fasta + ": the block at byte " + c + " ends at "
              + (c + blockSize) + " holding " + isize + " bytes, but the next entry says " + next.getCompressedOffset()
              + " and " + (next.getUncompressedOffset() - u) + "; rebuild it with samtools faidx " + fasta);
        }
      }
    }
  }
}
