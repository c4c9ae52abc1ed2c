package dev.fastpipe.streaming.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class HtmlReportTest {
  static final long MS = 1_000_000L;

  static final List<String> CHARTS = List.of("Throughput per stage", "Ring fill per shard", "Producer stall per shard",
      "Consumer idle per consumer", "CPU per stage", "Progress");

  /** Ten seconds of a synthetic run: shards fill their rings, then the consumers catch up. */
  static RunSeries series(int shards, int consumers, long capacity) {
    RunSeries s = new RunSeries(200 * MS);
    for (int i = 1; i <= 50; i++) {
      long t = 200L * i;
      List<RunSnapshot.Shard> sh = new ArrayList<>();
      for (int k = 0; k < shards; k++) {
        sh.add(new RunSnapshot.Shard(3L * i, Math.min(capacity, capacity / 40 * i * (k + 1) / shards), capacity,
            i > 25 ? (i - 25) * 150 * MS : 0, 180 * MS * i));
      }
      long[] idle = new long[consumers];
      for (int c = 0; c < consumers; c++) idle[c] = i > 40 ? (i - 40) * 100 * MS : 0;
      s.add(new RunSnapshot(t * MS, 3L * i * shards, 2L * i * shards, i * shards, i, 50, sh, idle,
          new long[] {180 * MS * i * shards, 150 * MS * i, 5 * MS * i}));
    }
    return s;
  }

  static String render(RunSeries s) {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("transport", "shm");
    settings.put("model", "/models/<odd & \"quoted\">");
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("wall seconds", 10.25);
    figures.put("examples called", 400L);
    return HtmlReport.render("reads.bam -> out.vcf.gz", settings, figures,
        List.of(new HtmlReport.StageCost("make_examples", 9.5, 17.25)), s);
  }

  static Document parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(html)));
  }

  @Test
  void thePageIsWellFormedAndHoldsEveryChartTablesAndEscapedSettings() throws Exception {
    RunSeries s = series(2, 1, 16 << 20);
    s.mark("call_variants starts", 3_000 * MS);
    String html = render(s);
    Document doc = parse(html); // throws unless well-formed
    NodeList svgs = doc.getElementsByTagName("svg");
    assertEquals(CHARTS.size(), svgs.getLength(), "one inline SVG per chart");
    NodeList titles = doc.getElementsByTagName("title");
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < titles.getLength(); i++) seen.add(titles.item(i).getTextContent());
    for (String c : CHARTS) assertTrue(seen.contains(c), c + " missing: " + seen);
    assertTrue(doc.getElementsByTagName("polyline").getLength() >= 2 + 2 + 2 + 1 + 3 + 3, "lines drawn");
    assertTrue(html.contains("shard 0") && html.contains("shard 1") && html.contains("consumer 0"), "legend");
    assertTrue(html.contains("/models/&lt;odd &amp; &quot;quoted&quot;&gt;"), "settings are escaped");
    assertTrue(html.contains("<td>10.250</td>") && html.contains("<td>17.250</td>"), "final figures and stages");
    assertTrue(html.contains("50 samples, every 200 ms"), html);
    assertEquals(CHARTS.size(), html.split("class=\"mark\"", -1).length - 1, "the moment is marked on every chart");
    assertTrue(html.contains(">call_variants starts</text>"), html);
  }

  @Test
  void aCallsetQcSectionFollowsTheRunChartsAndItsStylesTouchNothingElse(@TempDir Path dir) throws Exception {
    Path vcf = Files.writeString(dir.resolve("c.vcf"), dev.fastpipe.streaming.evaluate.CallsetStatsTest.VCF);
    var qc = dev.fastpipe.streaming.evaluate.CallsetStats.of(vcf);
    String html = HtmlReport.render("reads.bam -> c.vcf", null, Map.of("transport", "shm"), Map.of("wall seconds", 1.0),
        List.of(new HtmlReport.StageCost("make_examples", 1, 1)), series(2, 1, 16 << 20), qc);
    Document doc = parse(html);
    assertEquals(CHARTS.size() + 5, doc.getElementsByTagName("svg").getLength(), "the run's charts, then indel length, QUAL, GQ, DP, VAF");
    assertEquals(1, doc.getElementsByTagName("section").getLength());
    assertTrue(html.indexOf("<h2>Callset QC</h2>") > html.indexOf("Progress"), "after the run's charts");
    assertTrue(html.contains("<th>Ts/Tv (bi-allelic SNP calls)</th><td>2.000 (2 / 1)</td>"), html);
    assertTrue(html.contains("<th>het / hom-alt</th><td>2.000 (4 / 2)</td>"), html);
    // Every rule of the section is scoped to it, so the run charts keep their own look.
    for (String rule : dev.fastpipe.streaming.evaluate.CallsetStats.SECTION_CSS.strip().split("\n")) {
      assertTrue(rule.strip().startsWith(".qc "), rule);
    }
    // A failed run's page has none, and the two-argument forms are unchanged.
    assertFalse(render(series(1, 1, 1 << 20)).contains("class=\"qc\""));
  }

  @Test
  void thePageFetchesNothing() {
    String html = render(series(2, 1, 16 << 20));
    for (String external : List.of("http:", "https:", "//", "<script", "<link", "src=", "href=", "url(", "@import")) {
      assertFalse(html.contains(external), "the page refers to something outside it: " + external);
    }
    assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"), "and the browser is told so");
  }

  @Test
  void manyShardsAreDrawnAsMeanMinAndMaxAndAnUnboundedTransportSaysSo() throws Exception {
    String many = render(series(12, 3, 16 << 20));
    parse(many);
    assertTrue(many.contains("mean of 12 shards"), "12 shards: summarised");
    assertFalse(many.contains("shard 11<"), "not one line each");
    assertTrue(many.contains("consumer 2"), "3 consumers: one line each");

    String disk = render(series(2, 1, Long.MAX_VALUE));
    parse(disk);
    assertTrue(disk.contains("no bounded ring"), "the fill chart says why it is empty");
  }

  @Test
  void anEmptySeriesStillRendersAPage() throws Exception {
    String html = render(new RunSeries(200 * MS));
    assertEquals(CHARTS.size(), parse(html).getElementsByTagName("svg").getLength());
    assertTrue(html.contains("no samples"));
  }

  @Test
  void writtenUnderATemporaryNameThenRenamed(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("run.html");
    HtmlReport.write(out, render(series(1, 1, 1 << 20)));
    assertTrue(Files.readString(out).startsWith("<!DOCTYPE html>"));
    try (var files = Files.list(dir)) {
      assertEquals(List.of("run.html"), files.map(p -> p.getFileName().toString()).toList(), "no temporary left");
    }
  }
}
