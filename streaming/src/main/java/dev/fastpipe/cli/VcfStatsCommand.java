package dev.fastpipe.cli;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.evaluate.CallsetStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fastpipe stats VCF [--html OUT]}: a callset's QC figures (DeepVariant's vcf_stats_report).
 * {@code vcf-stats}, its first name, still works ({@link Alias}, hidden from the help).
 */
@Command(
    name = "stats",
    header = "Callset QC of any VCF: counts by type and FILTER, Ts/Tv, het/hom-alt, indel sizes, QUAL/GQ/DP/VAF histograms.",
    mixinStandardHelpOptions = true,
    description = {
      "Reads a VCF (bgzipped or plain; the first sample) and prints records by FILTER and by type, Ts/Tv of the",
      "bi-allelic SNP calls and the het/hom-alt ratio of the variant calls (PASS or no FILTER, an ALT in GT);",
      "--html also writes a self-contained page with the indel length histogram and QUAL, GQ, DP and VAF",
      "histograms. 'call --report' has the same section. See docs/tools.md."
    })
public class VcfStatsCommand implements Callable<Integer> {
  /** {@code vcf-stats}: the command's name before it was {@code stats}; kept for one release, not listed. */
  @Command(name = "vcf-stats", hidden = true)
  static final class Alias extends VcfStatsCommand {}

  @Parameters(index = "0", paramLabel = "VCF", description = "The VCF (.vcf.gz or .vcf).")
  Path vcf;

  @Option(names = "--html", paramLabel = "OUT.html", description = "Also write the QC page here (temporary name, then renamed).")
  Path html;

  @Override
  public Integer call() throws IOException {
    RunFiles.builder().input("VCF", vcf).output("--html", html).check();
    if (!java.nio.file.Files.isRegularFile(vcf)) throw new UserError(vcf + ": no such file");
    CallsetStats stats = CallsetStats.of(vcf);
    System.out.print(stats.text(vcf));
    if (html != null) {
      OutputFiles.writeString(html, ".html", stats.html(vcf.toAbsolutePath().toString()), "QC page");
      System.err.println("stats: " + html);
    }
    return 0;
  }
}
