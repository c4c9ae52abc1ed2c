package dev.fastpipe.streaming;

/**
 * The exit statuses of every fastpipe process, defined once: the CLI maps an error to one of them,
 * and a run reads its shard workers' statuses back through the same names.
 */
public enum ExitStatus {
  /** The command did what it was asked. */
  OK(0),
  /** The run failed: a shard, a full disk, an unexpected error. */
  FAILED(1),
  /** Bad input: a file, an option or a model that does not fit; the one error line says which. */
  BAD_INPUT(2),
  /** A shard worker stopped because the run that started it is gone. */
  PARENT_GONE(4);

  /** A process ended by signal N exits with this plus N, as a shell reports it. */
  public static final int SIGNALLED = 128;

  private final int code;

  ExitStatus(int code) {
    this.code = code;
  }

  /** The number the process exits with. */
  public int code() {
    return code;
  }

  /** The status whose number is {@code code}; {@link #FAILED} for a number that is none of them. */
  public static ExitStatus of(int code) {
    for (ExitStatus s : values()) if (s.code == code) return s;
    return FAILED;
  }
}
