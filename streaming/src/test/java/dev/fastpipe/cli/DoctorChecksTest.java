package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.cli.DoctorChecks.Check;
import dev.fastpipe.cli.DoctorChecks.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** doctor's verdicts: what is OK, what only warns, what fails a call; the summary and the exit code. */
class DoctorChecksTest {

  static DoctorChecks.Tool tool(String name) {
    return DoctorChecks.TOOLS.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void javaBelow17FailsAndItsVersionIsReadInBothSchemes() {
    assertEquals(17, DoctorChecks.javaMajor("17.0.15"));
    assertEquals(8, DoctorChecks.javaMajor("1.8.0_402"));
    assertEquals(21, DoctorChecks.javaMajor("21"));
    assertEquals(0, DoctorChecks.javaMajor("weird"));
    assertEquals(Verdict.OK, DoctorChecks.java("17.0.15", "OpenJDK").verdict());
    assertEquals(Verdict.OK, DoctorChecks.java("21.0.2", "OpenJDK").verdict());
    Check old = DoctorChecks.java("11.0.22", "OpenJDK");
    assertEquals(Verdict.FAIL, old.verdict());
    assertTrue(old.detail().contains("Java 17"), old.detail());
  }

  @Test
  void oneCpuASmallHeapAndLittleShmOnlyWarn() {
    assertEquals(Verdict.WARN, DoctorChecks.cpus(1).verdict());
    assertEquals(Verdict.OK, DoctorChecks.cpus(2).verdict());
    assertEquals(Verdict.WARN, DoctorChecks.heap(512).verdict());
    assertEquals(Verdict.OK, DoctorChecks.heap(4096).verdict());
    assertEquals(Verdict.OK, DoctorChecks.shm("tmpfs", 24105, 24089, null).verdict());
    assertEquals("OK    /dev/shm: tmpfs, size 24105 MiB, free 24089 MiB", DoctorChecks.shm("tmpfs", 24105, 24089, null).line());
    assertEquals(Verdict.WARN, DoctorChecks.shm("tmpfs", 64, 60, null).verdict());
    // No /dev/shm: the rings go to java.io.tmpdir, so a call still runs.
    Check none = DoctorChecks.shm("", 0, 0, "/dev/shm: No such file or directory");
    assertEquals(Verdict.WARN, none.verdict());
    assertTrue(none.detail().contains("java.io.tmpdir"), none.detail());
  }

  @Test
  void glibcWarnsOnlyWhenJemallocIsMissingOrTheLauncherWasBypassed() {
    assertEquals(Verdict.OK, DoctorChecks.allocator("allocator", "jemalloc (libjemalloc.so.2 mapped)", true, true).verdict());
    assertEquals(Verdict.OK, DoctorChecks.allocator("allocator", "glibc", true, true).verdict(), "--allocator glibc was asked for");
    Check missing = DoctorChecks.allocator("shard allocator", "glibc", false, true);
    assertEquals(Verdict.WARN, missing.verdict());
    assertTrue(missing.detail().contains("apt-get install libjemalloc2"), missing.detail());
    assertEquals(Verdict.WARN, DoctorChecks.allocator("allocator", "glibc", true, false).verdict());
    assertEquals(Verdict.WARN, DoctorChecks.allocator("allocator", "unknown (/proc/self/maps unreadable)", true, true).verdict());
  }

  @Test
  void tensorflowThatDoesNotLoadOrAMissingModelFailsACall() {
    assertEquals(Verdict.OK, DoctorChecks.tensorflow("2.18.0", null).verdict());
    assertEquals(Verdict.FAIL, DoctorChecks.tensorflow(null, new UnsatisfiedLinkError("libtensorflow_cc.so.2")).verdict());
    assertEquals(Verdict.OK, DoctorChecks.model(Path.of("/opt/fastpipe/models/fastpipe-v5"), true).verdict());
    assertEquals(Verdict.FAIL, DoctorChecks.model(Path.of("/opt/fastpipe/models/fastpipe-v5"), false).verdict());
    assertEquals(Verdict.WARN, DoctorChecks.model(null, false).verdict());
    assertEquals(Verdict.OK, DoctorChecks.natives("cache /root/.javacpp/cache/x").verdict());
    assertEquals(Verdict.OK, DoctorChecks.natives("JavaCPP").verdict(), "a first run fills the cache");
    assertEquals(Verdict.WARN, DoctorChecks.natives("JavaCPP (cache failed: no such file)").verdict());
    assertEquals(Verdict.OK,
        DoctorChecks.tensorflowLog("TF_CPP_MIN_LOG_LEVEL 1: libtensorflow_cc.so.2 set, libtensorflow_framework.so.2 set").verdict());
    assertEquals(Verdict.WARN,
        DoctorChecks.tensorflowLog("TF_CPP_MIN_LOG_LEVEL 1: libtensorflow_cc.so.2 unchanged (build ab not known), libtensorflow_framework.so.2 set").verdict());
  }

  @Test
  void aMissingWorkflowToolWarnsWithItsPackageAndAMissingOptionalOneIsOk() {
    Check snakemake = DoctorChecks.tool(tool("snakemake"), Optional.empty(), Optional.empty());
    assertEquals(Verdict.WARN, snakemake.verdict());
    assertTrue(snakemake.detail().contains("apt-get install snakemake") && snakemake.detail().contains("workflow"), snakemake.detail());
    Check bgzip = DoctorChecks.tool(tool("bgzip"), Optional.empty(), Optional.empty());
    assertTrue(bgzip.detail().contains("apt-get install tabix"), "bgzip comes with Debian's tabix: " + bgzip.detail());
    assertEquals(Verdict.OK, DoctorChecks.tool(tool("bwa"), Optional.empty(), Optional.empty()).verdict());
    assertEquals("OK    bcftools: 1.16 (/usr/bin/bcftools)",
        DoctorChecks.tool(tool("bcftools"), Optional.of("/usr/bin/bcftools"), Optional.of("1.16")).line());
    for (String name : List.of("snakemake", "bcftools", "samtools", "tabix", "bgzip", "freebayes", "bwa")) tool(name);
  }

  @Test
  void versionsAreReadFromEachToolsOwnWording() {
    assertEquals(Optional.of("1.16"), DoctorChecks.version("bcftools 1.16\nUsing htslib 1.16\nCopyright (C) 2022"));
    assertEquals(Optional.of("1.16.1"), DoctorChecks.version("samtools 1.16.1\nUsing htslib 1.16"));
    assertEquals(Optional.of("1.16"), DoctorChecks.version("tabix (htslib) 1.16\nCopyright (C) 2022 Genome Research Ltd."));
    assertEquals(Optional.of("7.21.0"), DoctorChecks.version("7.21.0\n"));
    assertEquals(Optional.of("1.3.6"), DoctorChecks.version("version:  v1.3.6\n"));
    assertEquals(Optional.of("0.7.17-r1188"),
        DoctorChecks.version("\nProgram: bwa (alignment via Burrows-Wheeler transformation)\nVersion: 0.7.17-r1188\nContact: Heng Li\n"));
    assertEquals(Optional.empty(), DoctorChecks.version("command not found"));
  }

  @Test
  void theSummaryCountsEachVerdictAndOnlyAFailExitsNonZero() {
    List<Check> fine = List.of(DoctorChecks.cpus(2), DoctorChecks.cpus(1));
    assertEquals("doctor: 2 checks, 1 OK, 1 WARN, 0 FAIL", DoctorChecks.summary(fine));
    assertEquals(0, DoctorChecks.exitCode(fine));
    List<Check> broken = List.of(DoctorChecks.cpus(2), DoctorChecks.cpus(1), DoctorChecks.java("11", "x"));
    assertEquals("doctor: 3 checks, 1 OK, 1 WARN, 1 FAIL", DoctorChecks.summary(broken));
    assertEquals(1, DoctorChecks.exitCode(broken));
  }
}
