package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.InputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * bcftools as a bench configuration ({@code FASTPIPE_PIPELINE=bcftools}): {@code bcftools mpileup
 * -f REF [-R BED] [-r REGION] READS | bcftools call -mv -Oz}, the peer the project measures its cost
 * against, in the same interleaved schedule as the fastpipe configurations, so that "CPU of call
 * over bcftools' in the same run" is one of bench's comparisons. Its figures are total wall and
 * total CPU (both processes, reaped); the stage figures do not apply. It takes --ref, --reads, --bed
 * and --regions of the options every run gets; any other option is refused (put fastpipe's own
 * options in the fastpipe configurations).
 */
final class BcftoolsPeer {
  private String ref;
  private String reads;
  private String bed;
  private String regions;

  BcftoolsPeer(String config, List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      int eq = a.indexOf('=');
      String name = a.startsWith("--") && eq > 0 ? a.substring(0, eq) : a;
      if (!List.of("--ref", "--reads", "--bed", "--regions").contains(name)) {
        throw new InputException("configuration '" + config + "' runs bcftools (" + ClassicPipeline.PIPELINE
            + "=bcftools), which takes only --ref, --reads, --bed and --regions of call's options, not " + name
            + " (put it in the fastpipe configurations)");
      }
      String value = eq > 0 ? a.substring(eq + 1) : i + 1 < args.size() ? args.get(++i) : null;
      if (value == null) throw new InputException("configuration '" + config + "': " + name + " needs a value");
      switch (name) {
        case "--ref" -> ref = value;
        case "--reads" -> reads = value;
        case "--bed" -> bed = value;
        default -> regions = regions == null ? value.replace(' ', ',') : regions + "," + value.replace(' ', ',');
      }
    }
    if (ref == null || reads == null) throw new InputException("configuration '" + config + "' runs bcftools: it needs --ref and --reads");
  }

  /** The one command of a run: the mpileup | call pipe, under bash -o pipefail. */
  List<String> command(Path vcf) {
    String pipe = "bcftools mpileup -f " + BenchConfig.quoted(ref) + (bed == null ? "" : " -R " + BenchConfig.quoted(bed))
        + (regions == null ? "" : " -r " + BenchConfig.quoted(regions)) + " " + BenchConfig.quoted(reads)
        + " | bcftools call -mv -Oz -o " + BenchConfig.quoted(vcf.toString());
    return List.of("bash", "-o", "pipefail", "-c", pipe);
  }

  ClassicPipeline.Outcome run(Path vcf, Path log, Consumer<Map<String, String>> environment, ClassicPipeline.ProcessWatch watch)
      throws IOException, InterruptedException {
    return ClassicPipeline.runStages(List.of(List.of(command(vcf))), List.of("bcftools"), log, environment, watch,
        Map.of("pipeline", "bcftools"));
  }
}
