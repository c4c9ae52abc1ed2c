package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ContigExclusionTest {
  /** Contig names of GRCh38 (analysis set with HLA and decoys), hg19 and b37/hs37d5. */
  static final List<String> PRIMARY = List.of("chr1", "chr20", "chrX", "chrY", "chrM", "1", "20", "X", "MT");

  static void leavesOut(String preset, String... names) {
    ContigExclusion e = ContigExclusion.of(List.of(preset));
    for (String n : names) assertTrue(e.excludes(n), preset + " should leave out " + n);
    for (String n : PRIMARY) assertFalse(e.excludes(n), preset + " must keep " + n);
  }

  @Test
  void eachPresetMatchesItsKindOfContigAndNoPrimaryChromosome() {
    leavesOut("alt", "chr6_GL000250v2_alt", "chr19_KI270938v1_alt");
    leavesOut("decoy", "chrUn_JTFH01000001v1_decoy", "hs37d5");
    leavesOut("hla", "HLA-A*01:01:01:01", "HLA-DRB1*15:01:01:01");
    leavesOut("ebv", "chrEBV", "EBV", "NC_007605", "NC_007605.1");
    leavesOut("random", "chr1_KI270706v1_random", "chr1_gl000191_random");
    leavesOut("un", "chrUn_KI270302v1", "chrUn_gl000220", "GL000220.1", "KI270302.1");
    leavesOut("non-primary", "chr6_GL000250v2_alt", "hs37d5", "HLA-A*01:01:01:01", "chrEBV", "chr1_gl000191_random",
        "GL000192.1");
    assertEquals(ContigExclusion.PRESET_LIST, String.join(", ", ContigExclusion.PRESETS.keySet()));
  }

  @Test
  void presetsAndRegularExpressionsCombineAndMatchWholeNames() {
    ContigExclusion e = ContigExclusion.of(List.of("ALT", "chrM|MT"));
    assertTrue(e.excludes("chr6_GL000250v2_alt") && e.excludes("chrM") && e.excludes("MT"));
    assertFalse(e.excludes("chrMT2"), "the whole name must match");
    assertFalse(e.excludes("chr1"));
    assertTrue(ContigExclusion.of(List.of()).isEmpty());
    assertFalse(ContigExclusion.none().excludes("chrUn_gl000220"), "off by default");
  }

  @Test
  void aPatternThatIsNeitherPresetNorRegexIsAOneLineError() {
    InputException e = assertThrows(InputException.class, () -> ContigExclusion.of(List.of("chr(1")));
    assertTrue(e.getMessage().startsWith("--exclude-contigs chr(1: neither a preset (alt, decoy"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void describesWhatItLeavesOutOfAReference() {
    SAMSequenceDictionary d = new SAMSequenceDictionary(List.of(new SAMSequenceRecord("chr1", 1000),
        new SAMSequenceRecord("chr1_KI270706v1_random", 175), new SAMSequenceRecord("chrUn_KI270302v1", 2274)));
    assertEquals("--exclude-contigs random,un leaves out 2 of 3 reference contigs (2,449 bp): chr1_KI270706v1_random,"
        + " chrUn_KI270302v1", ContigExclusion.of(List.of("random", "un")).describeOn(d));
    assertEquals(List.of("chr1"), d.getSequences().stream().map(SAMSequenceRecord::getSequenceName)
        .filter(n -> !ContigExclusion.of(List.of("non-primary")).excludes(n)).collect(Collectors.toList()));
  }
}
