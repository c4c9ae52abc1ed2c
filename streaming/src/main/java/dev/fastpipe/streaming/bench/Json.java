package dev.fastpipe.streaming.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The little JSON bench and tune need: reading a run's {@code --metrics} file into maps, lists,
 * strings, doubles, booleans and nulls, and writing the same kinds back. Not a general library:
 * no streaming, numbers are doubles; enough for files fastpipe writes itself.
 */
public final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** The value {@code text} holds; IllegalArgumentException naming the offset where it is not JSON. */
  public static Object parse(String text) {
    Json p = new Json(text);
    Object v = p.value();
    p.space();
    if (p.at != text.length()) throw p.error("text after the value");
    return v;
  }

  /** {@code value} as JSON; maps keep their order, doubles are written with up to 6 decimals
   * (smaller ones in full, never as zero); every number written is valid JSON. */
  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, "");
    return b.append('\n').toString();
  }

  /** {@code root.k1.k2...}: the value under those keys, null where one is missing. */
  public static Object at(Object root, String... keys) {
    Object v = root;
    for (String k : keys) {
      if (!(v instanceof Map<?, ?> m)) return null;
      v = m.get(k);
    }
    return v;
  }

  /** The number at {@code keys}, or NaN. */
  public static double number(Object root, String... keys) {
    return at(root, keys) instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** The list at {@code keys}, or an empty one. */
  @SuppressWarnings("unchecked")
  public static List<Object> list(Object root, String... keys) {
    return at(root, keys) instanceof List<?> l ? (List<Object>) l : List.of();
  }

  private Object value() {
    space();
    if (at >= text.length()) throw error("the text ends where a value should be");
    char c = text.charAt(at);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default: return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    at++;
    space();
    if (take('}')) return m;
    do {
      space();
      if (!peek('"')) throw error("a key (a string) expected");
      String k = string();
      space();
      expect(':');
      m.put(k, value());
      space();
    } while (take(','));
    expect('}');
    return m;
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    at++;
    space();
    if (take(']')) return l;
    do {
      l.add(value());
      space();
    } while (take(','));
    expect(']');
    return l;
  }

  private String string() {
    StringBuilder b = new StringBuilder();
    at++;
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') return b.toString();
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (at >= text.length()) break;
      char e = text.charAt(at++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> {
          if (at + 4 > text.length()) throw error("a short \\u escape");
          b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> b.append(e);
      }
    }
    throw error("a string without its closing quote");
  }

  private Object literal(String word, Object v) {
    if (!text.startsWith(word, at)) throw error("unexpected character '" + text.charAt(at) + "'");
    at += word.length();
    return v;
  }

  private Double number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
    String n = text.substring(start, at);
    if (!NUMBER.matcher(n).matches()) { // JSON's grammar, not Java's: "0.", ".5", "+1" and "1e" are not JSON
      at = start;
      throw error(n.isEmpty() ? "unexpected character '" + text.charAt(start) + "'" : "not a JSON number: " + n);
    }
    return Double.valueOf(n);
  }

  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  /**
   * A non-integral finite double as a JSON number: rounded to 6 decimals ("0.25", "-3.141593"), or,
   * when that would show none of its digits (below 0.5e-6 in magnitude), Java's shortest form
   * ("1.0E-7"), so that a small p-value stays a number and stays non-zero.
   */
  static String decimal(double d) {
    BigDecimal six = BigDecimal.valueOf(d).setScale(6, RoundingMode.HALF_EVEN);
    if (six.signum() == 0) return Double.toString(d);
    return six.stripTrailingZeros().toPlainString();
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private boolean take(char c) {
    if (at < text.length() && text.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!take(c)) throw error("'" + c + "' expected");
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("not JSON at offset " + at + ": " + what);
  }

  private static void write(StringBuilder b, Object v, String indent) {
    if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        b.append("{}");
        return;
      }
      b.append("{\n");
      int i = 0;
      for (var e : m.entrySet()) {
        b.append(indent).append("  ");
        quote(b, String.valueOf(e.getKey()));
        b.append(": ");
        write(b, e.getValue(), indent + "  ");
        b.append(++i < m.size() ? ",\n" : "\n");
      }
      b.append(indent).append('}');
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        b.append("[]");
        return;
      }
      boolean flat = l.stream().noneMatch(x -> x instanceof Map || x instanceof List);
      b.append(flat ? "[" : "[\n");
      for (int i = 0; i < l.size(); i++) {
        if (!flat) b.append(indent).append("  ");
        write(b, l.get(i), indent + "  ");
        if (i + 1 < l.size()) b.append(flat ? ", " : ",\n");
      }
      b.append(flat ? "]" : "\n" + indent + "]");
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        b.append("null");
      } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        b.append((long) d);
      } else {
        b.append(decimal(d));
      }
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v == null) {
      b.append("null");
    } else {
      quote(b, v.toString());
    }
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20) b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          else b.append(c);
        }
      }
    }
    b.append('"');
  }
}
