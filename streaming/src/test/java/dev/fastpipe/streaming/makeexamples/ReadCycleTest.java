package dev.fastpipe.streaming.makeexamples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.testing.TestGenome;
import htsjdk.samtools.SAMRecord;
import org.junit.jupiter.api.Test;

class ReadCycleTest {
  private final TestGenome g = new TestGenome("chr1", 1_000, 11);

  @Test
  void hardClipsOnEitherEndWereSequencedAndCountInABasesPlace() {
    // 100 bases sequenced: 30 hard-clipped before the 50 stored, 20 after
    SAMRecord forward = g.read(100, "30H50M20H", g.refString(100, 150));
    assertEquals(100, ReadCycle.sequencedLength(forward));
    assertEquals(30, ReadCycle.leadingHardClip(forward));
    // the first stored base was the 31st sequenced (index 30 of 100), the last the 80th
    assertEquals(BaseErrorRate.cycle(30, 100, false), ReadCycle.of(forward, 0));
    assertEquals(BaseErrorRate.cycle(79, 100, false), ReadCycle.atReference(forward, 150));
    // on the reverse strand the stored order runs against the sequenced one: the last stored base
    // (index 79 of the 100 in the record's orientation) was the 21st sequenced
    SAMRecord reverse = g.read(100, "30H50M20H", g.refString(100, 150));
    reverse.setReadNegativeStrandFlag(true);
    assertEquals(BaseErrorRate.cycle(20, 100, false), ReadCycle.of(reverse, 49));
    assertEquals(BaseErrorRate.cycle(69, 100, false), ReadCycle.of(reverse, 0));
  }

  @Test
  void aReadWithoutHardClipsRunsOverItsStoredBasesAndABaseNotAlignedHasNoPlace() {
    SAMRecord r = g.read(200, "10S40M", g.refString(190, 240));
    assertEquals(50, ReadCycle.sequencedLength(r));
    assertEquals(0, ReadCycle.of(r, 0));
    assertEquals(BaseErrorRate.LAST_CYCLE, ReadCycle.atReference(r, 240));
    assertEquals(BaseErrorRate.NO_CYCLE, ReadCycle.atReference(r, 150));
  }
}
