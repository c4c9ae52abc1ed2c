package dev.fastpipe.streaming.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

public class CallsetStatsTest {

  /** A small callset with every kind of record (also HtmlReportTest's). */
  public static final String VCF = """
      ##fileformat=VCFv4.2
      ##FILTER=<ID=RefCall,Description="ref">
      ##FILTER=<ID=LowQual,Description="low">
      ##INFO=<ID=END,Number=1,Type=Integer,Description="end">
      ##FORMAT=<ID=GT,Number=1,Type=String,Description="GT">
      ##FORMAT=<ID=GQ,Number=1,Type=Integer,Description="GQ">
      ##FORMAT=<ID=DP,Number=1,Type=Integer,Description="DP">
      ##FORMAT=<ID=VAF,Number=A,Type=Float,Description="VAF">
      ##contig=<ID=chr1,length=10000>
      #CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS
      chr1\t100\t.\tA\tG\t50\tPASS\t.\tGT:GQ:DP:VAF\t0/1:45:30:0.5
      chr1\t200\t.\tC\tT\t60\tPASS\t.\tGT:GQ:DP:VAF\t1/1:55:40:1
      chr1\t300\t.\tA\tC\t40\tPASS\t.\tGT:GQ:DP:VAF\t0/1:35:20:0.45
      chr1\t400\t.\tA\tATT\t30\tPASS\t.\tGT:GQ:DP:VAF\t0/1:25:25:0.4
      chr1\t500\t.\tGCCC\tG\t33\tPASS\t.\tGT:GQ:DP:VAF\t1/1:30:15:0.95
      chr1\t600\t.\tA\tC,T\t20\tPASS\t.\tGT:GQ:DP:VAF\t1/2:15:18:0.5,0.5
      chr1\t700\t.\tA\tG\t0\tRefCall\t.\tGT:GQ:DP:VAF\t./.:5:30:0.1
      chr1\t800\t.\tT\tC\t0.5\tLowQual\t.\tGT:GQ:DP:VAF\t0/1:1:8:0.2
      chr1\t900\t.\tA\t<*>\t0\t.\tEND=950\tGT:GQ:DP\t0/0:50:30
      """.replace("\\t", "\t");

  @Test
  void countsTypesFiltersTsTvHetHomAndHistogramsOfTheVariantCalls(@TempDir Path dir) throws Exception {
    Path vcf = Files.writeString(dir.resolve("c.vcf"), VCF);
    CallsetStats s = CallsetStats.of(vcf);
    assertEquals(9, s.records());
    assertEquals(Map.of("PASS", 6L, "RefCall", 1L, "LowQual", 1L, ".", 1L), s.byFilter());
    assertEquals(6, s.variantCalls(), "PASS (or no FILTER) with an ALT in GT; the block has none");
    assertEquals(6, s.ofType("SNP"), "A>G, C>T, A>C, the multi-allelic A>C,T, RefCall and LowQual");
    assertEquals(1, s.ofType("insertion"));
    assertEquals(1, s.ofType("deletion"));
    assertEquals(2.0, s.tsTv(), 1e-12, "A>G and C>T against A>C (the multi-allelic call is left out)");
    assertEquals(4, s.het(), "0/1 three times and the 1/2");
    assertEquals(2, s.homAlt());
    assertEquals(1, s.indels(2));
    assertEquals(1, s.indels(-3));
    assertEquals(0, s.indels(1));
    assertEquals(6, s.gq().total());
    assertEquals(1, s.gq().counts()[9], "GQ 45 in the bin 45-50");
    assertEquals(2, s.vaf().counts()[19], "VAF 1 and 0.95 in the last bin");
    assertEquals(6, s.qual().total());
    String text = s.text(vcf);
    assertTrue(text.contains("Ts/Tv 2.000 (2 / 1), het/hom-alt 2.000 (4 / 2)"), text);
  }

  /** A GT cut short or naming an allele beyond the ALTs is named with its line, not dropped from the figures. */
  @Test
  void aBrokenGenotypeIsAnErrorNamingItsLine(@TempDir Path dir) throws Exception {
    Path cut = Files.writeString(dir.resolve("cut.vcf"), VCF.replace("0/1:45:30:0.5", "0/:45:30:0.5"));
    assertEquals(cut + ": line 11: GT '0/' is cut short (an empty allele)",
        assertThrows(InputException.class, () -> CallsetStats.of(cut)).getMessage());
    Path beyond = Files.writeString(dir.resolve("beyond.vcf"), VCF.replace("0/1:35:20:0.45", "0/5:35:20:0.45"));
    assertEquals(beyond + ": line 13: GT '0/5' names allele 5, but the record has 1 ALT allele",
        assertThrows(InputException.class, () -> CallsetStats.of(beyond)).getMessage());
  }

  @Test
  void thePageIsWellFormedAndHasEveryChart(@TempDir Path dir) throws Exception {
    Path vcf = Files.writeString(dir.resolve("c.vcf"), VCF);
    String html = CallsetStats.of(vcf).html("c.vcf <test>");
    Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(html.replace("<!DOCTYPE html>", "").getBytes(StandardCharsets.UTF_8)));
    assertEquals(5, d.getElementsByTagName("svg").getLength(), "indel length, QUAL, GQ, DP, VAF");
    assertTrue(html.contains("c.vcf &lt;test&gt;"), "the title escaped");
    assertTrue(html.contains("<th>Ts/Tv (bi-allelic SNP calls)</th><td>2.000 (2 / 1)</td>"), html);
    assertTrue(!html.contains("<script"), "no scripts");
  }
}
