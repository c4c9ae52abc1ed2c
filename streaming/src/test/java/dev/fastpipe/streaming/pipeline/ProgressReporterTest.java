package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.plan.PlannedSample;
import dev.fastpipe.streaming.plan.RunPlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressReporterTest {
  @TempDir Path dir;

  final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(5));

  ProgressReporter reporter(PartitionFrontier f) {
    return new ProgressReporter(new PrintStream(new ByteArrayOutputStream()), f, () -> 0, false, now::get, false);
  }

  void at(long seconds, long base) {
    now.set(base + TimeUnit.SECONDS.toNanos(seconds));
  }

  @Test
  void theShareDoneIsTheShareOfTheWorkNotOfThePartitions() {
    long t0 = now.get();
    PartitionFrontier f = new PartitionFrontier(new double[] {1, 1, 8});
    try (ProgressReporter p = reporter(f)) {
      at(5, t0);
      assertTrue(p.line().endsWith("ETA ?"), p.line());
      at(10, t0);
      f.markDone(0);
      p.line();
      at(20, t0);
      f.markDone(1);
      String line = p.line();
      // two of three partitions, but a fifth of the work: 8 units left at 1 unit per 10 s
      assertTrue(line.contains(" 20.0% done (2 of 3 partitions)"), line);
      assertTrue(line.endsWith("elapsed 0:00:20, ETA 0:01:20"), line);
    }
  }

  @Test
  void theEtaFollowsThePresentPaceNotTheAverageSinceTheStart() {
    long t0 = now.get();
    PartitionFrontier f = new PartitionFrontier(new double[300]); // all zero: counted equally
    try (ProgressReporter p = reporter(f)) {
      int done = 0;
      for (int s = 1; s <= 60; s++) { // a fast start: a partition a second
        at(s, t0);
        f.markDone(done++);
        p.line();
      }
      for (int k = 1; k <= 40; k++) { // then a partition every 20 s, for more than the rate window
        at(60 + 20L * k, t0);
        f.markDone(done++);
        p.line();
      }
      String line = p.line();
      // 200 left at 1 per 20 s; the average since the start (100 in 860 s) would say 0:28:40
      assertTrue(line.endsWith("elapsed 0:14:20, ETA 1:06:40"), line);
      // a stall counts too: 5 minutes without a partition halves the pace of the last 10 minutes
      at(60 + 20L * 40 + 300, t0);
      assertTrue(p.line().endsWith("ETA 2:13:20"), p.line());
    }
  }

  @Test
  void aContigWithoutReadsWeighsAlmostNothing() throws IOException {
    PlannedSample s = PlannedSample.of(dir.resolve("g"), 4, 4, 100_000, 5, 5_000);
    RunPlan plan = s.plan();
    double[] work = s.work();
    double withReads = 0;
    double without = 0;
    int nWith = 0;
    int nWithout = 0;
    for (int i = 0; i < plan.partitions(); i++) {
      Partition p = plan.partition(i);
      if (p.end() - p.start() != 5_000) continue;
      if (p.contig().equals("demo2")) {
        without += work[i];
        nWithout++;
      } else {
        withReads += work[i];
        nWith++;
      }
    }
    assertTrue(nWith > 10 && nWithout > 0);
    double ratio = (without / nWithout) / (withReads / nWith);
    assertTrue(ratio > 0.01 && ratio < 0.1, "a 5 kb partition without reads weighs " + ratio + " of one with");
  }

  @Test
  void clockShowsHours() {
    assertEquals("0:00:00", ProgressReporter.clock(0));
    assertEquals("2:03:04", ProgressReporter.clock(2 * 3600 + 3 * 60 + 4));
    assertEquals("27:46:40", ProgressReporter.clock(100_000));
  }
}
