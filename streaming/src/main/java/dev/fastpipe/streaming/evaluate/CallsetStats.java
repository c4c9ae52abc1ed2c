package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.InputException;
import htsjdk.variant.variantcontext.Allele;
import htsjdk.variant.variantcontext.Genotype;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.samtools.util.IOUtil;
import htsjdk.tribble.readers.LineIterator;
import htsjdk.tribble.readers.LineIteratorImpl;
import htsjdk.tribble.readers.SynchronousLineReader;
import htsjdk.variant.vcf.VCFCodec;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.zip.GZIPInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A callset's quality figures, as DeepVariant's {@code vcf_stats_report} gives them, for any VCF
 * (first sample): records by FILTER and by variant type; over the variant calls (PASS or no FILTER,
 * a genotype with an ALT allele) Ts/Tv of the SNPs, the het / hom-alt ratio, the indel length
 * histogram (insertions positive) and histograms of QUAL, GQ, DP and VAF. A multi-allelic record
 * counts once, by its first ALT's type; a record whose ALTs differ in type is {@code complex}.
 */
public final class CallsetStats {
  /** Variant types, in the order reports list them. */
  public static final List<String> TYPES = List.of("SNP", "insertion", "deletion", "MNP", "complex");
  /** Indel lengths beyond this are pooled at the histogram's ends. */
  public static final int MAX_INDEL = 20;

  private final Map<String, Long> byFilter = new TreeMap<>();
  private final Map<String, Long> byType = new TreeMap<>();
  private long records;
  private long variantCalls;
  private long multiAllelic;
  private long transitions;
  private long transversions;
  private long het;
  private long homAlt;
  private final long[] indelLengths = new long[2 * MAX_INDEL + 1]; // -MAX..+MAX, 0 unused
  final Histogram qual = new Histogram("QUAL", 0, 100, 20);
  final Histogram gq = new Histogram("GQ", 0, 100, 20);
  final Histogram dp = new Histogram("DP", 0, 100, 20);
  final Histogram vaf = new Histogram("VAF", 0, 1, 20);

  /** Counts in equal bins over [min, max); values past the ends go to the first or last bin. */
  public static final class Histogram {
    final String name;
    final double min;
    final double max;
    final long[] counts;
    long missing;

    Histogram(String name, double min, double max, int bins) {
      this.name = name;
      this.min = min;
      this.max = max;
      this.counts = new long[bins];
    }

    void add(double v) {
      if (Double.isNaN(v)) {
        missing++;
        return;
      }
      int b = (int) Math.floor((v - min) / (max - min) * counts.length);
      counts[Math.max(0, Math.min(counts.length - 1, b))]++;
    }

    /** The lower edge of bin {@code i}. */
    double lower(int i) {
      return min + (max - min) * i / counts.length;
    }

    public long[] counts() {
      return counts.clone();
    }

    public long total() {
      long t = 0;
      for (long c : counts) t += c;
      return t;
    }
  }

  /**
   * The figures of {@code vcf}: bgzipped, gzipped or plain, told by its first bytes, not its name
   * (so {@code call}'s temporary and journaled files read too); no index needed.
   */
  public static CallsetStats of(Path vcf) {
    CallsetStats s = new CallsetStats();
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(vcf), 1 << 16);
        InputStream in = IOUtil.isGZIPInputStream(raw) ? new GZIPInputStream(raw, 1 << 16) : raw) {
      long[] lineNumber = {0};
      LineIterator lines = new LineIteratorImpl(new SynchronousLineReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        @Override
        public String next() {
          lineNumber[0]++;
          return super.next();
        }
      };
      VCFCodec codec = new VCFCodec();
      codec.readActualHeader(lines);
      while (lines.hasNext()) {
        String line = lines.next();
        if (line.isEmpty()) continue;
        String[] f = line.split("\t", 11);
        String gt = VcfComparison.firstSampleGt(f); // checked here: htsjdk drops a cut one, and names no line
        if (gt != null && f.length > 4) VcfComparison.parseGenotype(vcf, lineNumber[0], gt, VcfComparison.alleleCount(f[4]));
        s.add(codec.decode(line));
      }
    } catch (IOException | RuntimeException e) {
      throw InputException.reading(vcf, "cannot read the VCF", e);
    }
    return s;
  }

  void add(VariantContext v) {
    records++;
    String filter = v.filtersWereApplied() ? (v.isFiltered() ? String.join(";", v.getFilters()) : "PASS") : ".";
    byFilter.merge(filter, 1L, Long::sum);
    List<Allele> alts = v.getAlternateAlleles().stream().filter(a -> !a.isSymbolic() && !a.equals(Allele.SPAN_DEL)).toList();
    if (alts.isEmpty()) return; // a reference block or a record without a real ALT
    String type = type(v.getReference(), alts.get(0));
    for (Allele a : alts) if (!type(v.getReference(), a).equals(type)) type = "complex";
    byType.merge(type, 1L, Long::sum);
    if (alts.size() > 1) multiAllelic++;
    Genotype g = v.getNSamples() > 0 ? v.getGenotype(0) : null;
    boolean called = (filter.equals("PASS") || filter.equals(".")) && g != null
        && g.getAlleles().stream().anyMatch(a -> a.isNonReference() && !a.isSymbolic() && a.isCalled());
    if (!called) return;
    variantCalls++;
    if (g.isHomVar() || (g.getPloidy() == 1 && g.getAllele(0).isNonReference())) homAlt++;
    else if (g.isHet()) het++;
    if (type.equals("SNP") && alts.size() == 1) {
      if (transition(v.getReference().getBaseString(), alts.get(0).getBaseString())) transitions++;
      else transversions++;
    }
    for (Allele a : alts) {
      int len = a.length() - v.getReference().length();
      if (len != 0 && a.length() != v.getReference().length()) {
        int clamped = Math.max(-MAX_INDEL, Math.min(MAX_INDEL, len));
        indelLengths[clamped + MAX_INDEL]++;
      }
    }
    qual.add(v.hasLog10PError() ? v.getPhredScaledQual() : Double.NaN);
    gq.add(g.hasGQ() ? g.getGQ() : Double.NaN);
    dp.add(g.hasDP() ? g.getDP() : v.hasAttribute("DP") ? v.getAttributeAsInt("DP", 0) : Double.NaN);
    Object f = g.getExtendedAttribute("VAF");
    double vafValue = Double.NaN;
    if (f != null) {
      String first = f.toString().replace("[", "").split(",")[0].strip();
      try {
        vafValue = Double.parseDouble(first);
      } catch (NumberFormatException ignored) {
        // '.' or another unreadable value: missing
      }
    } else if (g.hasAD()) {
      int[] ad = g.getAD();
      long sum = 0;
      for (int x : ad) sum += x;
      if (sum > 0 && ad.length > 1) vafValue = (double) ad[1] / sum;
    }
    vaf.add(vafValue);
  }

  static String type(Allele ref, Allele alt) {
    int r = ref.length();
    int a = alt.length();
    if (r == 1 && a == 1) return "SNP";
    if (r == a) return "MNP";
    if (a > r && alt.getBaseString().startsWith(ref.getBaseString())) return "insertion";
    if (r > a && ref.getBaseString().startsWith(alt.getBaseString())) return "deletion";
    return "complex";
  }

  static boolean transition(String ref, String alt) {
    String pair = (ref + alt).toUpperCase(Locale.ROOT);
    return pair.equals("AG") || pair.equals("GA") || pair.equals("CT") || pair.equals("TC");
  }

  public long records() {
    return records;
  }

  public long variantCalls() {
    return variantCalls;
  }

  public Map<String, Long> byFilter() {
    return Map.copyOf(byFilter);
  }

  public long ofType(String type) {
    return byType.getOrDefault(type, 0L);
  }

  /** Transitions / transversions of the bi-allelic SNP calls (NaN without transversions). */
  public double tsTv() {
    return transversions == 0 ? Double.NaN : (double) transitions / transversions;
  }

  /** Heterozygous / homozygous-ALT calls (NaN without hom-alt calls). */
  public double hetHomRatio() {
    return homAlt == 0 ? Double.NaN : (double) het / homAlt;
  }

  public long het() {
    return het;
  }

  public long homAlt() {
    return homAlt;
  }

  /** Calls with an indel of {@code length} bases (insertions positive; the ends pool everything beyond ±20). */
  public long indels(int length) {
    return indelLengths[Math.max(-MAX_INDEL, Math.min(MAX_INDEL, length)) + MAX_INDEL];
  }

  public Histogram qual() {
    return qual;
  }

  public Histogram gq() {
    return gq;
  }

  public Histogram dp() {
    return dp;
  }

  public Histogram vaf() {
    return vaf;
  }

  /** The figures as text, for the terminal. */
  public String text(Path vcf) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%s: %d records, %d variant calls (PASS or no FILTER, an ALT in GT)%n", vcf, records,
        variantCalls));
    b.append("FILTER:");
    byFilter.forEach((k, v) -> b.append(' ').append(k).append(' ').append(v));
    b.append(System.lineSeparator()).append("type:");
    for (String t : TYPES) b.append(' ').append(t).append(' ').append(ofType(t));
    b.append(String.format(Locale.ROOT, " (multi-allelic %d)%n", multiAllelic));
    b.append(String.format(Locale.ROOT, "Ts/Tv %s (%d / %d), het/hom-alt %s (%d / %d)%n", ratio(tsTv()), transitions,
        transversions, ratio(hetHomRatio()), het, homAlt));
    return b.toString();
  }

  private static String ratio(double r) {
    return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.3f", r);
  }

  /** A self-contained page (inline SVG bars, no scripts, well-formed XML) with every figure and histogram. */
  public String html(String title) {
    StringBuilder b = new StringBuilder(32 * 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n")
        .append("<title>fastpipe stats</title>\n<style>\n").append(PAGE_CSS).append(SECTION_CSS).append("</style>\n</head>\n<body>\n")
        .append("<h1>Callset QC</h1>\n<p class=\"sub\">").append(esc(title)).append("</p>\n");
    appendSection(b, null);
    b.append("</body>\n</html>\n");
    return b.toString();
  }

  /**
   * The figures as one {@code <section class="qc">} (tables, then the histograms) for a page that
   * includes {@link #SECTION_CSS}, as {@code call --report} does; {@code heading}, when not null,
   * is its {@code <h2>}.
   */
  public void appendSection(StringBuilder b, String heading) {
    b.append("<section class=\"qc\">\n");
    if (heading != null) b.append("<h2>").append(esc(heading)).append("</h2>\n");
    b.append("<div class=\"tables\">\n");
    b.append("<table>\n<caption>Summary</caption>\n");
    row(b, "records", records);
    row(b, "variant calls (PASS or no FILTER, an ALT in GT)", variantCalls);
    row(b, "multi-allelic records", multiAllelic);
    row(b, "Ts/Tv (bi-allelic SNP calls)", ratio(tsTv()) + " (" + transitions + " / " + transversions + ")");
    row(b, "het / hom-alt", ratio(hetHomRatio()) + " (" + het + " / " + homAlt + ")");
    b.append("</table>\n<table>\n<caption>Records by FILTER</caption>\n");
    byFilter.forEach((k, v) -> row(b, k, v));
    b.append("</table>\n<table>\n<caption>Records by type</caption>\n");
    for (String t : TYPES) row(b, t, ofType(t));
    b.append("</table>\n</div>\n<div class=\"charts\">\n");
    String[] labels = new String[indelLengths.length - 1];
    long[] counts = new long[indelLengths.length - 1];
    for (int i = 0, k = 0; i < indelLengths.length; i++) {
      int len = i - MAX_INDEL;
      if (len == 0) continue;
      labels[k] = (len == -MAX_INDEL ? "≤" : len == MAX_INDEL ? "≥" : "") + len;
      counts[k++] = indelLengths[i];
    }
    bars(b, "Indel length (bases; insertions positive) of the variant calls", labels, counts);
    for (Histogram h : List.of(qual, gq, dp, vaf)) {
      String[] l = new String[h.counts.length];
      for (int i = 0; i < l.length; i++) {
        boolean last = i == l.length - 1;
        l[i] = (last ? "≥" : "") + (h.max <= 1 ? String.format(Locale.ROOT, "%.2f", h.lower(i)) : String.format(Locale.ROOT, "%.0f", h.lower(i)));
      }
      bars(b, h.name + " of the variant calls" + (h.missing > 0 ? " (" + h.missing + " without one)" : ""), l, h.counts);
    }
    b.append("</div>\n</section>\n");
  }

  private static void row(StringBuilder b, String k, Object v) {
    b.append("<tr><th>").append(esc(k)).append("</th><td>").append(esc(String.valueOf(v))).append("</td></tr>\n");
  }

  /** One bar chart as inline SVG: a bar per label, the count above it. */
  private static void bars(StringBuilder b, String caption, String[] labels, long[] counts) {
    int w = 640;
    int h = 240;
    int left = 40;
    int bottom = 40;
    long max = 1;
    for (long c : counts) max = Math.max(max, c);
    double bw = (w - left - 10.0) / counts.length;
    b.append("<figure>\n<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"")
        .append(h).append("\" viewBox=\"0 0 ").append(w).append(' ').append(h).append("\">\n");
    b.append("<text class=\"title\" x=\"").append(left).append("\" y=\"16\">").append(esc(caption)).append("</text>\n");
    for (int i = 0; i < counts.length; i++) {
      double bh = (h - bottom - 30.0) * counts[i] / max;
      double x = left + i * bw;
      double y = h - bottom - bh;
      b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%s: %d</title></rect>%n",
          x + 1, y, Math.max(1, bw - 2), bh, esc(labels[i]), counts[i]));
      if (counts[i] > 0) {
        b.append(String.format(Locale.ROOT, "<text class=\"count\" x=\"%.1f\" y=\"%.1f\">%d</text>%n", x + bw / 2, y - 3, counts[i]));
      }
      if (counts.length <= 20 || i % 2 == 0) {
        b.append(String.format(Locale.ROOT, "<text class=\"xtick\" x=\"%.1f\" y=\"%d\">%s</text>%n", x + bw / 2, h - bottom + 14,
            esc(labels[i])));
      }
    }
    b.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>%n", left, h - bottom, w - 10,
        h - bottom));
    b.append("</svg>\n<figcaption>").append(esc(caption)).append("</figcaption>\n</figure>\n");
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** The standalone page's own rules (the run report has its own). */
  private static final String PAGE_CSS = """
      body { font: 14px/1.4 system-ui, sans-serif; color: #222; margin: 20px 24px; background: #fff; }
      h1 { font-size: 22px; margin: 0 0 4px; }
      .sub { color: #555; margin: 0 0 18px; word-break: break-all; }
      """;

  /** The rules of {@link #appendSection}'s markup, all under {@code .qc} so that they touch nothing else on a page. */
  public static final String SECTION_CSS = """
      .qc h2 { font-size: 18px; margin: 28px 0 10px; }
      .qc .tables { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; margin-bottom: 20px; }
      .qc table { border-collapse: collapse; font-size: 13px; }
      .qc caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
      .qc th, .qc td { border-bottom: 1px solid #e4e4e4; padding: 3px 10px 3px 0; text-align: left; }
      .qc td { font-variant-numeric: tabular-nums; }
      .qc th { font-weight: 500; color: #444; }
      .qc .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(640px, 1fr)); gap: 18px 24px; }
      .qc figure { margin: 0; }
      .qc figcaption { font-size: 12px; color: #555; }
      .qc svg.chart text { font: 10px system-ui, sans-serif; fill: #333; }
      .qc svg.chart .title { font-size: 13px; font-weight: 600; }
      .qc svg.chart rect { fill: #4878a8; }
      .qc svg.chart .count, .qc svg.chart .xtick { text-anchor: middle; }
      .qc svg.chart .axis { stroke: #999; }
      """;
}
