package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceIndexTest {

  @TempDir Path dir;

  /** ref.fa with two contigs, chrB before chrA, and its .fai. */
  private Path reference() throws IOException {
    Path fa = dir.resolve("ref.fa");
    Files.writeString(fa, ">chrB\nACGTACGTAC\n>chrA\nACGTA\n");
    Files.writeString(dir.resolve("ref.fa.fai"), "chrB\t10\t6\t10\t11\nchrA\t5\t23\t5\t6\n");
    return fa;
  }

  private static String dict(String... sq) {
    StringBuilder sb = new StringBuilder("@HD\tVN:1.6\n");
    for (String s : sq) sb.append("@SQ\t").append(s).append('\n');
    return sb.toString();
  }

  private static List<String> names(SAMSequenceDictionary d) {
    return d.getSequences().stream().map(SAMSequenceRecord::getSequenceName).toList();
  }

  @Test
  void contigsComeInFaiOrderWithTheirLengths() throws IOException {
    SAMSequenceDictionary d = ReferenceIndex.dictionary(reference());
    assertEquals(List.of("chrB", "chrA"), names(d));
    assertEquals(10, d.getSequence("chrB").getSequenceLength());
    assertEquals(5, d.getSequence("chrA").getSequenceLength());
    assertEquals(1, d.getSequenceIndex("chrA"));
  }

  @Test
  void anAgreeingDictIsAccepted() throws IOException {
    Path fa = reference();
    Files.writeString(dir.resolve("ref.dict"), dict("SN:chrB\tLN:10", "SN:chrA\tLN:5"));
    assertEquals(List.of("chrB", "chrA"), names(ReferenceIndex.dictionary(fa)));
  }

  @Test
  void aDictInAnotherOrderIsAnErrorNamingBothFiles() throws IOException {
    Path fa = reference();
    Path dictPath = dir.resolve("ref.dict"); // sorted by name: a reader preferring it would swap the indices
    Files.writeString(dictPath, dict("SN:chrA\tLN:5", "SN:chrB\tLN:10"));
    InputException e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertEquals(dictPath + " and " + fa + ".fai disagree: contig #1 is chrA (length 5) in the .dict but chrB (length 10)"
        + " in the .fai", e.getMessage());
  }

  @Test
  void aDictBesideTheFullNameWithAnotherLengthOrAMissingContigIsAnError() throws IOException {
    Path fa = reference();
    Path dictPath = dir.resolve("ref.fa.dict"); // the other name htsjdk looks for
    Files.writeString(dictPath, dict("SN:chrB\tLN:10", "SN:chrA\tLN:6"));
    InputException e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertTrue(e.getMessage().contains("contig #2 is chrA (length 6) in the .dict but chrA (length 5)"), e.getMessage());
    Files.writeString(dictPath, dict("SN:chrB\tLN:10"));
    e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertTrue(e.getMessage().contains("contig #2 is absent in the .dict but chrA (length 5) in the .fai"), e.getMessage());
  }

  @Test
  void missingOrBrokenIndexesAreNamedInOneLine() throws IOException {
    Path fa = reference();
    Path fai = dir.resolve("ref.fa.fai");
    Files.writeString(fai, "chrB\t10\t6\t10\t11\nchrA\tfive\t23\t5\t6\n");
    InputException e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertTrue(e.getMessage().startsWith(fai + ":2: not a FASTA index line"), e.getMessage());
    Files.writeString(fai, "chrB\t10\t6\t10\t11\nchrB\t10\t6\t10\t11\n");
    e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertTrue(e.getMessage().startsWith(fai + ":2: "), e.getMessage());
    Files.writeString(fai, "\n");
    e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertEquals(fai + ": no contigs", e.getMessage());
    Files.delete(fai);
    e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa));
    assertEquals(fa + ": no .fai index beside it; run samtools faidx " + fa, e.getMessage());
    Path absent = dir.resolve("absent.fa");
    e = assertThrows(InputException.class, () -> ReferenceIndex.dictionary(absent));
    assertEquals(absent + ": no such reference file", e.getMessage());
  }

  /** An index that is there but cannot be read is named with the reason, not as missing. */
  @Test
  void anIndexThatCannotBeReadSaysWhy() throws IOException {
    Path fa = reference();
    Path fai = dir.resolve("ref.fa.fai");
    Files.delete(fai);
    Files.createDirectory(fai);
    assertEquals(fai + ": cannot read the FASTA index (Is a directory)",
        assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa)).getMessage());
    Files.delete(fai);

    Path bgzf = dir.resolve("ref.fa.gz"); // bgzipped: its .gzi must be readable too
    try (var out = new htsjdk.samtools.util.BlockCompressedOutputStream(bgzf.toFile())) {
      out.write(Files.readAllBytes(fa));
    }
    Files.writeString(dir.resolve("ref.fa.gz.fai"), "chrB\t10\t6\t10\t11\nchrA\t5\t23\t5\t6\n");
    Path gzi = Files.createDirectory(dir.resolve("ref.fa.gz.gzi"));
    assertEquals(gzi + ": cannot read the .gzi index (Is a directory)",
        assertThrows(InputException.class, () -> ReferenceIndex.dictionary(bgzf)).getMessage());

    Files.writeString(fai, "chrB\t10\t6\t10\t11\nchrA\t5\t23\t5\t6\n");
    Files.setPosixFilePermissions(fai, java.util.Set.of());
    Files.setPosixFilePermissions(fa, java.util.Set.of());
    Assumptions.assumeFalse(Files.isReadable(fai),
        "running as root: a file without read permission can still be read; the reason is checked above");
    assertEquals(fa + ": cannot read the reference (permission denied)",
        assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa)).getMessage());
    Files.setPosixFilePermissions(fa, java.util.Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ));
    assertEquals(fai + ": cannot read the FASTA index (permission denied)",
        assertThrows(InputException.class, () -> ReferenceIndex.dictionary(fa)).getMessage());
  }
}
