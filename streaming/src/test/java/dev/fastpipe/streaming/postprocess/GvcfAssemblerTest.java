package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The gVCF's records must be a function of the positions alone: whatever the partitioning (and
 * so the blocks the shards cut), the order blocks arrive in and the points at which the release
 * runs, the assembler writes the same records. The expected records are computed here per
 * position, from the definition: positions a variant record covers go, the rest merge by key.
 */
class GvcfAssemblerTest {
  static final int[] CONTIG_LENGTHS = {300, 200};

  /** Per-position truth of a small genome: key (bin, called), GQ, depth, PL; candidate spans; calls. */
  static final class Genome {
    final int[][] bin = new int[2][];
    final boolean[][] called = new boolean[2][];
    final int[][] gq = new int[2][];
    final int[][] dp = new int[2][];
    final boolean[][] inCandidate = new boolean[2][];
    final List<GenotypeCall> calls = new ArrayList<>();

    Genome(long seed) {
      Random rnd = new Random(seed);
      for (int c = 0; c < 2; c++) {
        int n = CONTIG_LENGTHS[c];
        bin[c] = new int[n];
        called[c] = new boolean[n];
        gq[c] = new int[n];
        dp[c] = new int[n];
        inCandidate[c] = new boolean[n];
        int key = 0;
        for (int i = 0; i < n; i++) {
          if (rnd.nextInt(8) == 0) key = rnd.nextInt(4); // runs of one key, so that blocks merge
          bin[c][i] = key < 3 ? 1 + 5 * key : 0;
          called[c][i] = key < 3;
          gq[c][i] = bin[c][i] + rnd.nextInt(5);
          dp[c][i] = 10 + rnd.nextInt(20);
        }
        for (int i = 3; i < n - 6; i += 10 + rnd.nextInt(25)) {
          int span = 1 + rnd.nextInt(4);
          for (int k = 0; k < span; k++) inCandidate[c][i + k] = true;
          if (rnd.nextBoolean()) { // a candidate that became a record, over part of its span
            int len = 1 + rnd.nextInt(span);
            calls.add(call(c, i, len));
          }
        }
      }
    }

    static GenotypeCall call(int contig, int pos, int refLength) {
      return new GenotypeCall(contig, pos, "A".repeat(refLength), List.of("C"), new int[] {0, 1}, new double[3], 30,
          30, new int[] {30, 0, 40}, GenotypeCall.PASS, 20, new int[] {10, 10});
    }

    int[] pl(int c, int i) {
      return new int[] {0, gq[c][i], 10 * gq[c][i] + i};
    }

    /** The blocks a shard cuts for partition [start, end) of contig c, as MakeExamples does. */
    List<RefBlock> shardBlocks(int c, int start, int end) {
      List<RefBlock> out = new ArrayList<>();
      RefBlock open = null;
      for (int i = start; i < end; i++) {
        RefBlock one = new RefBlock(c, i, i + 1, (byte) 'A', gq[c][i], dp[c][i], pl(c, i), bin[c][i], called[c][i]);
        boolean alone = inCandidate[c][i] || (i > start && inCandidate[c][i - 1]);
        if (open != null && !alone && open.merges(one)) {
          open = open.extendedBy(one);
        } else {
          if (open != null) out.add(open);
          open = one;
        }
      }
      if (open != null) out.add(open);
      return out;
    }

    /** The gVCF's records by definition, position by position. */
    List<String> expected() {
      List<String> out = new ArrayList<>();
      for (int c = 0; c < 2; c++) {
        boolean[] covered = new boolean[CONTIG_LENGTHS[c]];
        List<GenotypeCall> mine = new ArrayList<>();
        for (GenotypeCall g : calls) {
          if (g.contigIndex() != c) continue;
          mine.add(g);
          for (int k = 0; k < g.ref().length(); k++) covered[g.position() + k] = true;
        }
        RefBlock open = null;
        int nextCall = 0;
        for (int i = 0; i < CONTIG_LENGTHS[c]; i++) {
          while (nextCall < mine.size() && mine.get(nextCall).position() == i) {
            if (open != null) out.add(text(open));
            open = null;
            out.add(text(mine.get(nextCall++)));
          }
          if (covered[i]) continue;
          RefBlock one = new RefBlock(c, i, i + 1, (byte) 'A', gq[c][i], dp[c][i], pl(c, i), bin[c][i], called[c][i]);
          if (open != null && open.merges(one)) {
            open = open.extendedBy(one);
          } else {
            if (open != null) out.add(text(open));
            open = one;
          }
        }
        if (open != null) out.add(text(open));
      }
      return out;
    }
  }

  static String text(RefBlock b) {
    return "block " + b.contigIndex() + ":" + b.start() + "-" + b.end() + " gq=" + b.minGq() + " dp=" + b.minDp() + " pl="
        + Arrays.toString(b.pl()) + " bin=" + b.gqBin() + " called=" + b.called();
  }

  static String text(GenotypeCall c) {
    return "call " + c.contigIndex() + ":" + c.position() + " " + c.ref();
  }

  static final class Recorder implements GvcfAssembler.Sink {
    final List<String> records = new ArrayList<>();

    @Override
    public void write(GenotypeCall call) {
      records.add(text(call));
    }

    @Override
    public void write(RefBlock block) {
      records.add(text(block));
    }
  }

  /** Runs a partitioning of the genome through the assembler as the streaming release does. */
  static List<String> assemble(Genome g, int partitionSize, long shuffleSeed) {
    GvcfAssembler a = new GvcfAssembler();
    Recorder out = new Recorder();
    List<int[]> partitions = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      for (int s = 0; s < CONTIG_LENGTHS[c]; s += partitionSize) {
        partitions.add(new int[] {c, s, Math.min(CONTIG_LENGTHS[c], s + partitionSize)});
      }
    }
    Random rnd = new Random(shuffleSeed);
    int released = 0;
    for (int p = 0; p < partitions.size(); ) {
      int upTo = Math.min(partitions.size(), p + 1 + rnd.nextInt(3)); // the frontier jumps by 1-3 partitions
      List<RefBlock> arriving = new ArrayList<>();
      for (int q = p; q < upTo; q++) {
        int[] part = partitions.get(q);
        arriving.addAll(g.shardBlocks(part[0], part[1], part[2]));
      }
      Collections.shuffle(arriving, rnd);
      arriving.forEach(a::add);
      int[] next = upTo < partitions.size() ? partitions.get(upTo) : null;
      List<GenotypeCall> calls = new ArrayList<>();
      while (released < g.calls.size() && (next == null || before(g.calls.get(released), next))) {
        calls.add(g.calls.get(released++));
      }
      if (next == null) a.finish(calls, out);
      else a.completeBefore(next[0], next[1], calls, out);
      p = upTo;
    }
    return out.records;
  }

  private static boolean before(GenotypeCall c, int[] partition) {
    return c.contigIndex() < partition[0] || (c.contigIndex() == partition[0] && c.position() < partition[1]);
  }

  @Test
  void recordsDoNotDependOnPartitionsOrArrivalOrder() {
    for (long seed = 1; seed <= 20; seed++) {
      Genome g = new Genome(seed);
      List<String> expected = g.expected();
      for (int size : new int[] {1, 7, 50, 1000}) {
        assertEquals(expected, assemble(g, size, seed * 31 + size), "seed " + seed + ", partition size " + size);
      }
    }
  }

  @Test
  void blocksMergeAcrossAReleaseButNotAcrossContigsOrKeys() {
    GvcfAssembler a = new GvcfAssembler();
    Recorder out = new Recorder();
    a.add(block(0, 0, 10, 46, true, 50));
    a.completeBefore(0, 10, List.of(), out);
    assertEquals(List.of(), out.records, "the last block is held while the next range may continue it");
    a.add(block(0, 10, 20, 46, true, 47));
    a.add(block(0, 20, 25, 41, true, 43));
    a.completeBefore(0, 25, List.of(), out);
    assertEquals(List.of("block 0:0-20 gq=47 dp=10 pl=[0, 47, 470] bin=46 called=true"), out.records);
    a.add(block(1, 0, 5, 41, true, 42));
    a.finish(List.of(), out);
    assertEquals(3, out.records.size());
    assertEquals("block 0:20-25 gq=43 dp=10 pl=[0, 43, 430] bin=41 called=true", out.records.get(1));
    assertEquals(2, a.blocksOut() - 1, "three records from four blocks");
  }

  @Test
  void aBlockReachingIntoAVariantRecordIsAnError() {
    GvcfAssembler a = new GvcfAssembler();
    a.add(block(0, 5, 9, 46, true, 50)); // a shard would have cut position 5 alone: blocks from another run
    assertThrows(IllegalStateException.class, () -> a.finish(List.of(Genome.call(0, 4, 3)), new Recorder()));
    GvcfAssembler twice = new GvcfAssembler();
    twice.add(block(0, 5, 9, 46, true, 50));
    assertThrows(IllegalStateException.class, () -> twice.add(block(0, 5, 9, 46, true, 50)));
  }

  static RefBlock block(int contig, int start, int end, int bin, boolean called, int gq) {
    return new RefBlock(contig, start, end, (byte) 'A', gq, 10, new int[] {0, gq, 10 * gq}, bin, called);
  }
}
