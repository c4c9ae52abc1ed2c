package dev.fastpipe.streaming;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
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
    checkNotSpecial(out, option);
    Path dir = abs.getParent();
    if (!Files.isDirectory(dir)) throw new InputException(option + " " + out + ": directory " + dir + " does not exist");
    try {
      Path probe = Files.createTempFile(dir, "." + abs.getFileName() + ".probe-", "");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new InputException(option + " " + out + ": cannot create a file in " + dir + " (" + RootCause.of(e) + ")", e);
    }
  }

  /**
   * Fails with a one-line {@link InputException} when {@code out} (or what a symlink there points to)
   * exists and is neither a regular file nor a directory: a device such as /dev/null or /dev/stdout,
   * a FIFO, a socket. Every output is renamed into place once complete, and that rename would
   * replace the device node (as root: the machine's /dev/null) with a regular file.
   */
  public static void checkNotSpecial(Path out, String option) {
    String kind = specialKind(out);
    if (kind != null) {
      throw new InputException(option + " " + out + ": is " + kind + ", not a regular file (an output is renamed into"
          + " place when complete, which would replace it); name a regular file");
    }
  }

  /**
   * "a character device", "a FIFO", ... for a special file at {@code p} (links followed), "a link to
   * an open file descriptor" for a name that leads into /proc (/dev/stdout, /dev/fd/1: the rename
   * would replace the link, even when the descriptor is a regular file), else null.
   */
  static String specialKind(Path p) {
    if (leadsIntoProc(p.toAbsolutePath().normalize())) return "a link to an open file descriptor (/proc/self/fd)";
    BasicFileAttributes followed;
    try {
      followed = Files.readAttributes(p, BasicFileAttributes.class);
    } catch (IOException | SecurityException notThere) {
      return null; // not there (or a dangling link): the rename makes a new file
    }
    if (followed.isRegularFile() || followed.isDirectory()) return null;
    try {
      Object mode = Files.getAttribute(p, "unix:mode");
      if (mode instanceof Integer m) {
        switch (m & 0170000) {
          case 0020000: return "a character device";
          case 0060000: return "a block device";
          case 0010000: return "a FIFO (named pipe)";
          case 0140000: return "a socket";
          default: break;
        }
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
      // no unix view: the generic word below
    }
    return "a special file";
  }

  /**
   * True when {@code abs} is reached through a link into /proc: its directory's or a symlink's
   * target lies there (a name written in /proc itself takes no new file, which checkWritable tries).
   */
  private static boolean leadsIntoProc(Path abs) {
    Path proc = Path.of("/proc");
    if (abs.startsWith(proc)) return false;
    Path p = abs;
    for (int hops = 0; hops < 40; hops++) {
      if (p.startsWith(proc)) return true;
      Path dir = p.getParent();
      try {
        if (dir != null && dir.toRealPath().startsWith(proc)) return true;
      } catch (IOException | SecurityException noDir) {
        // a directory that is not there: no descriptor link either
      }
      if (!Files.isSymbolicLink(p)) return false;
      try {
        p = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
      } catch (IOException | SecurityException e) {
        return false;
      }
    }
    return false;
  }

  /**
   * Writes {@code text} (UTF-8) to {@code out} the way every output is written: under
   * {@link #temporary} (with {@code suffix}), renamed into place once complete; temporaries of dead
   * runs are removed first. On failure nothing is left under either name and the exception says
   * "OUT: cannot write the WHAT (cause)".
   */
  public static void writeString(Path out, String suffix, String text, String what) throws IOException {
    try (Transaction tx = new Transaction()) {
      tx.writeString(out, suffix, text, what);
      tx.commit();
    }
  }

  /**
   * Renames the complete file {@code temporary} to {@code target} (one file's {@link Transaction}):
   * on failure the temporary is deleted and the exception names {@code target}.
   */
  public static void publish(Path temporary, Path target) throws IOException {
    try (Transaction tx = new Transaction()) {
      tx.stage(temporary, target);
      tx.commit();
    }
  }

  /**
   * The outputs of one run, published together or not at all: each is written complete under its
   * {@link #temporary} name and {@link #stage staged}; {@link #commit} renames them all into place
   * (a rename that fails takes the ones already renamed back out); {@link #close} without a commit
   * deletes every staged temporary. So a run whose metrics or report cannot be written leaves no
   * VCF under its final name either.
   */
  public static final class Transaction implements AutoCloseable {
    private final List<Path[]> staged = new ArrayList<>();
    private boolean done;

    /** Adds a complete file under {@code temporary} that {@link #commit} renames to {@code target}. */
    public synchronized void stage(Path temporary, Path target) {
      if (done) throw new IllegalStateException(target + ": the run's outputs are already published or dropped");
      staged.add(new Path[] {temporary.toAbsolutePath(), target.toAbsolutePath()});
    }

    /**
     * Writes {@code text} (UTF-8) under {@code out}'s temporary name (with {@code suffix}; temporaries
     * of dead runs removed first) and stages it; a failure says "OUT: cannot write the WHAT (cause)"
     * and leaves no temporary.
     */
    public void writeString(Path out, String suffix, String text, String what) throws IOException {
      Path abs = out.toAbsolutePath();
      Path tmp = temporary(abs, suffix);
      removeDeadTemporaries(abs);
      try {
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        deleteQuietly(tmp);
        throw new IOException(out + ": cannot write the " + what + " (" + RootCause.of(e) + ")", e);
      }
      stage(tmp, abs);
    }

    /** Renames every staged file into place, in the order staged: all of them, or none. */
    public synchronized void commit() throws IOException {
      if (done) throw new IllegalStateException("the run's outputs are already published or dropped");
      for (Path[] s : staged) {
        String kind = specialKind(s[1]); // one made there during the run: never rename over a device
        if (kind != null) {
          close();
          throw new IOException(s[1] + ": is " + kind + " now, not a regular file; nothing was renamed over it");
        }
      }
      List<Path> published = new ArrayList<>();
      for (Path[] s : staged) {
        try {
          Files.move(s[0], s[1], StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
          published.add(s[1]);
        } catch (IOException e) {
          for (Path p : published) deleteQuietly(p); // published with a file that could not be
          close();
          throw new IOException(s[1] + ": cannot rename the finished file into place (" + RootCause.of(e) + ")", e);
        }
      }
      done = true;
    }

    /** Without a {@link #commit}: deletes every staged temporary (nothing appears under a final name). */
    @Override
    public synchronized void close() {
      if (done) return;
      done = true;
      for (Path[] s : staged) deleteQuietly(s[0]);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort
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
}
