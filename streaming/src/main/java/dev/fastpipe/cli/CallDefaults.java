package dev.fastpipe.cli;

import dev.fastpipe.streaming.pipeline.CallRequest;
import java.time.Duration;
import picocli.CommandLine;

/**
 * The defaults of {@code call}'s options, read from a fresh {@link CallRequest.Builder} (where they are
 * written, once) and given to picocli as text: the usage help shows them and a run without the
 * option gets them, with no {@code defaultValue} of its own to drift from the settings.
 */
final class CallDefaults implements CommandLine.IDefaultValueProvider {
  private static final CallRequest.Builder DEFAULTS = CallRequest.builder();
  private static final ExampleDefaults EXAMPLES = new ExampleDefaults();

  @Override
  public String defaultValue(CommandLine.Model.ArgSpec arg) {
    if (!(arg instanceof CommandLine.Model.OptionSpec o)) return null;
    return switch (o.longestName()) {
      case "--transport" -> DEFAULTS.transport();
      case "--ring-size" -> bytes(DEFAULTS.ringBytes());
      case "--consumers" -> Integer.toString(DEFAULTS.consumers());
      case "--batch-size" -> Integer.toString(DEFAULTS.batchSize());
      case "--min-qual" -> Double.toString(DEFAULTS.minQual());
      case "--metrics-linger" -> time(DEFAULTS.metricsLinger());
      case "--metrics-interval" -> time(DEFAULTS.metricsInterval());
      case "--shard-timeout" -> time(DEFAULTS.shardTimeout());
      case "--max-batch-wait" -> time(DEFAULTS.maxBatchWait());
      case "--journal-interval" -> time(DEFAULTS.journalInterval());
      case "--shards" -> null; // call's own: from the thread budget (CallCommand)
      default -> EXAMPLES.defaultValue(arg); // the make_examples options call shares
    };
  }

  /** 16M, 512K, 1G or plain bytes: as {@code --ring-size} is written ({@link CallCommand#parseSize} reads it). */
  static String bytes(long n) {
    if (n % (1L << 30) == 0) return n / (1L << 30) + "G";
    if (n % (1L << 20) == 0) return n / (1L << 20) + "M";
    if (n % (1L << 10) == 0) return n / (1L << 10) + "K";
    return Long.toString(n);
  }

  /** 5m, 90s, 200ms, 0: as a time option is written ({@link DurationConverter} reads it). */
  static String time(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) return "0";
    return ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
