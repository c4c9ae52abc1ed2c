package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.util.BlockCompressedOutputStream;
import htsjdk.samtools.util.GZIIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference and its indexes must be one another's: every way a .fai or .gzi can be of another
 * FASTA, or a FASTA not what the .fai says, is a one-line error naming the file ({@link ReferenceIndex#verified}).
 */
class FastaLayoutTest {
  @TempDir Path dir;

  static final String A = "ACGTACGTAC".repeat(13); // 130 bases: lines of 60, 60, 10
  static final String B = "TTGCA".repeat(9); // 45 bases: one line

  /** {@code name} holding chrA then chrB in lines of 60, with a correct .fai. */
  Path fasta(String name) throws IOException {
    Path fa = dir.resolve(name);
    Files.writeString(fa, ">chrA description\n" + A.substring(0, 60) + "\n" + A.substring(60, 120) + "\n"
        + A.substring(120) + "\n>chrB\n" + B + "\n");
    // chrA: header 18 bytes; bases at 18; 60+1+60+1+10+1 = 133 bytes -> chrB header at 151, bases at 157
    Files.writeString(Path.of(fa + ".fai"), "chrA\t130\t18\t60\t61\nchrB\t45\t157\t60\t61\n");
    return fa;
  }

  /** The FASTA bgzipped in 64-byte pieces (several blocks), with .fai and a .gzi built from it. */
  Path bgzipped(String name) throws IOException {
    Path plain = fasta(name + ".plain");
    Path gz = dir.resolve(name);
    byte[] bytes = Files.readAllBytes(plain);
    try (OutputStream out = new BlockCompressedOutputStream(gz.toFile())) {
      for (int i = 0; i < bytes.length; i += 64) {
        out.write(bytes, i, Math.min(64, bytes.length - i));
        ((BlockCompressedOutputStream) out).flush(); // one block per piece
      }
    }
    Files.copy(Path.of(plain + ".fai"), Path.of(gz + ".fai"));
    GZIIndex.buildIndex(gz).writeIndex(Path.of(gz + ".gzi"));
    return gz;
  }

  static String message(Path fa) {
    return assertThrows(InputException.class, () -> ReferenceIndex.verified(fa)).getMessage();
  }

  @Test
  void aMatchingFaiAndGziPass() throws IOException {
    assertEquals(List.of("chrA", "chrB"), ReferenceIndex.verified(fasta("ok.fa")).getSequences().stream()
        .map(s -> s.getSequenceName()).toList());
    assertEquals(2, ReferenceIndex.verified(bgzipped("ok.fa.gz")).size());
  }

  @Test
  void aFaiOfAnotherLayoutIsNamed() throws IOException {
    Path fa = fasta("other.fa");
    Path fai = Path.of(fa + ".fai");
    Files.writeString(fai, "chrA\t130\t18\t70\t71\nchrB\t45\t157\t60\t61\n"); // lines of 70
    assertTrue(message(fa).startsWith(fai + " does not index " + fa + ": the first line of contig chrA (line 1) has only 60"),
        message(fa));
    Files.writeString(fai, "chrA\t131\t18\t60\t61\nchrB\t45\t157\t60\t61\n"); // one base too many
    assertTrue(message(fa).startsWith(fai + " does not index " + fa + ": contig chrA (line 1) does not end after 131 bases"),
        message(fa));
    Files.writeString(fai, "chrA\t130\t18\t60\t61\nchrB\t45\t158\t60\t61\n"); // chrB's bases one byte late
    assertTrue(message(fa).contains("the header line of contig chrB (line 2) is not where its bases start"), message(fa));
    Files.writeString(fai, "chrA\t130\t18\t60\t61\n"); // chrB left out
    assertTrue(message(fa).startsWith(fai + " does not index " + fa + ": contig chrB at byte 151 is not in the index"),
        message(fa));
    assertTrue(message(fa).endsWith("; rebuild it with samtools faidx " + fa), message(fa));
  }

  @Test
  void aFastaLongerOrShorterThanItsFaiIsNamed() throws IOException {
    Path fa = fasta("edited.fa");
    Files.writeString(fa, Files.readString(fa).replace(B, B + "ACGT")); // edited after indexing
    assertTrue(message(fa).contains("contig chrB (line 2) does not end after 45 bases"), message(fa));
    Files.writeString(fa, Files.readString(fa).substring(0, 100)); // cut short
    assertTrue(message(fa).startsWith(fa + ".fai does not index " + fa), message(fa));
  }

  @Test
  void aContigNamedTwiceIsNamed() throws IOException {
    Path fa = fasta("twice.fa");
    Files.writeString(fa, Files.readString(fa) + ">chrA\nACGT\n"); // samtools faidx keeps the first and warns
    assertEquals(fa + ": contig chrA appears twice (the second time at byte 203); contig names must be unique", message(fa));
    Path fai = Path.of(fa + ".fai");
    Files.writeString(fai, Files.readString(fai) + "chrA\t4\t209\t4\t5\n"); // an index that lists both
    assertTrue(message(fa).startsWith(fai + ":3: contig chrA is listed twice"), message(fa));
  }

  @Test
  void bgzippedWithoutGziIsNamedAsSuch() throws IOException {
    Path gz = bgzipped("nogzi.fa.gz");
    Files.delete(Path.of(gz + ".gzi"));
    String m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(gz)).getMessage();
    assertTrue(m.startsWith(gz + ": bgzipped, but no .gzi index beside it"), m);
    Path gzippedGzi = Path.of(gz + ".gzi.gz"); // as the Debian package vt-examples ships GRCh37 chr20
    Files.write(gzippedGzi, new byte[] {0x1f, (byte) 0x8b});
    m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(gz)).getMessage();
    assertTrue(m.startsWith(gz + ": bgzipped, but its .gzi index beside it is gzipped (nogzi.fa.gz.gzi.gz"), m);
    assertTrue(m.contains("gunzip -k " + gzippedGzi), m);
    Files.delete(gzippedGzi);
    Files.delete(Path.of(gz + ".fai"));
    m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(gz)).getMessage();
    assertTrue(m.startsWith(gz + ": bgzipped, with no .fai or .gzi index beside it"), m);
  }

  @Test
  void aGziOfAnotherFileOrATruncatedFastaIsNamed() throws IOException {
    Path gz = bgzipped("a.fa.gz");
    Path other = bgzipped("b.fa.gz");
    Files.write(other, inOneBlock(Files.readAllBytes(dir.resolve("b.fa.gz.plain")))); // the same FASTA, other blocks
    Files.copy(Path.of(gz + ".gzi"), Path.of(other + ".gzi"), StandardCopyOption.REPLACE_EXISTING);
    assertTrue(message(other).startsWith(other + ".gzi does not index " + other + ": "), message(other));
    byte[] whole = Files.readAllBytes(gz);
    Files.write(gz, Arrays.copyOf(whole, whole.length - 28)); // no end-of-file block
    assertEquals(gz + ": truncated: it does not end with the BGZF end-of-file block", message(gz));
  }

  @Test
  void gzipIsNotBgzipAndOtherFilesAreNotFasta() throws IOException {
    Path gz = dir.resolve("plain.fa.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(fasta("p.fa")));
    }
    String m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(gz)).getMessage();
    assertTrue(m.startsWith(gz + ": compressed with gzip, not bgzip"), m);
    Path notFasta = dir.resolve("reads.txt");
    Files.writeString(notFasta, "@r1\nACGT\n+\nIIII\n");
    m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(notFasta)).getMessage();
    assertEquals(notFasta + ": not a FASTA file (it starts with \"@r1\\x0aACGT\\x0a+\\x0aIIII\\x0a\", not a '>' header line)", m);
    Path empty = Files.createFile(dir.resolve("empty.fa"));
    assertEquals(empty + ": empty file, not a FASTA",
        assertThrows(InputException.class, () -> ReferenceIndex.dictionary(empty)).getMessage());
    Files.writeString(Path.of(fasta("cols.fa") + ".fai"), "chrA\t130\n");
    m = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(dir.resolve("cols.fa"))).getMessage();
    assertTrue(m.startsWith(dir.resolve("cols.fa.fai") + ":1: not a FASTA index line (2 columns"), m);
  }

  /** {@code bytes} bgzipped as one block. */
  static byte[] inOneBlock(byte[] bytes) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (BlockCompressedOutputStream out = new BlockCompressedOutputStream(b, (Path) null)) {
      out.write(bytes);
    }
    return b.toByteArray();
  }
}
