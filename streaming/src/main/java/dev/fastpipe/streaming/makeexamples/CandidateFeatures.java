package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.genome.TandemRepeat;
import dev.fastpipe.streaming.pileup.PileupLikelihood;
import htsjdk.samtools.AlignmentBlock;
import htsjdk.samtools.SAMRecord;
import java.util.List;

/**
 * The summary features of one bi-allelic candidate that the small model classifies: a fixed
 * vector of {@link #COUNT} floats, computed from the candidate, the partition's reads and the
 * reference, into a caller's array (no allocation per read or per candidate). Index, name and
 * meaning, in order (names as {@link #NAMES} spells them; they go into the small model's JSON):
 *
 * <pre>
 *   idx  name                  meaning
 *   ---  --------------------  ---------------------------------------------------------------
 *    0   depth                 reads counted at the site (the record's DP)
 *    1   ref_count             reads supporting the ref allele (AD[0])
 *    2   alt_count             reads supporting the (first) alt allele (AD[1])
 *    3   other_count           depth - ref_count - alt_count (other alleles, floored at 0)
 *    4   ref_fraction          ref_count / depth (0 without depth)
 *    5   alt_fraction          alt_count / depth
 *    6   other_fraction        other_count / depth
 *    7   alt_mean_bq           mean base quality of alt reads at the site
 *    8   alt_mean_mq           mean mapping quality of alt reads
 *    9   ref_mean_bq           mean base quality of the other reads with a base aligned at the site
 *   10   ref_mean_mq           mean mapping quality of those reads
 *   11   alt_forward_fraction  alt reads on the forward strand / alt reads (0.5 without any)
 *   12   alt_strand_imbalance  |forward - reverse| / alt reads among alt reads
 *   13   ref_forward_fraction  forward-strand share of the other reads at the site (0.5 without)
 *   14   alt_low_mq_fraction   alt reads with MQ < 20 / alt reads
 *   15   nearest_candidate     distance in bp to the nearest other candidate, in this partition
 *                              or beyond its edges (capped at {@link #DISTANCE_CAP}; the cap
 *                              when there is none); see {@link MakeExamples} for how the
 *                              neighbours across an edge are found
 *   16   homopolymer_length    longest run of one base in the reference touching the site
 *                              (position or the base after it)
 *   17   str_length            longest tandem repeat (unit 1..6 bp, at least two copies)
 *                              starting just after the site's first base, in bp (0: none)
 *   18   indel_length          len(alt) - len(ref) of the minimal alleles (0 for SNPs)
 *   19   is_snp                1 for a SNP, else 0
 *   20   is_insertion          1 for an insertion, else 0
 *   21   is_deletion           1 for a deletion, else 0
 * </pre>
 *
 * "Alt reads" are the candidate's supporting reads of its first alt; base qualities are taken at
 * the candidate's position (the anchor base for indels). Context lengths are capped at
 * {@link #CONTEXT_CAP}. Features depend only on the reads and reference around the candidate, not
 * on where partitions fall, like everything else make_examples emits.
 */
public final class CandidateFeatures {
  public static final List<String> NAMES = List.of(
      "depth", "ref_count", "alt_count", "other_count", "ref_fraction", "alt_fraction", "other_fraction",
      "alt_mean_bq", "alt_mean_mq", "ref_mean_bq", "ref_mean_mq", "alt_forward_fraction", "alt_strand_imbalance",
      "ref_forward_fraction", "alt_low_mq_fraction", "nearest_candidate", "homopolymer_length", "str_length",
      "indel_length", "is_snp", "is_insertion", "is_deletion");
  public static final int COUNT = NAMES.size();
  /** Index of {@code is_snp}: the small model's thresholds are per type (SNP or indel). */
  public static final int IS_SNP = NAMES.indexOf("is_snp");
  /**
   * Neighbours farther than this do not count. At most the reads' padding around a partition
   * ({@link MakeExamples}), so that the candidates within the cap beyond a partition's edge can be
   * found from the reads the partition already holds.
   */
  public static final int DISTANCE_CAP = 100;
  public static final int CONTEXT_CAP = 50;
  static final int LOW_MQ = 20;

  /** Per-read marks (alt supporter of the current candidate), stamped so they need no clearing. */
  private static final int[] NONE = new int[0];
  private int[] mark = new int[1024];
  private int stamp;
  /** Reads over the last candidate's position that delete its base ({@link #deletingReads}). */
  private int deleting;

  /**
   * Writes candidate {@code c}'s features into {@code into} (length >= {@link #COUNT}).
   *
   * @param reads the partition's reads, as indexed by {@code c.supportingReads}
   * @param overlapping indices into {@code reads} of (at least) every read whose alignment covers
   *     the candidate's position, {@code overlappingCount} of them; others are skipped
   * @param ref reference bases from {@code refStart} (0-based), covering the candidate with margin
   * @param nearestCandidate distance to the nearest other candidate, capped at {@link #DISTANCE_CAP}
   */
  public float[] compute(Candidate c, List<SAMRecord> reads, int[] overlapping, int overlappingCount, byte[] ref,
      int refStart, int nearestCandidate, float[] into) {
    if (mark.length < reads.size()) mark = new int[Math.max(reads.size(), 2 * mark.length)];
    if (++stamp == 0) {
      java.util.Arrays.fill(mark, 0);
      stamp = 1;
    }
    int depth = c.depth;
    int refCount = c.alleleDepths[0];
    int altCount = c.alleleDepths.length > 1 ? c.alleleDepths[1] : 0;
    int other = Math.max(0, depth - refCount - altCount);
    float inv = depth > 0 ? 1f / depth : 0f;
    into[0] = depth;
    into[1] = refCount;
    into[2] = altCount;
    into[3] = other;
    into[4] = refCount * inv;
    into[5] = altCount * inv;
    into[6] = other * inv;

    int pos = c.position;
    long altBq = 0, altMq = 0;
    int altN = 0, altFwd = 0, altLowMq = 0;
    int[] supporting = c.supportingReads.length > 0 ? c.supportingReads[0] : NONE;
    for (int r : supporting) {
      mark[r] = stamp;
      SAMRecord read = reads.get(r);
      int bq = baseQualityAt(read, pos);
      altBq += Math.max(bq, 0);
      altMq += read.getMappingQuality();
      if (!read.getReadNegativeStrandFlag()) altFwd++;
      if (read.getMappingQuality() < LOW_MQ) altLowMq++;
      altN++;
    }
    long refBq = 0, refMq = 0;
    int refN = 0, refFwd = 0;
    deleting = 0;
    for (int k = 0; k < overlappingCount; k++) {
      int i = overlapping[k];
      SAMRecord read = reads.get(i);
      if (mark[i] == stamp || read.getAlignmentStart() - 1 > pos || read.getAlignmentEnd() - 1 < pos) continue;
      int bq = baseQualityAt(read, pos);
      if (bq < 0) {
        deleting++; // aligned over the position without a base there: a deletion (or an N skip) takes it
        continue;
      }
      refBq += bq;
      refMq += read.getMappingQuality();
      if (!read.getReadNegativeStrandFlag()) refFwd++;
      refN++;
    }
    into[7] = altN > 0 ? (float) altBq / altN : 0f;
    into[8] = altN > 0 ? (float) altMq / altN : 0f;
    into[9] = refN > 0 ? (float) refBq / refN : 0f;
    into[10] = refN > 0 ? (float) refMq / refN : 0f;
    into[11] = altN > 0 ? (float) altFwd / altN : 0.5f;
    into[12] = altN > 0 ? (float) Math.abs(2 * altFwd - altN) / altN : 0f;
    into[13] = refN > 0 ? (float) refFwd / refN : 0.5f;
    into[14] = altN > 0 ? (float) altLowMq / altN : 0f;
    into[15] = Math.min(nearestCandidate, DISTANCE_CAP);
    int local = pos - refStart;
    into[16] = Math.max(homopolymer(ref, local), homopolymer(ref, local + 1));
    into[17] = tandemRepeat(ref, local + 1);
    String mRef = c.minimalRef[0];
    String mAlt = c.minimalAlt[0];
    int indel = mAlt.length() - mRef.length();
    boolean snp = c.isSnp(0);
    into[18] = indel;
    into[19] = snp ? 1 : 0;
    into[20] = !snp && indel > 0 ? 1 : 0;
    into[21] = !snp && indel < 0 ? 1 : 0;
    return into;
  }

  /**
   * The reads whose alignment spans the last {@link #compute}d candidate's position without a base
   * there (a deletion takes it): no feature shows them (depth and counts are of the reads with a base),
   * so the small model, which reads the features only, leaves a candidate with
   * {@link PileupLikelihood#SHARED_INDEL_ROWS} of them or more (a variant's deletion) to the network.
   */
  public int deletingReads() {
    return deleting;
  }

  /** Distance to the nearest other candidate of the list (by start) within it, capped. */
  static int nearestCandidate(List<Candidate> candidates, int at) {
    int pos = candidates.get(at).position;
    int d = DISTANCE_CAP;
    if (at > 0) d = Math.min(d, pos - candidates.get(at - 1).position);
    if (at + 1 < candidates.size()) d = Math.min(d, candidates.get(at + 1).position - pos);
    return d;
  }

  /** Length of the run of identical bases in {@code ref} that contains index {@code i} (0 outside), capped. */
  static int homopolymer(byte[] ref, int i) {
    if (i < 0 || i >= ref.length) return 0;
    byte b = upper(ref[i]);
    int from = i;
    int to = i + 1;
    while (from > 0 && upper(ref[from - 1]) == b && to - from < CONTEXT_CAP) from--;
    while (to < ref.length && upper(ref[to]) == b && to - from < CONTEXT_CAP) to++;
    return to - from;
  }

  /** The longest tandem repeat starting at {@code ref[i]} ({@link TandemRepeat#length}), capped. */
  static int tandemRepeat(byte[] ref, int i) {
    return TandemRepeat.length(ref, i, CONTEXT_CAP);
  }

  private static byte upper(byte b) {
    return (byte) (b & 0xDF);
  }

  /** The base quality of the read's base aligned at 0-based reference position {@code pos}, or -1 (none: deleted, clipped, outside). */
  static int baseQualityAt(SAMRecord read, int pos) {
    byte[] quals = read.getBaseQualities();
    List<AlignmentBlock> blocks = read.getAlignmentBlocks();
    int refPos1 = pos + 1;
    for (int b = 0, n = blocks.size(); b < n; b++) {
      AlignmentBlock block = blocks.get(b);
      int start = block.getReferenceStart();
      if (refPos1 < start) return -1;
      if (refPos1 < start + block.getLength()) {
        int readIndex = block.getReadStart() - 1 + refPos1 - start;
        return readIndex < quals.length ? quals[readIndex] : 30; // no qualities stored ("*"): take Q30
      }
    }
    return -1;
  }
}
