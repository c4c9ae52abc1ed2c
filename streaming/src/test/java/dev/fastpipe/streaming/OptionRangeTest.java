package dev.fastpipe.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The range checks every numeric setting goes through: the edges are in, one step past them is out, NaN never. */
class OptionRangeTest {

  static String refused(Runnable check) {
    return assertThrows(InputException.class, check::run).getMessage();
  }

  @Test
  void integerRangesTakeTheirEdgesAndNothingPast() {
    assertEquals(1, OptionRange.atLeast("--consumers", 1, 1));
    assertEquals("--consumers 0: must be 1 or more", refused(() -> OptionRange.atLeast("--consumers", 0, 1)));
    assertEquals("--consumers -1: must be 1 or more", refused(() -> OptionRange.atLeast("--consumers", -1, 1)));
    assertEquals(0, OptionRange.between("--metrics-port", 0, 0, 65535));
    assertEquals(65535, OptionRange.between("--metrics-port", 65535, 0, 65535));
    assertEquals("--metrics-port 65536: must be between 0 and 65535",
        refused(() -> OptionRange.between("--metrics-port", 65536, 0, 65535)));
    assertEquals("--metrics-port -1: must be between 0 and 65535",
        refused(() -> OptionRange.between("--metrics-port", -1, 0, 65535)));
  }

  @Test
  void realRangesRefuseNaNInfinitiesAndNegatives() {
    assertEquals(0.0, OptionRange.finiteAtLeast("--min-qual", 0.0, 0));
    assertEquals(1e300, OptionRange.finiteAtLeast("--min-qual", 1e300, 0));
    assertEquals("--min-qual -1.0E-300: must be a finite number, 0.0 or more",
        refused(() -> OptionRange.finiteAtLeast("--min-qual", -1e-300, 0)));
    assertEquals("--min-qual NaN: must be a finite number, 0.0 or more",
        refused(() -> OptionRange.finiteAtLeast("--min-qual", Double.NaN, 0)));
    assertEquals("--min-qual Infinity: must be a finite number, 0.0 or more",
        refused(() -> OptionRange.finiteAtLeast("--min-qual", Double.POSITIVE_INFINITY, 0)));
    assertEquals(0.0, OptionRange.fraction("--snp-min-fraction", 0.0));
    assertEquals(1.0, OptionRange.fraction("--snp-min-fraction", 1.0));
    for (double bad : new double[] {Math.nextUp(1.0), -0.1, Double.NaN, Double.NEGATIVE_INFINITY}) {
      assertEquals("--snp-min-fraction " + bad + ": must be a fraction between 0 and 1",
          refused(() -> OptionRange.fraction("--snp-min-fraction", bad)));
    }
  }
}
