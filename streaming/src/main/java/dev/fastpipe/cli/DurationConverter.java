package dev.fastpipe.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** A time option: "90s", "5m", "1h", "500ms" or plain seconds ("300"); 0 is allowed. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern TIME = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)?");

  @Override
  public Duration convert(String text) {
    Matcher m = TIME.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new CommandLine.TypeConversionException("'" + text + "': expected a time such as 90s, 5m, 1h or plain seconds");
    }
    long v = Long.parseLong(m.group(1));
    return switch (m.group(2) == null ? "s" : m.group(2)) {
      case "ms" -> Duration.ofMillis(v);
      case "m" -> Duration.ofMinutes(v);
      case "h" -> Duration.ofHours(v);
      default -> Duration.ofSeconds(v);
    };
  }
}
