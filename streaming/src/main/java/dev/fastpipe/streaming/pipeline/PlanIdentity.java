package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.FileFingerprint;
import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.SettingFields;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The identity of a {@code call}'s plan as a resume journal records it: what decides the records of
 * the VCF and gVCF. A resumed run must have the same one, entry for entry:
 * <ul>
 *   <li>every input file the run declares ({@link RunFiles}: reference and its indexes, reads and
 *       their index, BED files, every file of the model directory) by its {@link FileFingerprint};
 *   <li>every setting of {@link CallRequest} and of its {@link ExampleSettings} that changes
 *       the records ({@link #IN_VCF}), by value.
 * </ul>
 * Settings are found by reflection ({@link SettingFields}): every one of the two records must be named
 * either in {@link #IN_VCF} or in {@link #NOT_IN_VCF} (with the reason it does not change a
 * record); {@code PlanIdentityTest} fails for a field in neither, and a field left unclassified is
 * counted as changing the VCF, so a forgotten setting makes resume refuse, never accept wrongly.
 */
public final class PlanIdentity {
  /** Bumped when the journal's meaning changes; a journal of another format is refused. */
  static final String FORMAT = "2";

  /** Settings that change the records: name (in CallRequest, or "examples." + one of ExampleSettings) to its option. */
  static final Map<String, String> IN_VCF = Map.ofEntries(
      Map.entry("outputs.gvcf", "--gvcf"),
      Map.entry("postprocess.sample", "--sample"),
      Map.entry("postprocess.minQual", "--min-qual"),
      Map.entry("postprocess.minHomRefGq", "--min-homref-gq"),
      Map.entry("postprocess.calibration", "--no-gq-calibration / the model's calibration.json"),
      Map.entry("examples.inputs.reference", "--ref"),
      Map.entry("examples.inputs.reads", "--reads"),
      Map.entry("examples.inputs.regions", "--regions"),
      Map.entry("examples.inputs.regionsBed", "--bed"),
      Map.entry("examples.inputs.excludeContigs", "--exclude-contigs"),
      Map.entry("examples.inputs.sample", "--sample"),
      Map.entry("examples.inputs.truthVcf", "--truth-vcf"),
      Map.entry("examples.inputs.confidentBed", "--confident-bed"),
      Map.entry("examples.inputs.smallModel", "--no-small-model / the model's small_model.json"),
      Map.entry("examples.inputs.candidatesVcf", "--candidates-vcf"),
      Map.entry("examples.image.realignReads", "--no-realign-reads"),
      Map.entry("examples.image.channels", "--channels"),
      Map.entry("examples.gvcf.enabled", "--gvcf"),
      Map.entry("examples.gvcf.gqBinSize", "--gvcf-gq-binsize"),
      Map.entry("examples.gvcf.haploidContigs", "--haploid-contigs"),
      Map.entry("examples.gvcf.parBed", "--par-bed"),
      Map.entry("examples.image.height", "image height"),
      Map.entry("examples.image.width", "image width"),
      Map.entry("examples.image.downsampleSeed", "downsampling seed"),
      Map.entry("examples.readFilters.minMappingQuality", "--min-mapq"),
      Map.entry("examples.readFilters.minBaseQuality", "--min-base-quality"),
      Map.entry("examples.readFilters.keepDuplicates", "--keep-duplicates"),
      Map.entry("examples.readFilters.keepSecondary", "--keep-secondary"),
      Map.entry("examples.readFilters.keepSupplementary", "--keep-supplementary"),
      Map.entry("examples.readFilters.keepQcFail", "--keep-qc-fail"),
      Map.entry("examples.candidates.snpMinCount", "--snp-min-count"),
      Map.entry("examples.candidates.snpMinFraction", "--snp-min-fraction"),
      Map.entry("examples.candidates.indelMinCount", "--indel-min-count"),
      Map.entry("examples.candidates.indelMinFraction", "--indel-min-fraction"),
      Map.entry("examples.candidates.indelShadowRatio", "--indel-shadow-ratio"),
      Map.entry("examples.readFilters.defaultBaseQuality", "--default-base-quality"));

  /** Settings that do not change a record, each with the reason. */
  static final Map<String, String> NOT_IN_VCF = Map.ofEntries(
      Map.entry("examples", "its settings are classified one by one"),
      Map.entry("outputs.vcf", "where the VCF goes: the journal lies beside it"),
      Map.entry("outputs.metrics", "an output about the run"),
      Map.entry("outputs.report", "an output about the run"),
      Map.entry("transport.name", "examples are the same over every transport"),
      Map.entry("transport.options", "a transport's own options: examples are the same over every transport"),
      Map.entry("transport.ringBytes", "ring capacity: throughput only"),
      Map.entry("inference.modelDir", "the model's files are compared by content, as inputs"),
      Map.entry("inference.consumers", "consumer threads: throughput only"),
      Map.entry("inference.batchSize", "the model runs fixed-shape chunks whatever the batch"),
      Map.entry("inference.intraOpThreads", "TensorFlow threads: throughput only"),
      Map.entry("inference.interOpThreads", "TensorFlow threads: throughput only"),
      Map.entry("inference.maxBatchWait", "when a partial batch is classified, not how"),
      Map.entry("observability.progress", "stderr only"),
      Map.entry("observability.metricsPort", "live figures"),
      Map.entry("observability.metricsBind", "live figures"),
      Map.entry("observability.metricsLinger", "live figures"),
      Map.entry("observability.metricsInterval", "live figures"),
      Map.entry("journal.enabled", "whether this run keeps a journal"),
      Map.entry("journal.resume", "whether this run resumes"),
      Map.entry("journal.interval", "how often the journal is synced"),
      Map.entry("workers.javaOpts", "shard JVM flags: throughput only"),
      Map.entry("workers.launcher", "how shard processes are started: the same plan runs in them"),
      Map.entry("workers.shardTimeout", "when a silent shard stops the run"),
      Map.entry("workers.autoPartitionSize", "examples do not depend on the partition table"),
      Map.entry("commandLine", "the header's provenance line, not a record"),
      Map.entry("examples.sharding.shards", "examples do not depend on the shard count"),
      Map.entry("examples.sharding.task", "set per shard"),
      Map.entry("examples.sharding.partitionSize", "examples do not depend on the partition table"));

  private final Map<String, String> entries;

  private PlanIdentity(Map<String, String> entries) {
    this.entries = entries;
  }

  /** The identity of the run {@code s} (validated) with its checked files {@code files}. */
  static PlanIdentity of(CallRequest s, RunFiles files) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("format", FORMAT);
    String version = StreamingCall.class.getPackage().getImplementationVersion();
    e.put("fastpipe", version == null ? "dev" : version);
    for (RunFiles.Declared in : files.inputs()) {
      e.put("input " + in.option() + " " + in.path().toAbsolutePath().normalize(), FileFingerprint.of(in.path()).toString());
    }
    settings(s).forEach((k, v) -> e.put("setting " + k, v));
    return new PlanIdentity(e);
  }

  /** Every setting that changes the VCF (and every unclassified one), name to value. */
  static Map<String, String> settings(CallRequest s) {
    Map<String, String> out = new LinkedHashMap<>();
    for (SettingFields.Field f : SettingFields.of(CallRequest.class)) {
      if (!NOT_IN_VCF.containsKey(f.name())) out.put(f.name(), render(f.get(s)));
    }
    ExampleSettings examples = s.examples();
    for (SettingFields.Field f : SettingFields.of(ExampleSettings.class)) {
      String key = "examples." + f.name();
      if (!NOT_IN_VCF.containsKey(key)) out.put(key, render(f.get(examples)));
    }
    return out;
  }

  private static String render(Object v) {
    if (v == null) return "none";
    if (v instanceof Path p) return p.toAbsolutePath().normalize().toString();
    if (v instanceof GqCalibration c) return c.identity();
    return String.valueOf(v);
  }

  /** The entries, in order (for the journal). */
  Map<String, String> entries() {
    return entries;
  }

  /** An identity read back from a journal. */
  static PlanIdentity fromEntries(Map<String, String> entries) {
    return new PlanIdentity(new LinkedHashMap<>(entries));
  }

  /**
   * What differs between {@code recorded} (the journal's) and this identity, as one line naming
   * the first difference (and how many more there are), or null when they are the same.
   */
  String differenceFrom(PlanIdentity recorded) {
    Set<String> keys = new LinkedHashSet<>(recorded.entries.keySet());
    keys.addAll(entries.keySet());
    List<String> changes = new ArrayList<>();
    for (String k : keys) {
      String was = recorded.entries.get(k);
      String now = entries.get(k);
      if (was != null && was.equals(now)) continue;
      changes.add(describe(k, was, now));
    }
    if (changes.isEmpty()) return null;
    return changes.get(0) + (changes.size() > 1 ? " (and " + (changes.size() - 1) + " more difference"
        + (changes.size() > 2 ? "s" : "") + ")" : "");
  }

  private static String describe(String key, String was, String now) {
    if (key.startsWith("input ")) {
      String file = key.substring("input ".length());
      if (was == null) return file + " is an input now but was not one of the interrupted run";
      if (now == null) return file + " was an input of the interrupted run but is not one now";
      FileFingerprint before = FileFingerprint.parse(was);
      FileFingerprint after = FileFingerprint.parse(now);
      String change = before == null || after == null ? "it differs" : after.changeFrom(before);
      return file + " changed since the interrupted run (" + change + ")";
    }
    if (key.startsWith("setting ")) {
      String field = key.substring("setting ".length());
      String option = IN_VCF.getOrDefault(field, field);
      return "setting " + field + " (" + option + ") was " + (was == null ? "not set" : was) + ", now "
          + (now == null ? "not set" : now);
    }
    return key + " was " + was + ", now " + now;
  }
}
