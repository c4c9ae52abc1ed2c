package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionsTest {

  @TempDir Path dir;

  private static final SAMSequenceDictionary DICT =
      new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chrB", 100), new SAMSequenceRecord("chrA", 50)));

  @Test
  void bedIntervalsBecomeRegionsClippedToTheirContigs() throws IOException {
    Path bed = dir.resolve("r.bed");
    Files.writeString(bed, "track name=x\nchrA\t40\t80\nchrB\t-5\t10\nchrB\t200\t300\n");
    assertEquals(List.of(new Region(1, "chrA", 40, 50), new Region(0, "chrB", 0, 10)), Regions.readBed(DICT, bed));
  }

  @Test
  void aContigOutsideTheReferenceIsNamedByLine() throws IOException {
    Path bed = dir.resolve("r.bed");
    Files.writeString(bed, "chrA\t0\t10\nchrZ\t0\t10\n");
    InputException e = assertThrows(InputException.class, () -> Regions.readBed(DICT, bed));
    assertEquals(bed + ":2: contig chrZ is not in the reference", e.getMessage());
  }
}
