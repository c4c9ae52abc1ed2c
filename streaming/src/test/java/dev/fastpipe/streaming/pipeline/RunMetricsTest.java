package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.shm.TransportStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    MetricsFile f = MetricsFile.parse(json);
    assertEquals(Map.of("transport", "shm", "shards", 2), f.settings());
    assertEquals(List.of("transport", "shards"), List.copyOf(f.settings().keySet()), "settings keep their order");
    MetricsFile.Ring ring = f.rings().get(0);
    assertEquals(200, ring.meanFillBytes());
    assertEquals(500, ring.maxFillBytes());
    assertEquals(2, ring.producerStallMs());
    assertEquals(5, ring.consumerIdleMs());
    assertNull(ring.spilledRecords(), "left out without spilling");
    assertEquals(5, f.examplesPerSecond());
    assertEquals(new RunMetrics.Stage("make_examples", 1.5, 2.5), f.stage("make_examples"));
    assertEquals(new MetricsFile.Process("inference", null, 10, "jemalloc", "narenas:1", 1L << 30, 500, 2, 3.25),
        f.processes().get(0));
    assertEquals(new MetricsFile.Process("shard", 0, 11, "glibc", "", 1L << 20, 40, 0, 1.5), f.processes(ProcessFootprint.SHARD).get(0));
    // The text as before Jackson wrote it: "key": value, the parent's process without a shard, no error when ok.
    assertTrue(json.startsWith("{\n  \"status\": \"ok\",\n  \"settings\": {\n"), json);
    assertTrue(json.contains("\"mean_fill_bytes\": 200.0,"), json);
    assertFalse(json.contains("\"error\""), json);
    assertEquals(3, json.split("\"shard\": ", -1).length - 1, "two rings and the shard process; the parent has none: " + json);
    assertEquals(f, MetricsFile.parse(f.toJson()), "the file reads back as written");
    assertEquals(List.of("run.json"), Files.list(dir).map(p -> p.getFileName().toString()).toList());
  }

  @Test
  void aFailedRunSaysWhyOnOneLineAndUnknownFieldsArePassedOver() {
    RunMetrics m = new RunMetrics();
    m.failure = "shard 1 failed:\nreads.bam truncated";
    MetricsFile f = MetricsFile.parse(m.toJson());
    assertEquals("failed", f.status());
    assertEquals("shard 1 failed: reads.bam truncated", f.error());
    assertNull(f.resume(), "no journal: no resume figures");
    assertNull(f.gvcfRecords(), "no gVCF: no gVCF counts");
    MetricsFile later = MetricsFile.parse("{\"status\": \"ok\", \"a_later_figure\": 3}");
    assertEquals("ok", later.status());
    assertEquals(List.of(), later.stages());
    assertThrows(IllegalArgumentException.class, () -> MetricsFile.parse("[1, 2"));
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
    MetricsFile f = MetricsFile.parse(m.toJson());
    assertEquals(40, f.maxPendingSites());
    assertEquals(new MetricsFile.Realignment(0, 0, 0, 0), f.realignment());
    m.realignment = new RealignTotals(7, 1, 30, 0.25);
    assertEquals(new MetricsFile.Realignment(7, 1, 30, 0.25), MetricsFile.parse(m.toJson()).realignment());
    assertEquals(new MetricsFile.PeakRss(812.25, List.of(300.0, 310.5)), f.peakRssMb());
    assertTrue(m.toJson().contains("\"shards\": [300.0, 310.5]"), "arrays on one line: " + m.toJson());
    double self = ProcessFootprint.self(ProcessFootprint.INFERENCE, -1).peakRssBytes() / (1024.0 * 1024.0);
    assertTrue(self > 10 && self < 1 << 20, "this JVM's own VmHWM in MiB: " + self);
  }
}
