package dev.fastpipe.cli;

import dev.fastpipe.streaming.ExitStatus;

/**
 * A problem with the user's input (a file, a flag, a setting) reported as one line and an exit
 * status ({@link ExitStatus#BAD_INPUT} unless told otherwise), without a stack trace. Messages
 * name the file or option and the problem.
 */
public class UserError extends RuntimeException {
  private final ExitStatus status;

  public UserError(String message) {
    this(message, ExitStatus.BAD_INPUT);
  }

  public UserError(String message, ExitStatus status) {
    super(message);
    this.status = status;
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
    this.status = ExitStatus.BAD_INPUT;
  }

  public ExitStatus status() {
    return status;
  }
}
