package dev.fastpipe.streaming;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How this process starts a fastpipe subcommand in a new process (a shard worker, a benchmarked
 * run): through {@code bin/fastpipe} when this JVM was started by it (the launcher exports
 * {@code FASTPIPE_LAUNCHER}), so the child gets the same allocator preload and JVM flags; else
 * (tests, an IDE) this JVM's binary, the JVM flags fastpipe needs ({@link #jvmFlags}), this JVM's
 * heap limit, its class path and {@code mainClass}. The CLI, which owns the entry point, hands its
 * main class in: the runtime names no CLI class.
 */
public record SubcommandLauncher(String mainClass) {

  /** The environment variable the launcher names itself in. */
  public static final String LAUNCHER_ENV = "FASTPIPE_LAUNCHER";

  public SubcommandLauncher {
    if (mainClass == null || mainClass.isBlank()) throw new IllegalArgumentException("no main class");
  }

  /**
   * The command that starts a subcommand (its name and options follow): the launcher if known,
   * else this JVM's; {@code javaOpts} are added directly when there is no launcher (with one, the
   * child's FASTPIPE_JAVA_OPTS carries them).
   */
  public List<String> command(String javaOpts) {
    String launcher = System.getenv(LAUNCHER_ENV);
    List<String> cmd = new ArrayList<>();
    if (launcher != null && Files.isExecutable(Path.of(launcher))) {
      cmd.add(launcher);
      return cmd;
    }
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmFlags());
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-Xmx")).toList());
    if (javaOpts != null && !javaOpts.isBlank()) cmd.addAll(List.of(javaOpts.trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    return cmd;
  }

  /** Where the build writes the pom's {@code fastpipe.jvm.flags} (the one place they are written). */
  static final String JVM_FLAGS_RESOURCE = "/dev/fastpipe/jvm.flags";

  /**
   * The JVM flags every fastpipe JVM needs (module openings for Chronicle Queue and the rings), as
   * the build wrote them from the pom into the jar; bin/fastpipe reads the same list from the file
   * beside the jar.
   */
  public static List<String> jvmFlags() {
    try (InputStream in = SubcommandLauncher.class.getResourceAsStream(JVM_FLAGS_RESOURCE)) {
      if (in == null) throw new IllegalStateException(JVM_FLAGS_RESOURCE + " is not on the class path: an incomplete build");
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      if (text.isEmpty() || text.contains("${")) throw new IllegalStateException(JVM_FLAGS_RESOURCE + " was not filled in by the build: " + text);
      return List.of(text.split("\\s+"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
