package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import dev.fastpipe.streaming.postprocess.GvcfAssembler;
import dev.fastpipe.streaming.postprocess.RefBlock;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The resume journal of one {@code call} output: a directory {@code OUT.vcf.gz.fastpipe-journal/}
 * beside the VCF holding
 * <ul>
 *   <li>{@code lock}: held (an OS file lock) by the one run writing this output; a second run finds
 *       it taken and stops before touching anything;
 *   <li>{@code plan}: the run's {@link PlanIdentity}, written once (temporary name, fsync, rename);
 *   <li>{@code checkpoints}: an append-only text file, one line per checkpoint, each ending with the
 *       CRC32C of the line, fsynced as it is written: where the finished prefix of the regions ends
 *       (the first partition not yet written), the bytes of the partial VCF and gVCF written since the
 *       previous checkpoint (as complete BGZF blocks, with their CRC32C), the gVCF assembler's carried
 *       state, and the wall seconds the runs had spent to get there.
 * </ul>
 * The partial VCF and gVCF themselves lie beside their outputs ({@link #partialOf}), under names no
 * other run removes. A checkpoint is appended only after the bytes it names are on disk (fsync), so a
 * kill at any moment leaves a journal whose checkpoints all hold; a torn or edited line fails its CRC
 * and ends the journal there; a partial file that was truncated or edited fails a segment's CRC and
 * the run resumes from the last checkpoint before the damage (or from the start).
 *
 * <p>Why a plain file and not Chronicle Queue (which fastpipe has, as a transport): a checkpoint is
 * one short line every few seconds, where the cost that matters is the fsync, which Chronicle leaves
 * to the OS (its memory-mapped appends are durable when the kernel writes the pages back, not at a
 * partition boundary); its cycle files and metadata would add to what a resume must check for
 * damage, where a line with its CRC is checked by reading it.
 */
final class CallJournal implements AutoCloseable {
  static final String SUFFIX = ".fastpipe-journal";
  static final String PARTIAL_SUFFIX = ".fastpipe-partial";
  private static final String CHECKPOINT = "checkpoint";

  /** Where the finished prefix ends and what it holds; see the class comment. */
  record Checkpoint(int contig, int position, long basesDone, long bases, double elapsedSeconds,
      VcfCallWriter.Synced vcf, VcfCallWriter.Synced gvcf, GvcfAssembler.State gvcfState) {

    /** The checkpoint written right after the header: nothing finished yet. */
    boolean atStart() {
      return contig < 0;
    }

    String toLine() {
      StringBuilder b = new StringBuilder(CHECKPOINT);
      b.append(" contig=").append(contig).append(" pos=").append(position)
          .append(" bases=").append(basesDone).append('/').append(bases)
          .append(" elapsed=").append(String.format(java.util.Locale.ROOT, "%.3f", elapsedSeconds))
          .append(" vcf=").append(segment(vcf)).append(" gvcf=").append(segment(gvcf));
      if (gvcfState != null) {
        RefBlock o = gvcfState.open();
        b.append(" open=").append(o == null ? "none" : o.contigIndex() + "," + o.start() + "," + o.end() + "," + o.refBase()
            + "," + o.minGq() + "," + o.minDp() + "," + o.pl()[0] + "," + o.pl()[1] + "," + o.pl()[2] + "," + o.gqBin()
            + "," + o.called() + "," + o.haploid());
        b.append(" covered=").append(gvcfState.coveredContig()).append(',').append(gvcfState.coveredUntil());
      }
      String body = b.toString();
      return body + " crc32c=" + Long.toHexString(crc(body)) + "\n";
    }

    private static String segment(VcfCallWriter.Synced s) {
      return s == null ? "none" : s.from() + "," + s.to() + "," + Long.toHexString(s.crc32c());
    }

    /** The checkpoint of one line (without its newline), or null when it is torn, edited or not one. */
    static Checkpoint parse(String line) {
      int at = line.lastIndexOf(" crc32c=");
      if (at < 0 || !line.startsWith(CHECKPOINT + " ")) return null;
      String body = line.substring(0, at);
      try {
        if (Long.parseLong(line.substring(at + 8), 16) != crc(body)) return null;
        Map<String, String> f = new LinkedHashMap<>();
        for (String kv : body.substring(CHECKPOINT.length() + 1).split(" ")) {
          int eq = kv.indexOf('=');
          f.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        String[] bases = f.get("bases").split("/");
        GvcfAssembler.State state = null;
        if (f.containsKey("covered")) {
          String[] c = f.get("covered").split(",");
          RefBlock open = null;
          if (!f.get("open").equals("none")) {
            String[] o = f.get("open").split(",");
            open = new RefBlock(Integer.parseInt(o[0]), Integer.parseInt(o[1]), Integer.parseInt(o[2]), Byte.parseByte(o[3]),
                Integer.parseInt(o[4]), Integer.parseInt(o[5]),
                new int[] {Integer.parseInt(o[6]), Integer.parseInt(o[7]), Integer.parseInt(o[8])}, Integer.parseInt(o[9]),
                Boolean.parseBoolean(o[10]), Boolean.parseBoolean(o[11]));
          }
          state = new GvcfAssembler.State(open, Integer.parseInt(c[0]), Integer.parseInt(c[1]));
        }
        return new Checkpoint(Integer.parseInt(f.get("contig")), Integer.parseInt(f.get("pos")),
            Long.parseLong(bases[0]), Long.parseLong(bases[1]), Double.parseDouble(f.get("elapsed")),
            parseSegment(f.get("vcf")), parseSegment(f.get("gvcf")), state);
      } catch (RuntimeException e) {
        return null; // a line that passes its CRC but does not parse: another build's, treated as torn
      }
    }

    private static VcfCallWriter.Synced parseSegment(String s) {
      if (s.equals("none")) return null;
      String[] p = s.split(",");
      return new VcfCallWriter.Synced(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2], 16));
    }
  }

  /** What a resumed run continues from: a checkpoint (null: from the start), and what was said about it. */
  record Resume(Checkpoint from, List<String> notes) {}

  private final Path output;
  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final ChannelOpener opener;
  private FileChannel log;
  private long logBytes;
  private Checkpoint last;
  private boolean broken; // a write failed: no more checkpoints this run
  private PrintStream err;
  private Path gvcf;
  private volatile boolean started; // this run owns the journal's content now
  private boolean done; // finished or failed: nothing more to do

  /** How the checkpoints file is opened for appending; a test injects a failing channel (a full disk). */
  interface ChannelOpener {
    FileChannel open(Path file) throws IOException;
  }

  static final ChannelOpener FILES = f -> FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
      StandardOpenOption.APPEND);

  private CallJournal(Path output, Path dir, FileChannel lockChannel, FileLock lock, ChannelOpener opener) {
    this.output = output;
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.opener = opener;
  }

  /** The journal directory of {@code output}. */
  static Path dirOf(Path output) {
    Path abs = output.toAbsolutePath();
    return abs.resolveSibling(abs.getFileName() + SUFFIX);
  }

  /**
   * Declares the files a journaled run of {@code output} (and {@code gvcf}, may be null) writes and
   * deletes beside its outputs, the journal directory and the partial VCF and gVCF, as outputs of
   * {@code files}: an input there would be deleted before it is read, and another output there
   * would fail only after the whole run. {@code output} null (no journal): nothing is declared.
   */
  static dev.fastpipe.streaming.RunFiles.Builder declare(dev.fastpipe.streaming.RunFiles.Builder files, Path output,
      Path gvcf) {
    if (output == null) return files;
    files.plannedOutput("--output journal", dirOf(output)).replacedDirectory("--output journal", dirOf(output))
        .plannedOutput("--output journal", partialOf(output));
    return gvcf == null ? files : files.plannedOutput("--gvcf journal", partialOf(gvcf));
  }

  /** Where the partial form of {@code output} (a VCF or gVCF) is written by a journaled run. */
  static Path partialOf(Path output) {
    Path abs = output.toAbsolutePath();
    return abs.resolveSibling("." + abs.getFileName() + PARTIAL_SUFFIX);
  }

  /**
   * Takes the journal of {@code output} for this run: its lock (another run holding it: one line,
   * nothing touched); {@link #start} then reads or renews it.
   */
  static CallJournal open(Path output, ChannelOpener opener, PrintStream err) {
    Path dir = dirOf(output);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new InputException(output + ": cannot create the resume journal " + dir + " (" + RootCause.of(e)
          + "); --no-journal runs without one", e);
    }
    FileChannel lockChannel;
    FileLock lock;
    try {
      lockChannel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new InputException(output + ": cannot open the journal's lock " + dir.resolve("lock") + " (" + RootCause.of(e) + ")", e);
    }
    try {
      lock = lockChannel.tryLock();
    } catch (IOException | OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      String holder = readHolder(lockChannel);
      closeQuietly(lockChannel);
      throw new InputException(output + ": another fastpipe call" + holder + " is writing this output (its journal "
          + dir + " is locked); this run stops and changes nothing");
    }
    CallJournal j = new CallJournal(output, dir, lockChannel, lock, opener);
    j.err = err;
    try {
      ByteBuffer pid = ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII));
      lockChannel.truncate(0);
      lockChannel.write(pid, 0);
    } catch (IOException ignored) {
      // the pid is only for the message of a second run
    }
    return j;
  }

  /**
   * With {@code resume}: the checkpoint to continue from, checked as the class comment says; fresh
   * otherwise (and when there is nothing to resume), after which the old journal and partial files are
   * gone. Either way the journal is ready for {@link #append}.
   */
  Resume start(PlanIdentity identity, boolean resume, Path gvcf) {
    this.gvcf = gvcf;
    List<String> notes = new ArrayList<>();
    Checkpoint from = null;
    List<String> keep = List.of();
    if (resume) {
      Map<String, String> recorded = readPlan();
      if (recorded == null) {
        notes.add("--resume: no journal of an interrupted run at " + dir + " (the last run finished, ran with --no-journal"
            + " or stopped before its first checkpoint); starting from the beginning");
      } else {
        String diff = identity.differenceFrom(PlanIdentity.fromEntries(recorded));
        if (diff != null) {
          throw new InputException("--resume " + output + ": the interrupted run's plan differs: " + diff
              + "; run without --resume to start afresh");
        }
        List<String> lines = readCheckpointLines(notes);
        int good = verified(lines, gvcf, notes);
        if (good > 0 && !Checkpoint.parse(lines.get(good - 1)).atStart()) {
          keep = lines.subList(0, good);
          from = Checkpoint.parse(keep.get(good - 1));
        } else if (good > 0) {
          notes.add("--resume: the interrupted run had finished no partition yet; starting from the beginning");
        } else {
          notes.add("--resume: no checkpoint of " + dir + " holds; starting from the beginning");
        }
      }
    }
    try {
      if (from == null) {
        Files.deleteIfExists(dir.resolve("checkpoints"));
        Files.deleteIfExists(partialOf(output));
        if (gvcf != null) Files.deleteIfExists(partialOf(gvcf));
        writeAtomically(dir.resolve("plan"), planText(identity));
      } else {
        writeAtomically(dir.resolve("checkpoints"), String.join("", keep.stream().map(l -> l + "\n").toList()));
        last = from;
      }
      log = opener.open(dir.resolve("checkpoints"));
      logBytes = log.size();
      started = true;
    } catch (IOException e) {
      throw new UncheckedIOException(dir + ": cannot write the resume journal (" + RootCause.of(e)
          + "); --no-journal runs without one", e);
    }
    return new Resume(from, notes);
  }

  /**
   * Appends {@code c} and syncs it. A failure (a full disk) is reported once and ends journaling for
   * this run: the line may be torn, which its CRC shows, and the checkpoints before it still hold.
   */
  void append(Checkpoint c) {
    if (broken) return;
    ByteBuffer line = ByteBuffer.wrap(c.toLine().getBytes(StandardCharsets.UTF_8));
    try {
      while (line.hasRemaining()) log.write(line);
      log.force(false);
      logBytes += line.limit();
      last = c;
    } catch (IOException | RuntimeException e) {
      broken = true;
      try {
        log.truncate(logBytes); // drop a torn line if the file system lets us
      } catch (IOException | RuntimeException ignored) {
        // its CRC marks it anyway
      }
      if (err != null) {
        err.println("fastpipe: warning: " + dir + ": cannot write the resume journal (" + RootCause.of(e)
            + "); the run goes on, a resume would continue from the last checkpoint written");
      }
    }
  }

  /** The last checkpoint written or resumed from, or null. */
  Checkpoint last() {
    return last;
  }

  /** True once a journal write failed. */
  boolean broken() {
    return broken;
  }

  /**
   * The run failed ({@code cause}) or was stopped (null): a journal that holds finished work stays for
   * {@code --resume} (said on stderr); one that holds none goes, with the partial files, and so does
   * one of a run that found bad input (a resume would find it again, or refuse the mended file) or
   * whose partial files are gone (finished and staged, then dropped when a later output failed).
   */
  synchronized void afterFailure(Throwable cause) {
    if (!started || done) return;
    done = true;
    boolean partialsThere = Files.exists(partialOf(output)) && (gvcf == null || Files.exists(partialOf(gvcf)));
    if (last != null && !last.atStart() && !(cause instanceof InputException) && partialsThere) {
      if (err != null) {
        err.printf("fastpipe: the finished %.1f %% of the regions is kept in %s; the same call with --resume continues"
            + " from it%n", 100.0 * last.basesDone() / Math.max(1, last.bases()), dir);
      }
      return;
    }
    try {
      Files.deleteIfExists(partialOf(output));
      if (gvcf != null) Files.deleteIfExists(partialOf(gvcf));
    } catch (IOException ignored) {
      // best effort
    }
    finished();
  }

  /** The run published its outputs: the journal goes (the lock is released by {@link #close}). */
  void finished() {
    done = true;
    closeQuietly(log);
    for (String name : new String[] {"checkpoints", "plan", "plan.tmp", "checkpoints.tmp", "lock"}) {
      try {
        Files.deleteIfExists(dir.resolve(name));
      } catch (IOException ignored) {
        // best effort
      }
    }
    try {
      Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // something else lies in it: left alone
    }
  }

  Path dir() {
    return dir;
  }

  @Override
  public void close() {
    closeQuietly(log);
    try {
      if (lock.isValid()) lock.release();
    } catch (IOException ignored) {
      // closing the channel releases it too
    }
    closeQuietly(lockChannel);
  }

  /** The recorded plan, or null when there is none (or it is damaged, which is said). */
  private Map<String, String> readPlan() {
    String text;
    try {
      text = Files.readString(dir.resolve("plan"), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new InputException(dir.resolve("plan") + ": cannot read the journal's plan (" + RootCause.of(e) + ")", e);
    }
    int at = text.lastIndexOf("crc32c\t");
    if (at < 0 || !text.endsWith("\n") || !Long.toHexString(crc(text.substring(0, at))).equals(text.substring(at + 7).trim())) {
      throw new InputException(dir.resolve("plan") + ": the journal's plan is damaged (checksum); run without --resume");
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.substring(0, at).split("\n")) {
      if (line.isEmpty()) continue;
      int tab = line.indexOf('\t');
      m.put(line.substring(0, tab), line.substring(tab + 1));
    }
    return m;
  }

  private static String planText(PlanIdentity identity) {
    StringBuilder b = new StringBuilder();
    identity.entries().forEach((k, v) -> b.append(k.replace('\t', ' ').replace('\n', ' ')).append('\t')
        .append(v.replace('\n', ' ')).append('\n'));
    return b + "crc32c\t" + Long.toHexString(crc(b.toString())) + "\n";
  }

  /** The checkpoint lines in order, up to the first that is torn or fails its CRC (said in {@code notes}). */
  private List<String> readCheckpointLines(List<String> notes) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(dir.resolve("checkpoints"));
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new InputException(dir.resolve("checkpoints") + ": cannot read the journal (" + RootCause.of(e) + ")", e);
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int nl = text.indexOf('\n', at);
      String line = nl < 0 ? text.substring(at) : text.substring(at, nl);
      if (nl < 0 || Checkpoint.parse(line) == null) {
        notes.add("--resume: " + dir.resolve("checkpoints") + ": checkpoint " + (out.size() + 1)
            + (nl < 0 ? " is torn (cut short)" : " fails its checksum") + "; it and any after it are ignored");
        break;
      }
      out.add(line);
      at = nl + 1;
    }
    return out;
  }

  /**
   * How many leading checkpoints of {@code lines} the partial files bear out: each one's segments
   * follow the previous one's and their bytes have the recorded CRC32C. Damage is said in {@code notes}.
   */
  private int verified(List<String> lines, Path gvcf, List<String> notes) {
    if (lines.isEmpty()) return 0;
    try (Chain vcfChain = new Chain(partialOf(output)); Chain gvcfChain = gvcf == null ? null : new Chain(partialOf(gvcf))) {
      for (int i = 0; i < lines.size(); i++) {
        Checkpoint c = Checkpoint.parse(lines.get(i));
        String bad = vcfChain.check(c.vcf());
        if (bad == null && gvcf != null) bad = c.gvcf() == null ? "no gVCF bytes recorded" : gvcfChain.check(c.gvcf());
        if (bad != null) {
          notes.add("--resume: " + bad + "; the run continues from checkpoint " + i + " of " + lines.size()
              + " and recomputes the rest");
          return i;
        }
      }
      return lines.size();
    } catch (IOException e) {
      throw new InputException(output + ": cannot read the partial output (" + RootCause.of(e) + ")", e);
    }
  }

  /** Reads a partial file front to back, checking one recorded segment after another. */
  private static final class Chain implements AutoCloseable {
    private final Path file;
    private final InputStream in;
    private final long size;
    private long at;

    Chain(Path file) throws IOException {
      this.file = file;
      this.in = Files.exists(file) ? Files.newInputStream(file) : InputStream.nullInputStream();
      this.size = Files.exists(file) ? Files.size(file) : 0;
    }

    /** Null when the segment holds; else what is wrong, in a few words naming the file. */
    String check(VcfCallWriter.Synced s) throws IOException {
      if (s == null) return file + ": no bytes recorded";
      if (s.from() != at) return file + ": checkpoint segments do not follow on at byte " + at;
      if (size < s.to()) return file + " is shorter (" + size + " bytes) than the journal records (" + s.to() + ")";
      CRC32C crc = new CRC32C();
      byte[] buf = new byte[1 << 16];
      long left = s.to() - s.from();
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) return file + " ends early at byte " + (s.to() - left);
        crc.update(buf, 0, n);
        left -= n;
      }
      at = s.to();
      if (crc.getValue() != s.crc32c()) {
        return file + ": bytes " + s.from() + ".." + s.to() + " differ from what the journal records (checksum)";
      }
      return null;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      while (b.hasRemaining()) ch.write(b);
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      d.force(true); // the rename itself
    } catch (IOException ignored) {
      // some file systems do not sync directories
    }
  }

  private static String readHolder(FileChannel ch) {
    try {
      ByteBuffer b = ByteBuffer.allocate(32);
      int n = ch.read(b, 0);
      String pid = n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.US_ASCII).trim();
      return pid.matches("\\d+") ? " (pid " + pid + ")" : "";
    } catch (IOException e) {
      return "";
    }
  }

  static long crc(String s) {
    CRC32C c = new CRC32C();
    c.update(s.getBytes(StandardCharsets.UTF_8));
    return c.getValue();
  }

  private static void closeQuietly(java.io.Closeable c) {
    if (c == null) return;
    try {
      c.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }
}
