package dev.fastpipe.inference;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Applies {@code TF_CPP_MIN_LOG_LEVEL} to the Abseil logging inside TensorFlow's native libraries.
 *
 * <p>Why: TensorFlow 2.18 logs through two libraries. Its own {@code tsl} logging honours
 * {@code TF_CPP_MIN_LOG_LEVEL}; Abseil's {@code LOG} does not. The MLIR graph pass logs "MLIR V1
 * optimization pass is not enabled" through it at a process's first session run (a SavedModel's
 * restore), and that first Abseil message makes Abseil also print "WARNING: All log messages
 * before absl::InitializeLog() is called are written to STDERR": two lines on every run's stderr
 * and in every Snakemake chunk log. No environment variable reaches Abseil, no session option
 * avoids the pass (it is disabled on a machine without TPUs, and says so), and
 * {@code libtensorflow_cc.so.2} links its own hidden copy of Abseil, so the exported
 * {@code absl::SetMinLogLevel} of the framework library does not reach it.
 *
 * <p>How: each library's Abseil keeps its threshold in one {@code int}
 * ({@code absl::(anonymous)::min_log_level}, a message below it is dropped before any sink, the
 * pre-initialisation warning included). For the TensorFlow build that the pom pins, the address
 * of that variable in each library is known (read from the library's symbol table with
 * {@code nm}, see {@link #KNOWN}) and tied to the library's GNU build ID, so it is used only for
 * exactly that file. Once the natives are loaded, each library is found in {@code /proc/self/maps},
 * its build ID is read from its ELF notes, and the level is written at load address + offset,
 * after checking that the address lies in a writable segment and holds a severity (0..3). Level:
 * {@code TF_CPP_MIN_LOG_LEVEL}, 0 all, 1 warnings and errors (the default when unset, as the
 * launcher sets it), 2 errors, 3 fatal only; so {@code TF_CPP_MIN_LOG_LEVEL=0} brings the two lines
 * back. Another build (an upgrade) is left alone: TensorFlow then logs as it always did, and
 * {@code TensorFlowLoggingTest} fails until its offsets are added here.
 */
public final class TensorFlowLogging {
  /** The environment variable read: TensorFlow's own. */
  public static final String ENV = "TF_CPP_MIN_LOG_LEVEL";

  /** Where one library build keeps Abseil's minimum log level. */
  record Known(String library, String buildId, long minLogLevel) {}

  /**
   * The builds of tensorflow-core-native 1.1.0 (linux-x86_64, TensorFlow 2.18, Abseil lts_20230802).
   * Offsets: {@code nm LIB | grep '_GLOBAL__N_113min_log_levelE'}; build ID: {@code readelf -n LIB}.
   */
  static final List<Known> KNOWN =
      List.of(
          new Known("libtensorflow_cc.so.2", "cdcdb4f3f8a928555b71513cbcae8523", 0x1b498d2cL),
          new Known("libtensorflow_framework.so.2", "171083abc7ad035cbf4700ba9158fe84", 0x22bc0b8L));

  private static boolean done;
  private static String state = "not applied";

  private TensorFlowLogging() {}

  /**
   * The Abseil severity (0 info, 1 warning, 2 error, 3 fatal) for a {@code TF_CPP_MIN_LOG_LEVEL}
   * value: unset, empty or not a number means 1 (the launcher's default); others are clamped to 0..3.
   */
  static int level(String value) {
    if (value == null || value.isBlank()) return 1;
    try {
      return Math.max(0, Math.min(3, Integer.parseInt(value.trim())));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /**
   * Sets Abseil's minimum log level in TensorFlow's libraries from {@code TF_CPP_MIN_LOG_LEVEL};
   * call once the natives are loaded and before the first graph or session. Later calls do nothing.
   */
  public static synchronized void apply() {
    if (done) return;
    done = true;
    int level = level(System.getenv(ENV));
    List<String> maps;
    try {
      maps = Files.readAllLines(Path.of("/proc/self/maps"));
    } catch (IOException | RuntimeException e) {
      state = "unchanged (/proc/self/maps: " + e.getMessage() + ")";
      return;
    }
    List<String> parts = new ArrayList<>();
    for (Known k : KNOWN) parts.add(k.library() + " " + set(k, level, maps));
    state = ENV + " " + level + ": " + String.join(", ", parts);
  }

  /** What {@link #apply} did, for {@code doctor}: the level and, per library, "set" or why not. */
  public static synchronized String state() {
    return state;
  }

  /** Writes {@code level} into {@code k}'s variable when the mapped library is that build; says what happened. */
  static String set(Known k, int level, List<String> maps) {
    Optional<Mapping> m = mapping(maps, k.library());
    if (m.isEmpty()) return "not loaded";
    Optional<Elf> elf = Elf.read(m.get().path());
    if (elf.isEmpty()) return "unreadable";
    if (!elf.get().buildId().equals(k.buildId())) return "unchanged (build " + elf.get().buildId() + " not known)";
    Optional<Long> address = elf.get().writableAddress(m.get().start(), k.minLogLevel());
    if (address.isEmpty()) return "unchanged (offset outside a writable segment)";
    sun.misc.Unsafe unsafe = unsafe();
    if (unsafe == null) return "unchanged (no sun.misc.Unsafe)";
    int before = unsafe.getIntVolatile(null, address.get());
    if (before < 0 || before > 3) return "unchanged (holds " + before + ", not a severity)";
    unsafe.putIntVolatile(null, address.get(), level);
    return "set";
  }

  /** The level that {@code k}'s variable holds now, when that build is loaded. */
  static Optional<Integer> current(Known k) {
    try {
      Optional<Mapping> m = mapping(Files.readAllLines(Path.of("/proc/self/maps")), k.library());
      if (m.isEmpty()) return Optional.empty();
      Optional<Elf> elf = Elf.read(m.get().path()).filter(e -> e.buildId().equals(k.buildId()));
      return elf.flatMap(e -> e.writableAddress(m.get().start(), k.minLogLevel())).map(a -> unsafe().getIntVolatile(null, a));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The JDK's {@code sun.misc.Unsafe} (module jdk.unsupported, open without flags), or null. */
  private static sun.misc.Unsafe unsafe() {
    try {
      java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** A library's mapping of file offset 0: where it was loaded from and at which address. */
  record Mapping(Path path, long start) {}

  /** The mapping of file offset 0 of the library named {@code fileName}, from /proc/PID/maps lines. */
  static Optional<Mapping> mapping(List<String> maps, String fileName) {
    for (String line : maps) {
      String[] f = line.trim().split("\\s+", 6);
      if (f.length < 6 || !f[5].startsWith("/") || f[5].endsWith(" (deleted)")) continue;
      Path p = Path.of(f[5]);
      if (p.getFileName() == null || !p.getFileName().toString().equals(fileName)) continue;
      if (Long.parseUnsignedLong(f[2], 16) != 0) continue;
      return Optional.of(new Mapping(p, Long.parseUnsignedLong(f[0].substring(0, f[0].indexOf('-')), 16)));
    }
    return Optional.empty();
  }

  /** What is needed of a 64-bit little-endian ELF shared object: its build ID and load segments. */
  record Elf(String buildId, List<long[]> loads) {
    private static final int PT_LOAD = 1;
    private static final int PT_NOTE = 4;
    private static final int PF_W = 2;
    private static final int NT_GNU_BUILD_ID = 3;

    /**
     * The run-time address of virtual address {@code vaddr} for a library whose offset-0 mapping
     * starts at {@code mapStart}, when it lies in a writable load segment.
     */
    Optional<Long> writableAddress(long mapStart, long vaddr) {
      long bias = Long.MIN_VALUE;
      for (long[] l : loads) if (l[1] == 0) bias = mapStart - l[0]; // the segment of file offset 0
      if (bias == Long.MIN_VALUE) return Optional.empty();
      for (long[] l : loads) {
        if ((l[3] & PF_W) != 0 && vaddr >= l[0] && vaddr + 4 <= l[0] + l[2]) return Optional.of(bias + vaddr);
      }
      return Optional.empty();
    }

    /** Reads the program headers and the GNU build-ID note (a few kilobytes from the file's start). */
    static Optional<Elf> read(Path file) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        ByteBuffer h = read(ch, 0, 64);
        if (h.getInt(0) != 0x464c457f || h.get(4) != 2 || h.get(5) != 1) return Optional.empty(); // ELF64, LE
        long phoff = h.getLong(0x20);
        int phentsize = Short.toUnsignedInt(h.getShort(0x36));
        int phnum = Short.toUnsignedInt(h.getShort(0x38));
        if (phentsize < 56 || phnum > 64) return Optional.empty();
        ByteBuffer ph = read(ch, phoff, phentsize * phnum);
        List<long[]> loads = new ArrayList<>();
        String buildId = "";
        for (int i = 0; i < phnum; i++) {
          int b = i * phentsize;
          int type = ph.getInt(b);
          int flags = ph.getInt(b + 4);
          long offset = ph.getLong(b + 8);
          long vaddr = ph.getLong(b + 16);
          long filesz = ph.getLong(b + 32);
          long memsz = ph.getLong(b + 40);
          if (type == PT_LOAD) loads.add(new long[] {vaddr, offset, memsz, flags});
          if (type == PT_NOTE && buildId.isEmpty() && filesz > 0 && filesz < 1 << 16) buildId = buildId(read(ch, offset, (int) filesz));
        }
        return Optional.of(new Elf(buildId, loads));
      } catch (IOException | RuntimeException e) {
        return Optional.empty();
      }
    }

    private static String buildId(ByteBuffer notes) {
      int p = 0;
      while (p + 12 <= notes.limit()) {
        int namesz = notes.getInt(p);
        int descsz = notes.getInt(p + 4);
        int type = notes.getInt(p + 8);
        int name = p + 12;
        int desc = name + ((namesz + 3) & ~3);
        if (namesz < 0 || descsz < 0 || desc + descsz > notes.limit()) return "";
        if (type == NT_GNU_BUILD_ID && namesz == 4 && notes.get(name) == 'G' && notes.get(name + 1) == 'N' && notes.get(name + 2) == 'U') {
          byte[] id = new byte[descsz];
          notes.get(desc, id);
          return HexFormat.of().formatHex(id);
        }
        p = desc + ((descsz + 3) & ~3);
      }
      return "";
    }

    private static ByteBuffer read(FileChannel ch, long offset, int length) throws IOException {
      ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        if (ch.read(b, offset + b.position()) < 0) throw new IOException("short ELF file");
      }
      return b.flip();
    }
  }
}
