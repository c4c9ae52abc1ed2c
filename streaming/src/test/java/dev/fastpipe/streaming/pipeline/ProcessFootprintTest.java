package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
