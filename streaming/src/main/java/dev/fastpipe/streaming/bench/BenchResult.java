package dev.fastpipe.streaming.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Every run of a bench, in the order they ran, with what they were asked to run. */
public record BenchResult(List<BenchConfig> configs, List<String> commonArgs, int rounds, int warmup, long seed,
    List<BenchRun> runs, Path workDir) {

  public BenchResult {
    configs = List.copyOf(configs);
    commonArgs = List.copyOf(commonArgs);
    runs = List.copyOf(runs);
  }

  /** The measured (not warm-up) runs of configuration {@code name} that succeeded. */
  public List<BenchRun> measured(String name) {
    return runs.stream().filter(r -> !r.warmup() && r.ok() && r.config().equals(name)).toList();
  }

  /** The first run that succeeded: the one every VCF body is compared with; null if none did. */
  public BenchRun reference() {
    return runs.stream().filter(BenchRun::ok).findFirst().orElse(null);
  }

  /**
   * One line per run whose VCF body differs from the {@link #reference()}'s ("run 5 (glibc, round
   * 2): VCF body md5 1a2b… differs from run 1 (jemalloc, warm-up)'s 3c4d…"); empty when every
   * run wrote the same records.
   */
  public List<String> mismatches() {
    BenchRun ref = reference();
    List<String> lines = new ArrayList<>();
    if (ref == null) return lines;
    for (BenchRun r : runs) {
      if (r.ok() && !r.vcfMd5().equals(ref.vcfMd5())) {
        lines.add(r.label() + ": VCF body md5 " + r.vcfMd5() + " differs from " + ref.label() + "'s " + ref.vcfMd5());
      }
    }
    return lines;
  }

  /**
   * As {@link #mismatches()}, but each run is compared only with the first successful run of its
   * own configuration: for configurations that may call differently (two models), where each must
   * still be deterministic.
   */
  public List<String> mismatchesWithinConfigurations() {
    List<String> lines = new ArrayList<>();
    java.util.Map<String, BenchRun> first = new java.util.HashMap<>();
    for (BenchRun r : runs) {
      if (!r.ok()) continue;
      BenchRun ref = first.putIfAbsent(r.config(), r);
      if (ref != null && !r.vcfMd5().equals(ref.vcfMd5())) {
        lines.add(r.label() + ": VCF body md5 " + r.vcfMd5() + " differs from " + ref.label() + "'s " + ref.vcfMd5());
      }
    }
    return lines;
  }

  /** {@link #mismatchesWithinConfigurations()} when {@code withinConfigurations}, else {@link #mismatches()}. */
  public List<String> mismatches(boolean withinConfigurations) {
    return withinConfigurations ? mismatchesWithinConfigurations() : mismatches();
  }
}
