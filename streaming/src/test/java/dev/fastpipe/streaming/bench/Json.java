package dev.fastpipe.streaming.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.fastpipe.streaming.JsonCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tests' look into a JSON file fastpipe wrote, by path of keys: {@link #parse} (Jackson, every
 * number as a double), {@link #at}, {@link #number}, {@link #list}. The files themselves are
 * written by {@link JsonCodec} from typed records; this is only for asserting on them.
 */
public final class Json {
  private Json() {}

  /** The value {@code text} holds (maps, lists, strings, doubles, booleans, nulls); IllegalArgumentException where it is not JSON. */
  public static Object parse(String text) {
    try {
      return doubles(JsonCodec.STRICT.readValue(text, Object.class));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code value} as {@link JsonCodec#pretty} writes it. */
  public static String write(Object value) {
    return JsonCodec.pretty(value);
  }

  private static Object doubles(Object v) {
    if (v instanceof Number n) return n.doubleValue();
    if (v instanceof List<?> l) {
      List<Object> r = new ArrayList<>(l.size());
      for (Object o : l) r.add(doubles(o));
      return r;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> r = new LinkedHashMap<>();
      m.forEach((k, o) -> r.put((String) k, doubles(o)));
      return r;
    }
    return v;
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
}
