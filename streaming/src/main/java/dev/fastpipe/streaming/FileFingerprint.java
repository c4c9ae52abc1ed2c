package dev.fastpipe.streaming;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.CRC32C;

/**
 * What a later run compares to tell that an input is still the file an earlier run read: its size,
 * modification time and a CRC32C of its content: the whole file up to {@link #WHOLE_LIMIT} (indexes,
 * dictionaries, a model's files), else its first {@link #HEAD} bytes (a BAM's or CRAM's header, a
 * FASTA's first lines) and its last {@link #TAIL} (the end-of-file block), so that fingerprinting a
 * 100 GB BAM reads 1 MiB. The text form ({@link #toString}) is what a resume journal stores.
 */
public record FileFingerprint(long size, long mtimeMillis, long crc) {
  /** Files up to this size are checksummed whole. */
  public static final long WHOLE_LIMIT = 16L << 20;
  static final int HEAD = 1 << 20;
  static final int TAIL = 64 << 10;
  /** A file that is not there (an index spelling the reader does not find). */
  public static final FileFingerprint ABSENT = new FileFingerprint(-1, 0, 0);

  /** The fingerprint of {@code p} now; {@link #ABSENT} when it is not a regular file or cannot be read. */
  public static FileFingerprint of(Path p) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class);
    } catch (IOException | SecurityException e) {
      return ABSENT;
    }
    if (!a.isRegularFile()) return ABSENT;
    CRC32C crc = new CRC32C();
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size <= WHOLE_LIMIT) {
        update(crc, ch, 0, size);
      } else {
        update(crc, ch, 0, HEAD);
        update(crc, ch, size - TAIL, TAIL);
      }
      return new FileFingerprint(size, a.lastModifiedTime().toMillis(), crc.getValue());
    } catch (IOException e) {
      return ABSENT; // unreadable: the run's reader says why, in its words
    }
  }

  private static void update(CRC32C crc, FileChannel ch, long from, long length) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(64 << 10);
    long at = from;
    long end = from + length;
    while (at < end) {
      buf.clear().limit((int) Math.min(buf.capacity(), end - at));
      int n = ch.read(buf, at);
      if (n < 0) break;
      buf.flip();
      crc.update(buf);
      at += n;
    }
  }

  /** What differs from {@code before}, in a few words ("its size went from 10 to 12 bytes"), or null. */
  public String changeFrom(FileFingerprint before) {
    if (equals(before)) return null;
    if (before.equals(ABSENT)) return "it was not there before";
    if (equals(ABSENT)) return "it is gone";
    if (size != before.size) return "its size went from " + before.size + " to " + size + " bytes";
    if (crc != before.crc) return "its content changed";
    return "it was modified (modification time)";
  }

  @Override
  public String toString() {
    return equals(ABSENT) ? "absent" : "size=" + size + " mtime=" + mtimeMillis + " crc32c=" + Long.toHexString(crc);
  }

  /** Reads {@link #toString}'s form; null for anything else. */
  public static FileFingerprint parse(String text) {
    if (text.equals("absent")) return ABSENT;
    String[] f = text.split(" ");
    try {
      if (f.length != 3 || !f[0].startsWith("size=") || !f[1].startsWith("mtime=") || !f[2].startsWith("crc32c=")) {
        return null;
      }
      return new FileFingerprint(Long.parseLong(f[0].substring(5)), Long.parseLong(f[1].substring(6)),
          Long.parseLong(f[2].substring(7), 16));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
