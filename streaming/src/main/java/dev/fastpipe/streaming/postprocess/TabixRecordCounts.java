package dev.fastpipe.streaming.postprocess;

import htsjdk.samtools.util.BlockCompressedInputStream;
import htsjdk.samtools.util.BlockCompressedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The record counts of a tabix index: the pseudo-bin 37450 that {@code tabix -p vcf} writes for
 * every contig (SAM/BAM specification, section 5.2: bin 37450 with two chunks, the virtual offsets of
 * the contig's first record and of the end of its last, then the mapped and unmapped counts), which
 * {@code bcftools index -n} and {@code -s} read. htsjdk's {@code TabixIndexCreator} writes no
 * pseudo-bin; {@link #add} puts it into an index it wrote.
 */
public final class TabixRecordCounts {
  /** The pseudo-bin's number in a tabix index (one past the largest real bin, 37449). */
  public static final int PSEUDO_BIN = 37450;

  private TabixRecordCounts() {}

  /** A contig's records in the bgzipped file: where the first starts, where the last ends, how many. */
  public record Span(long firstOffset, long endOffset, long records) {}

  /** Spans of records as a writer passes them, contig by contig. */
  public static final class Counter {
    private final Map<String, long[]> spans = new LinkedHashMap<>();

    /** One record of {@code contig}, from virtual offset {@code start} to {@code end}. */
    public void add(String contig, long start, long end) {
      long[] s = spans.get(contig);
      if (s == null) spans.put(contig, new long[] {start, end, 1});
      else {
        s[1] = end;
        s[2]++;
      }
    }

    public Map<String, Span> spans() {
      Map<String, Span> out = new LinkedHashMap<>();
      spans.forEach((k, v) -> out.put(k, new Span(v[0], v[1], v[2])));
      return out;
    }
  }

  /**
   * Rewrites the tabix index {@code tbi} (in place: call it on a file not yet published) with a pseudo-bin for every contig it indexes and
   * {@code spans} names (records mapped, none unmapped); an index that has the pseudo-bin already
   * keeps it.
   */
  public static void add(Path tbi, Map<String, Span> spans) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(inflate(tbi)).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer out = ByteBuffer.allocate(in.capacity() + 40 * (spans.size() + 1)).order(ByteOrder.LITTLE_ENDIAN);
    String[] names = header(in, out);
    for (String name : names) {
      int nBin = in.getInt();
      int nBinAt = out.position();
      out.putInt(nBin);
      boolean has = false;
      for (int b = 0; b < nBin; b++) {
        int bin = in.getInt();
        int nChunk = in.getInt();
        has |= bin == PSEUDO_BIN;
        out.putInt(bin).putInt(nChunk);
        for (int c = 0; c < 2 * nChunk; c++) out.putLong(in.getLong());
      }
      Span s = spans.get(name);
      if (s != null && !has) {
        out.putInt(nBinAt, nBin + 1);
        out.putInt(PSEUDO_BIN).putInt(2);
        out.putLong(s.firstOffset()).putLong(s.endOffset());
        out.putLong(s.records()).putLong(0);
      }
      int nIntv = in.getInt();
      out.putInt(nIntv);
      for (int i = 0; i < nIntv; i++) out.putLong(in.getLong());
    }
    while (in.hasRemaining()) out.put(in.get()); // n_no_coor, if any
    // In place: the index is a writer's temporary file, renamed into place only once complete.
    try (OutputStream o = new BlockCompressedOutputStream(tbi.toFile())) {
      o.write(out.array(), 0, out.position());
    }
  }

  /**
   * The record counts in a tabix index, by contig (contigs without a pseudo-bin are left out): what
   * {@code bcftools index -s} prints. {@code long[]{mapped, unmapped, firstOffset, endOffset}}.
   */
  public static Map<String, long[]> read(Path tbi) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(inflate(tbi)).order(ByteOrder.LITTLE_ENDIAN);
    String[] names = header(in, null);
    Map<String, long[]> counts = new LinkedHashMap<>();
    for (String name : names) {
      int nBin = in.getInt();
      for (int b = 0; b < nBin; b++) {
        int bin = in.getInt();
        int nChunk = in.getInt();
        long[] chunks = new long[2 * nChunk];
        for (int c = 0; c < chunks.length; c++) chunks[c] = in.getLong();
        if (bin == PSEUDO_BIN && nChunk == 2) counts.put(name, new long[] {chunks[2], chunks[3], chunks[0], chunks[1]});
      }
      int nIntv = in.getInt();
      in.position(in.position() + 8 * nIntv);
    }
    return counts;
  }

  private static byte[] inflate(Path tbi) throws IOException {
    try (InputStream in = new BlockCompressedInputStream(Files.newInputStream(tbi))) {
      return in.readAllBytes();
    }
  }

  /** Reads (and copies to {@code out}, when not null) the header up to the first contig; its contig names. */
  private static String[] header(ByteBuffer in, ByteBuffer out) throws IOException {
    byte[] magic = new byte[4];
    in.get(magic);
    if (magic[0] != 'T' || magic[1] != 'B' || magic[2] != 'I' || magic[3] != 1) throw new IOException("not a tabix index");
    int nRef = in.getInt();
    int[] fields = new int[6]; // format, col_seq, col_beg, col_end, meta, skip
    for (int i = 0; i < fields.length; i++) fields[i] = in.getInt();
    int lNm = in.getInt();
    byte[] nm = new byte[lNm];
    in.get(nm);
    if (out != null) {
      out.put(magic).putInt(nRef);
      for (int f : fields) out.putInt(f);
      out.putInt(lNm).put(nm);
    }
    String[] names = new String[nRef];
    int at = 0;
    for (int r = 0; r < nRef; r++) {
      int end = at;
      while (end < nm.length && nm[end] != 0) end++;
      names[r] = new String(nm, at, end - at, StandardCharsets.UTF_8);
      at = end + 1;
    }
    return names;
  }
}
