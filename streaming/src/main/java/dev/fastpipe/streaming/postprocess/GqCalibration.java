package dev.fastpipe.streaming.postprocess;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.OutputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * What a model's GQ means, measured: a per-type (SNP, indel) map from the genotype quality the
 * model computes ("raw GQ") to one whose promise holds on held-out data (an error rate of at most
 * 10^(-GQ/10)), and the GQ below which a variant call is {@code LowQual} rather than PASS.
 *
 * <p>Fitted by {@link #fit} on the calls of validation samples against their truth, so that a GQ
 * promises no more than those calls can vouch for. Assuming a call's chance of being wrong does not
 * rise with the model's GQ, the calls at raw GQ g are wrong no more often than the calls of any
 * window of raw GQs [g0, g] taken together; the bound for g is the lowest one-sided 95 %
 * Clopper-Pearson upper bound of such a window's error rate, and the calibrated GQ is -10 log10 of
 * it (rounded down), never above the raw GQ and non-decreasing in it. So the calls' number caps
 * the GQ: a GQ q needs about 3 x 10^(q/10) calls without error at or above it (1,500 error-free
 * calls vouch for GQ 26, 15,000 for GQ 36); a type without validation calls keeps the model's GQ.
 * The PASS threshold is the calibrated GQ that maximises the type's F1 on the same calls. Stored
 * as {@value #FILE_NAME} in the model directory.
 */
public final class GqCalibration {
  public static final String FILE_NAME = "calibration.json";
  static final String FORMAT = "fastpipe-gq-calibration-1";
  /** Raw GQs are 0..{@value #MAX_GQ}. */
  static final int MAX_GQ = 100;

  /** One call of a validation sample: its type, the GQ the model gave it, and whether it is wrong (FP or wrong genotype). */
  public record Observation(boolean snp, int rawGq, boolean wrong) {}

  /** One type's map: gq[raw] for raw in 0..MAX_GQ, and the lowest calibrated GQ that is PASS. */
  record TypeCalibration(int[] gq, int minPassGq) {
    int map(int raw) {
      return gq[Math.max(0, Math.min(MAX_GQ, raw))];
    }

    /** Every GQ as it is and every call PASS: no map. */
    boolean isIdentity() {
      if (minPassGq != 0) return false;
      for (int i = 0; i < gq.length; i++) if (gq[i] != i) return false;
      return true;
    }
  }

  /** No calibration: GQ as computed, every variant call with QUAL >= min-qual PASS. */
  public static final GqCalibration IDENTITY =
      new GqCalibration(identity(0), identity(0), Map.of(), AlleleCountLikelihood.NONE);

  private final TypeCalibration snp;
  private final TypeCalibration indel;
  private final Map<String, Object> info;
  private final AlleleCountLikelihood counts;

  private GqCalibration(TypeCalibration snp, TypeCalibration indel, Map<String, Object> info, AlleleCountLikelihood counts) {
    this.snp = snp;
    this.indel = indel;
    this.info = info;
    this.counts = counts;
  }

  /**
   * The read-count likelihood stacked on the network's probabilities before GQ is computed
   * ({@link AlleleCountLikelihood}); the GQ map is fitted on calls made with it.
   */
  public AlleleCountLikelihood counts() {
    return counts;
  }

  /** This calibration with another read-count likelihood (the GQ map and thresholds unchanged). */
  public GqCalibration withCounts(AlleleCountLikelihood c) {
    if (c.equals(counts)) return this;
    if (isIdentity() && c.isNone()) return IDENTITY;
    return new GqCalibration(snp, indel, info, c);
  }

  private static TypeCalibration identity(int minPassGq) {
    int[] gq = new int[MAX_GQ + 1];
    for (int i = 0; i <= MAX_GQ; i++) gq[i] = i;
    return new TypeCalibration(gq, minPassGq);
  }

  /** The calibrated GQ of a variant call of this type with the model's GQ {@code rawGq}. */
  public int gq(boolean isSnp, int rawGq) {
    return (isSnp ? snp : indel).map(rawGq);
  }

  /** The lowest calibrated GQ at which a variant call of this type is PASS. */
  public int minPassGq(boolean isSnp) {
    return (isSnp ? snp : indel).minPassGq();
  }

  public boolean isIdentity() {
    return this == IDENTITY;
  }

  /**
   * Whether this calibration maps or thresholds GQ at all (a fitted map; not {@link #IDENTITY}, with
   * or without read counts): the GQ-based LowQual rules apply only where it does.
   */
  public boolean mapsGq() {
    return !snp.isIdentity() || !indel.isIdentity();
  }

  /** What identifies this calibration in a run's plan: the fit and the read-count likelihood. */
  public String identity() {
    return isIdentity() ? "none" : info + " counts=" + counts.spec();
  }

  /** What the fit saw (calls, errors, thresholds per type), as stored. */
  public Map<String, Object> info() {
    return info;
  }

  /**
   * Fits the calibration on validation calls. {@code truthSnps}/{@code truthIndels}: the truth
   * variants of each type in the same regions (for the F1 that chooses the PASS threshold).
   */
  public static GqCalibration fit(List<Observation> calls, int truthSnps, int truthIndels) {
    return fit(calls, truthSnps, truthIndels, AlleleCountLikelihood.NONE);
  }

  /** As {@link #fit(List, int, int)}, for calls that were made with the read-count likelihood {@code counts}. */
  public static GqCalibration fit(List<Observation> calls, int truthSnps, int truthIndels, AlleleCountLikelihood counts) {
    Map<String, Object> info = new LinkedHashMap<>();
    TypeCalibration s = fitType(calls, true, truthSnps, info);
    TypeCalibration i = fitType(calls, false, truthIndels, info);
    return new GqCalibration(s, i, info, counts);
  }

  private static TypeCalibration fitType(List<Observation> all, boolean isSnp, int truth, Map<String, Object> info) {
    long[] n = new long[MAX_GQ + 1];
    long[] err = new long[MAX_GQ + 1];
    for (Observation o : all) {
      if (o.snp() != isSnp) continue;
      int g = Math.max(0, Math.min(MAX_GQ, o.rawGq()));
      n[g]++;
      if (o.wrong()) err[g]++;
    }
    double[] bound = windowBounds(n, err);
    boolean none = Arrays.stream(n).sum() == 0; // no validation calls of this type: GQ as computed
    int[] gq = new int[MAX_GQ + 1];
    for (int raw = 0; raw <= MAX_GQ; raw++) {
      if (none) {
        gq[raw] = raw;
        continue;
      }
      gq[raw] = Math.max(0, Math.min(raw, (int) Math.floor(-10 * Math.log10(bound[raw]))));
      if (raw > 0) gq[raw] = Math.max(gq[raw], gq[raw - 1]);
    }
    // The PASS threshold: the calibrated GQ t maximising F1 = 2 TP / (TP + FP + truth).
    long[] right = new long[MAX_GQ + 1];
    long[] wrong = new long[MAX_GQ + 1];
    for (int raw = 0; raw <= MAX_GQ; raw++) {
      right[gq[raw]] += n[raw] - err[raw];
      wrong[gq[raw]] += err[raw];
    }
    long tp = 0, fp = 0;
    double bestF1 = -1;
    int best = 0;
    double[] f1At = new double[MAX_GQ + 1];
    long[] keptAt = new long[MAX_GQ + 1];
    long[] wrongAt = new long[MAX_GQ + 1];
    for (int t = MAX_GQ; t >= 0; t--) {
      tp += right[t];
      fp += wrong[t];
      double f1 = truth + tp + fp == 0 ? 0 : 2.0 * tp / (tp + fp + Math.max(truth, tp));
      f1At[t] = f1;
      keptAt[t] = tp + fp;
      wrongAt[t] = fp;
      if (f1 >= bestF1) { // ties: the lower threshold (keeps more calls)
        bestF1 = f1;
        best = t;
      }
    }
    List<Object> thresholds = new ArrayList<>(); // what a PASS threshold at calibrated GQ t keeps, for the docs
    for (int t : new int[] {0, 5, 10, 15, 20, 25, 30, 40}) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("min_gq", (long) t);
      row.put("pass_calls", keptAt[t]);
      row.put("pass_errors", wrongAt[t]);
      row.put("f1", Math.round(f1At[t] * 1e6) / 1e6);
      thresholds.add(row);
    }
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("calls", keptAt[0]); // a threshold of 0 keeps every call
    t.put("errors", wrongAt[0]);
    t.put("truth", (long) truth);
    t.put("min_pass_gq", (long) best);
    t.put("max_gq", (long) gq[MAX_GQ]); // the highest GQ these calls vouch for
    t.put("validation_f1_at_threshold", Math.round(bestF1 * 1e6) / 1e6);
    t.put("f1_by_threshold", thresholds);
    info.put(isSnp ? "snp" : "indel", t);
    return new TypeCalibration(gq, best);
  }

  /**
   * Per raw GQ g, an upper bound of the error rate of calls at g: the lowest one-sided 95 %
   * Clopper-Pearson upper bound of the pooled error rate of the calls at raw GQs [g0, g], over every
   * g0 <= g whose window holds calls (valid where the error rate does not rise with the raw GQ, as
   * each of the window's rates is then at least g's). 1 where no call lies at or below g.
   */
  static double[] windowBounds(long[] n, long[] err) {
    double[] bound = new double[n.length];
    for (int g = 0; g < n.length; g++) {
      double best = 1;
      long calls = 0;
      long errors = 0;
      for (int g0 = g; g0 >= 0; g0--) {
        if (n[g0] == 0) continue;
        calls += n[g0];
        errors += err[g0];
        best = Math.min(best, upperBound95(errors, calls));
      }
      bound[g] = best;
    }
    return bound;
  }

  /** The one-sided 95 % Clopper-Pearson upper bound of a rate of {@code x} in {@code n}; NaN when n is 0. */
  public static double upperBound95(long x, long n) {
    if (n == 0) return Double.NaN;
    if (x >= n) return 1;
    return new BetaDistribution(x + 1, n - x).inverseCumulativeProbability(0.95);
  }

  /**
   * The file's fields (a typed record written and read by Jackson, {@link JsonCodec}; fields it
   * does not know are passed over); {@code fit} holds the free-form figures the tables were fitted with.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record FileForm(String format, TypeForm snp, TypeForm indel, CountsForm alleleCountLikelihood, Map<String, Object> fit) {}

  /** The read-count likelihood ({@link AlleleCountLikelihood}), absent when there is none. */
  record CountsForm(WeightForm snp, WeightForm indel) {
    static CountsForm of(AlleleCountLikelihood c) {
      return new CountsForm(WeightForm.of(c.snp()), WeightForm.of(c.indel()));
    }

    /** The likelihood, or an {@link IllegalArgumentException} naming what is missing or out of range. */
    AlleleCountLikelihood parse() {
      return new AlleleCountLikelihood(weight(snp, "snp"), weight(indel, "indel"));
    }

    private static AlleleCountLikelihood.Weight weight(WeightForm w, String type) {
      if (w != null && PILEUP.equals(w.evidence()) && w.weight() != null) {
        return AlleleCountLikelihood.Weight.ofPileup(w.weight(),
            w.weightWithinEnvelope() == null ? w.weight() : w.weightWithinEnvelope(),
            w.weightWhereQualitiesOverpromise() == null ? Double.NaN : w.weightWhereQualitiesOverpromise());
      }
      if (w != null) {
        pileupOnly(type, "weight_within_envelope", w.weightWithinEnvelope());
        pileupOnly(type, "weight_where_qualities_overpromise", w.weightWhereQualitiesOverpromise());
      }
      if (w == null || w.weight() == null || w.error() == null) {
        throw new IllegalArgumentException("allele_count_likelihood." + type + " needs a weight and an error");
      }
      if (w.evidence() != null && !COUNTS.equals(w.evidence())) {
        throw new IllegalArgumentException("allele_count_likelihood." + type + ".evidence is " + w.evidence()
            + ", expected " + COUNTS + " or " + PILEUP);
      }
      return new AlleleCountLikelihood.Weight(w.weight(), w.error());
    }

    /** A field of a weight that only the pileup's evidence has ({@code value}, null: absent) is an error elsewhere. */
    private static void pileupOnly(String type, String field, Double value) {
      if (value != null) {
        throw new IllegalArgumentException("allele_count_likelihood." + type + "." + field + " is for evidence " + PILEUP + " only");
      }
    }
  }

  private static final String COUNTS = "counts";
  private static final String PILEUP = "pileup";

  /**
   * One type's weight and per-read error rate; {@code evidence} "pileup" (no error: every read's
   * own, from the pileup) or absent / "counts" (the read counts at that error rate); with "pileup",
   * {@code weightWithinEnvelope} (absent: the weight) in samples whose reads slip within the envelope
   * ({@link AlleleCountLikelihood.Weight#withinEnvelope}), and {@code weightWhereQualitiesOverpromise}
   * (absent: none) in samples whose good bases err at several times their qualities' promise
   * ({@link AlleleCountLikelihood.Weight#overpromise}).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record WeightForm(Double weight, Double error, String evidence, Double weightWithinEnvelope,
      Double weightWhereQualitiesOverpromise) {
    static WeightForm of(AlleleCountLikelihood.Weight w) {
      if (!w.pileup()) return new WeightForm(w.weight(), w.error(), null, null, null);
      return new WeightForm(w.weight(), null, PILEUP, w.withinEnvelope() == w.weight() ? null : w.withinEnvelope(),
          w.hasOverpromise() ? w.overpromise() : null);
    }
  }

  /** One variant type: the calibrated GQ of each raw GQ 0..{@value #MAX_GQ}, and the lowest GQ that passes. */
  record TypeForm(int[] gqByRawGq, Integer minPassGq) {}

  /** Writes {@value #FILE_NAME} into the model directory (temporary name, then renamed). */
  public void save(Path modelDir) throws IOException {
    FileForm f = new FileForm(FORMAT, new TypeForm(snp.gq(), snp.minPassGq()),
        new TypeForm(indel.gq(), indel.minPassGq()), counts.isNone() ? null : CountsForm.of(counts), info);
    OutputFiles.writeString(modelDir.resolve(FILE_NAME), ".json", JsonCodec.pretty(f), "GQ calibration");
  }

  /** The model directory's calibration, or {@link #IDENTITY} when it has none. */
  public static GqCalibration forModel(Path modelDir) {
    if (modelDir == null) return IDENTITY;
    Path p = modelDir.resolve(FILE_NAME);
    return Files.isRegularFile(p) ? load(p) : IDENTITY;
  }

  /** Reads a calibration file; an {@link InputException} names the file and the problem. */
  public static GqCalibration load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": GQ calibration not found");
    } catch (IOException e) {
      throw new InputException(file + ": cannot read the GQ calibration (" + e.getMessage() + ")");
    }
    try {
      FileForm f = JsonCodec.read(JsonCodec.LENIENT, text, FileForm.class);
      if (f == null) throw new IllegalArgumentException("the file is empty");
      if (!FORMAT.equals(f.format())) throw new IllegalArgumentException("format is " + f.format() + ", expected " + FORMAT);
      AlleleCountLikelihood counts = f.alleleCountLikelihood() == null ? AlleleCountLikelihood.NONE : f.alleleCountLikelihood().parse();
      return new GqCalibration(parseType(f.snp(), "snp"), parseType(f.indel(), "indel"), f.fit() == null ? Map.of() : f.fit(),
          counts);
    } catch (IOException | IllegalArgumentException | NullPointerException e) {
      throw new InputException(file + ": not a fastpipe GQ calibration (" + e.getMessage() + ")");
    }
  }

  private static TypeCalibration parseType(TypeForm t, String type) {
    int[] gq = t == null || t.gqByRawGq() == null ? new int[0] : t.gqByRawGq();
    if (gq.length != MAX_GQ + 1) {
      throw new IllegalArgumentException(type + ".gq_by_raw_gq has " + gq.length + " values, expected " + (MAX_GQ + 1));
    }
    for (int i = 0; i <= MAX_GQ; i++) {
      if (gq[i] < 0 || gq[i] > i || (i > 0 && gq[i] < gq[i - 1])) {
        throw new IllegalArgumentException(type + ".gq_by_raw_gq[" + i + "] = " + gq[i]
            + ": a calibrated GQ is in 0..raw and non-decreasing");
      }
    }
    Integer min = t.minPassGq();
    if (min == null || min < 0 || min > MAX_GQ) throw new IllegalArgumentException(type + ".min_pass_gq must be in 0.." + MAX_GQ);
    return new TypeCalibration(gq.clone(), min);
  }
}
