package dev.fastpipe.streaming;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * The one JSON set-up of fastpipe's files (Jackson): typed records, their components written in
 * snake_case ({@code cpuSeconds} as {@code cpu_seconds}), in declaration order, a NaN or an infinity as
 * null. Reading is strict
 * ({@link #STRICT}: a field the record does not know is refused, for files fastpipe writes and reads
 * back itself) or lenient ({@link #LENIENT}: unknown fields are passed over, for files kept between
 * versions, such as a model's, and an absent figure reads as zero).
 */
public final class JsonCodec {
  private JsonCodec() {}

  /** Refuses fields the target record does not declare. */
  public static final ObjectMapper STRICT = mapper(true);

  /** Passes over fields the target record does not declare. */
  public static final ObjectMapper LENIENT = mapper(false);

  /** NaN and infinities have no JSON number: they are written as null (a figure not known). */
  private static final class FiniteDoubles extends StdSerializer<Double> {
    FiniteDoubles() {
      super(Double.class);
    }

    @Override
    public void serialize(Double d, JsonGenerator g, SerializerProvider p) throws IOException {
      if (Double.isFinite(d)) g.writeNumber(d);
      else g.writeNull();
    }
  }

  private static ObjectMapper mapper(boolean strict) {
    SimpleModule finite = new SimpleModule("finite-doubles")
        .addSerializer(Double.class, new FiniteDoubles()).addSerializer(double.class, new FiniteDoubles());
    return new ObjectMapper()
        .registerModule(finite)
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
        .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, strict)
        .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
        .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
  }

  /**
   * Two spaces a level, {@code "key": value} and {@code [1, 2]}: as fastpipe's files were written
   * before Jackson, so a reader (or a grep) finds the same lines.
   */
  private static final DefaultPrettyPrinter PRINTER = new DefaultPrettyPrinter(Separators.createDefaultInstance()
      .withObjectFieldValueSpacing(Separators.Spacing.AFTER).withArrayValueSpacing(Separators.Spacing.AFTER)
      .withArrayEmptySeparator("").withObjectEmptySeparator(""))
      .withArrayIndenter(new DefaultPrettyPrinter.NopIndenter());

  /** {@code value} as indented JSON text ending in a newline. */
  public static String pretty(Object value) {
    try {
      return STRICT.writer(PRINTER).writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not writable as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code value} as JSON text on one line. */
  public static String line(Object value) {
    try {
      return STRICT.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not writable as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code text} read as a {@code type}; IOException with Jackson's one-line reason where it is not one. */
  public static <T> T read(ObjectMapper mapper, String text, Class<T> type) throws IOException {
    try {
      return mapper.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw new IOException(e.getOriginalMessage(), e);
    }
  }
}
