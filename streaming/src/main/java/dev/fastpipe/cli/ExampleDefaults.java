package dev.fastpipe.cli;

import dev.fastpipe.streaming.plan.ExampleSettings;
import picocli.CommandLine;

/**
 * The defaults of the make_examples options ({@link ExampleInputOptions}, and make-examples' own),
 * read from a fresh {@link ExampleSettings.Builder}, where they are written once: the usage help
 * shows them and a run without the option gets them. {@code call} reaches them through
 * {@link CallDefaults}.
 */
final class ExampleDefaults implements CommandLine.IDefaultValueProvider {
  private static final ExampleSettings.Builder DEFAULTS = ExampleSettings.builder();

  @Override
  public String defaultValue(CommandLine.Model.ArgSpec arg) {
    if (!(arg instanceof CommandLine.Model.OptionSpec o)) return null;
    return switch (o.longestName()) {
      case "--min-mapq" -> Integer.toString(DEFAULTS.minMappingQuality());
      case "--min-base-quality" -> Integer.toString(DEFAULTS.minBaseQuality());
      case "--snp-min-count" -> Integer.toString(DEFAULTS.snpMinCount());
      case "--snp-min-fraction" -> Double.toString(DEFAULTS.snpMinFraction());
      case "--indel-min-count" -> Integer.toString(DEFAULTS.indelMinCount());
      case "--indel-min-fraction" -> Double.toString(DEFAULTS.indelMinFraction());
      case "--indel-shadow-ratio" -> Integer.toString(DEFAULTS.indelShadowRatio());
      case "--gvcf-gq-binsize" -> Integer.toString(DEFAULTS.gvcfGqBinSize());
      case "--realign-reads" -> Boolean.toString(DEFAULTS.realignReads());
      case "--shards" -> Integer.toString(DEFAULTS.shards());
      case "--task" -> Integer.toString(DEFAULTS.task());
      case "--channels" -> Integer.toString(DEFAULTS.channels());
      default -> null;
    };
  }
}
