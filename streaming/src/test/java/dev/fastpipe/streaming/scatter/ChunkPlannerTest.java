package dev.fastpipe.streaming.scatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.scatter.ChunkPlanner.Chunk;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The balancing and cut rules of {@link ChunkPlanner}, on bytes given per base. */
class ChunkPlannerTest {
  /** Bytes per base as a step function of position, the same on every contig unless {@code contig} says. */
  interface Density {
    double at(int contig, long pos);
  }

  /** The bytes of [start, end) under {@code d}, summed base by base (exact, slow enough for tests). */
  static ChunkPlanner.Bytes bytes(Density d) {
    return (contig, start, end) -> {
      double sum = 0;
      for (long p = start; p < end; p++) sum += d.at(contig, p);
      return sum;
    };
  }

  static ChunkPlanner planner(List<Region> regions, Density d) {
    ChunkPlanner p = new ChunkPlanner(regions);
    p.addBytes(bytes(d));
    return p;
  }

  /** The chunks' intervals, laid end to end, are exactly the regions, in order, none empty. */
  static void coversExactly(List<Region> regions, List<Chunk> chunks) {
    List<Region> joined = new ArrayList<>();
    for (Chunk c : chunks) {
      assertTrue(!c.intervals().isEmpty() && c.bases() > 0, "empty chunk " + c);
      long bases = 0;
      for (Region r : c.intervals()) {
        assertTrue(r.end() > r.start(), "empty interval " + r);
        bases += r.length();
        Region last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
        if (last != null && last.contigIndex() == r.contigIndex() && last.end() == r.start()) {
          joined.set(joined.size() - 1, new Region(r.contigIndex(), r.contig(), last.start(), r.end()));
        } else {
          joined.add(r);
        }
      }
      assertEquals(c.bases(), bases, "bases of " + c);
    }
    assertEquals(regions, joined);
  }

  /** The 0-based position where chunk {@code k} (0-based) ends, on a one-region plan. */
  static int cutAfter(List<Chunk> chunks, int k) {
    List<Region> iv = chunks.get(k).intervals();
    return iv.get(iv.size() - 1).end();
  }

  @Test
  void chunksHoldEqualBytesNotEqualBases() {
    List<Region> one = List.of(new Region(0, "chr1", 0, 1_000_000));
    // The first 200 kb are 10x as deep as the rest: a fifth of the bases holds 10/14 of the bytes.
    ChunkPlanner p = planner(one, (c, pos) -> pos < 200_000 ? 10 : 1);
    List<Chunk> chunks = p.cut(4);
    coversExactly(one, chunks);
    double total = 200_000 * 10 + 800_000;
    for (Chunk c : chunks) {
      assertEquals(total / 4, c.bytes(), 10 * ChunkPlanner.GRID, "chunk " + c.number() + " holds a quarter, within a grid step");
    }
    assertEquals(70_000, cutAfter(chunks, 0));
    assertEquals(140_000, cutAfter(chunks, 1));
    assertTrue(chunks.get(3).bases() > 500_000, "the shallow part is one long chunk: " + chunks.get(3));
    for (int k = 0; k < 3; k++) assertEquals(0, cutAfter(chunks, k) % ChunkPlanner.GRID, "cuts fall on the grid");
  }

  @Test
  void aCutMovesIntoAStretchWithoutReadsNearTheBalancedPlace() {
    List<Region> one = List.of(new Region(0, "chr1", 0, 1_000_000));
    // No read starts in [480 kb, 540 kb): the balanced cut (470 kb) has clean neighbours in the gap, 10 kb of
    // bytes away (2% of a chunk's share); the nearest of them lies 1 kb or more into the gap's first empty window.
    Density d = (c, pos) -> pos >= 480_000 && pos < 540_000 ? 0 : 1;
    List<Chunk> chunks = planner(one, d).cut(2);
    coversExactly(one, chunks);
    int cut = cutAfter(chunks, 0);
    int windowStart = (cut - 1) >> ChunkPlanner.SEGMENT_SHIFT << ChunkPlanner.SEGMENT_SHIFT;
    assertTrue(windowStart >= 480_000 && cut <= 540_000, "cut at " + cut + " lies in the gap");
    assertTrue(cut - windowStart >= ChunkPlanner.CLEAR, "cut at " + cut + " lies " + ChunkPlanner.CLEAR
        + " bp or more into an empty index window (from " + windowStart + ")");
    assertEquals(493_000, cut, "the first grid point 1 kb into the window at 491,520");
  }

  @Test
  void aCutFallsBetweenContigsWhenThatIsNearlyBalanced() {
    // chr1 holds 51% of the bytes: the boundary is 1% of the total (2% of a chunk) from balance.
    List<Region> two = List.of(new Region(0, "chr1", 0, 510_000), new Region(1, "chr2", 0, 490_000));
    List<Chunk> chunks = planner(two, (c, pos) -> 1).cut(2);
    coversExactly(two, chunks);
    assertEquals(List.of(two.get(0)), chunks.get(0).intervals());
    assertEquals(List.of(two.get(1)), chunks.get(1).intervals());
  }

  @Test
  void noCleanCutWithinToleranceMeansTheBalancedOne() {
    // A gap far from the middle, and a contig boundary at 70%: neither is taken.
    List<Region> two = List.of(new Region(0, "chr1", 0, 700_000), new Region(1, "chr2", 0, 300_000));
    Density d = (c, pos) -> c == 0 && pos >= 100_000 && pos < 150_000 ? 0 : 1;
    List<Chunk> chunks = planner(two, d).cut(2);
    coversExactly(two, chunks);
    assertEquals(525_000, cutAfter(chunks, 0), "half of the 950,000 bytes");
  }

  @Test
  void everyChunkHoldsAtLeastOneBaseEvenWhenTheBytesAreInOnePlace() {
    List<Region> one = List.of(new Region(0, "chr1", 0, 100_000));
    List<Chunk> chunks = planner(one, (c, pos) -> pos >= 40_000 && pos < 41_000 ? 1 : 0).cut(8);
    coversExactly(one, chunks);
    assertEquals(8, chunks.size());
  }

  @Test
  void withoutReadsTheBasesAreBalanced() {
    List<Region> one = List.of(new Region(0, "chr1", 0, 400_000));
    List<Chunk> chunks = planner(one, (c, pos) -> 0).cut(4);
    coversExactly(one, chunks);
    for (Chunk c : chunks) assertEquals(100_000, c.bases());
  }

  @Test
  void theChunkCountIsBoundedByThePlacesACutMayFall() {
    // Inside [500, 2500): cuts at 1000 and 2000; inside [10000, 10400): none; one boundary between them.
    List<Region> regions = List.of(new Region(0, "chr1", 500, 2_500), new Region(0, "chr1", 10_000, 10_400));
    ChunkPlanner p = planner(regions, (c, pos) -> 1);
    assertEquals(4, p.maxChunks());
    List<Chunk> chunks = p.cut(4);
    coversExactly(regions, chunks);
    assertEquals(List.of(new Region(0, "chr1", 500, 1_000)), chunks.get(0).intervals());
    assertEquals(List.of(new Region(0, "chr1", 10_000, 10_400)), chunks.get(3).intervals());
    InputException e = assertThrows(InputException.class, () -> p.cut(5));
    assertEquals("--chunks 5: the regions (2400 bp in 2 intervals) can be cut into at most 4 chunks"
        + " (a cut falls between intervals or on a multiple of 1000 bp)", e.getMessage());
    assertEquals("--chunks must be at least 1, got 0", assertThrows(InputException.class, () -> p.cut(0)).getMessage());
  }

  @Test
  void overlappingRegionsAreMergedFirst() {
    List<Region> raw = List.of(new Region(0, "chr1", 5_000, 9_000), new Region(0, "chr1", 0, 6_000));
    ChunkPlanner p = planner(raw, (c, pos) -> 1);
    assertEquals(List.of(new Region(0, "chr1", 0, 9_000)), p.regions());
    coversExactly(p.regions(), p.cut(9));
  }

  @Test
  void manyRegionsAndChunksStayValid() {
    List<Region> regions = new ArrayList<>();
    for (int i = 0; i < 40; i++) regions.add(new Region(i % 3, "chr" + (i % 3), (i / 3) * 50_000, (i / 3) * 50_000 + 1_000 + i * 700));
    regions.sort((a, b) -> a.contigIndex() != b.contigIndex() ? a.contigIndex() - b.contigIndex() : a.start() - b.start());
    ChunkPlanner p = planner(regions, (c, pos) -> (pos / 7_000) % 3);
    for (int n : new int[] {1, 2, 7, 39, 40, (int) p.maxChunks()}) coversExactly(regions, p.cut(n));
  }
}
