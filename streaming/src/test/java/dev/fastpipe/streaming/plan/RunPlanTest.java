package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.testing.TestGenome;
import java.io.IOException;
import dev.fastpipe.streaming.SettingFields;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run plan: laid out once, every partition in exactly one shard, and the same after JSON. */
class RunPlanTest {
  @TempDir static Path dir;
  static Path fasta;
  static Path bam;

  @BeforeAll
  static void files() throws IOException {
    TestGenome g = TestGenome.tiled("chrT", 12_000, 7, 0, 50);
    fasta = g.writeFasta(dir);
    bam = g.writeBam(dir, "reads");
  }

  static ExampleSettings.Builder request(int shards, int partitionSize, String... regions) {
    return ExampleSettings.builder().reference(fasta).reads(bam).shards(shards).partitionSize(partitionSize)
        .regions(List.of(regions));
  }

  static RunPlan tasks(ExampleSettings.Builder b) {
    ExampleSettings o = b.build();
    try (InputFiles in = new InputFiles(o.inputs().reference(), o.inputs().reads())) {
      return RunPlan.forTasks(o, in);
    }
  }

  @Test
  void partitionsCoverTheRegionsInOrderAndGoRoundRobin() {
    RunPlan plan = tasks(request(3, 1000, "chrT:1-2500", "chrT:5001-7000"));
    assertEquals(5, plan.partitions());
    int[][] expected = {{0, 1000}, {1000, 2000}, {2000, 2500}, {5000, 6000}, {6000, 7000}};
    for (int i = 0; i < 5; i++) {
      Partition p = plan.partition(i);
      assertEquals(i, p.index());
      assertEquals("chrT", p.contig());
      assertEquals(expected[i][0], p.start());
      assertEquals(expected[i][1], p.end());
      assertEquals(i % 3, plan.shardOf(i));
    }
    assertEquals(List.of(plan.partition(1), plan.partition(4)), plan.partitionsOf(1));
    assertEquals(4500, plan.bases());
    assertEquals(236, plan.readsEstimate(), "aligned reads per the BAM index");
  }

  @Test
  void everyPartitionBelongsToExactlyOneTask() {
    RunPlan plan = tasks(request(4, 700));
    List<Long> seen = new ArrayList<>();
    for (int t = 0; t < plan.shards(); t++) plan.partitionsOf(t).forEach(p -> seen.add(p.index()));
    seen.sort(Long::compare);
    List<Long> all = new ArrayList<>();
    for (long i = 0; i < plan.partitions(); i++) all.add(i);
    assertEquals(all, seen);
  }

  @Test
  void callDropsShardsThatWouldGetNoPartitionAndChoosesThePartitionSize() {
    ExampleSettings o = request(8, 1000, "chrT:1-3000").build();
    try (InputFiles in = new InputFiles(fasta, bam)) {
      RunPlan given = RunPlan.forCall(o, in, true);
      assertEquals(3, given.partitions());
      assertEquals(3, given.shards(), "8 shards asked, 3 partitions");
      RunPlan auto = RunPlan.forCall(request(2, 1000).build(), in, false);
      assertEquals(RunPlan.autoPartitionSize(12_000, 2), auto.partitionSize());
      assertEquals(1000, auto.partitionSize(), "12 kb over 2 shards: 8 partitions a shard, whole kb");
    }
    assertEquals(100_000, RunPlan.autoPartitionSize(3_000_000_000L, 16), "capped at 100 kb");
    assertEquals(1000, RunPlan.autoPartitionSize(10, 1), "at least 1 kb");
  }

  @Test
  void survivesTextUnchanged() {
    RunPlan plan = tasks(request(3, 900, "chrT:101-9000").minMappingQuality(17).snpMinFraction(0.2).keepQcFail(true)
        .downsampleSeed(99).channels(7));
    RunPlan back = RunPlan.fromText(plan.toText());
    assertEquals(plan, back);
    assertEquals(plan.partitions(), back.partitions());
    for (int i = 0; i < plan.partitions(); i++) {
      assertEquals(plan.partition(i), back.partition(i));
      assertEquals(plan.shardOf(i), back.shardOf(i));
    }
    ExampleSettings s = back.settings();
    assertEquals(17, s.readFilters().minMappingQuality());
    assertEquals(0.2, s.candidates().snpMinFraction());
    assertTrue(s.readFilters().keepQcFail(), "fields that argv used to drop travel too");
    assertEquals(99, s.image().downsampleSeed());
    assertEquals(7, s.image().channels());
    assertEquals(fasta.toAbsolutePath(), s.inputs().reference().toAbsolutePath());
  }

  /** Every public setting, changed from its default, reaches the worker: argv once dropped some. */
  @Test
  void everySettingTravels() throws Exception {
    ExampleSettings defaults = request(2, 1000, "chrT:1-5000").build();
    Path other = Files.writeString(dir.resolve("x y \u00e9.vcf.gz"), "");
    List<String> kept = List.of("inputs.reference", "inputs.reads", "inputs.regions", "sharding.shards", "sharding.task",
        "sharding.partitionSize");
    ExampleSettings o = SettingFields.assemble(ExampleSettings.class, f -> {
      Object d = f.get(defaults);
      if (kept.contains(f.name())) return d;
      Class<?> t = f.type();
      Object v = f.name().equals("image.channels") ? (Object) 7 // 6 or 7; width stays odd below
          : t == int.class ? (Object) ((int) d + 2)
          : t == long.class ? (Object) ((long) d + 3)
          : t == double.class ? (Object) ((double) d + 0.125)
          : t == boolean.class ? (Object) !(boolean) d
          : t == Path.class ? (Object) other
          : t == String.class ? (Object) "S1"
          : t == List.class ? (Object) List.of("alt", "chrZ|chrQ") // excludes no contig here
          : null;
      if (v == null) throw new AssertionError("no test value for " + f.name() + " of " + t);
      return v;
    });
    RunPlan plan;
    try (InputFiles in = new InputFiles(fasta, bam)) {
      plan = RunPlan.forCall(o, in, true); // unchecked: the builder would refuse truth without a real file
    }
    RunPlan back = RunPlan.fromText(plan.toText());
    for (SettingFields.Field f : SettingFields.of(ExampleSettings.class)) {
      assertEquals(f.get(plan.settings()), f.get(back.settings()), f.name());
      if (!kept.contains(f.name())) assertNotEquals(f.get(defaults), f.get(back.settings()), f.name() + " changed");
    }
    assertEquals(plan, back);
  }

  @Test
  void refusesWhatIsNotAPlan() {
    var e = assertThrows(InputException.class, () -> RunPlan.fromText("format=999\n"));
    assertTrue(e.getMessage().contains("format 999"), e.getMessage());
    e = assertThrows(InputException.class, () -> RunPlan.fromText("not a plan"));
    assertTrue(e.getMessage().contains("no format"), e.getMessage());
    e = assertThrows(InputException.class, () -> RunPlan.fromText("format=" + PlanText.FORMAT + "\n"));
    assertTrue(e.getMessage().startsWith("run plan: no "), e.getMessage());
  }

  @Test
  void emptyRegionsAreRefused() throws IOException {
    Path bed = Files.writeString(dir.resolve("empty.bed"), "");
    ExampleSettings.Builder o = request(1, 1000).regionsBed(bed).regions(List.of());
    var e = assertThrows(InputException.class, () -> tasks(o), "an empty BED selects nothing");
    assertTrue(e.getMessage().contains("regions are empty"), e.getMessage());
  }

  @Test
  void aRunOverWholeContigsMustReadWhatTheIndexCounts() {
    RunPlan whole = tasks(request(1, 1000));
    assertEquals(236, whole.readsExpected(), "placed reads on chrT per the index");
    whole.requireReadsSeen(236);
    var e = assertThrows(InputException.class, () -> whole.requireReadsSeen(200));
    assertEquals(bam + ": make_examples read 200 reads on the regions' contigs, but its index reads.bai counts 236 there:"
        + " the file is damaged or the index is not its own (check it with samtools quickcheck -v " + bam
        + "; re-index with samtools index)", e.getMessage());
    RunPlan part = tasks(request(1, 1000, "chrT:101-9000"));
    assertEquals(-1, part.readsExpected(), "a part of a contig: no count");
    assertNull(part.readsAt(), "no 16 kb bin lies inside 9 kb");
    part.requireReadsSeen(0);
    assertEquals(whole, RunPlan.fromText(whole.toText()));
  }

  @Test
  void aRunThatReadsNothingWhereTheIndexPlacesReadsIsAnIndexOfAnotherFile() throws IOException {
    TestGenome g = TestGenome.tiled("chrL", 40_000, 8, 0, 50);
    Path sub = Files.createDirectories(dir.resolve("long"));
    Path reads = g.writeBam(sub, "long.bam");
    RunPlan plan = tasks(request(1, 1000, "chrL:1-20000").reference(g.writeFasta(sub)).reads(reads));
    assertEquals("chrL:1-16384", plan.readsAt(), "the first 16 kb bin lies inside the region");
    plan.requireReadsSeen(1);
    var e = assertThrows(InputException.class, () -> plan.requireReadsSeen(0));
    assertEquals(sub.resolve("long.bai") + " does not index " + reads + ": it places reads at chrL:1-16384 but"
        + " make_examples read none in the regions; re-index with samtools index " + reads, e.getMessage());
  }
}
