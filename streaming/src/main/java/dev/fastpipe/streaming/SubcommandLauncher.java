package dev.fastpipe.streaming;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How this process starts a fastpipe subcommand in a new process (a shard worker, a benchmarked
 * run): through {@code bin/fastpipe} when this JVM was started by it (the launcher exports
 * {@code FASTPIPE_LAUNCHER}), so the child gets the same allocator preload and JVM flags; else
 * (tests, an IDE) this JVM's binary, its module flags and class path, and {@code mainClass}. The
 * CLI, which owns the entry point, hands its main class in: the runtime names no CLI class.
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
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Xmx"))
        .toList());
    if (javaOpts != null && !javaOpts.isBlank()) cmd.addAll(List.of(javaOpts.trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    return cmd;
  }
}
