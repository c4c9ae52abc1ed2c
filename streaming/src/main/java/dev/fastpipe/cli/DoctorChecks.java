package dev.fastpipe.cli;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code doctor}'s verdicts: each check's facts turned into OK, WARN or FAIL with the line that
 * says why. FAIL: fastpipe itself cannot run ({@code call} would fail); WARN: it runs, but slower,
 * noisier or without something a workflow or a comparison needs. No I/O here: {@link DoctorCommand}
 * gathers the facts.
 */
final class DoctorChecks {
  private DoctorChecks() {}

  enum Verdict { OK, WARN, FAIL }

  /** One check: its verdict, what it looked at and what it found (and, when not OK, what to do). */
  record Check(Verdict verdict, String name, String detail) {
    /** "OK    java: 17.0.15 (OpenJDK 64-Bit Server VM)": the verdict in a column, then name and detail. */
    String line() {
      return String.format(Locale.ROOT, "%-5s %s: %s", verdict, name, detail);
    }
  }

  /** How a tool that fastpipe does not itself run is needed: a missing one is WARN, or OK when optional. */
  enum Need { WORKFLOW_OR_PEER, OPTIONAL }

  /** A tool checked on PATH: its name, what needs it, the Debian package and how much. */
  record Tool(String name, String usedBy, String debianPackage, Need need) {}

  /** The tools the Snakemake workflow, bin/compare-callers and bin/setup's peers use. */
  static final List<Tool> TOOLS =
      List.of(
          new Tool("snakemake", "the scatter/gather workflow (workflow/Snakefile)", "snakemake", Need.WORKFLOW_OR_PEER),
          new Tool("bcftools", "the workflow's gather (concat, merge) and bin/compare-callers' peer", "bcftools", Need.WORKFLOW_OR_PEER),
          new Tool("tabix", "the workflow's gather (indexes the joined VCF)", "tabix", Need.WORKFLOW_OR_PEER),
          new Tool("bgzip", "compressing VCFs and BEDs by hand, as the docs show", "tabix", Need.WORKFLOW_OR_PEER),
          new Tool("samtools", "bin/compare-callers and checking BAM inputs", "samtools", Need.WORKFLOW_OR_PEER),
          new Tool("freebayes", "bin/compare-callers' peer", "freebayes", Need.WORKFLOW_OR_PEER),
          new Tool("bwa", "aligning your own reads into a BAM (fastpipe starts from aligned reads)", "bwa", Need.OPTIONAL));

  static Check java(String version, String vm) {
    int major = javaMajor(version);
    if (major < 17) return new Check(Verdict.FAIL, "java", version + " (" + vm + "): fastpipe needs Java 17 or later");
    return new Check(Verdict.OK, "java", version + " (" + vm + ")");
  }

  /** The feature release of a java.version string: "17.0.15" -> 17, "1.8.0_402" -> 8, "21" -> 21; 0 when unreadable. */
  static int javaMajor(String version) {
    Matcher m = Pattern.compile("^(\\d+)(?:\\.(\\d+))?").matcher(version == null ? "" : version);
    if (!m.find()) return 0;
    int first = Integer.parseInt(m.group(1));
    return first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
  }

  static Check cpus(int cpus) {
    if (cpus < 2) {
      return new Check(Verdict.WARN, "cpus", cpus + ": make_examples and call_variants, which stream side by side,"
          + " share one core");
    }
    return new Check(Verdict.OK, "cpus", Integer.toString(cpus));
  }

  static Check heap(long maxHeapMiB) {
    if (maxHeapMiB < 1024) {
      return new Check(Verdict.WARN, "max heap", maxHeapMiB + " MiB: less than 1 GiB for the call's JVM"
          + " (FASTPIPE_JAVA_OPTS=-Xmx2g raises it)");
    }
    return new Check(Verdict.OK, "max heap", maxHeapMiB + " MiB");
  }

  /** /dev/shm: the rings of the default transport live there; {@code problem} non-null when it cannot be read. */
  static Check shm(String type, long sizeMiB, long freeMiB, String problem) {
    if (problem != null) {
      return new Check(Verdict.WARN, "/dev/shm", "not available (" + problem + "): the rings of the default transport"
          + " (shm) go to java.io.tmpdir instead, a disk unless it is a tmpfs (-Dfastpipe.shm.dir=DIR chooses)");
    }
    String facts = type + ", size " + sizeMiB + " MiB, free " + freeMiB + " MiB";
    if (freeMiB < 256) {
      return new Check(Verdict.WARN, "/dev/shm", facts + ": under 256 MiB free, a call with several shards may not fit"
          + " its rings (16 MiB each by default; see --ring-size)");
    }
    return new Check(Verdict.OK, "/dev/shm", facts);
  }

  /**
   * The allocator mapped into a process ({@code role} "allocator" or "shard allocator"): glibc is a
   * WARN only when jemalloc, the default, is not installed (otherwise glibc was asked for).
   */
  static Check allocator(String role, String mapped, boolean jemallocInstalled, boolean throughLauncher) {
    if (mapped.startsWith("unknown")) return new Check(Verdict.WARN, role, mapped);
    if (mapped.equals("glibc") && !throughLauncher) {
      return new Check(Verdict.WARN, role, "glibc (not started through bin/fastpipe, which preloads jemalloc)");
    }
    if (mapped.equals("glibc") && !jemallocInstalled) {
      return new Check(Verdict.WARN, role, "glibc: libjemalloc.so.2, the launcher's default allocator for TensorFlow"
          + " and zlib, is not installed (apt-get install libjemalloc2)");
    }
    return new Check(Verdict.OK, role, mapped);
  }

  /** The shipped model that {@code call} uses without --model; {@code dir} null when FASTPIPE_HOME is unset. */
  static Check model(java.nio.file.Path dir, boolean whole) {
    if (dir == null) return new Check(Verdict.WARN, "model", "FASTPIPE_HOME is unset (not started through bin/fastpipe): pass --model DIR");
    if (!whole) {
      return new Check(Verdict.FAIL, "model", dir + " is not a whole SavedModel (saved_model.pb and variables/):"
          + " call without --model cannot run; unpack the release again");
    }
    return new Check(Verdict.OK, "model", dir.toString());
  }

  static Check tensorflow(String version, Throwable failure) {
    if (failure != null) {
      return new Check(Verdict.FAIL, "tensorflow", "the native library does not load: " + failure);
    }
    return new Check(Verdict.OK, "tensorflow", version);
  }

  static Check natives(String source) {
    if (source.contains("failed")) {
      return new Check(Verdict.WARN, "tensorflow natives from", source + ": JavaCPP loaded them instead, which costs"
          + " 0.3-0.5 CPU-s per call (bin/prefill-natives fills a complete cache)");
    }
    return new Check(Verdict.OK, "tensorflow natives from", source);
  }

  /** What TensorFlowLogging did: WARN when a library's level could not be set (its start-up lines will show). */
  static Check tensorflowLog(String state) {
    if (state.contains("unchanged") || state.contains("unreadable") || state.contains("not applied")) {
      return new Check(Verdict.WARN, "tensorflow log", state + ": TensorFlow's start-up lines will reach stderr");
    }
    return new Check(Verdict.OK, "tensorflow log", state);
  }

  /** A tool on PATH: where, its version; missing is WARN (OK for an optional one) with the package to install. */
  static Check tool(Tool tool, Optional<String> path, Optional<String> version) {
    if (path.isEmpty()) {
      String detail = "not found on PATH; needed for " + tool.usedBy() + " (apt-get install " + tool.debianPackage() + ")";
      return tool.need() == Need.OPTIONAL
          ? new Check(Verdict.OK, tool.name(), "not installed (optional: " + tool.usedBy() + ")")
          : new Check(Verdict.WARN, tool.name(), detail);
    }
    return new Check(Verdict.OK, tool.name(), version.orElse("version unknown") + " (" + path.get() + ")");
  }

  private static final Pattern VERSION = Pattern.compile("v?(\\d+\\.\\d+(?:\\.\\d+)?(?:[-_.+][A-Za-z0-9]+)*)");

  /**
   * The version in a tool's {@code --version} (or usage) text: the first "N.N[.N][-suffix]" on the
   * first line that has one, preferring a "Version:" line (bwa prints its usage with one).
   */
  static Optional<String> version(String text) {
    List<String> lines = text.lines().toList();
    for (String l : lines) {
      if (l.strip().toLowerCase(Locale.ROOT).startsWith("version")) {
        Matcher m = VERSION.matcher(l);
        if (m.find()) return Optional.of(m.group(1));
      }
    }
    for (String l : lines) {
      Matcher m = VERSION.matcher(l);
      if (m.find()) return Optional.of(m.group(1));
    }
    return Optional.empty();
  }

  /** "doctor: 14 checks, 12 OK, 2 WARN, 0 FAIL". */
  static String summary(List<Check> checks) {
    long ok = checks.stream().filter(c -> c.verdict() == Verdict.OK).count();
    long warn = checks.stream().filter(c -> c.verdict() == Verdict.WARN).count();
    long fail = checks.stream().filter(c -> c.verdict() == Verdict.FAIL).count();
    return "doctor: " + checks.size() + " checks, " + ok + " OK, " + warn + " WARN, " + fail + " FAIL";
  }

  /** 1 when any check failed, else 0 (WARN does not fail). */
  static int exitCode(List<Check> checks) {
    return checks.stream().anyMatch(c -> c.verdict() == Verdict.FAIL) ? 1 : 0;
  }
}
