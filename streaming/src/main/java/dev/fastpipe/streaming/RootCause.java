package dev.fastpipe.streaming;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The one-line reason behind a library failure (htsjdk, java.io, java.nio), for messages that say
 * what actually went wrong ("No space left on device") rather than the wrapper's words: the
 * innermost non-blank message of the cause chain (the class name where there is none).
 */
public final class RootCause {
  private RootCause() {}

  /** The root cause of {@code e}. */
  public static String of(Throwable e) {
    return of(e, null);
  }

  /**
   * The root cause of {@code e}, with {@code file}'s own name dropped where the library repeats it
   * (the caller's message names the file already); {@code file} may be null.
   */
  public static String of(Throwable e, Path file) {
    Throwable t = e;
    String message = null;
    for (int depth = 0; t != null && depth < 20; t = t.getCause(), depth++) {
      String m = t instanceof FileSystemException fse ? fileSystemReason(fse) : t.getMessage();
      if (m != null && !m.isBlank()) message = m;
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

  /** java.nio's exceptions carry the path as their message and the reason apart: say the reason. */
  private static String fileSystemReason(FileSystemException e) {
    if (e instanceof NoSuchFileException) return "no such file or directory: " + e.getFile();
    if (e instanceof AccessDeniedException) return "permission denied: " + e.getFile();
    return e.getReason() != null ? e.getReason() : e.getMessage();
  }
}
