package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every channel's values against DeepVariant's documented encodings. */
class PileupChannelsTest {
  private final PileupRead fwd = new PileupRead().set(30, false, 0, 500);
  private final PileupRead rev = new PileupRead().set(70, true, 1, -2000);

  @Test
  void readBase() {
    ReadBaseChannel c = new ReadBaseChannel();
    assertEquals(250, c.readValue(fwd, (byte) 'A', 30, (byte) 'A'));
    assertEquals(180, c.readValue(fwd, (byte) 'G', 30, (byte) 'A'));
    assertEquals(100, c.readValue(fwd, (byte) 'T', 30, (byte) 'A'));
    assertEquals(30, c.readValue(fwd, (byte) 'C', 30, (byte) 'A'));
    assertEquals(0, c.readValue(fwd, (byte) 'N', 30, (byte) 'A'));
    assertEquals(0, c.readValue(fwd, PileupConstants.INDEL_ANCHOR, 30, (byte) 'A'));
    assertEquals(180, c.referenceValue((byte) 'G'));
    assertEquals(0, c.referenceValue((byte) 'N'));
  }

  @Test
  void baseQuality() {
    BaseQualityChannel c = new BaseQualityChannel();
    assertEquals(0, c.readValue(fwd, (byte) 'A', 0, (byte) 'A'));
    assertEquals(63, c.readValue(fwd, (byte) 'A', 10, (byte) 'A')); // 10 * 254 / 40 = 63.5
    assertEquals(127, c.readValue(fwd, (byte) 'A', 20, (byte) 'A'));
    assertEquals(254, c.readValue(fwd, (byte) 'A', 40, (byte) 'A'));
    assertEquals(254, c.readValue(fwd, (byte) 'A', 55, (byte) 'A'), "capped at 40");
    assertEquals(254, c.referenceValue((byte) 'C'), "reference quality 60, capped");
  }

  @Test
  void mappingQuality() {
    MappingQualityChannel c = new MappingQualityChannel();
    assertEquals(127, c.readValue(fwd, (byte) 'A', 5, (byte) 'A')); // 254 * 30 / 60
    assertEquals(254, c.readValue(rev, (byte) 'A', 5, (byte) 'A'), "capped at 60");
    assertEquals(0, c.readValue(new PileupRead().set(0, false, 0, 0), (byte) 'A', 5, (byte) 'A'));
    assertEquals(254, c.referenceValue((byte) 'A'));
  }

  @Test
  void strand() {
    StrandChannel c = new StrandChannel();
    assertEquals(70, c.readValue(fwd, (byte) 'A', 30, (byte) 'A'));
    assertEquals(240, c.readValue(rev, (byte) 'A', 30, (byte) 'A'));
    assertEquals(70, c.referenceValue((byte) 'A'));
  }

  @Test
  void readSupportsVariant() {
    ReadSupportsVariantChannel c = new ReadSupportsVariantChannel();
    assertEquals(152, c.readValue(fwd, (byte) 'A', 30, (byte) 'A'), "ref: alpha 0.6");
    assertEquals(254, c.readValue(rev, (byte) 'A', 30, (byte) 'A'), "supports: alpha 1.0");
    assertEquals(152, c.readValue(new PileupRead().set(60, false, 2, 0), (byte) 'A', 30, (byte) 'A'),
        "other alt: alpha 0.6");
    assertEquals(152, c.referenceValue((byte) 'A'));
  }

  @Test
  void baseDiffersFromRef() {
    BaseDiffersFromRefChannel c = new BaseDiffersFromRefChannel();
    assertEquals(50, c.readValue(fwd, (byte) 'A', 30, (byte) 'A'));
    assertEquals(254, c.readValue(fwd, (byte) 'C', 30, (byte) 'A'));
    assertEquals(254, c.readValue(fwd, PileupConstants.INDEL_ANCHOR, 30, (byte) 'A'));
    assertEquals(50, c.referenceValue((byte) 'T'));
  }

  @Test
  void insertSize() {
    InsertSizeChannel c = new InsertSizeChannel();
    assertEquals(127, c.readValue(fwd, (byte) 'A', 30, (byte) 'A'));
    assertEquals(254, c.readValue(rev, (byte) 'A', 30, (byte) 'A'), "|TLEN| capped at 1000");
    assertEquals(0, c.readValue(new PileupRead().set(60, false, 0, 0), (byte) 'A', 30, (byte) 'A'));
    assertEquals(254, c.referenceValue((byte) 'A'));
  }

  @Test
  void defaultChannelOrderIsDeepVariants() {
    assertEquals(List.of("read_base", "base_quality", "mapping_quality", "strand",
            "read_supports_variant", "base_differs_from_ref"),
        PileupImageEncoder.defaultChannels(6).stream().map(PileupChannel::name).toList());
    assertEquals("insert_size", PileupImageEncoder.defaultChannels(7).get(6).name());
  }
}
