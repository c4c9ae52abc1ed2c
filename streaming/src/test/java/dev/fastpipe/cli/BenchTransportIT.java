package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bench-transport through the launcher: every transport plus shm producer processes, small and quick. */
class BenchTransportIT {

  @Test
  void reportsEveryTransportAndTheMemcpyBaselineAsJson() throws Exception {
    LauncherIT.Result r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--record-bytes", "256",
        "--records", "3000", "--producers", "2", "--processes", "--json");
    assertEquals(0, r.exit(), r.err());
    List<String> lines = r.out().lines().filter(l -> l.startsWith("{")).toList();
    assertEquals(7, lines.size(), r.out());
    for (String t : List.of("memcpy", "shm", "disruptor", "chronicle", "mutex", "disk")) {
      assertTrue(lines.stream().anyMatch(l -> l.contains("\"transport\":\"" + t + "\"")), t + " missing: " + r.out());
    }
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"mode\":\"processes\"")), r.out());
    assertTrue(lines.stream().allMatch(l -> l.contains("\"records\":3000")), r.out());
  }

  @Test
  void oversizeRecordNamesTheRingSizeToRaise() throws Exception {
    LauncherIT.Result r = LauncherIT.run(Map.of(), "--allocator", "glibc", "bench-transport", "--transport", "shm",
        "--ring-size", "1048576");
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("raise --ring-size to at least 2097152"), r.err());
  }
}
