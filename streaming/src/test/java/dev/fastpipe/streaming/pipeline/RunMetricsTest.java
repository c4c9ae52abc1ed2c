package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.shm.TransportStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunMetricsTest {

  @Test
  void ringFillIsAveragedOverSamplesAndMaxIsKept(@TempDir Path dir) throws Exception {
    RunMetrics m = new RunMetrics();
    m.settings.put("transport", "shm");
    m.settings.put("shards", 2);
    m.sampleRings(List.of(new TransportStats(0, 1024, 100, 100, 1, 0, 0, 0),
        new TransportStats(1, 1024, 0, 0, 0, 0, 0, 0)));
    m.sampleRings(List.of(new TransportStats(0, 1024, 300, 500, 9, 9, 2_000_000, 5_000_000),
        new TransportStats(1, 1024, 0, 0, 0, 0, 0, 0)));
    m.examplesCalled = 10;
    m.wallSeconds = 2;
    m.stages.add(new RunMetrics.Stage("make_examples", 1.5, 2.5));
    m.processes.add(new ProcessFootprint("inference", -1, 10, "jemalloc", "narenas:1", 1L << 30, 500, 2, 3.25));
    m.processes.add(new ProcessFootprint("shard", 0, 11, "glibc", "", 1L << 20, 40, 0, 1.5));
    Path out = dir.resolve("run.json");
    m.write(out);
    String json = Files.readString(out);
    assertTrue(json.contains("\"transport\": \"shm\", \"shards\": 2"), json);
    assertTrue(json.contains("\"mean_fill_bytes\": 200.000"), json);
    assertTrue(json.contains("\"max_fill_bytes\": 500"), json);
    assertTrue(json.contains("\"producer_stall_ms\": 2.000"), json);
    assertTrue(json.contains("\"consumer_idle_ms\": 5.000"), json);
    assertTrue(json.contains("\"examples_per_second\": 5.000"), json);
    assertTrue(json.contains("{\"name\": \"make_examples\", \"wall_seconds\": 1.500, \"cpu_seconds\": 2.500}"), json);
    assertTrue(json.contains("{\"role\": \"inference\", \"pid\": 10, \"allocator\": \"jemalloc\", \"malloc_conf\": "
        + "\"narenas:1\", \"peak_rss_bytes\": 1073741824, \"minor_faults\": 500, \"major_faults\": 2, \"cpu_seconds\": 3.250}"), json);
    assertTrue(json.contains("{\"role\": \"shard\", \"shard\": 0, \"pid\": 11, \"allocator\": \"glibc\""), json);
    assertEquals(List.of("run.json"), Files.list(dir).map(p -> p.getFileName().toString()).toList());
  }

  @Test
  void memoryFiguresAreThePeaksOfEachProcessAndOfTheSitesHeld() {
    RunMetrics m = new RunMetrics();
    m.samplePendingSites(12);
    m.samplePendingSites(40);
    m.samplePendingSites(3);
    long mib = 1024 * 1024;
    m.processes.add(new ProcessFootprint(ProcessFootprint.INFERENCE, -1, 1, "glibc", "", (long) (812.25 * mib), 0, 0, 1));
    m.processes.add(new ProcessFootprint(ProcessFootprint.SHARD, 0, 2, "glibc", "", 300 * mib, 0, 0, 1));
    m.processes.add(new ProcessFootprint(ProcessFootprint.SHARD, 1, 3, "glibc", "", (long) (310.5 * mib), 0, 0, 1));
    String json = m.toJson();
    assertTrue(json.contains("\"max_pending_sites\": 40,"), json);
    assertTrue(json.contains("\"realignment\": {\"windows_realigned\": 0, \"windows_fallen_back\": 0,"), json);
    m.realignment = new RealignTotals(7, 1, 30, 0.25);
    assertTrue(m.toJson().contains("\"realignment\": {\"windows_realigned\": 7, \"windows_fallen_back\": 1,"
        + " \"reads_realigned\": 30, \"realigner_seconds\": 0.250},"), m.toJson());
    assertTrue(json.contains("\"peak_rss_mb\": {\"parent\": 812.250, \"shards\": [300.000, 310.500]}"), json);
    double self = ProcessFootprint.self(ProcessFootprint.INFERENCE, -1).peakRssBytes() / (1024.0 * 1024.0);
    assertTrue(self > 10 && self < 1 << 20, "this JVM's own VmHWM in MiB: " + self);
  }
}
