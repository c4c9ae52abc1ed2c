package dev.fastpipe.streaming.postprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SiteAssemblerTest {

  private static CallResult r(int contig, int pos, int[] subset, List<String> alts) {
    int n = alts.size();
    return new CallResult(contig, pos, "A", alts, subset, new float[] {0.01f, 0.98f, 0.01f}, n + n * (n - 1) / 2, 20, new int[0]);
  }

  @Test
  void releasesCompleteSitesSortedWhateverTheArrivalOrder() {
    SiteAssembler a = new SiteAssembler(new GenotypeCombiner());
    List<String> two = List.of("C", "G");
    a.add(r(1, 50, new int[] {0}, List.of("T")));
    a.add(r(0, 300, new int[] {0, 1}, two));
    a.add(r(0, 20, new int[] {0}, List.of("T")));
    a.add(r(0, 300, new int[] {1}, two));
    a.add(r(0, 300, new int[] {0}, two));
    a.add(r(0, 100, new int[] {0}, List.of("T")));

    List<GenotypeCall> first = a.completeBefore(0, 300);
    assertEquals(List.of(20, 100), first.stream().map(GenotypeCall::position).toList());
    assertThrows(IllegalStateException.class, () -> a.add(r(0, 150, new int[] {0}, List.of("T"))));

    a.add(r(0, 400, new int[] {0}, List.of("T")));
    List<GenotypeCall> rest = new ArrayList<>(a.completeBefore(1, 0));
    assertEquals(List.of(300, 400), rest.stream().map(GenotypeCall::position).toList());
    assertEquals(2, rest.get(0).alts().size());
    rest.addAll(a.finish());
    assertEquals(1, rest.get(2).contigIndex());
    assertEquals(0, a.incompleteSites());
    assertEquals(0, a.pendingSites());
  }

  @Test
  void countsSitesReleasedWithMissingExamples() {
    SiteAssembler a = new SiteAssembler(new GenotypeCombiner());
    a.add(r(0, 300, new int[] {0}, List.of("C", "G")));
    assertEquals(1, a.finish().size());
    assertEquals(1, a.incompleteSites());
  }
}
