package dev.fastpipe.streaming.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.plan.Region;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SampleRegionsTest {

  static final Region CHR = new Region(0, "chr1", 0, 1_000_000);

  /** Windows of 10 kb over chr1 with reads only in [500 kb, 600 kb). */
  static List<SampleRegions.Window> readsIn500To600kb() {
    List<SampleRegions.Window> w = new ArrayList<>();
    for (int s = 0; s < 1_000_000; s += 10_000) w.add(new SampleRegions.Window(CHR, s, s + 10_000, s >= 500_000 && s < 600_000 ? 50 : 0));
    return w;
  }

  @Test
  void piecesLieWhereTheReadsAreAtEvenQuantiles() {
    List<Region> sample = SampleRegions.place(readsIn500To600kb(), 20_000, 2);
    // Quantiles 1/4 and 3/4 of the weight: the windows at 520-530 kb and 570-580 kb; 10 kb pieces centred on them.
    assertEquals(List.of(new Region(0, "chr1", 520_000, 530_000), new Region(0, "chr1", 570_000, 580_000)), sample);
  }

  @Test
  void piecesStayInsideTheirRegionAndTouchingOnesMerge() {
    Region small = new Region(0, "chr1", 0, 30_000);
    List<SampleRegions.Window> w = List.of(new SampleRegions.Window(small, 0, 10_000, 1),
        new SampleRegions.Window(small, 10_000, 20_000, 0), new SampleRegions.Window(small, 20_000, 30_000, 0));
    // Both pieces centre on the first window; 20 kb each cannot centre there, so they start at the region's start.
    assertEquals(List.of(new Region(0, "chr1", 0, 20_000)), SampleRegions.place(w, 40_000, 2));
  }

  @Test
  void regionsNoLongerThanTheSampleAreTakenWhole() {
    List<Region> regions = List.of(new Region(0, "chr1", 100, 200), new Region(1, "chr2", 0, 50));
    assertEquals(regions, SampleRegions.choose(null, regions, 150, 3));
  }

  @Test
  void regionsWithoutReadsAreAnError() {
    List<SampleRegions.Window> w = List.of(new SampleRegions.Window(CHR, 0, 10, 0));
    assertTrue(assertThrows(InputException.class, () -> SampleRegions.place(w, 5, 1)).getMessage()
        .contains("places no reads in the regions to tune on"));
  }

  @Test
  void bedLinesAreZeroBasedHalfOpen() {
    assertEquals("chr1\t520000\t530000\n", SampleRegions.bed(List.of(new Region(0, "chr1", 520_000, 530_000))));
    assertEquals("chr1:520001-530000", TuneReport.text(new Region(0, "chr1", 520_000, 530_000)));
  }
}
