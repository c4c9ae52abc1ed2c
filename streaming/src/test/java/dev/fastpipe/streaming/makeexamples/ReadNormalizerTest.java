package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.TextCigarCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReadNormalizerTest {
  /** chrT: ACGTACGTAC... (200 bases); every fetch is counted. */
  static final byte[] CONTIG = new byte[200];
  static {
    for (int i = 0; i < CONTIG.length; i++) CONTIG[i] = (byte) "ACGT".charAt(i % 4);
  }
  int fetches;

  ReadNormalizer normalizer(int defaultQuality) {
    return new ReadNormalizer((contig, start, end) -> {
      fetches++;
      return Arrays.copyOfRange(CONTIG, start, Math.min(end, CONTIG.length));
    }, Path.of("r.bam"), defaultQuality);
  }

  static SAMRecord read(int start, String cigar, String seq, String qual) {
    SAMFileHeader h = new SAMFileHeader();
    h.addSequence(new SAMSequenceRecord("chrT", CONTIG.length));
    SAMRecord r = new SAMRecord(h);
    r.setReadName("r1");
    r.setReferenceName("chrT");
    r.setAlignmentStart(start);
    r.setCigarString(cigar);
    r.setReadString(seq);
    r.setBaseQualityString(qual);
    r.setMappingQuality(60);
    return r;
  }

  @Test
  void cigarMatchAndMismatchOperationsBecomeMAndPaddingGoes() {
    assertEquals("57M", ReadNormalizer.canonical(TextCigarCodec.decode("10M1P47M")).toString());
    assertEquals("3H20M2I8M1D5M4S", ReadNormalizer.canonical(TextCigarCodec.decode("3H10=1X9=2P2I0M8M1P1D5=4S")).toString());
    assertEquals("5M", ReadNormalizer.canonical(TextCigarCodec.decode("2M3M")).toString());
  }

  @Test
  void equalsInSeqIsTheAlignedReferenceBaseAndNInAClipOrInsertion() {
    // aligned at 1-based 5 (reference ACGTACGT... from 0: position 4 is 'A'): 2S 3M 1I 2M
    SAMRecord r = read(5, "2S3M1I2M", "==A=G=T=", "IIIIIIII");
    normalizer(-1).normalize(r);
    // soft clip "==" -> NN; M "A=G" -> A C G (ref 4..6 = A C G); I "=" -> N; M "T=" -> T then ref 8 = A
    assertEquals("NNACGNTA", r.getReadString());
  }

  @Test
  void referenceBasesAreReadInWindowsNotPerRead() {
    ReadNormalizer n = normalizer(-1);
    for (int start = 1; start < 150; start += 10) n.normalize(read(start, "4M", "====", "IIII"));
    assertEquals(1, fetches, "one window for reads in coordinate order");
    SAMRecord last = read(197, "4M", "====", "IIII"); // the window is clipped to the contig
    n.normalize(last);
    assertEquals("ACGT", last.getReadString());
  }

  @Test
  void mapq255IsTheChannelsCap() {
    SAMRecord r = read(1, "4M", "ACGT", "IIII");
    r.setMappingQuality(255);
    normalizer(-1).normalize(r);
    assertEquals(60, r.getMappingQuality());
  }

  @Test
  void aReadWithoutQualitiesIsRefusedUnlessADefaultIsGiven() {
    SAMRecord r = read(1, "4M", "ACGT", "*");
    InputException e = assertThrows(InputException.class, () -> normalizer(-1).normalize(r));
    assertTrue(e.getMessage().startsWith("r.bam: read r1 at chrT:1 has no base qualities (QUAL is '*')"), e.getMessage());
    ReadNormalizer n = normalizer(30);
    n.normalize(r);
    assertArrayEquals(new byte[] {30, 30, 30, 30}, r.getBaseQualities());
    assertEquals(1, n.readsWithoutQualities);
  }

  @Test
  void anOrdinaryReadIsLeftAsItIs() {
    SAMRecord r = read(3, "2S5M1D3M", "ACGTACGTAC", "ABCDEFGHIJ");
    normalizer(-1).normalize(r);
    assertEquals("2S5M1D3M", r.getCigarString());
    assertEquals("ACGTACGTAC", new String(r.getReadBases(), StandardCharsets.US_ASCII));
    assertEquals(0, fetches);
  }
}
