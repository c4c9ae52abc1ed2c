package dev.fastpipe.streaming;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** fastpipe's version (the Maven project version, filtered into {@code fastpipe-version.properties}). */
public final class FastpipeVersion {
  private static final String VERSION = read();

  private FastpipeVersion() {}

  /** E.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when the resource is missing (an unfiltered build). */
  public static String get() {
    return VERSION;
  }

  private static String read() {
    try (InputStream in = FastpipeVersion.class.getResourceAsStream("/dev/fastpipe/fastpipe-version.properties")) {
      if (in == null) return "unknown";
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown").strip();
      return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
