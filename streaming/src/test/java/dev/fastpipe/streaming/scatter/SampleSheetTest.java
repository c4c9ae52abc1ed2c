package dev.fastpipe.streaming.scatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fastpipe.streaming.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample sheet's rules ({@link SampleSheet}); each broken rule names the sheet, the line and the sample. */
class SampleSheetTest {
  @TempDir Path dir;
  Path a;
  Path b;

  @BeforeEach
  void reads() throws IOException {
    a = Files.writeString(Files.createDirectories(dir.resolve("data")).resolve("a.bam"), "x");
    b = Files.writeString(dir.resolve("b.bam"), "x");
  }

  Path sheet(String text) throws IOException {
    return Files.writeString(dir.resolve("S.tsv"), text);
  }

  String fault(String text) throws IOException {
    Path s = sheet(text);
    return assertThrows(InputException.class, () -> SampleSheet.read(s)).getMessage();
  }

  @Test
  void readsAreTakenFromTheSheetsDirectoryAndExtraColumnsIgnored() throws IOException {
    Path s = sheet("# a cohort\n\nsample\treads\tnote\nA\tdata/a.bam\tfirst\nB\t" + b + "\n");
    assertEquals(List.of(new SampleSheet.Sample("A", a, 4), new SampleSheet.Sample("B", b, 5)), SampleSheet.read(s));
  }

  @Test
  void eachBrokenRuleNamesTheLine() throws IOException {
    Path s = dir.resolve("S.tsv");
    assertEquals(s + ":1: the first line must be the header sample<TAB>reads, found \"A<TAB>data/a.bam\"",
        fault("A\tdata/a.bam\n"));
    assertEquals(s + ":3: sample A is named twice (first on line 2)", fault("sample\treads\nA\tdata/a.bam\nA\tb.bam\n"));
    assertEquals(s + ":3: sample B: reads " + dir.resolve("missing.bam") + " not found",
        fault("sample\treads\nA\tdata/a.bam\nB\tmissing.bam\n"));
    assertEquals(s + ":2: sample A: reads " + dir.resolve("data") + " is not a file", fault("sample\treads\nA\tdata\n"));
    assertEquals(s + ":2: sample name \"A B\" may hold only letters, digits, '.', '_' and '-'",
        fault("sample\treads\nA B\tb.bam\n"));
    assertEquals(s + ":2: expected sample<TAB>reads, found \"A b.bam\"", fault("sample\treads\nA b.bam\n"));
    assertEquals(s + ":2: the sample name is empty", fault("sample\treads\n\tb.bam\n"));
    assertEquals(s + ": no sample (only the header)", fault("sample\treads\n"));
    assertEquals(s + ": empty sample sheet; expected the header sample<TAB>reads", fault("# nothing\n"));
    assertEquals(dir.resolve("none.tsv") + ": sample sheet not found",
        assertThrows(InputException.class, () -> SampleSheet.read(dir.resolve("none.tsv"))).getMessage());
  }
}
