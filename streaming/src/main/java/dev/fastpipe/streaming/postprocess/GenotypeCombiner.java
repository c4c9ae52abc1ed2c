package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.genome.HaploidRegions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Turns the examples of one site into one genotype call, the way DeepVariant's
 * postprocess_variants does:
 *
 * <ol>
 *   <li><b>Alt pruning</b> (multi-allelic sites): an alt whose single-alt example has
 *       QUAL = phred(1 - p(hom-ref)) below {@link #MULTI_ALLELIC_QUAL_FILTER} is dropped, unless
 *       every alt would be, in which case the best one stays.
 *   <li><b>Combination</b>: each example with alt subset S votes p(hom-ref) for genotype 0/0,
 *       p(het) for 0/s (s in S) and p(hom-alt) for s/t (s, t in S, including s = t). Each
 *       genotype of the retained alleles gets the <em>minimum</em> of its votes; the vector is
 *       normalised (uniform if all zero).
 *   <li><b>Qualities</b>: GT = most likely genotype (VCF order 00, 01, 11, 02, 12, 22, ...);
 *       GQ = round(phred(1 - p(GT))); QUAL = phred(1 - sum of non-ref genotype probabilities),
 *       i.e. -10 log10 p(0/0); both bounded at 100 (probabilities capped at 1 - 1e-10).
 *       PL = round(-10 log10(p(g) / p(GT))) with p floored at 1e-10.
 *   <li><b>Filters</b>: a hom-ref call is kept with FILTER {@code RefCall} (and GT ./. when its GQ
 *       is below {@code minHomRefGq}, DeepVariant's default 20); a variant call with QUAL below
 *       {@code minQual}, or with a (calibrated) GQ below its type's PASS threshold of the model's
 *       {@link GqCalibration}, or an indel call below GQ {@value #SLIPPED_MIN_PASS_GQ} (unless its
 *       variant is sure: {@link #SLIPPED_SURE_QUAL}) whose repeat the
 *       sample's reads slip in beyond the envelope ({@link CallResult#slipsBeyondEnvelope}; such a
 *       call's GQ, once its FILTER is set, is at most {@value #SLIPPED_MAX_GQ}), or with a GQ map
 *       an indel call below QUAL {@value #INDEL_MIN_PASS_QUAL}, gets
 *       {@code LowQual} (but a SNP whose variant is sure and whose
 *       genotype is a het/hom-alt toss on reads at most one of which shows the reference, or at
 *       least four times as many the alt as the reference, is written 1/1 and PASS: {@link
 *       #homAltToss}); everything else PASS.
 *   <li><b>Read counts</b> (where the model's calibration has them): the probabilities are
 *       re-weighted by the pileup's likelihoods (bi-allelic sites, multi-allelic sites of SNPs or of indels)
 *       or the allele depths' binomial likelihood ({@link AlleleCountLikelihood}) before GT, GQ,
 *       QUAL and PL are taken from them, at the type's weight for a sample whose good bases err at
 *       several times their qualities' promise ({@link CallResult#sampleQualitiesOverpromise}), else
 *       for one whose reads slip within the envelope in every repeat class or not ({@link
 *       CallResult#sampleWithinEnvelope}).
 *   <li><b>GQ calibration</b>: a variant call's GQ becomes the model's calibrated one
 *       ({@link GqCalibration}), its PLs scaled by the same factor.
 *   <li><b>Allele simplification</b>: after pruning, the common suffix of ref and alts is
 *       trimmed (keeping at least one base), e.g. ACT/A,GCT minus A becomes A/G.
 *   <li><b>Haploid regions</b> ({@link HaploidRegions}: a male's X and Y less their PARs): as
 *       DeepVariant's {@code --haploid_contigs}, the genotypes of two different alleles are
 *       impossible, so they are dropped and the rest normalised again
 *       ({@link #haploidProbabilities}); the site is then called with one allele (GT {@code 0},
 *       {@code 1}, {@code .}), GQ, QUAL and PL (one per allele) from those probabilities, with the
 *       same filters. The site's span after trimming decides: one that touches a PAR stays diploid.
 * </ol>
 */
public final class GenotypeCombiner {
  /** DeepVariant's --multi_allelic_qual_filter default. */
  public static final double MULTI_ALLELIC_QUAL_FILTER = 1.0;
  /** DeepVariant's --qual_filter default: variant calls below this QUAL are LowQual. */
  public static final double DEFAULT_MIN_QUAL = 1.0;
  /** DeepVariant's --cnn_homref_call_min_gq default: RefCalls below this GQ become ./. */
  public static final int DEFAULT_MIN_HOMREF_GQ = 20;

  private static final double MAX_CONFIDENCE = 1.0 - 1e-10;
  private static final double MIN_PROBABILITY = 1e-10;

  private final double minQual;
  private final int minHomRefGq;
  private final HaploidRegions haploid;
  private final GqCalibration calibration;

  public GenotypeCombiner() {
    this(DEFAULT_MIN_QUAL, DEFAULT_MIN_HOMREF_GQ);
  }

  public GenotypeCombiner(double minQual, int minHomRefGq) {
    this(minQual, minHomRefGq, HaploidRegions.none(), GqCalibration.IDENTITY);
  }

  /** A combiner that calls the sites of {@code haploid}'s regions with one allele. */
  public GenotypeCombiner(double minQual, int minHomRefGq, HaploidRegions haploid) {
    this(minQual, minHomRefGq, haploid, GqCalibration.IDENTITY);
  }

  /**
   * @param haploid regions whose sites are called with one allele
   * @param calibration the model's GQ calibration: a variant call's GQ (and PLs, scaled alike) is
   *     the calibrated one, and a variant call below its type's PASS threshold is LowQual
   */
  public GenotypeCombiner(double minQual, int minHomRefGq, HaploidRegions haploid, GqCalibration calibration) {
    this.minQual = minQual;
    this.minHomRefGq = minHomRefGq;
    this.haploid = haploid;
    this.calibration = calibration;
  }

  public double minQual() {
    return minQual;
  }

  /** phred(1 - ptrue), with ptrue capped at 1 - 1e-10 (so at most 100). */
  public static double boundedPhred(double ptrue) {
    return -10.0 * Math.log10(1.0 - Math.min(ptrue, MAX_CONFIDENCE));
  }

  /** Index of genotype a/b (a <= b) in VCF order. */
  public static int genotypeIndex(int a, int b) {
    if (a > b) return genotypeIndex(b, a);
    return b * (b + 1) / 2 + a;
  }

  /** Combines the examples of one site (same contig, position, ref and alts) into a call. */
  public GenotypeCall combine(List<CallResult> examples) {
    if (examples.isEmpty()) throw new IllegalArgumentException("no examples for the site");
    CallResult first = examples.get(0);
    List<String> alts = first.alts();
    int n = alts.size();

    boolean[] seen = new boolean[n];
    for (CallResult r : examples) for (int i : r.altSubset()) seen[i] = true;
    float[] siteLikelihoods = siteLikelihoods(examples);
    boolean[] removed = prunedAlts(examples, n, siteLikelihoods);

    // Retained alts, in the site's order; newIndex[i] = allele index (1-based) or -1.
    int[] newIndex = new int[n];
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (seen[i] && !removed[i]) {
        kept.add(alts.get(i));
        newIndex[i] = kept.size();
      } else {
        newIndex[i] = -1;
      }
    }
    int alleles = kept.size() + 1;
    int genotypes = alleles * (alleles + 1) / 2;
    double[] min = new double[genotypes];
    Arrays.fill(min, Double.POSITIVE_INFINITY);
    for (CallResult r : examples) {
      int[] t = new int[r.altSubset().length];
      boolean usable = true;
      for (int k = 0; k < t.length; k++) {
        t[k] = newIndex[r.altSubset()[k]];
        if (t[k] < 0) usable = false;
      }
      if (!usable) continue;
      float[] p = r.probabilities();
      vote(min, 0, 0, p[0]);
      for (int s : t) vote(min, 0, s, p[1]);
      for (int s : t) for (int u : t) vote(min, s, u, p[2]);
    }
    double[] probs = new double[genotypes];
    double sum = 0;
    for (int g = 0; g < genotypes; g++) {
      probs[g] = Double.isInfinite(min[g]) ? 0.0 : Math.max(0.0, min[g]);
      sum += probs[g];
    }
    if (sum == 0) {
      Arrays.fill(probs, 1.0 / genotypes);
    } else {
      for (int g = 0; g < genotypes; g++) probs[g] /= sum;
    }

    int[] ad = new int[0];
    for (CallResult r : examples) {
      if (r.alleleDepths() != null && r.alleleDepths().length == n + 1) {
        ad = new int[alleles];
        ad[0] = r.alleleDepths()[0];
        for (int i = 0; i < n; i++) if (newIndex[i] > 0) ad[newIndex[i]] = r.alleleDepths()[i + 1];
        break;
      }
    }

    // The reads' second opinion, where the model's calibration has one: the pileup's likelihoods of
    // the retained alleles' genotypes (or the allele depths).
    int[] original = new int[alleles]; // retained allele index -> the site's allele index
    for (int i = 0; i < n; i++) if (newIndex[i] > 0) original[newIndex[i]] = i + 1;
    float[] pileup = restricted(siteLikelihoods, original);
    boolean within = everyExample(examples, CallResult::sampleWithinEnvelope);
    boolean overpromise = everyExample(examples, CallResult::sampleQualitiesOverpromise);
    if (alleles == 2 && ad.length == 2) {
      probs = calibration.counts().apply(isSnp(first.ref(), kept), probs, ad[0], ad[1], pileup, within, overpromise);
    } else if (alleles > 2) {
      probs = calibration.counts().applyMultiAllelic(first.ref(), kept, probs, pileup, within, overpromise);
    }

    // Trim the common suffix of ref and retained alts (at least one base stays in each).
    String ref = first.ref();
    List<String> outAlts = new ArrayList<>(kept);
    int trim = 0;
    while (true) {
      int len = ref.length() - trim;
      if (len <= 1) break;
      char c = ref.charAt(len - 1);
      boolean all = true;
      for (String a : outAlts) {
        int al = a.length() - trim;
        if (al <= 1 || a.charAt(al - 1) != c) {
          all = false;
          break;
        }
      }
      if (!all) break;
      trim++;
    }
    if (trim > 0) {
      ref = ref.substring(0, ref.length() - trim);
      for (int i = 0; i < outAlts.size(); i++) {
        String a = outAlts.get(i);
        outAlts.set(i, a.substring(0, a.length() - trim));
      }
    }
    boolean oneCopy = haploid.isHaploid(first.contigIndex(), first.position(), first.position() + ref.length());
    boolean slips = false;
    for (CallResult r : examples) slips |= r.slipsBeyondEnvelope();
    return call(first, ref, List.copyOf(outAlts), oneCopy ? haploidProbabilities(probs, alleles) : probs, oneCopy, ad,
        slips);
  }

  /**
   * Whether the site has examples and every one says {@code flag} of its sample: that its reads slip
   * within the envelope in every repeat class ({@link CallResult#sampleWithinEnvelope}), or that its
   * good bases err at several times their qualities' promise ({@link CallResult#sampleQualitiesOverpromise}).
   */
  private static boolean everyExample(List<CallResult> examples, Predicate<CallResult> flag) {
    for (CallResult r : examples) if (!flag.test(r)) return false;
    return !examples.isEmpty();
  }

  /** The site's pileup likelihoods over all its alleles, which one of its examples carries; null if none does. */
  private static float[] siteLikelihoods(List<CallResult> examples) {
    for (CallResult r : examples) if (r.pileupLikelihoods() != null) return r.pileupLikelihoods();
    return null;
  }

  /**
   * The site's likelihoods {@code all} restricted to the genotypes of the alleles {@code original}
   * (indices into the site's alleles, 0 first), VCF order, largest 0; null when {@code all} is, or
   * leaves one of them unmeasured (NaN: a genotype with an indel allele at a site whose likelihoods
   * cover its SNP alts only). A
   * dropped alt's reads are wrong reads under every remaining genotype alike, so dropping its
   * genotypes leaves the others' likelihoods as they are.
   */
  static float[] restricted(float[] all, int[] original) {
    if (all == null) return null;
    int alleles = original.length;
    float[] kept = new float[alleles * (alleles + 1) / 2];
    float max = Float.NEGATIVE_INFINITY;
    for (int b = 0; b < alleles; b++) {
      for (int a = 0; a <= b; a++) {
        float v = all[genotypeIndex(original[a], original[b])];
        if (Float.isNaN(v)) return null;
        kept[genotypeIndex(a, b)] = v;
        max = Math.max(max, v);
      }
    }
    for (int g = 0; g < kept.length; g++) kept[g] -= max;
    return kept;
  }

  /**
   * The site's likelihoods {@code all} (VCF order over {@code alleles} alleles) as a bi-allelic
   * site's of allele {@code k} against whatever else the reads show: {no copy of k, one, two}, each
   * the likeliest genotype with that many copies, largest 0; unmeasured genotypes (NaN) aside, null
   * where k's are all unmeasured. Against the reference alone (the genotypes of the reference and k
   * only), the reads of a third allele are errors under each alike, and three stutter reads of an
   * insertion beside one reference read look a het, though the site's 28 other reads are a 1/2 of two
   * SNPs (blind54's T>A,C in a (TTTC)n STR); where the other alts have no reads, it is the same.
   * Validation: the stutter alts of 1/1 STR indels pruned, 1/2 GQ 3 calls become 1/1 (indels
   * 4,487 / 51 / 163 -> 4,490 / 47 / 160).
   */
  static float[] profiled(float[] all, int alleles, int k) {
    if (all == null) return null;
    float[] best = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
    for (int b = 0; b < alleles; b++) {
      for (int a = 0; a <= b; a++) {
        float v = all[genotypeIndex(a, b)];
        int copies = (a == k ? 1 : 0) + (b == k ? 1 : 0);
        if (!Float.isNaN(v)) best[copies] = Math.max(best[copies], v);
      }
    }
    if (best[1] == Float.NEGATIVE_INFINITY || best[2] == Float.NEGATIVE_INFINITY) return null;
    float max = Math.max(best[0], Math.max(best[1], best[2]));
    for (int c = 0; c < 3; c++) best[c] -= max;
    return best;
  }

  /**
   * DeepVariant's correction for haploid regions: every genotype with two different alleles gets
   * probability 0 and the rest are normalised again (uniform if nothing is left), so p(k) is
   * p(k/k) / sum over j of p(j/j). Returns one probability per allele (0 = ref).
   */
  public static double[] haploidProbabilities(double[] diploid, int alleles) {
    if (diploid.length != alleles * (alleles + 1) / 2) {
      throw new IllegalArgumentException(diploid.length + " genotype probabilities for " + alleles + " alleles");
    }
    double[] p = new double[alleles];
    double sum = 0;
    for (int k = 0; k < alleles; k++) {
      p[k] = diploid[genotypeIndex(k, k)];
      sum += p[k];
    }
    for (int k = 0; k < alleles; k++) p[k] = sum > 0 ? p[k] / sum : 1.0 / alleles;
    return p;
  }

  /**
   * GT, GQ, QUAL, PL and FILTER from the genotype probabilities {@code probs}: diploid ones in VCF
   * order, or with {@code haploid} one per allele (GT then has one allele).
   */
  private GenotypeCall call(CallResult first, String ref, List<String> alts, double[] probs, boolean haploid, int[] ad,
      boolean slips) {
    int genotypes = probs.length;
    int best = 0;
    for (int g = 1; g < genotypes; g++) if (probs[g] > probs[best]) best = g;
    int[] gt = haploid ? new int[] {best} : genotypeAt(best);
    int gq = (int) Math.round(boundedPhred(probs[best]));
    double nonRef = 0;
    for (int g = 1; g < genotypes; g++) nonRef += probs[g];
    double qual = boundedPhred(Math.min(nonRef, 1.0));
    int[] pl = new int[genotypes];
    double bestLog = Math.log10(Math.max(probs[best], MIN_PROBABILITY));
    for (int g = 0; g < genotypes; g++) {
      pl[g] = (int) Math.round(-10.0 * (Math.log10(Math.max(probs[g], MIN_PROBABILITY)) - bestLog));
    }

    String filter;
    if (best == 0) {
      filter = GenotypeCall.REF_CALL;
      if (gq < minHomRefGq) gt = haploid ? new int[] {-1} : new int[] {-1, -1};
    } else {
      boolean snp = isSnp(ref, alts);
      boolean beyond = slips && !snp && calibration.mapsGq();
      int calibrated = calibratedGq(snp, gq);
      if (calibrated < gq) { // the validation calls vouch for less than the model claims: its PLs shrink alike
        scale(pl, calibrated / (double) gq);
        gq = calibrated;
      }
      boolean sureVariant = qual >= SLIPPED_SURE_QUAL && gq >= SLIPPED_SURE_MIN_GQ;
      boolean pass = qual >= minQual && gq >= calibration.minPassGq(snp)
          && !(beyond && gq < SLIPPED_MIN_PASS_GQ && !sureVariant)
          && !(!snp && calibration.mapsGq() && qual < INDEL_MIN_PASS_QUAL);
      if (beyond && gq > SLIPPED_MAX_GQ) { // PASS as its GQ decided; the GQ what such calls earn
        scale(pl, SLIPPED_MAX_GQ / (double) gq);
        gq = SLIPPED_MAX_GQ;
      }
      if (!pass && qual >= minQual && homAltToss(snp, alts, gt, ad, qual)) {
        gt = new int[] {1, 1};
        gq = calibratedGq(snp, (int) Math.round(boundedPhred(probs[genotypeIndex(1, 1)])));
        pass = true;
      }
      filter = pass ? GenotypeCall.PASS : GenotypeCall.LOW_QUAL;
    }
    return new GenotypeCall(first.contigIndex(), first.position(), ref, alts, gt, probs, qual, gq, pl, filter,
        first.depth(), ad);
  }

  /**
   * A bi-allelic SNP whose variant is sure (QUAL at least {@value #TOSS_MIN_QUAL}) but whose
   * genotype, below the GQ threshold, is a toss between het and hom-alt, on reads at most one of
   * which shows the reference (and more the alt), or at least {@value #TOSS_ALT_PER_REF} times as
   * many the alt as the reference: such a call is written 1/1 and PASS, its GQ that of 1/1 (the
   * probabilities and PLs stay the network's). Measured before building on the
   * 51 off-band validation BAMs: 33 such calls (all LowQual, so missed), 18 hom-alt and 15 het,
   * none false; a LowQual call is a missed variant, and writing a toss hom-alt gains F1 whenever
   * hom-alt is right more than about half the time (SNPs 30,742 / 242 / 965 -> 30,760 / 257 / 947).
   * On blind26 and blind27, development data since they were scored, such calls were hom-alt 25
   * times and het 8. (The first form of this rule, c30b556, took only calls the network makes 1/1
   * without a reference read; below QUAL 10 the three such calls of then were all wrong.)
   *
   * <p>With two reference reads or more (after blind82): a het shows the reference in half its
   * reads, so at most one in five (AD 2,8 or 2,11) is a het's only at odds of 1 in 18 to 90, while
   * in a repeat the reads that slipped or were laid without a gap show the reference beside a
   * hom-alt as often as the network's toss says. On the stutter profiles of blind78-82 (50 BAMs at
   * 10-60x, development data since they were scored) the five such calls (AD 2,8 to 4,16, QUAL
   * 100, LowQual at GQ 1-2, so missed) were all hom-alt, where bcftools called them; the 83
   * off-band validation BAMs have none. blind83, scored on it, had one: a het on AD 2,14 (dwgsim
   * 20x), now a wrong genotype where it was a missed call.
   */
  static boolean homAltToss(boolean snp, List<String> alts, int[] gt, int[] ad, double qual) {
    return snp && alts.size() == 1 && gt.length == 2 && gt[1] == 1
        && ad.length >= 2 && (ad[0] <= 1 ? ad[1] > ad[0] : ad[1] >= TOSS_ALT_PER_REF * ad[0])
        && qual >= TOSS_MIN_QUAL;
  }

  /** {@link #homAltToss}'s share of alt reads where two or more show the reference: this many per reference read. */
  static final int TOSS_ALT_PER_REF = 4;

  /** A raw GQ as the model's calibration vouches for it, never above the model's own. */
  private int calibratedGq(boolean snp, int raw) {
    return Math.min(raw, calibration.gq(snp, raw));
  }

  /**
   * The lowest GQ at which an indel call whose repeat the sample's reads slip in beyond the envelope
   * ({@link CallResult#slipsBeyondEnvelope}) is PASS: the GQ map was fitted on samples whose reads
   * slip less, and on the stutter validation sample (F2521, its reads slipping at 0.06-0.07 a read in
   * homopolymers and dinucleotide repeats of 8-11 bases) the indel calls below GQ 10 were 89 to 92 %
   * false at 10-30x, those from GQ 10 on 81 to 93 % right. GQ 10 is where the map's promise starts
   * (one error in ten). Without a GQ map (--no-gq-calibration) the rule is off, as the map's own
   * thresholds are.
   */
  static final int SLIPPED_MIN_PASS_GQ = 10;

  /**
   * The QUAL from which such an indel call below GQ {@value #SLIPPED_MIN_PASS_GQ} is PASS all the
   * same, where its genotype is at least as likely right as not (GQ {@value #SLIPPED_SURE_MIN_GQ}
   * or more): its variant is sure (hom-ref at most 10^-4) and only which genotype is in doubt (het
   * against hom-alt, or another allele), as where four reads of 23 without a hom-alt insertion are
   * the alt's own stutter or a het's other allele. The scorer counts a wrong genotype as one false
   * call and one missed, a LowQual call as one missed, so writing a genotype right at least half the
   * time costs no more than leaving the variant out; its GQ stays capped at {@value
   * #SLIPPED_MAX_GQ}, in the bin that promises nothing. Measured on the calls as written (such
   * LowQual calls made PASS): blind59/60/62/63's stutter profiles (40 BAMs, development data) 468
   * indel errors, 456 from QUAL 20, 437 from 30, 431 from 40, 433 from 50, 443 from 60, 460 from 90;
   * from QUAL 40, 427 with the GQ bound (without it, two tri-allelic toss sites of a SNP and an
   * indel alt at GQ 2 wrote their false SNP); the 51 validation BAMs 207, 208 from QUAL 30 to 50,
   * 210 with the bound.
   */
  static final double SLIPPED_SURE_QUAL = 40;

  /** GQ 3: the genotype's error at most one half, as {@link #SLIPPED_SURE_QUAL} asks. */
  static final int SLIPPED_SURE_MIN_GQ = 3;

  /**
   * The highest GQ an indel call whose repeat the sample's reads slip in beyond the envelope is
   * given (its PLs shrink by the same factor; whether it is PASS its GQ before this cap decided):
   * the map vouches for GQ 10 and up only on reads that slip as its samples' did. With a cap of 19
   * (ee3ec11) blind50's stutter cells (a scored matrix, development data) put the pooled indel GQ
   * 10-19 bin at 43 of 325 wrong (0.132 against its promise of 0.1), and the stutter validation
   * sample's indel calls at GQ 10-19 were 14 % wrong (7 of 51, with 06147ac); GQ 9 and below
   * promises nothing such calls miss.
   */
  static final int SLIPPED_MAX_GQ = 9;

  /**
   * The QUAL below which an indel call is LowQual where the model's GQ map is in use (it and its
   * thresholds off with --no-gq-calibration), whatever its GQ (the indel PASS threshold is GQ 0):
   * at QUAL 5 hom-ref is still 0.32 likely, so the variant is at most about two in three and its
   * genotype less; a call wrong half the time costs a false call (two with a wrong genotype) for
   * each missed one it saves. Measured on the calls as written (such PASS calls made LowQual): the
   * 83 off-band validation BAMs' PASS indels below QUAL 5 were right 4 times and wrong 4 (indel
   * errors 401 either way; 16 right and 11 wrong below QUAL 10, which a threshold of 10 would have
   * cost), blind78-82's stutter profiles (50 BAMs, development data since they were scored) 1 and
   * 14 (479 -> 466 errors), blind83's model calls (after its scoring) 6 fewer errors, one of them
   * its Mason 15x cell's false CT>C on 2 reads of 20 at QUAL 3.
   */
  static final double INDEL_MIN_PASS_QUAL = 5;

  /** {@code pl} times {@code f}, rounded, in place. */
  private static void scale(int[] pl, double f) {
    for (int g = 0; g < pl.length; g++) pl[g] = (int) Math.round(pl[g] * f);
  }

  /** {@link #homAltToss}'s QUAL floor. */
  static final double TOSS_MIN_QUAL = 10.0;

  /** SNP (or MNP) for calibration: every allele as long as the reference one; else indel. */
  public static boolean isSnp(String ref, List<String> alts) {
    for (String a : alts) if (a.length() != ref.length()) return false;
    return true;
  }

  private static void vote(double[] min, int a, int b, double p) {
    int g = genotypeIndex(a, b);
    if (p < min[g]) min[g] = p;
  }

  private static int[] genotypeAt(int index) {
    for (int b = 0; ; b++) {
      for (int a = 0; a <= b; a++) {
        if (genotypeIndex(a, b) == index) return new int[] {a, b};
      }
    }
  }

  /**
   * Alts whose single-alt example has QUAL < 1; never all of them (the best one stays). Where the
   * site has pileup likelihoods, an example's probabilities are first weighed with them as a
   * bi-allelic site's would be ({@link AlleleCountLikelihood}), the alt against the best of the
   * others ({@link #profiled}): the network, shown one alt at a time, leaves the weaker alt of a 1/2
   * site at hom-ref, and pruning it would make the site 1/1.
   */
  private boolean[] prunedAlts(List<CallResult> examples, int n, float[] siteLikelihoods) {
    boolean[] removed = new boolean[n];
    if (examples.size() < 2) return removed;
    int singles = 0;
    int removedCount = 0;
    double bestQual = -1;
    int bestAlt = -1;
    for (CallResult r : examples) {
      if (r.altSubset().length != 1) continue;
      singles++;
      int alt = r.altSubset()[0];
      float[] p = r.probabilities();
      double pVariant = p[1] + p[2];
      if (siteLikelihoods != null) {
        boolean snp = isSnp(r.ref(), List.of(r.alts().get(alt)));
        double[] weighed = calibration.counts().apply(snp, new double[] {p[0], p[1], p[2]}, -1, -1,
            profiled(siteLikelihoods, n + 1, alt + 1), r.sampleWithinEnvelope(), r.sampleQualitiesOverpromise());
        pVariant = weighed[1] + weighed[2];
      }
      double q = boundedPhred(Math.min(pVariant, 1.0));
      if (q > bestQual) {
        bestQual = q;
        bestAlt = alt;
      }
      if (q < MULTI_ALLELIC_QUAL_FILTER && !removed[alt]) {
        removed[alt] = true;
        removedCount++;
      }
    }
    if (singles > 0 && removedCount == countSingleAlts(examples)) removed[bestAlt] = false;
    return removed;
  }

  private static int countSingleAlts(List<CallResult> examples) {
    java.util.BitSet s = new java.util.BitSet();
    for (CallResult r : examples) if (r.altSubset().length == 1) s.set(r.altSubset()[0]);
    return s.cardinality();
  }
}
