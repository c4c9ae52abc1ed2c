package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessFootprintTest {

  @Test
  void mapsNameTheAllocatorLibraryAndGlibcWhenNoneIsMapped(@TempDir Path dir) throws Exception {
    Path maps = dir.resolve("maps");
    Files.writeString(maps, """
        7f00-7f10 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6
        7f20-7f30 r-xp 00000000 08:01 2 /usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4.5.10
        """);
    assertEquals("tcmalloc (libtcmalloc_minimal.so.4.5.10 mapped)", ProcessFootprint.mappedAllocator(maps));
    assertEquals("tcmalloc", ProcessFootprint.allocatorName(ProcessFootprint.mappedAllocator(maps)));
    Files.writeString(maps, "7f00-7f10 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n");
    assertEquals("glibc", ProcessFootprint.mappedAllocator(maps));
    assertTrue(ProcessFootprint.mappedAllocator(dir.resolve("absent")).startsWith("unknown ("));
  }

  @Test
  void peakRssIsReadFromStatusInKilobytes(@TempDir Path dir) throws Exception {
    Path status = dir.resolve("status");
    Files.writeString(status, "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t 100 kB\n");
    assertEquals(123456, ProcessFootprint.statusKb(status, "VmHWM"));
    assertEquals(-1, ProcessFootprint.statusKb(status, "VmSwap"));
  }

  @Test
  void thisProcessHasAPeakRssAndFaultsAndCpu() {
    ProcessFootprint f = ProcessFootprint.self(ProcessFootprint.INFERENCE, -1);
    assertEquals(ProcessHandle.current().pid(), f.pid());
    assertTrue(f.peakRssBytes() > 1 << 20, "peak RSS " + f.peakRssBytes());
    assertTrue(f.minorFaults() > 0, "minor faults " + f.minorFaults());
    assertTrue(f.cpuSeconds() > 0);
  }

  @Test
  void aWorkerStatsLineCarriesItsFootprintToTheParent() {
    MakeExamplesStats st = new MakeExamplesStats();
    st.examples = 7;
    String line = WorkerStats.line(st);
    assertEquals(7, WorkerStats.field(line, "examples"));
    ProcessFootprint f = WorkerStats.footprint(line, 3);
    assertEquals(ProcessFootprint.SHARD, f.role());
    assertEquals(3, f.shard());
    assertEquals(ProcessHandle.current().pid(), f.pid());
    assertTrue(f.peakRssBytes() > 0);
    // An old-style line (no footprint) gives none rather than zeros.
    assertNull(WorkerStats.footprint("fastpipe-worker examples=1 reads=2 seen=2 cpu_seconds=1 wall_seconds=1", 0));
  }

  @Test
  void aWorkerStatsLineCarriesTheRealignerCounters() {
    MakeExamplesStats st = new MakeExamplesStats();
    st.realignedWindows = 12;
    st.realignFallbackWindows = 3;
    st.realignedReads = 45;
    st.realignNanos = 1_500_000_000L;
    String line = WorkerStats.line(st);
    assertEquals(12, WorkerStats.field(line, "realigned_windows"));
    assertEquals(3, WorkerStats.field(line, "realign_fallbacks"));
    assertEquals(45, WorkerStats.field(line, "realigned_reads"));
    assertEquals(1.5, WorkerStats.field(line, "realign_seconds"), 1e-9);
    assertEquals(new RealignTotals(24, 6, 90, 3.0), RealignTotals.of(st).plus(RealignTotals.of(st)));
  }

  @Test
  void mallocConfWithSpacesAndCommasSurvivesTheLine() {
    String line = "fastpipe-worker examples=1 pid=5 allocator=jemalloc malloc_conf=narenas%3A1%2Cx+y peak_rss_bytes=10"
        + " minflt=2 majflt=1 cpu_seconds=0.5";
    ProcessFootprint f = WorkerStats.footprint(line, 0);
    assertEquals("narenas:1,x y", f.mallocConf());
    assertEquals(10, f.peakRssBytes());
    assertEquals(1, f.majorFaults());
  }
}
