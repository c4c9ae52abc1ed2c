package dev.fastpipe.cli;

import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.scatter.ChunkPlanner;
import dev.fastpipe.streaming.scatter.SampleSheet;
import dev.fastpipe.streaming.scatter.ScatterPlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fastpipe plan}: the genome cut into chunks of about equal work, one BED each, for a scatter/gather run. */
@Command(
    name = "plan",
    header = "Split the genome into N chunks balanced by the reads' index, one BED per chunk (scatter/gather).",
    mixinStandardHelpOptions = true,
    description = {
      "Check the samples against the reference as call does, then cut the regions (--bed, or every contig",
      "of the reference the reads have) into N chunks that hold about the same bytes of reads per the",
      "reads' index (.bai/.csi bins, .crai slices; summed over samples), and write DIR/chunk-0001-of-000N.bed",
      "... for 'fastpipe call --bed'. Cuts fall between regions or on 1 kb boundaries, preferably where no",
      "read starts (N gaps, no coverage); a variant next to a cut is called by exactly one chunk, as in one",
      "whole run. Prints one line per chunk: number, bases, estimated MB of reads, intervals, span.",
      "--check: check everything and print the plan, write nothing (the workflow's check before any job)."
    })
public final class PlanCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--ref", required = true, paramLabel = "REF.fa", description = "Indexed FASTA (plain, or bgzipped with .fai and .gzi).")
  Path ref;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  static final class Input {
    @ArgGroup(exclusive = false)
    One one;

    @Option(names = "--samples", paramLabel = "SHEET.tsv",
        description = "Sample sheet: header sample<TAB>reads, then one sample a line (reads relative to the sheet's"
            + " directory). Every sample is checked; the chunks balance their summed bytes.")
    Path samples;
  }

  static final class One {
    @Option(names = "--reads", required = true, paramLabel = "BAM|CRAM", description = "Indexed BAM or CRAM of one sample.")
    Path reads;

    @Option(names = "--sample", paramLabel = "NAME", description = "The sample of --reads to call (as call --sample).")
    String sample;
  }

  @Option(names = "--bed", paramLabel = "BED", description = "Regions to split (default: every contig in both reads and reference).")
  Path bed;

  @Option(names = "--exclude-contigs", split = ",", paramLabel = "PATTERN",
      description = "Leave out contigs whose whole name matches, as call --exclude-contigs: a preset ("
          + ContigExclusion.PRESET_LIST + ") or a regular expression; comma-separated, repeatable. Default: none.")
  List<String> excludeContigs = new ArrayList<>();

  @Option(names = "--chunks", required = true, paramLabel = "N", description = "Number of chunks.")
  int chunks;

  @Option(names = "--output-dir", paramLabel = "DIR", description = "Where the chunk BEDs go (created if missing).")
  Path outputDir;

  @Option(names = "--check", description = "Check the inputs and print the plan; write nothing.")
  boolean check;

  @Override
  public Integer call() {
    if (!check && outputDir == null) throw new UserError("--output-dir DIR is required (or --check to write nothing)");
    if (check && outputDir != null) throw new UserError("--check writes nothing: drop --output-dir");
    List<SampleSheet.Sample> samples = input.samples != null
        ? SampleSheet.read(input.samples)
        : List.of(new SampleSheet.Sample(input.one.sample, input.one.reads.toAbsolutePath(), 0));
    RunFiles.Builder files = RunFiles.builder().reference("--ref", ref).input("--samples", input.samples).input("--bed", bed);
    for (SampleSheet.Sample sm : samples) files.reads("--reads", sm.reads());
    files.check();
    // planning reads and writes nothing; it checks --chunks against the regions before one chunk's
    // file is declared (a count far beyond them would otherwise declare as many files first)
    ScatterPlan.Result plan = ScatterPlan.plan(ref, samples, bed, ContigExclusion.of(excludeContigs), chunks);
    if (!check) {
      for (int k = 1; k <= chunks; k++) files.plannedOutput("--output-dir", outputDir.resolve(ScatterPlan.fileName(k, chunks)));
      files.check();
    }
    PrintWriter err = spec.commandLine().getErr();
    for (String w : plan.warnings()) err.println("fastpipe plan: warning: " + w);
    err.flush();
    if (!check) ScatterPlan.write(outputDir, plan.chunks());
    PrintWriter out = spec.commandLine().getOut();
    out.println("#chunk\tbases\treads_mb\tintervals\tfirst\tlast");
    for (ChunkPlanner.Chunk c : plan.chunks()) {
      Region a = c.intervals().get(0);
      Region z = c.intervals().get(c.intervals().size() - 1);
      out.printf(Locale.ROOT, "%s\t%d\t%.2f\t%d\t%s:%d\t%s:%d%n",
          check ? Integer.toString(c.number()) : outputDir.resolve(ScatterPlan.fileName(c.number(), chunks)).toString(),
          c.bases(), c.bytes() / 1e6, c.intervals().size(), a.contig(), a.start() + 1, z.contig(), z.end());
    }
    out.flush();
    return 0;
  }
}
