package dev.fastpipe.streaming.genome;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TandemRepeatTest {
  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void theLongestRepeatsLengthAndUnit() {
    assertEquals(8, TandemRepeat.length(b("TTTTTTTTC"), 0, 100));
    assertEquals(1, TandemRepeat.longest(b("TTTTTTTTC"), 0, 100).unit(), "a homopolymer");
    assertEquals(9, TandemRepeat.length(b("ACACACACAG"), 0, 100));
    assertEquals(2, TandemRepeat.longest(b("ACACACACAG"), 0, 100).unit());
    assertEquals(9, TandemRepeat.length(b("CAGCAGcagT"), 0, 100), "case aside");
    assertEquals(3, TandemRepeat.longest(b("CAGCAGcagT"), 0, 100).unit());
    assertEquals(0, TandemRepeat.length(b("TCTGGGG"), 0, 100), "TC once and a half is no repeat");
    assertEquals(0, TandemRepeat.longest(b("TCTGGGG"), 0, 100).unit());
    assertEquals(1, TandemRepeat.longest(b("AAAAAAAA"), 0, 100).unit(), "AA repeats too: the shortest unit of the longest");
    assertEquals(5, TandemRepeat.length(b("AAAAAAAA"), 0, 5), "capped");
    assertEquals(new TandemRepeat.Repeat(9, 2), TandemRepeat.longest(b("ACACACACAG"), 0, 100), "both in one scan");
  }
}
