package dev.fastpipe.streaming.pileup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StrandArtifactRateTest {

  /**
   * Pileup columns of 15 + 15 reads at Q30 (errors at 1e-3, a third of them each wrong base): hom-ref
   * sites, hets at 1e-3 and hom-alts at 5e-4 of the sites, and a share {@code artifacts} of sites
   * where the forward reads show the alt at a fraction drawn in [0.1, 0.6]. Only the columns with two
   * reads or more of one wrong base are the fit's evidence, as the sample keeps them.
   */
  static StrandArtifactRate fitted(int columns, double artifacts, long seed) {
    Random rnd = new Random(seed);
    double e = 1e-3;
    List<PileupLikelihood.ReadEvidence> evidence = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      double u = rnd.nextDouble();
      double[] altFraction; // per strand
      if (u < 1e-3) altFraction = new double[] {0.5, 0.5};
      else if (u < 1.5e-3) altFraction = new double[] {1, 1};
      else if (u < 1.5e-3 + artifacts) altFraction = new double[] {0.1 + 0.5 * rnd.nextDouble(), 0};
      else altFraction = new double[] {0, 0};
      PileupLikelihood.ReadEvidence site = new PileupLikelihood.ReadEvidence(4);
      int alts = 0;
      for (int s = 0; s < 2; s++) {
        for (int r = 0; r < 15; r++) {
          boolean fromAlt = rnd.nextDouble() < altFraction[s];
          boolean wrong = rnd.nextDouble() < e;
          // a wrong base is the alt (the column's second base) a third of the time, else a third base
          boolean alt = wrong ? (!fromAlt && rnd.nextInt(3) == 0) : fromAlt;
          boolean ref = wrong ? (fromAlt && rnd.nextInt(3) == 0) : !fromAlt;
          if (!alt && !ref) continue;
          if (alt) alts++;
          site.add(alt, e, s == 1);
        }
      }
      if (alts >= 2) evidence.add(site);
    }
    return StrandArtifactRate.estimate(evidence, columns);
  }

  @Test
  void theFitFindsTheArtifactsThatAreThere() {
    StrandArtifactRate r = fitted(400_000, 1e-3, 1);
    assertTrue(r.rate() > 0.7e-3 && r.rate() < 1.3e-3, r.describe());
    assertTrue(r.artifacts() > 250 && r.artifacts() < 500, r.describe());
  }

  @Test
  void readsWithoutArtifactsFitARateFarBelowTheAssumedOne() {
    // The prior's 0.22 pseudo-artifacts over 402,000 columns: 5.5e-7; one-strand hets do not pass for artifacts.
    StrandArtifactRate r = fitted(400_000, 0, 2);
    assertTrue(r.rate() < 3e-6, r.describe());
    assertTrue(r.artifacts() < 2, r.describe());
  }

  @Test
  void aSmallSampleKeepsCloseToTheAssumedRate() {
    StrandArtifactRate r = StrandArtifactRate.estimate(List.of(), 2_000);
    assertEquals(StrandArtifactRate.DEFAULT * StrandArtifactRate.PRIOR_COLUMNS / (2_000 + StrandArtifactRate.PRIOR_COLUMNS),
        r.rate(), 1e-12);
    assertEquals(StrandArtifactRate.DEFAULT, StrandArtifactRate.assumed().rate());
    assertTrue(StrandArtifactRate.assumed().describe().contains("assumed"), StrandArtifactRate.assumed().describe());
  }

  @Test
  void aRateOutsideZeroToOneOrMoreEvidenceThanColumnsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new StrandArtifactRate(0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new StrandArtifactRate(1, 1, 0));
    PileupLikelihood.ReadEvidence one = new PileupLikelihood.ReadEvidence(4);
    one.add(true, 0.01, false);
    assertThrows(IllegalArgumentException.class, () -> StrandArtifactRate.estimate(List.of(one, one), 1));
  }
}
