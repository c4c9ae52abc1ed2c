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
   * {@code FILE: WHAT: root cause} ({@link RootCause}).
   */
  public static InputException reading(Path file, String what, Throwable e) {
    if (e instanceof InputException ie) return ie;
    return new InputException(file + ": " + what + ": " + RootCause.of(e, file), e);
  }
}
