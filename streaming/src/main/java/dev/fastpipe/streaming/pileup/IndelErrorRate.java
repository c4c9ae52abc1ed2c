package dev.fastpipe.streaming.pileup;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How often a sample's reads show an indel they do not carry, by the length and unit of the tandem
 * repeat after the indel's anchor: the per-read error of {@link PileupLikelihood#indel}'s alt and reference
 * reads, measured on the run's own reads rather than assumed. Real reads slip in repeats
 * (polymerase stutter grows with the repeat's length) where most simulators write indel errors
 * anywhere alike; one fixed rate is either too trusting in long repeats or too doubtful elsewhere.
 *
 * <p>A rate never goes below {@link #FLOOR}: besides sequencing errors, an aligner misplaces a read
 * whose end reaches only a few bases past an indel (it shows the reference there whichever allele it
 * came from), and a read's inserted bases can carry a base error; neither shows as an indel in the
 * sampled CIGARs. The floor was fitted on validation samples off the evaluation band
 * ({@code models/fastpipe-v5/recipe/indel_fit.tsv}; MODEL.md). Both concern reads of an indel's
 * allele, so the rate at which reads of the reference show an indel ({@link #ofReferenceReads}) is the
 * fitted one, without the floor.
 *
 * <p>The fit, per class of repeat length and unit ({@link #CLASSES}), is the maximum a posteriori rate of
 * a three-part mixture over the sampled anchor columns, by expectation maximisation: hom-ref (each
 * read shows the column's most common indel at the rate), het (half the reads) and hom-alt. Only
 * columns where some read shows an indel carry evidence; the others count as hom-ref columns with
 * their reads. The rate's prior is a Beta with mean {@link #FLOOR} worth {@link #PRIOR_READS} reads,
 * so that a class with few reads (long repeats in a small sample) keeps close to the floor.
 *
 * <p>A class's rate is its loci's mean, and loci differ: PCR stutter slips one tract of a class and
 * not the next (blind63's 60x MiSeq stutter sample: 30 of 51 perfect tetranucleotide tracts of 20
 * bases or more show no unit indel in any read, the rest five or more). So each kind of repeat
 * (homopolymers, dinucleotide STRs, longer units) also gets its loci's spread ({@link
 * #locusWeights}): the share of its anchor columns whose reads slip at each multiple ({@link
 * #LOCUS_MULTIPLIERS}) of their class's rate, fitted by the same mixture with the hom-ref part split
 * over the multiples. A site's indel likelihoods are summed over them
 * ({@code PileupLikelihood.indel}): eight of 22 reads one unit off at a locus whose class slips
 * 0.013 a read are a het's under one rate, and a stuttering locus's under the spread, where the
 * sample shows such loci. A sample whose loci slip alike (most simulators) fits no spread.
 *
 * @param rates per class, the fitted rate (before the floor)
 * @param reads per class, the read columns sampled
 * @param errors per class, the expected indel errors among them
 * <p>A class's rate is that of its loci's most common indel error, a slip of one unit of the
 * repeat. A read that shows an indel of two units or more where its haplotype has none (or none
 * where its haplotype has one) needs a slip of that many units, which polymerase makes far less
 * often: the stutter validation sample's reads slip 2,238 times by one unit of a homopolymer and 8
 * times by two units or more, ART's, Mason's and dwgsim's reads 0.1 to 0.4 % as often. So each
 * class also gets the rate of a slip of k units against one of one unit ({@link #unitShares}),
 * measured on the same anchor columns ({@link #estimate(List, long[], long[], long[][])}).
 *
 * @param rates per class, the fitted rate (before the floor)
 * @param reads per class, the read columns sampled
 * @param errors per class, the expected indel errors among them
 * @param locusWeights per kind of repeat ({@link #kindOf}), the share of loci at each of {@link
 *     #LOCUS_MULTIPLIERS} times their class's rate (summing to 1)
 * @param unitShares per class, at index k (2 to {@link #MAX_UNITS}), the rate of a slip of k units
 *     or more against a slip of one unit, in (0, 1]; 1 at 0 and 1
 */
public record IndelErrorRate(double[] rates, long[] reads, double[] errors, double[][] locusWeights,
    double[][] unitShares) {
  /** The lowest per-read indel error the caller uses. */
  public static final double FLOOR = 0.002;
  /**
   * Where each class of repeat length starts, in bases of the tandem repeat after the anchor
   * ({@code genome.TandemRepeat#length}: 0 where no unit repeats): no or a short repeat, then longer
   * ones.
   */
  public static final int[] CLASS_FROM = {0, 4, 8, 12, 20};
  /**
   * The classes: no or a short repeat (class 0), then each longer length class three times:
   * homopolymers (1 to 4), repeats of a two-base unit (5 to 8) and of a longer unit (9 to 12).
   * Polymerase slips on each differently (PCR stutter is mostly a homopolymer's and a dinucleotide
   * repeat's), and one class for all averaged their stutter away: the stutter validation sample's
   * dinucleotide repeats of 8-11 bases fit 0.057 a read, its repeats of longer units of that length
   * 1e-4, both together 0.0047.
   */
  public static final int CLASSES = 3 * CLASS_FROM.length - 2;
  /**
   * The per-read indel error above which a class is outside the envelope of the samples the GQ map
   * was fitted on ({@link #beyondEnvelope}): every off-band validation sample without PCR stutter
   * fits each class at 0.0027 or less; the stutter sample, left out of the fit, 0.0055 to 0.059 in
   * its homopolymers and repeats of 8 bases or more. Real NA12878 reads ({@code na12878_tiny}) fit
   * 0.0066 in homopolymers of 12-19 bases (every other class 0.0035 or less), so their long
   * homopolymers are outside it too.
   */
  public static final double ENVELOPE = 0.005;
  /** The prior's weight, in read columns. */
  static final double PRIOR_READS = 2_000;
  static final double HET_START = 1e-4;
  static final double HOM_ALT_START = 5e-5;
  static final int MAX_ROUNDS = 200;
  static final double TOLERANCE = 1e-4;

  /** The multiples of its class's rate at which a locus's reads may slip ({@link #locusWeights}). */
  public static final double[] LOCUS_MULTIPLIERS = {1, 2, 4, 8, 16};
  /** The most a multiplied rate reaches ({@link #atLocus}): a locus slipping more looks like a het. */
  public static final double MAX_LOCUS_RATE = 0.25;
  /** Pseudo-count, in anchor columns at their class's rate, behind each kind's spread. */
  static final double LOCUS_PRIOR_COLUMNS = 50;
  /** The share of the loci the spread's fit starts with at each multiple above 1 (the rest at 1). */
  static final double SPREAD_START = 0.01;
  /** The spread's fit stops when no share moves by more than this in a round ... */
  static final double SPREAD_TOLERANCE = 1e-7;
  /** ... or after this many rounds. */
  static final int SPREAD_ROUNDS = 20_000;
  /** Kinds of repeat whose loci spread alike: homopolymers, dinucleotide STRs, longer units. */
  public static final int KINDS = 3;

  /** Slips of this many units or more are counted as one ({@link #unitShares}). */
  public static final int MAX_UNITS = 4;
  /**
   * Pseudo-count behind each class's {@link #unitShares}, in slips of one unit, and the share of
   * them that the prior puts at two units or more ({@link #PRIOR_UNIT_SHARE}, and that share again
   * for each unit more): a class with few slips sampled keeps a multi-unit slip at a tenth of a
   * one-unit slip, far above what any sample measures, so that little evidence changes little.
   */
  static final double UNIT_PRIOR_SLIPS = 20;
  /** The prior's share of slips of two units against one ({@link #UNIT_PRIOR_SLIPS}). */
  static final double PRIOR_UNIT_SHARE = 0.1;

  public IndelErrorRate {
    if (rates.length != CLASSES || reads.length != CLASSES || errors.length != CLASSES) {
      throw new IllegalArgumentException("expected " + CLASSES + " classes");
    }
    for (double r : rates) {
      if (!(r > 0 && r < 0.5)) throw new IllegalArgumentException("indel error rate " + r + " is not in (0, 0.5)");
    }
    if (locusWeights.length != KINDS) throw new IllegalArgumentException("expected " + KINDS + " kinds of repeat");
    double[][] weights = new double[KINDS][];
    for (int k = 0; k < KINDS; k++) {
      weights[k] = locusWeights[k].clone();
      double sum = 0;
      for (double w : weights[k]) {
        if (!(w >= 0)) throw new IllegalArgumentException("locus weight " + w + " is negative");
        sum += w;
      }
      if (weights[k].length != LOCUS_MULTIPLIERS.length || Math.abs(sum - 1) > 1e-6) {
        throw new IllegalArgumentException("a kind's locus weights are one per multiplier, summing to 1");
      }
    }
    if (unitShares.length != CLASSES) throw new IllegalArgumentException("expected " + CLASSES + " classes of unit shares");
    double[][] shares = new double[CLASSES][];
    for (int c = 0; c < CLASSES; c++) {
      shares[c] = unitShares[c].clone();
      if (shares[c].length != MAX_UNITS + 1) throw new IllegalArgumentException("a class's unit shares are one per unit count 0.." + MAX_UNITS);
      for (double x : shares[c]) {
        if (!(x > 0 && x <= 1)) throw new IllegalArgumentException("unit share " + x + " is not in (0, 1]");
      }
    }
    rates = rates.clone();
    reads = reads.clone();
    errors = errors.clone();
    locusWeights = weights;
    unitShares = shares;
  }

  /** Rates with a spread of loci and a multi-unit slip as likely as a one-unit slip (as before {@link #unitShares}). */
  public IndelErrorRate(double[] rates, long[] reads, double[] errors, double[][] locusWeights) {
    this(rates, reads, errors, locusWeights, evenUnitShares());
  }

  /** Every class's multi-unit slips as likely as its one-unit slips. */
  static double[][] evenUnitShares() {
    double[][] s = new double[CLASSES][MAX_UNITS + 1];
    for (double[] c : s) Arrays.fill(c, 1);
    return s;
  }

  /**
   * The rate of a slip that makes an indel of {@code indelLength} bases in a tandem repeat of
   * {@code tract} bases with a unit of {@code unit}, against the class's rate (a one-unit slip's):
   * {@link #unitShares} for k = indelLength / unit units where that is 2 or more and whole; 1
   * otherwise (one unit, no repeat, or a length that is no whole number of units: no slip of the
   * repeat makes it, and the class's rate stands, as for any indel error there).
   */
  public double unitShare(int tract, int unit, int indelLength) {
    if (unit <= 0 || indelLength < 2 * unit || indelLength % unit != 0) return 1;
    return unitShares[classOf(tract, unit)][Math.min(MAX_UNITS, indelLength / unit)];
  }

  /** As {@link #ofReferenceReads(int, int)}, for an indel of {@code indelLength} bases: times its {@link #unitShare}. */
  public double ofReferenceReads(int tract, int unit, int indelLength) {
    return Math.max(MIN_REFERENCE_READ_RATE, rates[classOf(tract, unit)] * unitShare(tract, unit, indelLength));
  }

  /** Rates without a spread of loci: every locus at its class's rate. */
  public IndelErrorRate(double[] rates, long[] reads, double[] errors) {
    this(rates, reads, errors, noSpread());
  }

  private static double[][] noSpread() {
    double[][] w = new double[KINDS][LOCUS_MULTIPLIERS.length];
    for (double[] kind : w) kind[0] = 1;
    return w;
  }

  /** The kind of repeat of class {@code c} ({@link #KINDS}), or -1 for class 0 (no or a short repeat: no spread). */
  public static int kindOf(int c) {
    return c == 0 ? -1 : (c - 1) / (CLASS_FROM.length - 1);
  }

  /**
   * The share of loci of a tandem repeat of {@code tract} bases with a unit of {@code unit} that
   * slip at each of {@link #LOCUS_MULTIPLIERS} times their class's rate: {1, 0, ...} where the
   * sample fits no spread or the repeat is short.
   */
  public double[] locusWeights(int tract, int unit) {
    int kind = kindOf(classOf(tract, unit));
    return kind < 0 ? NO_SPREAD : locusWeights[kind];
  }

  private static final double[] NO_SPREAD = noSpread()[0];

  /**
   * The rates at a locus whose reads slip {@code multiple} times their class's rate, at most {@link
   * #MAX_LOCUS_RATE} (a class fitted above it keeps its rate); for their rates only (a multiple
   * other than 1 gives rates without a spread).
   */
  public IndelErrorRate atLocus(double multiple) {
    if (multiple == 1) return this;
    double[] r = new double[CLASSES];
    for (int c = 0; c < CLASSES; c++) r[c] = atLocus(rates[c], multiple);
    return new IndelErrorRate(r, reads, errors, noSpread(), unitShares);
  }

  /** A class's {@code rate} at a locus of {@code multiple} times it, at most {@link #MAX_LOCUS_RATE} unless it is more already. */
  static double atLocus(double rate, double multiple) {
    return Math.max(rate, Math.min(MAX_LOCUS_RATE, multiple * rate));
  }

  /** Nothing measured: {@link #FLOOR} in every class. */
  public static IndelErrorRate assumed() {
    double[] r = new double[CLASSES];
    Arrays.fill(r, FLOOR);
    return new IndelErrorRate(r, new long[CLASSES], new double[CLASSES]);
  }

  /**
   * The per-read error of an indel whose anchor is followed by a tandem repeat of {@code tract}
   * bases with a unit of {@code unit} bases.
   */
  public double at(int tract, int unit) {
    return Math.max(FLOOR, rates[classOf(tract, unit)]);
  }

  /**
   * The per-read rate at which a read of the reference shows an indel whose anchor is followed by a
   * tandem repeat of {@code tract} bases with a unit of {@code unit} bases: the fitted rate without
   * {@link #FLOOR}, which stands for what reads of an indel's allele do (an aligner leaves a read
   * that ends a few bases past it as reference; its inserted bases carry a base error), never
   * for a reference read growing an indel. At least {@link #MIN_REFERENCE_READ_RATE}.
   */
  public double ofReferenceReads(int tract, int unit) {
    return Math.max(MIN_REFERENCE_READ_RATE, rates[classOf(tract, unit)]);
  }

  /**
   * The lowest rate {@link #ofReferenceReads} gives: a mapping error at MAPQ 60 (a fitted rate is
   * above 0 anyway, its prior adding a few errors to millions of read columns).
   */
  public static final double MIN_REFERENCE_READ_RATE = 1e-6;

  /** The length class of a repeat of {@code tract} bases (an index into {@link #CLASS_FROM}). */
  public static int lengthClass(int tract) {
    int c = 0;
    while (c + 1 < CLASS_FROM.length && tract >= CLASS_FROM[c + 1]) c++;
    return c;
  }

  /** The class of a repeat of {@code tract} bases and a unit of {@code unit} ({@link #CLASSES}). */
  public static int classOf(int tract, int unit) {
    int c = lengthClass(tract);
    if (c == 0 || unit <= 1) return c;
    return unit == 2 ? c + CLASS_FROM.length - 1 : c + 2 * (CLASS_FROM.length - 1);
  }

  /**
   * Whether the sample's reads slip in a tandem repeat of {@code tract} bases with a unit of {@code
   * unit} more often than {@link #ENVELOPE}: the GQ map was fitted on no such reads, so an indel call
   * there gets GenotypeCombiner's stricter FILTER and capped GQ.
   */
  public boolean beyondEnvelope(int tract, int unit) {
    return rates[classOf(tract, unit)] > ENVELOPE;
  }

  /**
   * Whether the sample's reads slip within {@link #ENVELOPE} in every class: no repeat of the
   * sample is {@link #beyondEnvelope}, as in every off-band validation sample without PCR stutter
   * (and every development one: 150 BAMs within, each of the 100 with stutter beyond in some
   * class). The indel pileup's weight may differ between such samples and the others
   * ({@code postprocess.AlleleCountLikelihood.Weight#withinEnvelope}).
   */
  public boolean withinEnvelope() {
    for (double r : rates) if (r > ENVELOPE) return false;
    return true;
  }

  /** A sampled anchor column where some read shows an indel: its class, its reads and those showing its most common indel. */
  public record Column(int tractClass, int reads, int alts) {
    public Column {
      if (tractClass < 0 || tractClass >= CLASSES) throw new IllegalArgumentException("class " + tractClass);
      if (alts < 1 || alts > reads) throw new IllegalArgumentException(alts + " of " + reads + " reads");
    }
  }

  /**
   * The rates fitted to the sampled columns: {@code readsByClass} and {@code columnsByClass}, every
   * sampled column's reads and the columns, per class; {@code evidence}, the columns among them
   * where some read shows an indel.
   */
  public static IndelErrorRate estimate(List<Column> evidence, long[] readsByClass, long[] columnsByClass) {
    return estimate(evidence, readsByClass, columnsByClass, new long[CLASSES][MAX_UNITS + 1]);
  }

  /**
   * As {@link #estimate(List, long[], long[])}, with {@code slipsByUnits}: per class, the indel
   * errors sampled at index k, those of k whole units of the repeat after their anchor (k from 1;
   * {@link #MAX_UNITS} for that many or more), for {@link #unitShares}.
   */
  public static IndelErrorRate estimate(List<Column> evidence, long[] readsByClass, long[] columnsByClass,
      long[][] slipsByUnits) {
    int classes = CLASSES;
    if (slipsByUnits.length != classes) throw new IllegalArgumentException("classes");
    if (readsByClass.length != classes || columnsByClass.length != classes) throw new IllegalArgumentException("classes");
    double[] rates = new double[classes];
    double[] errors = new double[classes];
    double[] hets = new double[classes];
    double[] homAlts = new double[classes];
    for (int c = 0; c < classes; c++) {
      int tc = c;
      List<Column> cols = evidence.stream().filter(x -> x.tractClass() == tc).toList();
      long evidenceReads = 0;
      for (Column x : cols) evidenceReads += x.reads();
      if (evidenceReads > readsByClass[c] || cols.size() > columnsByClass[c]) {
        throw new IllegalArgumentException("class " + c + ": more evidence than sampled");
      }
      double rate = FLOOR;
      double het = HET_START;
      double homAlt = HOM_ALT_START;
      double expected = 0;
      long columns = Math.max(1, columnsByClass[c]);
      for (int round = 0; round < MAX_ROUNDS; round++) {
        double lr = Math.log(Math.max(1e-12, 1 - het - homAlt));
        double lh = Math.log(het);
        double lv = Math.log(homAlt);
        double le = Math.log(rate);
        double lc = Math.log1p(-rate);
        double errorsNow = 0;
        double refReads = readsByClass[c] - evidenceReads; // the columns without evidence, all hom-ref
        double sumHet = 0;
        double sumHomAlt = 0;
        for (Column x : cols) {
          int a = x.alts();
          int n = x.reads();
          double r = lr + a * le + (n - a) * lc;
          double h = lh + n * Math.log(0.5);
          double v = lv + a * lc + (n - a) * le;
          double max = Math.max(r, Math.max(h, v));
          double pr = Math.exp(r - max);
          double ph = Math.exp(h - max);
          double pv = Math.exp(v - max);
          double sum = pr + ph + pv;
          errorsNow += pr / sum * a;
          refReads += pr / sum * n;
          sumHet += ph / sum;
          sumHomAlt += pv / sum;
        }
        double next = (errorsNow + FLOOR * PRIOR_READS) / (refReads + PRIOR_READS);
        het = Math.max(1e-9, sumHet / columns);
        homAlt = Math.max(1e-9, sumHomAlt / columns);
        expected = errorsNow;
        boolean settled = Math.abs(next - rate) < TOLERANCE * rate;
        rate = Math.min(0.25, next);
        if (settled) break;
      }
      rates[c] = rate;
      errors[c] = expected;
      hets[c] = het;
      homAlts[c] = homAlt;
    }
    double[][] weights = new double[KINDS][];
    for (int kind = 0; kind < KINDS; kind++) {
      weights[kind] = locusSpread(kind, evidence, readsByClass, columnsByClass, rates, hets, homAlts);
    }
    return new IndelErrorRate(rates, readsByClass, errors, weights, unitShares(slipsByUnits));
  }

  /**
   * Per class, the rate of a slip of k units or more against one of one unit: the slips of k units
   * or more over those of one unit, with {@link #UNIT_PRIOR_SLIPS} pseudo-slips of one unit and
   * {@link #PRIOR_UNIT_SHARE}^(k-1) of them of k or more; at most 1.
   */
  static double[][] unitShares(long[][] slipsByUnits) {
    double[][] shares = new double[CLASSES][MAX_UNITS + 1];
    for (int c = 0; c < CLASSES; c++) {
      if (slipsByUnits[c].length != MAX_UNITS + 1) throw new IllegalArgumentException("units 0.." + MAX_UNITS);
      shares[c][0] = shares[c][1] = 1;
      double one = slipsByUnits[c][1] + UNIT_PRIOR_SLIPS;
      for (int k = 2; k <= MAX_UNITS; k++) {
        long more = 0;
        for (int j = k; j <= MAX_UNITS; j++) more += slipsByUnits[c][j];
        shares[c][k] = Math.min(1, (more + UNIT_PRIOR_SLIPS * Math.pow(PRIOR_UNIT_SHARE, k - 1)) / one);
      }
    }
    return shares;
  }

  /**
   * The share of a kind's loci at each of {@link #LOCUS_MULTIPLIERS} times their class's rate, by
   * expectation maximisation over its classes' anchor columns with their rates, het and hom-alt
   * shares held as fitted: a column's hom-ref part is split over the multiples, and the columns
   * without evidence count as hom-ref ones of their class's mean reads. {@link
   * #LOCUS_PRIOR_COLUMNS} columns at the class's rate stand behind it, so that a kind with few
   * columns keeps close to no spread.
   *
   * <p>It starts from (almost) no spread, {@link #SPREAD_START} at each multiple above 1, and runs
   * to convergence ({@link #SPREAD_TOLERANCE}, at most {@link #SPREAD_ROUNDS} rounds): where a
   * sample's reads hardly slip, the columns tell the multiples apart so little that each round
   * moves the shares by a hair, and 200 rounds from an even start left ART and wgsim samples
   * without stutter at 0.75-0.89 at 1x at 10-30x (0.97 at 60x), a spread they do not have
   * (wgsim writes no indel errors at all). A column's likelihood at each multiple does not change
   * from round to round, so columns of one class, depth and count of slipped reads are weighed
   * once, as one kind of column with its count.
   */
  private static double[] locusSpread(int kind, List<Column> evidence, long[] readsByClass, long[] columnsByClass,
      double[] rates, double[] hets, double[] homAlts) {
    int m = LOCUS_MULTIPLIERS.length;
    // each kind of column: its count, its log-likelihood at each multiple and as a variant's (het or hom-alt)
    java.util.Map<Column, Integer> kinds = new java.util.HashMap<>();
    long[] evidenceReads = new long[CLASSES];
    long[] evidenceColumns = new long[CLASSES];
    for (Column x : evidence) {
      if (kindOf(x.tractClass()) != kind) continue;
      kinds.merge(x, 1, Integer::sum);
      evidenceReads[x.tractClass()] += x.reads();
      evidenceColumns[x.tractClass()]++;
    }
    int types = kinds.size() + CLASSES;
    double[] count = new double[types];
    double[][] likelihood = new double[types][m + 1]; // relative to the column's best: [0, m) hom-ref at each multiple, [m] a variant's
    int t = 0;
    for (java.util.Map.Entry<Column, Integer> e : kinds.entrySet()) {
      Column x = e.getKey();
      int c = x.tractClass();
      double[] l = likelihood[t];
      for (int k = 0; k < m; k++) l[k] = x.alts() * Math.log(atLocus(rates[c], LOCUS_MULTIPLIERS[k]))
          + (x.reads() - x.alts()) * Math.log1p(-atLocus(rates[c], LOCUS_MULTIPLIERS[k]));
      double het = Math.log(hets[c]) + x.reads() * Math.log(0.5);
      double homAlt = Math.log(homAlts[c]) + x.alts() * Math.log1p(-rates[c]) + (x.reads() - x.alts()) * Math.log(rates[c]);
      l[m] = Math.max(het, homAlt) + Math.log1p(Math.exp(-Math.abs(het - homAlt)));
      toRelative(l);
      count[t++] = e.getValue();
    }
    for (int c = 0; c < CLASSES; c++, t++) {
      long quiet = kindOf(c) != kind ? 0 : columnsByClass[c] - evidenceColumns[c];
      if (quiet <= 0) continue; // count 0: weighs nothing
      double reads = (readsByClass[c] - evidenceReads[c]) / (double) quiet;
      double[] l = likelihood[t];
      for (int k = 0; k < m; k++) l[k] = reads * Math.log1p(-atLocus(rates[c], LOCUS_MULTIPLIERS[k]));
      l[m] = Double.NEGATIVE_INFINITY; // a column without evidence is hom-ref
      toRelative(l);
      count[t] = quiet;
    }
    double[] weights = new double[m];
    Arrays.fill(weights, SPREAD_START);
    weights[0] = 1 - SPREAD_START * (m - 1);
    double[] share = new double[m];
    for (int round = 0; round < SPREAD_ROUNDS; round++) {
      Arrays.fill(share, 0);
      share[0] = LOCUS_PRIOR_COLUMNS;
      for (int i = 0; i < types; i++) {
        if (count[i] == 0) continue;
        double[] l = likelihood[i];
        double sum = l[m];
        for (int k = 0; k < m; k++) sum += weights[k] * l[k];
        if (!(sum > 0)) continue; // only multiples whose share has run out explain it: it moves nothing
        for (int k = 0; k < m; k++) share[k] += count[i] * weights[k] * l[k] / sum;
      }
      double total = 0;
      for (double x : share) total += x;
      double change = 0;
      for (int k = 0; k < m; k++) {
        double next = share[k] / total;
        change = Math.max(change, Math.abs(next - weights[k]));
        weights[k] = next;
      }
      if (change < SPREAD_TOLERANCE) break;
    }
    return weights;
  }

  /** Log-likelihoods {@code l} in place to likelihoods relative to the largest (which becomes 1). */
  private static void toRelative(double[] l) {
    double max = Double.NEGATIVE_INFINITY;
    for (double x : l) max = Math.max(max, x);
    for (int i = 0; i < l.length; i++) l[i] = Math.exp(l[i] - max);
  }

  /** One line for the log: the fitted rate per class of repeat length, and the floor the caller keeps. */
  public String describe() {
    long total = Arrays.stream(reads).sum();
    if (total == 0) return String.format(Locale.ROOT, "%.2g per read (assumed: no reads sampled)", FLOOR);
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < CLASSES; c++) {
      if (c > 0) b.append(", ");
      b.append(String.format(Locale.ROOT, "%.2g (%s)", rates[c], label(c)));
    }
    b.append(String.format(Locale.ROOT, " per read, at least %.2g; fitted to %,d read columns", FLOOR, total));
    b.append("; loci at 1/2/4/8/16x their class's rate:");
    String[] kinds = {"homopolymers", "dinucleotide STRs", "longer units"};
    for (int k = 0; k < KINDS; k++) {
      b.append(k == 0 ? " " : ", ").append(kinds[k]);
      for (int i = 0; i < LOCUS_MULTIPLIERS.length; i++) {
        b.append(String.format(Locale.ROOT, i == 0 ? " %.2f" : "/%.2f", locusWeights[k][i]));
      }
    }
    b.append("; slips of 2+ units per slip of one:");
    for (int c = 0; c < CLASSES; c++) b.append(String.format(Locale.ROOT, c == 0 ? " %.2g" : "/%.2g", unitShares[c][2]));
    b.append("; beyond the GQ map's envelope (").append(ENVELOPE).append("):");
    boolean any = false;
    for (int c = 0; c < CLASSES; c++) {
      if (rates[c] <= ENVELOPE) continue;
      b.append(any ? ", " : " ").append(label(c));
      any = true;
    }
    if (!any) b.append(" no class");
    return b.toString();
  }

  /** A class's name for the log: "repeat 0-3 bp", "homopolymer 4-7 bp", "dinucleotide STR 8-11 bp", "STR 20+ bp". */
  static String label(int c) {
    int lengths = CLASS_FROM.length - 1; // the length classes after class 0
    int l = c == 0 ? 0 : (c - 1) % lengths + 1;
    String range = l + 1 < CLASS_FROM.length ? CLASS_FROM[l] + "-" + (CLASS_FROM[l + 1] - 1) : CLASS_FROM[l] + "+";
    String kind = c == 0 ? "repeat " : c <= lengths ? "homopolymer " : c <= 2 * lengths ? "dinucleotide STR " : "STR ";
    return kind + range + " bp";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndelErrorRate r && Arrays.equals(rates, r.rates) && Arrays.equals(reads, r.reads)
        && Arrays.equals(errors, r.errors) && Arrays.deepEquals(locusWeights, r.locusWeights)
        && Arrays.deepEquals(unitShares, r.unitShares);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * (31 * Arrays.hashCode(rates) + Arrays.hashCode(reads)) + Arrays.hashCode(errors))
        + Arrays.deepHashCode(locusWeights)) + Arrays.deepHashCode(unitShares);
  }

  @Override
  public String toString() {
    return "IndelErrorRate[" + describe() + "]";
  }
}
