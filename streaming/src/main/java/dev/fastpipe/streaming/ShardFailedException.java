package dev.fastpipe.streaming;

/**
 * A make_examples shard (process or thread) failed or stopped, so the run stopped. The message
 * names the shard (and its pid for a process) and its last error line; the CLI exits with status 1.
 */
public class ShardFailedException extends RuntimeException {
  public ShardFailedException(String message) {
    super(message);
  }

  public ShardFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
