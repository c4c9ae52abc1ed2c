package dev.fastpipe.streaming;

import java.nio.file.Path;

/**
 * Input that cannot be used: a file (reads, reference, index, BED, VCF, model), a region or a
 * setting. The message is one line that names the file or setting and the problem; the CLI prints
 * it without a stack trace and exits with status 2.
 */
public class InputException extends RuntimeException {
  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A failure of a library (htsjdk, java.io) while reading {@code file}, as one line:
   * {@code FILE: WHAT: root cause}. The root cause is the innermost message of the chain, with the
   * file's own name dropped where the library repeats it.
   */
  public static InputException reading(Path file, String what, Throwable e) {
    if (e instanceof InputException ie) return ie;
    return new InputException(file + ": " + what + ": " + rootCause(e, file), e);
  }

  /** The innermost message of {@code e}'s cause chain (its class name where there is none), on one line. */
  public static String rootCause(Throwable e, Path file) {
    Throwable t = e;
    String message = null;
    for (int depth = 0; t != null && depth < 20; t = t.getCause(), depth++) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) message = t.getMessage();
      else if (message == null) message = t.getClass().getSimpleName();
    }
    String m = message.replaceAll("\\s+", " ").replaceAll("[.\\s]+$", "").strip();
    if (file != null) {
      for (String name : new String[] {file.toAbsolutePath().toString(), file.toString()}) {
        m = m.replace(" for " + name, "").replace(": " + name, "").replace(name + ": ", "");
      }
    }
    return m;
  }
}
