package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.postprocess.CallResult;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.SiteAssembler;
import dev.fastpipe.streaming.postprocess.VcfCallWriter;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sites leave in reference order, each only once every partition before it is done. */
class OrderedReleaseTest {
  @TempDir static Path dir;
  static RunPlan plan;
  static InputFiles in;

  @BeforeAll
  static void plan() throws IOException {
    TestGenome g = new TestGenome("chrT", 4000, 3);
    g.add(g.refRead(100, 100));
    ExampleSettings o = ExampleSettings.builder().reference(g.writeFasta(dir)).reads(g.writeBam(dir, "reads")).shards(2)
        .partitionSize(1000).build();
    try (InputFiles files = new InputFiles(o.inputs().reference(), o.inputs().reads())) {
      plan = RunPlan.forTasks(o, files);
      in = files;
    }
  }

  static CallResult het(int position) {
    return new CallResult(0, position, "A", List.of("G"), new int[] {0}, new float[] {0.01f, 0.98f, 0.01f}, 1, 20,
        new int[] {10, 10});
  }

  @Test
  void releasesOnlyBehindTheFrontierAndInOrder() {
    assertEquals(4, plan.partitions());
    Path out = dir.resolve("ordered.vcf.gz");
    VcfCallWriter writer = new VcfCallWriter(out, in.dictionary, "S", 1.0);
    OrderedRelease release = new OrderedRelease(plan, new SiteAssembler(new GenotypeCombiner()), writer);

    release.add(het(1500));
    release.add(het(3100));
    release.partitionDone(1);
    release.partitionDone(3);
    assertEquals(0, writer.written(), "partition 0 is not done: nothing may leave");

    release.add(het(999));
    release.add(het(10));
    release.partitionDone(0);
    assertEquals(3, writer.written(), "partitions 0 and 1 done: sites before partition 2 leave");

    release.add(het(2000));
    release.partitionDone(2);
    assertEquals(5, writer.written(), "every partition done: the rest leaves");
    release.finish();
    writer.close();
    assertEquals(5, writer.pass());
    assertEquals(4, release.frontier().doneCount());

    List<Integer> positions = new ArrayList<>();
    try (VCFFileReader r = new VCFFileReader(out, true)) {
      r.forEach(v -> positions.add(v.getStart()));
    }
    assertEquals(List.of(11, 1000, 1501, 2001, 3101), positions, "1-based, in reference order");
  }
}
