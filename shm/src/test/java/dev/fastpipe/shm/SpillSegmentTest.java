package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spill segment format: records read back in order, a torn tail or a flipped byte never delivered. */
class SpillSegmentTest {
  @TempDir Path dir;

  private Path write(String... records) {
    Path p = dir.resolve("fastpipe-t-0.spill-1");
    try (SpillSegment.Writer w = new SpillSegment.Writer(p, 0, 1, 40)) {
      long index = 40;
      for (String r : records) w.append(index++, ByteBuffer.wrap(r.getBytes(StandardCharsets.UTF_8)));
    }
    return p;
  }

  private static String text(SpillSegment.Reader r) {
    byte[] b = new byte[r.length()];
    r.buffer().getBytes(0, b);
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void recordsComeBackInOrderWithTheHeader() throws Exception {
    Path p = write("alpha", "", "gamma-gamma");
    try (SpillSegment.Reader r = new SpillSegment.Reader(p)) {
      assertEquals(0, r.shard());
      assertEquals(1, r.epoch());
      assertEquals(40, r.firstIndex());
      assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
      assertEquals("alpha", text(r));
      assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
      assertEquals("", text(r));
      assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
      assertEquals("gamma-gamma", text(r));
      assertEquals(SpillSegment.Next.END, r.next(Long.MAX_VALUE));
      assertEquals(Files.size(p), r.position());
    }
  }

  @Test
  void aTornTailIsDetectedAndNotDelivered() throws Exception {
    Path p = write("first", "second record");
    long full = Files.size(p);
    for (long cut : new long[] {full - 1, full - 13 + 4, full - 13 - 8}) { // inside the payload, inside the record header
      Path copy = dir.resolve("cut-" + cut);
      Files.copy(p, copy);
      try (RandomAccessFile f = new RandomAccessFile(copy.toFile(), "rw")) {
        f.setLength(cut);
      }
      try (SpillSegment.Reader r = new SpillSegment.Reader(copy)) {
        assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
        assertEquals("first", text(r));
        assertEquals(SpillSegment.Next.TORN, r.next(Long.MAX_VALUE), "cut at " + cut + " of " + full);
        assertTrue(r.problem().startsWith(copy + ": torn spill segment: "), r.problem());
      }
    }
  }

  @Test
  void aFlippedByteFailsTheChecksum() throws Exception {
    Path p = write("first", "second");
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.seek(Files.size(p) - 2);
      f.write('X');
    }
    try (SpillSegment.Reader r = new SpillSegment.Reader(p)) {
      assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
      assertEquals(SpillSegment.Next.TORN, r.next(Long.MAX_VALUE));
      assertTrue(r.problem().contains("checksum mismatch"), r.problem());
    }
  }

  @Test
  void aRecordBeyondThePublishedBytesIsNotReadYet() throws Exception {
    Path p = write("first", "second");
    long afterFirst = SpillSegment.HEADER_LENGTH + SpillSegment.RECORD_HEADER + 5;
    try (SpillSegment.Reader r = new SpillSegment.Reader(p)) {
      assertEquals(SpillSegment.Next.RECORD, r.next(afterFirst));
      assertEquals(SpillSegment.Next.END, r.next(afterFirst));
      assertEquals(SpillSegment.Next.RECORD, r.next(Long.MAX_VALUE));
      assertEquals("second", text(r));
    }
  }

  @Test
  void notASegmentIsOneLineNamingTheFile() throws Exception {
    Path p = dir.resolve("junk");
    Files.write(p, new byte[100]);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> new SpillSegment.Reader(p));
    assertEquals(p + ": not a fastpipe spill segment", e.getMessage());
  }
}
