package dev.fastpipe.streaming.plan;

import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.genome.SampleNames;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans a {@code call}: opens the inputs once and resolves, once, everything the run is made of:
 * the sample, the contigs left out, the partitions and their shards, each partition's work and the
 * shard workers' JVM flags and heap.
 */
public final class Planner {
  private Planner() {}

  /**
   * The plan of {@code settings}: the partition size is automatic unless {@code partitionSizeGiven};
   * {@code vcfSample}: the VCF's sample name, null: the sample called; {@code workerJavaOpts}: the
   * workers' JVM flags, null: automatic ({@link WorkerJvm#autoJavaOpts}); a resumed run starts at
   * 0-based {@code fromPosition} of contig index {@code fromContig} (-1: from the start). Throws
   * InputException for bad input.
   */
  public static CallPlan forCall(ExampleSettings settings, boolean partitionSizeGiven, String vcfSample,
      String workerJavaOpts, int fromContig, int fromPosition) {
    try (InputFiles in = new InputFiles(settings.inputs().reference(), settings.inputs().reads())) {
      ContigExclusion excluded = ContigExclusion.of(settings.inputs().excludeContigs());
      RunPlan plan = RunPlan.forCall(settings, in, excluded, partitionSizeGiven, fromContig, fromPosition);
      double[] work = PartitionWork.of(plan, in.readsIndex, in.reads.getFileHeader());
      ExampleSettings.Gvcf gvcf = settings.gvcf();
      HaploidRegions haploid = HaploidRegions.of(gvcf.haploidContigs(), gvcf.parBed(), in.dictionary); // before any shard starts
      String sample = vcfSample != null ? vcfSample : SampleNames.required(in.readsPath, plan.sample());
      List<String> notes = new ArrayList<>();
      in.warnings.forEach(w -> notes.add("warning: " + w));
      if (!excluded.isEmpty()) notes.add(excluded.describeOn(in.dictionary));
      String opts = workerJavaOpts != null ? workerJavaOpts : WorkerJvm.autoJavaOpts(plan, work);
      return new CallPlan(plan, in.dictionary, haploid, sample, work, opts, notes);
    }
  }
}
