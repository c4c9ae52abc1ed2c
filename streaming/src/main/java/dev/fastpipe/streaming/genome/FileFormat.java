package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.cram.build.CramIO;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * What a file is, told from its bytes rather than its name: plain, gzip or BGZF (blocked gzip, as
 * bgzip and BAM write it), its first decompressed bytes, and whether a BGZF file ends with the
 * end-of-file block that tells a complete file from a truncated one.
 */
public final class FileFormat {
  /** How a file is compressed. */
  public enum Compression { PLAIN, GZIP, BGZF }

  /** The 28-byte empty block that ends every complete BGZF file. */
  private static final byte[] BGZF_EOF = {
    0x1f, (byte) 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, (byte) 0xff, 0x06, 0, 0x42, 0x43, 0x02, 0, 0x1b, 0, 0x03, 0,
    0, 0, 0, 0, 0, 0, 0, 0
  };

  private FileFormat() {}

  /** The compression of {@code file}, from its first 16 bytes. */
  public static Compression compression(Path file) {
    byte[] b = raw(file, 0, 16);
    if (b.length < 2 || (b[0] & 0xff) != 0x1f || (b[1] & 0xff) != 0x8b) return Compression.PLAIN;
    boolean bgzf = b.length >= 16 && (b[3] & 0x04) != 0 && b[12] == 'B' && b[13] == 'C';
    return bgzf ? Compression.BGZF : Compression.GZIP;
  }

  /** Up to {@code n} bytes from the start of {@code file}, decompressed if it is gzip or BGZF. */
  public static byte[] head(Path file, int n) {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = compression(file) == Compression.PLAIN ? raw : new GZIPInputStream(raw)) {
      return in.readNBytes(n);
    } catch (IOException e) {
      throw InputException.reading(file, "cannot read", e);
    }
  }

  /** True when {@code file} ends with the BGZF end-of-file block. */
  public static boolean hasBgzfEof(Path file) {
    long size = size(file);
    return size >= BGZF_EOF.length && Arrays.equals(raw(file, size - BGZF_EOF.length, BGZF_EOF.length), BGZF_EOF);
  }

  /** True when {@code file} ends with {@code tail}. */
  public static boolean endsWith(Path file, byte[] tail) {
    long size = size(file);
    return size >= tail.length && Arrays.equals(raw(file, size - tail.length, tail.length), tail);
  }

  /** The size of {@code file} in bytes. */
  public static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw InputException.reading(file, "cannot read", e);
    }
  }

  /** Up to {@code n} raw bytes of {@code file} from {@code offset} (fewer at its end). */
  public static byte[] raw(Path file, long offset, int n) {
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      ch.position(offset);
      ByteBuffer buf = ByteBuffer.allocate(n);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // keep reading
      }
      return Arrays.copyOf(buf.array(), buf.position());
    } catch (IOException e) {
      throw InputException.reading(file, "cannot read", e);
    }
  }

  /** A printable rendering of the first bytes of a file, for messages: {@code "BAM\1"}. */
  public static String printable(byte[] b, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(n, b.length); i++) {
      int c = b[i] & 0xff;
      s.append(c >= 32 && c < 127 ? String.valueOf((char) c) : String.format("\\x%02x", c));
    }
    return s.toString();
  }

  /**
   * True for a CRAM, false for a BAM; anything else (no file, an empty, truncated or other kind of
   * file) is an error saying what the file is.
   */
  public static boolean readsFormat(Path reads) {
    if (!Files.exists(reads)) throw new InputException(reads + ": no such reads file");
    if (Files.isDirectory(reads)) throw new InputException(reads + ": is a directory, not a BAM or CRAM file");
    if (!Files.isReadable(reads)) throw new InputException(reads + ": cannot read the reads file (permission denied)");
    if (size(reads) == 0) throw new InputException(reads + ": empty file (0 bytes), not a BAM or CRAM");
    byte[] raw = raw(reads, 0, 4);
    if (Arrays.equals(raw, "CRAM".getBytes(StandardCharsets.US_ASCII))) {
      if (!endsWith(reads, CramIO.ZERO_F_EOF_MARKER) && !endsWith(reads, CramIO.ZERO_B_EOF_MARKER)) {
        throw new InputException(reads + ": truncated: it does not end with the CRAM end-of-file container"
            + " (an interrupted copy, or a file still being written)");
      }
      return true;
    }
    Compression c = compression(reads);
    byte[] head = head(reads, 64);
    if (c == Compression.BGZF && Arrays.equals(Arrays.copyOf(head, 4), new byte[] {'B', 'A', 'M', 1})) {
      if (!hasBgzfEof(reads)) {
        throw new InputException(reads + ": truncated: it does not end with the BGZF end-of-file block"
            + " (an interrupted copy, or a file still being written)");
      }
      return false;
    }
    String text = new String(head, StandardCharsets.US_ASCII);
    if (c == Compression.PLAIN && (text.startsWith("@") || text.split("\n", 2)[0].split("\t").length >= 11)) {
      throw new InputException(reads + ": SAM text, not BAM or CRAM; sort, compress and index it: samtools sort -o OUT.bam "
          + reads + " && samtools index OUT.bam");
    }
    String what = c == Compression.BGZF ? "bgzipped data that is not BAM"
        : c == Compression.GZIP ? "gzipped data"
        : text.startsWith(">") ? "a FASTA file" : "neither BAM nor CRAM";
    throw new InputException(reads + ": not a BAM or CRAM file: " + what + " (it starts with \""
        + printable(head, 16) + "\")");
  }
}
