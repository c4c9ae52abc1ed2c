package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastpipe.streaming.bench.Summary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bench and bench-inference report the same median: the middle, or the mean of the two middles. */
class BenchMediansTest {

  @Test
  void anEvenCountsMedianIsTheMeanOfTheTwoMiddleValues() {
    assertEquals(2.5, BenchInferenceCommand.median(List.of(4.0, 1.0, 3.0, 2.0)));
    assertEquals(1500.0, BenchInferenceCommand.median(List.of(1000.0, 2000.0)), "two rounds: not the max");
    assertEquals(2.5, Summary.median(new double[] {4, 1, 3, 2}));
    assertEquals(2.5, Summary.of(new double[] {4, 1, 3, 2}).median());
  }

  @Test
  void anOddCountsMedianIsTheMiddleValue() {
    assertEquals(2.0, BenchInferenceCommand.median(List.of(3.0, 1.0, 2.0)));
    assertEquals(7.0, Summary.median(new double[] {7}));
    assertEquals(2.0, Summary.median(new double[] {3, Double.NaN, 1, 2}), "NaN (a figure a run lacks) is left out");
    assertEquals(Double.NaN, Summary.median(new double[0]));
  }
}
