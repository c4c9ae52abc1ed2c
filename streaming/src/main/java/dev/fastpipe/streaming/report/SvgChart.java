package dev.fastpipe.streaming.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A line chart drawn as inline SVG (no script, no external reference): lines of y over x, axes with
 * round ticks, a legend, a title. NaN values leave a gap. Enough for a report people read; not a
 * plotting library.
 */
final class SvgChart {
  /** Okabe and Ito's colour-blind-safe palette (without its yellow, weak on white). */
  static final List<String> COLOURS =
      List.of("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999");

  private record Line(String name, double[] x, double[] y, String colour, boolean dashed) {}

  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP_TITLE = 26;
  private static final int BOTTOM = 44;
  private static final int LEGEND_ROW = 18;

  private final String title;
  private final String yLabel;
  private final List<Line> lines = new ArrayList<>();
  private final List<Map.Entry<String, Double>> marks = new ArrayList<>();
  private boolean percent;
  private String note;

  /** A chart with this title and y axis label. */
  SvgChart(String title, String yLabel) {
    this.title = title;
    this.yLabel = yLabel;
  }

  /** Values are fractions, drawn on a fixed 0 to 100 % axis. */
  SvgChart percent() {
    this.percent = true;
    return this;
  }

  /** A line of small text under the title (what the chart cannot show, say). */
  SvgChart note(String text) {
    this.note = text;
    return this;
  }

  /** A moment of the run, drawn as a labelled vertical line at {@code x}. */
  SvgChart mark(String label, double x) {
    marks.add(Map.entry(label, x));
    return this;
  }

  SvgChart line(String name, double[] x, double[] y) {
    return line(name, x, y, false);
  }

  SvgChart line(String name, double[] x, double[] y, boolean dashed) {
    if (x.length != y.length) throw new IllegalArgumentException(name + ": " + x.length + " x values, " + y.length + " y values");
    lines.add(new Line(name, x, y, COLOURS.get(lines.size() % COLOURS.size()), dashed));
    return this;
  }

  /** The chart as an {@code <svg>} element {@code width} x {@code height} pixels. */
  String render(int width, int height) {
    List<List<Line>> legendRows = legendRows(width);
    int top = TOP_TITLE + (note == null ? 0 : 14) + legendRows.size() * LEGEND_ROW + 6;
    int plotW = width - LEFT - RIGHT;
    int plotH = height - top - BOTTOM;
    double xMax = niceCeiling(max(true));
    double yMax = percent ? 1 : niceCeiling(max(false));
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">%n",
        width, height, width, height, esc(title)));
    b.append("<title>").append(esc(title)).append("</title>\n");
    b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" class=\"title\">%s</text>%n", LEFT, esc(title)));
    if (note != null) b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"34\" class=\"note\">%s</text>%n", LEFT, esc(note)));
    int legendY = TOP_TITLE + (note == null ? 0 : 14);
    for (List<Line> row : legendRows) {
      int x = LEFT;
      for (Line l : row) {
        b.append(String.format(Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\"%s/>",
            x, legendY + 6, x + 18, legendY + 6, l.colour, l.dashed ? " stroke-dasharray=\"5 3\"" : ""));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>%n", x + 23, legendY + 10,
            esc(l.name)));
        x += legendWidth(l);
      }
      legendY += LEGEND_ROW;
    }
    // Plot frame, grid and ticks.
    b.append(String.format(Locale.ROOT, "<g transform=\"translate(%d,%d)\">%n", LEFT, top));
    b.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" class=\"frame\"/>%n", plotW, plotH));
    for (double v : ticks(yMax)) {
      double y = plotH - v / yMax * plotH;
      b.append(String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>", y, plotW, y));
      b.append(String.format(Locale.ROOT, "<text x=\"-6\" y=\"%.1f\" class=\"ytick\">%s</text>%n", y + 4,
          percent ? Math.round(v * 100) + "%" : number(v)));
    }
    for (double v : ticks(xMax)) {
      double x = v / xMax * plotW;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"tick\"/>", x, plotH, x,
          plotH + 4));
      b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"xtick\">%s</text>%n", x, plotH + 17, number(v)));
    }
    b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"xlabel\">seconds since the run started</text>%n",
        plotW / 2, plotH + 36));
    b.append(String.format(Locale.ROOT,
        "<text transform=\"translate(-48,%d) rotate(-90)\" class=\"ylabel\">%s</text>%n", plotH / 2, esc(yLabel)));
    for (int i = 0; i < marks.size(); i++) {
      double x = Math.min(marks.get(i).getValue(), xMax) / xMax * plotW;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" class=\"mark\"/>", x, x, plotH));
      b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"marklabel\">%s</text>%n", x + 3, 11 + 12 * (i % 3),
          esc(marks.get(i).getKey())));
    }
    for (Line l : lines) {
      for (String points : segments(l, xMax, yMax, plotW, plotH)) {
        b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"%s\"/>%n",
            l.colour, l.dashed ? " stroke-dasharray=\"5 3\"" : "", points));
      }
    }
    if (lines.isEmpty() || max(true) <= 0) {
      b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"empty\">no samples</text>%n", plotW / 2, plotH / 2));
    }
    b.append("</g>\n</svg>\n");
    return b.toString();
  }

  /** The runs of finite points of one line, as polyline point lists in plot coordinates. */
  private static List<String> segments(Line l, double xMax, double yMax, int plotW, int plotH) {
    List<String> out = new ArrayList<>();
    StringBuilder seg = new StringBuilder();
    for (int i = 0; i < l.x.length; i++) {
      if (!Double.isFinite(l.y[i]) || !Double.isFinite(l.x[i])) {
        if (seg.length() > 0) out.add(seg.toString());
        seg.setLength(0);
        continue;
      }
      double x = l.x[i] / xMax * plotW;
      double y = plotH - Math.min(Math.max(l.y[i], 0), yMax) / yMax * plotH;
      if (seg.length() > 0) seg.append(' ');
      seg.append(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
    }
    if (seg.length() > 0) out.add(seg.toString());
    return out;
  }

  private List<List<Line>> legendRows(int width) {
    List<List<Line>> rows = new ArrayList<>();
    List<Line> row = new ArrayList<>();
    int used = 0;
    for (Line l : lines) {
      int w = legendWidth(l);
      if (!row.isEmpty() && LEFT + used + w > width - RIGHT) {
        rows.add(row);
        row = new ArrayList<>();
        used = 0;
      }
      row.add(l);
      used += w;
    }
    if (!row.isEmpty()) rows.add(row);
    return rows;
  }

  private static int legendWidth(Line l) {
    return 23 + 7 * l.name.length() + 18;
  }

  private double max(boolean x) {
    double m = 0;
    for (Line l : lines) for (double v : x ? l.x : l.y) if (Double.isFinite(v)) m = Math.max(m, v);
    if (x && m > 0) for (var mark : marks) m = Math.max(m, mark.getValue());
    return m;
  }

  private static final double[] AXIS_ENDS = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10};

  /** The axis end for data up to {@code v}: the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten at or above it (1 for 0). */
  static double niceCeiling(double v) {
    if (!(v > 0)) return 1;
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : AXIS_ENDS) if (m * p >= v * (1 - 1e-9)) return m * p;
    return 10 * p;
  }

  /** Ticks from 0 to at most {@code max}: multiples of the finest 1, 2 or 5 times a power of ten that gives at most 8 steps. */
  static double[] ticks(double max) {
    double p = Math.pow(10, Math.floor(Math.log10(max / 8)));
    double step = 10 * p;
    for (double m : new double[] {1, 2, 5, 10}) {
      if (max / (m * p) <= 8 + 1e-9) {
        step = m * p;
        break;
      }
    }
    int n = (int) Math.floor(max / step + 1e-9);
    double[] t = new double[n + 1];
    for (int i = 0; i <= n; i++) t[i] = i * step;
    return t;
  }

  /** 0, 0.25, 12, 1.5k, 2M: short labels. */
  static String number(double v) {
    double a = Math.abs(v);
    if (a >= 1e6) return trim(v / 1e6) + "M";
    if (a >= 1e4) return trim(v / 1e3) + "k";
    return trim(v);
  }

  private static String trim(double v) {
    String s = String.format(Locale.ROOT, "%.2f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  /** Text escaped for XML and HTML. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
