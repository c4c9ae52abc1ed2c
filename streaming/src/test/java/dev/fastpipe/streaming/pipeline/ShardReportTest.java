package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record a shard hands back and its one versioned codec (what a shard process writes for its parent). */
class ShardReportTest {

  static MakeExamplesStats stats() {
    MakeExamplesStats st = new MakeExamplesStats();
    st.examples = 7;
    st.smallCalls = 5;
    st.reads = 90;
    st.readsFiltered = 10;
    st.realignedWindows = 12;
    st.realignFallbackWindows = 3;
    st.realignedReads = 45;
    st.realignNanos = 1_500_000_000L;
    st.nanos = 2_250_000_000L;
    return st;
  }

  @Test
  void aFinishedShardsReportRoundTripsWithItsFootprint(@TempDir Path dir) throws IOException {
    ProcessFootprint f = new ProcessFootprint(ProcessFootprint.SHARD, 3, 4242, "jemalloc", "narenas:1,x y \"q\"",
        123_456_789L, 1000, 2, 3.25);
    ShardReport r = ShardReport.finished(3, stats(), 3.25, f);
    assertEquals(12, r.examples(), "CNN images and small-model calls");
    assertEquals(100, r.readsSeen());
    assertEquals(new RealignTotals(12, 3, 45, 1.5), r.realignment());
    assertEquals(2.25, r.wallSeconds());
    assertEquals(ExitStatus.OK, r.exitStatus());
    Path file = dir.resolve("r.json");
    r.write(file);
    assertEquals(r, ShardReport.read(file));
    assertTrue(Files.readString(file).startsWith("{\"version\":" + ShardReport.VERSION + ","), Files.readString(file));
  }

  @Test
  void aFailureKeepsItsStatusAndMessage() throws IOException {
    ShardReport r = ShardReport.failed(1, ExitStatus.BAD_INPUT, "reads.bam: truncated BGZF block", null);
    ShardReport back = ShardReport.fromJson(r.toJson());
    assertEquals(r, back);
    assertEquals(ExitStatus.BAD_INPUT, back.exitStatus());
    assertEquals("reads.bam: truncated BGZF block", back.failure().message());
    assertNull(back.footprint());
  }

  @Test
  void anotherVersionIsRefusedNotGuessedAt() {
    String json = ShardReport.finished(0, stats(), 1, null).toJson();
    String v2 = json.replace("\"version\":" + ShardReport.VERSION, "\"version\":" + (ShardReport.VERSION + 1));
    IOException e = assertThrows(IOException.class, () -> ShardReport.fromJson(v2));
    assertEquals("shard report version " + (ShardReport.VERSION + 1) + ", this build reads version " + ShardReport.VERSION,
        e.getMessage());
    IOException none = assertThrows(IOException.class,
        () -> ShardReport.fromJson(json.replace("\"version\":" + ShardReport.VERSION + ",", "")));
    assertTrue(none.getMessage().startsWith("shard report version (none)"), none.getMessage());
    assertThrows(IOException.class, () -> ShardReport.fromJson(json.replace("\"examples\"", "\"exemples\"")),
        "a field this build does not know");
    assertThrows(IOException.class, () -> ShardReport.fromJson(""), "an empty file: the worker wrote none");
  }

  @Test
  void totalsSumTheShardsAndKnowReadsSeenOnlyWhenAllReported() {
    ShardReport a = ShardReport.finished(0, stats(), 1.5, null);
    ShardReport b = ShardReport.finished(1, stats(), 2.0, null);
    ShardReport.Totals t = ShardReport.Totals.of(List.of(a, b), 2);
    assertEquals(24, t.examples());
    assertEquals(200, t.readsSeen());
    assertEquals(3.5, t.cpuSeconds());
    assertEquals(new RealignTotals(24, 6, 90, 3.0), t.realignment());
    assertEquals(-1, ShardReport.Totals.of(List.of(a), 2).readsSeen(), "a shard without a report");
    ShardReport failed = ShardReport.failed(1, ExitStatus.FAILED, "boom", null);
    assertEquals(-1, ShardReport.Totals.of(List.of(a, failed), 2).readsSeen(), "a shard that failed");
  }
}
