package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fastpipe.streaming.InputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BedFileTest {

  @TempDir Path dir;

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text.getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  @Test
  void readsIntervalsInFileOrderSkippingHeadersAndComments() throws IOException {
    Path bed = dir.resolve("a.bed");
    Files.writeString(bed, "browser position chr1:1-100\ntrack name=conf\n# a comment\n\nchr2\t10\t20\tname\t0\t+\nchr1\t0\t5\n");
    assertEquals(List.of(new BedInterval("chr2", 10, 20, bed, 5), new BedInterval("chr1", 0, 5, bed, 6)),
        BedFile.read(bed));
  }

  @Test
  void gzipIsToldByItsMagicBytesNotTheName() throws IOException {
    String text = "chr1\t0\t5\n";
    Path gzippedDotBed = dir.resolve("gzipped.bed");
    Files.write(gzippedDotBed, gzip(text));
    assertEquals(List.of(new BedInterval("chr1", 0, 5, gzippedDotBed, 1)), BedFile.read(gzippedDotBed));
    Path plainDotGz = dir.resolve("plain.bed.gz");
    Files.writeString(plainDotGz, text);
    assertEquals(List.of(new BedInterval("chr1", 0, 5, plainDotGz, 1)), BedFile.read(plainDotGz));
    Path members = dir.resolve("bgzipped.bed.gz"); // bgzip writes concatenated gzip members
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(gzip("chr1\t0\t5\n"));
    both.write(gzip("chr1\t7\t9\n"));
    Files.write(members, both.toByteArray());
    assertEquals(List.of(new BedInterval("chr1", 0, 5, members, 1), new BedInterval("chr1", 7, 9, members, 2)),
        BedFile.read(members));
  }

  @Test
  void badLinesAreNamedByFileAndLine() throws IOException {
    Path bed = dir.resolve("bad.bed");
    Files.writeString(bed, "chr1\t0\t5\nchr1 0 5\n");
    InputException e = assertThrows(InputException.class, () -> BedFile.read(bed));
    assertEquals(bed + ":2: expected chrom, start, end", e.getMessage());
    Files.writeString(bed, "chr1\t0\tfive\n");
    e = assertThrows(InputException.class, () -> BedFile.read(bed));
    assertEquals(bed + ":1: start and end must be integers", e.getMessage());
    assertEquals(bed + ":7: no such contig", new BedInterval("chr1", 0, 5, bed, 7).problem("no such contig").getMessage());
    Files.writeString(bed, "chr1\t0\t5\nchr1\t500\t100\n");
    e = assertThrows(InputException.class, () -> BedFile.read(bed));
    assertEquals(bed + ":2: the start 500 is after the end 100", e.getMessage());
    Path missing = dir.resolve("missing.bed");
    e = assertThrows(InputException.class, () -> BedFile.read(missing));
    assertEquals(missing + ": BED file not found", e.getMessage());
  }

  /** A BED that cannot be read says why (java.nio's own message is only the path). */
  @Test
  void anUnreadableBedSaysWhy() throws IOException {
    Path bed = Files.writeString(dir.resolve("locked.bed"), "chr1\t0\t5\n");
    assertEquals(bed + ": cannot read (permission denied)",
        TextInput.cannotRead(bed, new java.nio.file.AccessDeniedException(bed.toString())).getMessage());
    Files.setPosixFilePermissions(bed, java.util.Set.of());
    org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(bed),
        "running as root: a file without read permission can still be read; the message is checked above");
    assertEquals(bed + ": cannot read (permission denied)",
        assertThrows(InputException.class, () -> BedFile.read(bed)).getMessage());
  }
}
