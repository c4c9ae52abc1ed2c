package dev.fastpipe.streaming;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules every output file follows: checked before any work starts; written under a temporary
 * name beside it ({@code .NAME.tmp-PID…}) and renamed into place only when complete; temporaries
 * of processes that died (kill -9, power loss) removed by the next run that writes the same name.
 */
public final class OutputFiles {
  private OutputFiles() {}

  /**
   * Fails with a one-line {@link InputException} unless a file can be created at {@code out}: its
   * directory exists and takes a new file (tried, not guessed from permission bits, which root
   * ignores and /proc does not honour), and {@code out} is not a directory. {@code option} names
   * the setting in the message (e.g. "--output").
   */
  public static void checkWritable(Path out, String option) {
    Path abs = out.toAbsolutePath();
    if (Files.isDirectory(abs)) throw new InputException(option + " " + out + ": is a directory, not a file name");
    Path dir = abs.getParent();
    if (!Files.isDirectory(dir)) throw new InputException(option + " " + out + ": directory " + dir + " does not exist");
    try {
      Path probe = Files.createTempFile(dir, "." + abs.getFileName() + ".probe-", "");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new InputException(option + " " + out + ": cannot create a file in " + dir + " (" + RootCause.of(e) + ")", e);
    }
  }

  /** The temporary name this process writes {@code out} under: {@code .NAME.tmp-PID} + suffix, beside it. */
  public static Path temporary(Path out, String suffix) {
    Path abs = out.toAbsolutePath();
    return abs.resolveSibling("." + abs.getFileName() + ".tmp-" + ProcessHandle.current().pid() + suffix);
  }

  /**
   * Deletes temporaries of {@code out} ({@link #temporary}, any suffix) left by processes that no
   * longer run; returns how many. A temporary of a live process (another run writing the same name)
   * is left alone.
   */
  public static int removeDeadTemporaries(Path out) {
    Path abs = out.toAbsolutePath();
    Pattern name = Pattern.compile(Pattern.quote("." + abs.getFileName() + ".tmp-") + "(\\d+)(\\D.*)?");
    int removed = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(abs.getParent())) {
      for (Path p : files) {
        Matcher m = name.matcher(p.getFileName().toString());
        if (!m.matches()) continue;
        long pid = Long.parseLong(m.group(1));
        if (pid == ProcessHandle.current().pid() || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) continue;
        if (Files.deleteIfExists(p)) removed++;
      }
    } catch (IOException | NumberFormatException e) {
      return removed; // best effort: a leftover is untidy, not wrong
    }
    return removed;
  }

  /**
   * Writes {@code text} to {@code out} by the rules above: under a temporary name, then renamed
   * into place; an IOException names the file and {@code what} ("the metrics") and the root cause.
   */
  public static void writeString(Path out, String text, String what) throws IOException {
    Path abs = out.toAbsolutePath();
    Path tmp = temporary(abs, ".part");
    removeDeadTemporaries(abs);
    try {
      Files.writeString(tmp, text);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw new IOException(out + ": cannot write " + what + " (" + RootCause.of(e) + ")", e);
    }
  }
}
