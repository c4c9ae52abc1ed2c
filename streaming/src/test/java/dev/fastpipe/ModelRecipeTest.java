package dev.fastpipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shipped model's data recipe keeps training apart from evaluation (issue 22): no training or
 * validation sample lies in the evaluation band 20:9,000,000-12,000,000, every blind sample does,
 * and no seed a training or validation sample uses (its base seed and every seed derived from it,
 * as build_data.sh derives them) is an evaluation seed: sim30x_eval's 7, a blind sample's, a
 * probe's, or one of the earlier models' blind seeds. Probes (held out off the band) lie on no
 * training or validation slice and share no seed with an evaluation sample.
 */
class ModelRecipeTest {
  /** The shipped model's samples. */
  static final Path SAMPLES = Path.of("..", "models", "fastpipe-v5", "recipe", "samples.tsv");
  /**
   * Validation samples of the indel error floor, more of them after blind15, after blind25 those of
   * the simulators validation lacked, with blind82 Mason samples at 10-30x, after blind82 ART
   * samples with PCR stutter at 10-30x (off the band, never trained on).
   */
  static final List<Path> MORE_VALIDATION = List.of(Path.of("..", "models", "fastpipe-v5", "recipe", "indel_fit.tsv"),
      Path.of("..", "models", "fastpipe-v5", "recipe", "validation2.tsv"),
      Path.of("..", "models", "fastpipe-v5", "recipe", "validation3.tsv"),
      Path.of("..", "models", "fastpipe-v5", "recipe", "validation4.tsv"),
      Path.of("..", "models", "fastpipe-v5", "recipe", "validation5.tsv"));
  /** Every blind matrix of the recipe (blind.tsv, blind2.tsv, ...), found there: a new one is checked without a line here. */
  static final List<Path> BLIND = tables("blind[0-9]*\\.tsv");

  /** Held-out probes off the band (probe_*.tsv: coverage, read lengths and simulators outside the blind matrices'). */
  static final List<Path> PROBES = tables("probe_.*\\.tsv");

  static List<Path> tables(String regex) {
    try (java.util.stream.Stream<Path> s = Files.list(SAMPLES.getParent())) {
      return s.filter(p -> p.getFileName().toString().matches(regex)).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static final long BAND_LO = 9_000_000;
  static final long BAND_HI = 12_000_000;
  /** sim30x_eval, and the blind seeds of v3 (301-307) and v4 (461-467), each with its reads' seeds (+1, +2). */
  static final Set<Long> EARLIER_EVALUATION = Set.of(7L, 301L, 302L, 303L, 304L, 305L, 306L, 307L, 308L, 309L,
      461L, 462L, 463L, 464L, 465L, 466L, 467L, 468L, 469L);

  /**
   * The one known overlap, found after blind13 was built and scored: its four samples' own seeds
   * (2901, 2921, 2941, 2961) are the strand-error seeds (seed + 400) of indel_fit.tsv's four samples.
   * Those draw the injected strand errors' sites on 20:31-53 Mb, blind13's draw its variants on
   * 20:10.2-10.8 Mb: the same random stream, used for different things in different places, shares
   * no data. Every other seed stays checked; a new overlap fails.
   */
  static final Set<String> BLIND13_OVERLAPS =
      Set.of("F2501_HS25_150:2901", "F2521_HSXt_150:2921", "F2541_MSv3_250:2941", "F2561_DWG_100:2961");

  record Row(String name, String role, long start, long end, long seed, int ladder) {
    /** Every seed build_data.sh draws for this sample: s, s+1, s+2 (reads), s+3 (artifacts), s+400 (strand errors), s+10+k (ladder). */
    Set<Long> seeds() {
      Set<Long> s = new HashSet<>(List.of(seed, seed + 1, seed + 2, seed + 3, seed + 400));
      for (int k = 0; k < ladder; k++) s.add(seed + 10 + k);
      return s;
    }

    boolean inBand() {
      return end >= BAND_LO && start <= BAND_HI;
    }
  }

  static List<Row> rows(Path table) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String line : Files.readAllLines(table)) {
      if (line.startsWith("#") || line.isBlank()) continue;
      String[] f = line.split("\t");
      assertEquals(14, f.length, table + ": 14 columns in " + line);
      int ladder = f[13].equals("-") ? 0 : f[13].split(",").length;
      rows.add(new Row(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[12]), ladder));
    }
    return rows;
  }

  @Test
  void trainingAndValidationStayOutOfTheEvaluationBandAndBlindSamplesInIt() throws IOException {
    List<Row> samples = rows(SAMPLES);
    assertTrue(samples.stream().anyMatch(r -> r.role().equals("train")));
    assertTrue(samples.stream().anyMatch(r -> r.role().equals("validation")));
    for (Row r : samples) {
      assertTrue(r.role().equals("train") || r.role().equals("validation"), r.name() + ": role " + r.role());
      assertFalse(r.inBand(), r.name() + " overlaps the evaluation band");
    }
    List<Row> fit = new ArrayList<>();
    for (Path table : MORE_VALIDATION) {
      List<Row> rows = rows(table);
      assertFalse(rows.isEmpty(), table + " has no sample");
      fit.addAll(rows);
    }
    List<Row> offBandData = new ArrayList<>(samples);
    offBandData.addAll(fit);
    for (Row r : fit) assertOffBandOnItsOwnSlice(r, "validation", offBandData);
    assertTrue(PROBES.size() >= 3, "probe tables found in the recipe: " + PROBES);
    List<Row> probes = new ArrayList<>();
    for (Path table : PROBES) probes.addAll(rows(table));
    for (Row r : probes) assertOffBandOnItsOwnSlice(r, "probe", offBandData);
    assertTrue(BLIND.size() >= 86, "blind matrices found in the recipe: " + BLIND);
    for (Path table : BLIND) {
      for (Row r : rows(table)) {
        assertEquals("blind", r.role(), r.name());
        assertTrue(r.start() >= BAND_LO && r.end() <= BAND_HI, r.name() + " is not inside the evaluation band");
      }
    }
  }

  /** {@code r} has the role, lies off the band and shares its slice with none of {@code others} (itself aside). */
  static void assertOffBandOnItsOwnSlice(Row r, String role, List<Row> others) {
    assertEquals(role, r.role(), r.name());
    assertFalse(r.inBand(), r.name() + " overlaps the evaluation band");
    for (Row t : others) {
      if (t == r) continue;
      assertTrue(r.end() < t.start() || r.start() > t.end(), r.name() + " overlaps " + t.name() + "'s slice");
    }
  }

  @Test
  void noTrainingOrValidationSeedIsAnEvaluationSeed() throws IOException {
    Set<Long> evaluation = new HashSet<>(EARLIER_EVALUATION);
    Set<Long> blindSeeds = new HashSet<>();
    for (Path table : BLIND) {
      for (Row r : rows(table)) {
        assertTrue(blindSeeds.add(r.seed()), r.name() + ": blind seed " + r.seed() + " used twice");
        evaluation.addAll(r.seeds());
      }
    }
    for (Path table : PROBES) {
      for (Row r : rows(table)) {
        for (long seed : r.seeds()) assertTrue(evaluation.add(seed), r.name() + " shares seed " + seed + " with an evaluation sample or another probe");
      }
    }
    Set<Long> used = new HashSet<>();
    List<Row> offBand = new ArrayList<>(rows(SAMPLES));
    for (Path table : MORE_VALIDATION) offBand.addAll(rows(table));
    for (Row r : offBand) {
      for (long s : r.seeds()) {
        if (BLIND13_OVERLAPS.contains(r.name() + ":" + s)) continue;
        assertFalse(evaluation.contains(s), r.name() + " uses seed " + s + ", an evaluation seed");
        assertTrue(used.add(s), r.name() + " shares seed " + s + " with another sample");
      }
    }
  }
}
