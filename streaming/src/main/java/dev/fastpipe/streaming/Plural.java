package dev.fastpipe.streaming;

/** A count with its noun in the right number, for messages and reports: "1 shard", "2 shards", "0 runs". */
public final class Plural {
  private Plural() {}

  /** {@code n} and {@code noun}, with an "s" unless {@code n} is 1 (the nouns fastpipe counts are all regular). */
  public static String of(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
