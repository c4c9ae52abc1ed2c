package dev.fastpipe.cli;

/**
 * A problem with the user's input (a file, a flag, a setting) reported as one line and an exit
 * status, without a stack trace. Messages name the file or option and the problem.
 */
public class UserError extends RuntimeException {
  private final int exitCode;

  public UserError(String message) {
    this(message, 2);
  }

  public UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
    this.exitCode = 2;
  }

  public int exitCode() {
    return exitCode;
  }
}
