package dev.fastpipe.cli;

import dev.fastpipe.inference.ModelSignatureException;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.SubcommandLauncher;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The one entry point behind {@code bin/fastpipe}. Each capability is a picocli subcommand;
 * the launcher script handles the allocator and JVM flags before we get here.
 */
@Command(
    name = "fastpipe",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Streaming DeepVariant-style germline variant calling on the JVM:",
      "make_examples workers write pileup examples into lock-free shared-memory rings,",
      "call_variants consumers classify them with TensorFlow Java, postprocess writes the VCF.",
      "",
      "Launcher options, before or after the subcommand (the environment variable in brackets):",
      "  --allocator jemalloc|glibc|tcmalloc|mimalloc  native allocator preloaded into every process",
      "      (default jemalloc) [FASTPIPE_ALLOCATOR]; a missing library warns and falls back to glibc.",
      "  --malloc-conf TEXT  MALLOC_CONF of every process, e.g. narenas:1 [FASTPIPE_MALLOC_CONF].",
      "  --shard-allocator NAME  allocator of call's shard worker processes (make_examples) only;",
      "      default: as --allocator [FASTPIPE_SHARD_ALLOCATOR]. --allocator then sets the parent's",
      "      (call_variants with TensorFlow, postprocess).",
      "  --shard-malloc-conf TEXT  MALLOC_CONF of shard worker processes; '' = none [FASTPIPE_SHARD_MALLOC_CONF].",
      "  'doctor' shows what each role gets; 'call --metrics' records the allocator mapped into each process.",
      "Environment: FASTPIPE_JAVA_OPTS (extra JVM flags, e.g. -Xmx8g), FASTPIPE_DEBUG (stack traces)."
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      CallCommand.class,
      DemoCommand.class,
      MakeExamplesCommand.class,
      TrainCommand.class,
      CalibrateCommand.class,
      CallVariantsCommand.class,
      PostprocessCommand.class,
      BenchTransportCommand.class,
      BenchInferenceCommand.class,
      BenchCommand.class,
      TuneCommand.class,
      SimulateCommand.class,
      PlanCommand.class,
      CompareCommand.class,
      VcfStatsCommand.class,
      VcfStatsCommand.Alias.class,
      DoctorCommand.class,
      ShardWorkerCommand.class,
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** --version: the build's version, as the VCF header's ##source records it. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"fastpipe " + dev.fastpipe.streaming.FastpipeVersion.get()};
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The width every subcommand's --help is laid out in (one for all, set on the whole tree). */
  static final int HELP_WIDTH = 110;

  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setUsageHelpWidth(HELP_WIDTH);
    cl.setParameterExceptionHandler(new OptionErrors()); // one line naming the problem, not the whole usage
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          // One line for the user, no stack trace unless asked for.
          commandLine.getErr().println("fastpipe " + commandLine.getCommandName() + ": " + oneLine(ex));
          if (System.getenv("FASTPIPE_DEBUG") != null) ex.printStackTrace(commandLine.getErr());
          return exitStatus(ex).code();
        });
    return cl;
  }

  /**
   * The message of {@code ex} on one line, with the root cause appended when the message does not
   * already say it (an unexpected error shows what actually went wrong, e.g. "No space left on device").
   */
  static String oneLine(Throwable ex) {
    String msg = ex.getMessage() == null || ex.getMessage().isBlank() ? ex.toString() : ex.getMessage();
    String root = RootCause.of(ex);
    boolean domain = ex instanceof UserError || ex instanceof InputException || ex instanceof ShardFailedException;
    if (!domain && !msg.contains(root)) msg += " (" + root + ")";
    return msg.replace('\n', ' ').strip();
  }

  /**
   * The exit status for an error that reached the command line: {@link ExitStatus#BAD_INPUT} for
   * bad input (a file, a setting, a model that does not fit), {@link ExitStatus#FAILED} for a run
   * that failed (a shard, an unexpected error).
   */
  static ExitStatus exitStatus(Throwable ex) {
    if (ex instanceof UserError ue) return ue.status();
    if (ex instanceof InputException || ex instanceof ModelSignatureException
        || ex instanceof java.io.UncheckedIOException) {
      return ExitStatus.BAD_INPUT;
    }
    return ExitStatus.FAILED;
  }

  /** The launcher of subcommand processes (shard workers, benchmarked runs): this class's main. */
  static final SubcommandLauncher LAUNCHER = new SubcommandLauncher(Main.class.getName());

  public static void main(String[] args) {
    exitOnSignals();
    System.exit(commandLine().execute(args));
  }

  /**
   * SIGUSR1 ends the process as SIGTERM does (the JVM's own default for it skips the shutdown hooks,
   * so a run would leave its temporary VCF, shard logs and rings): through {@link System#exit}, so
   * the hooks run, with status 128 + 10. SIGHUP, SIGINT and SIGTERM run the hooks already. A signal
   * the process was started with ignored stays ignored.
   */
  static void exitOnSignals() {
    try {
      sun.misc.Signal usr1 = new sun.misc.Signal("USR1");
      sun.misc.SignalHandler previous = sun.misc.Signal.handle(usr1, s -> System.exit(ExitStatus.SIGNALLED + s.getNumber()));
      if (previous == sun.misc.SignalHandler.SIG_IGN) sun.misc.Signal.handle(usr1, previous);
    } catch (IllegalArgumentException | LinkageError e) {
      // a platform without SIGUSR1, or the JVM keeps it: its default stays
    }
  }
}
