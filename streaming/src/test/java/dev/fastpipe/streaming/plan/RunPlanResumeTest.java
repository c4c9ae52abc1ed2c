package dev.fastpipe.streaming.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The regions a resumed run calls: those of the whole run less everything before the resume point. */
class RunPlanResumeTest {
  static final List<Region> REGIONS = List.of(new Region(0, "a", 0, 1000), new Region(0, "a", 2000, 3000),
      new Region(2, "c", 100, 500));

  @Test
  void everythingBeforeTheResumePointIsLeftOut() {
    assertEquals(REGIONS, RunPlan.from(REGIONS, -1, 0), "no resume point: all of them");
    assertEquals(List.of(new Region(0, "a", 500, 1000), REGIONS.get(1), REGIONS.get(2)), RunPlan.from(REGIONS, 0, 500));
    assertEquals(REGIONS.subList(1, 3), RunPlan.from(REGIONS, 0, 1000), "a region that ends there is done");
    assertEquals(List.of(new Region(0, "a", 2500, 3000), REGIONS.get(2)), RunPlan.from(REGIONS, 0, 2500));
    assertEquals(List.of(REGIONS.get(2)), RunPlan.from(REGIONS, 1, 0), "a later contig: its regions and after");
    assertEquals(List.of(new Region(2, "c", 499, 500)), RunPlan.from(REGIONS, 2, 499));
  }
}
