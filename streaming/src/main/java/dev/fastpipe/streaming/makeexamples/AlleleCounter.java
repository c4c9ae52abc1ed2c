package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import dev.fastpipe.streaming.plan.ExampleSettings;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts, for one partition [start, end), which allele each read carries at each position, from
 * the CIGAR: M/=/X bases (quality >= min), and insertions (inserted bases' quality >= min on
 * average) and deletions (anchor quality >= min) at their anchor (the
 * reference base before them, which then counts for the indel, not the ref). Indels are
 * left-aligned against the reference before they are counted, so a candidate compares with a
 * normalised truth; an insertion read whose bases differ from a clean allele of the same length
 * only where they are below Q20 counts for that allele ({@link #foldUnsureInsertions}), and
 * same-length insertion alleles one base apart, none with the reads alone, are one allele
 * ({@link #poolSplitInsertions}). S, H, N
 * and P count nothing. The hot loop works on primitive arrays that live as long as the counter:
 * non-reference observations are packed into one {@code long} each ({@code position | allele |
 * read}) and sorted once to find candidates; only an indel allele's name is a String (interned per
 * partition).
 */
public final class AlleleCounter {
  private static final int READ_BITS = 20;
  private static final int ALLELE_BITS = 20;
  private static final long READ_MASK = (1L << READ_BITS) - 1;
  private static final long ALLELE_MASK = (1L << ALLELE_BITS) - 1;
  /** Allele ids 0..3 are the bases A, C, G, T; ids from 4 are indels named in {@link #indelNames}. */
  private static final int FIRST_INDEL = 4;

  private final int minBaseQuality;
  private final ExampleSettings.CandidateThresholds o;
  private int contigIndex;
  private String contig;
  private int start;
  private int end;
  private byte[] ref;
  private int refStart;

  private int[] depth = new int[0];
  private int[] refSupport = new int[0];
  private long[] events = new long[1 << 12];
  private int nEvents;
  private final Map<String, Integer> indelIds = new HashMap<>();
  private final List<String> indelNames = new ArrayList<>();
  private byte[] scratch = new byte[256];
  private byte[] refCodes = new byte[0];
  /**
   * Per insertion event whose inserted bases include some below {@link #FOLD_QUALITY} (key
   * {@code offset << READ_BITS | read}): a bit per base of the left-aligned inserted sequence, set
   * where the read's base is that unsure ({@link #foldUnsureInsertions}).
   */
  private final Map<Long, Long> unsureBases = new HashMap<>();
  /**
   * Per insertion event of {@link #POOL_MIN_LENGTH} to 64 bases (key as {@link #unsureBases}'): the
   * qualities of its left-aligned inserted bases, which decide between two alleles of one read each
   * that {@link #poolSplitInsertions} pools.
   */
  private final Map<Long, byte[]> insertionQualities = new HashMap<>();

  public AlleleCounter(ExampleSettings.ReadFilters filters, ExampleSettings.CandidateThresholds thresholds) {
    this.minBaseQuality = filters.minBaseQuality();
    this.o = thresholds;
  }

  /** Starts a partition; {@code ref[i]} is the uppercase base at {@code refStart + i}. */
  public void reset(int contigIndex, String contig, int start, int end, byte[] ref, int refStart) {
    this.contigIndex = contigIndex;
    this.contig = contig;
    this.start = start;
    this.end = end;
    this.ref = ref;
    this.refStart = refStart;
    int n = end - start;
    if (depth.length < n) {
      depth = new int[n];
      refSupport = new int[n];
    } else {
      Arrays.fill(depth, 0, n, 0);
      Arrays.fill(refSupport, 0, n, 0);
    }
    if (refCodes.length < ref.length) refCodes = new byte[ref.length];
    for (int i = 0; i < ref.length; i++) refCodes[i] = CODES[ref[i] & 0xFF];
    nEvents = 0;
    indelIds.clear();
    indelNames.clear();
    unsureBases.clear();
    insertionQualities.clear();
  }

  private static final byte[] CODES = new byte[256];

  static {
    java.util.Arrays.fill(CODES, (byte) -1);
    CODES['A'] = 0; CODES['a'] = 0;
    CODES['C'] = 1; CODES['c'] = 1;
    CODES['G'] = 2; CODES['g'] = 2;
    CODES['T'] = 3; CODES['t'] = 3;
  }

  /** 0..3 for A, C, G, T (either case), -1 for anything else. */
  static int baseCode(byte b) {
    return CODES[b & 0xFF];
  }

  private byte refAt(int pos) {
    int i = pos - refStart;
    return i >= 0 && i < ref.length ? ref[i] : (byte) 'N';
  }

  public int depth(int pos) {
    return depth[pos - start];
  }

  /** Reads whose base at {@code pos} (quality >= min) is the reference base (indel anchors excluded). */
  public int refSupport(int pos) {
    return refSupport[pos - start];
  }

  /** Counts one (already filtered) read; {@code readIndex} names it in candidates' support lists. */
  public void add(SAMRecord read, int readIndex) {
    if (readIndex > READ_MASK) return;
    byte[] bases = read.getReadBases();
    byte[] quals = read.getBaseQualities();
    int minBq = minBaseQuality;
    int refPos = read.getAlignmentStart() - 1;
    int readPos = 0;
    List<CigarElement> cigar = read.getCigar().getCigarElements();
    int ne = cigar.size();
    for (int e = 0; e < ne; e++) {
      CigarElement el = cigar.get(e);
      int len = el.getLength();
      CigarOperator op = el.getOperator();
      switch (op) {
        case M, EQ, X -> {
          // The last base before an I or D is that indel's anchor: it counts for the indel.
          boolean anchorsIndel = false;
          if (e + 1 < ne) {
            CigarOperator next = cigar.get(e + 1).getOperator();
            anchorsIndel = next == CigarOperator.I || next == CigarOperator.D;
          }
          int from = Math.max(0, start - refPos);
          int to = Math.min(len - (anchorsIndel ? 1 : 0), end - refPos);
          // The read's base k sits at offset offAt + k of the partition and refAt + k of the reference.
          int offAt = refPos - start;
          int refAt = refPos - refStart;
          int[] dep = depth;
          int[] refSup = refSupport;
          byte[] refC = refCodes;
          int qualsEnd = Math.min(to, quals.length - readPos); // bases past the qualities count as quality 0
          for (int k = from; k < qualsEnd; k++) {
            if (quals[readPos + k] < minBq) continue;
            int off = offAt + k;
            dep[off]++;
            int code = CODES[bases[readPos + k] & 0xFF];
            if (code == refC[refAt + k]) {
              refSup[off]++;
            } else if (code >= 0) {
              addEvent(off, code, readIndex);
            }
          }
          if (minBq <= 0) { // quality 0 still passes: count the bases that have none
            for (int k = Math.max(from, qualsEnd); k < to; k++) {
              int off = offAt + k;
              dep[off]++;
              int code = CODES[bases[readPos + k] & 0xFF];
              if (code == refC[refAt + k]) refSup[off]++;
              else if (code >= 0) addEvent(off, code, readIndex);
            }
          }
          refPos += len;
          readPos += len;
        }
        case I -> {
          if (readPos > 0 && e > 0 && isAligned(cigar.get(e - 1).getOperator())) {
            countInsertion(bases, quals, readPos, len, refPos - 1, readIndex);
          }
          readPos += len;
        }
        case D -> {
          if (readPos > 0 && e > 0 && isAligned(cigar.get(e - 1).getOperator())) {
            countDeletion(quals, readPos - 1, len, refPos - 1, readIndex);
          }
          refPos += len;
        }
        case S -> readPos += len;
        case N -> refPos += len;
        default -> { } // H, P
      }
    }
  }

  private static boolean isAligned(CigarOperator op) {
    return op == CigarOperator.M || op == CigarOperator.EQ || op == CigarOperator.X;
  }

  private void countDeletion(byte[] quals, int anchorRead, int len, int anchor, int readIndex) {
    int q = anchorRead < quals.length ? quals[anchorRead] : 0;
    if (q < minBaseQuality) return;
    if (anchor >= start && anchor < end) depth[anchor - start]++;
    // Left-align: shift while the last deleted base equals the anchor base.
    int a = anchor;
    while (a > refStart && a + len < refStart + ref.length && refAt(a) == refAt(a + len)
        && refAt(a) != 'N') {
      a--;
    }
    if (a < start || a >= end || a + len >= refStart + ref.length) return;
    addEvent(a - start, internIndel("D" + len), readIndex);
  }

  /**
   * An insertion counts when its inserted bases on average reach the minimum base quality; the
   * anchor's own quality does not matter, since the anchor is a reference base the insertion does
   * not change. (DeepVariant asks it of every inserted base; then one low-quality base at a long
   * insertion's end, common near read ends, takes the read's support away, and at 10x a het's
   * insertion of 7 bases was no candidate with 2 of its 3 carrying reads. Asking it of the anchor
   * too left two 10x hets with 2 carrying reads each no candidate, one read's anchor at Q7 or Q8
   * before inserted bases of Q31-Q40.)
   */
  private void countInsertion(byte[] bases, byte[] quals, int readPos, int len, int anchor, int readIndex) {
    if (!PileupImageEncoder.insertionQualityOk(quals, readPos, len, minBaseQuality)) return;
    if (anchor >= start && anchor < end) depth[anchor - start]++;
    if (scratch.length < len) scratch = new byte[len * 2];
    boolean poolable = len >= POOL_MIN_LENGTH && len <= Long.SIZE;
    byte[] q = poolable ? new byte[len] : null;
    long unsure = 0;
    for (int i = 0; i < len; i++) {
      byte b = bases[readPos + i];
      scratch[i] = b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
      if (i < Long.SIZE && (readPos + i >= quals.length || quals[readPos + i] < FOLD_QUALITY)) unsure |= 1L << i;
      if (q != null) q[i] = readPos + i < quals.length ? quals[readPos + i] : 0;
    }
    if (len > Long.SIZE) unsure = 0; // too long to fold: counted as read
    // Left-align: rotate while the anchor base equals the last inserted base (the unsure bits and qualities with it).
    int a = anchor;
    while (a > refStart && refAt(a) == scratch[len - 1] && refAt(a) != 'N') {
      System.arraycopy(scratch, 0, scratch, 1, len - 1);
      scratch[0] = refAt(a);
      unsure = len == Long.SIZE ? Long.rotateLeft(unsure, 1) : ((unsure << 1) | (unsure >>> (len - 1))) & ((1L << len) - 1);
      if (q != null) {
        byte last = q[len - 1];
        System.arraycopy(q, 0, q, 1, len - 1);
        q[0] = last;
      }
      a--;
    }
    if (a < start || a >= end) return;
    if (unsure != 0) unsureBases.put(unsureKey(a - start, readIndex), unsure);
    if (q != null) insertionQualities.put(unsureKey(a - start, readIndex), q);
    addEvent(a - start, internIndel("I" + new String(scratch, 0, len, java.nio.charset.StandardCharsets.US_ASCII)), readIndex);
  }

  /**
   * Inserted bases below this quality (1 % error or more) may be a sequencing error of the read's
   * insertion: {@link #foldUnsureInsertions}.
   */
  static final int FOLD_QUALITY = 20;

  /**
   * Folds, at the position whose events are {@code [from, to)}, each insertion read whose inserted
   * sequence differs from another insertion allele of the same length there only at its own bases
   * below {@link #FOLD_QUALITY} into that allele, when that allele has a read with no such base (a
   * clean read) and has more reads than any other allele that so matches, its own included (its own
   * counts where another of its reads is clean; a tie keeps the read where it is). Two reads
   * of a het's +CA at 10x, one reading CG with its G at Q9 (2x250 reads err most near their ends),
   * were two alleles of one read each and no candidate; bcftools, which groups an indel's reads by
   * length, called it. Reads whose unsure bases agree with no clean allele keep their own. Events
   * stay sorted.
   */
  private void foldUnsureInsertions(int from, int to) {
    int off = offsetOf(events[from]);
    int[] targets = null;
    boolean runsFound = false;
    for (int e = from; e < to; e++) {
      int allele = alleleOf(events[e]);
      if (allele < FIRST_INDEL) continue;
      Long unsure = unsureBases.get(unsureKey(off, readOf(events[e])));
      if (unsure == null) continue;
      if (!runsFound) {
        findCleanIndelRuns(off, from, to);
        runsFound = true;
      }
      String name = indelNames.get(allele - FIRST_INDEL);
      int target = -1;
      int targetReads = 0;
      boolean tie = false;
      for (int[] run : foldRuns) { // {allele, reads}: its own allele too
        if (run[0] != allele && !agreesOutside(name, indelNames.get(run[0] - FIRST_INDEL), unsure)) continue;
        if (run[1] > targetReads) {
          target = run[0];
          targetReads = run[1];
          tie = false;
        } else if (run[1] == targetReads) {
          tie = true;
        }
      }
      if (target >= 0 && target != allele && !tie) {
        if (targets == null) {
          targets = new int[to - from];
          Arrays.fill(targets, -1);
        }
        targets[e - from] = target;
      }
    }
    if (targets == null) return;
    for (int e = from; e < to; e++) {
      if (targets[e - from] >= 0) events[e] = (events[e] & ~(ALLELE_MASK << READ_BITS)) | ((long) targets[e - from] << READ_BITS);
    }
    Arrays.sort(events, from, to);
  }

  /** The shortest insertion whose reads {@link #poolSplitInsertions} pools: one base in this many may be an error. */
  static final int POOL_MIN_LENGTH = 4;

  /**
   * Pools, at the position whose events are {@code [from, to)}, insertion alleles of one length
   * ({@link #POOL_MIN_LENGTH} bases or more) that differ from one of them at one base only, where
   * none of that length reaches the indel read count ({@code --indel-min-count}) alone and together
   * they do: their reads become that allele's, the one with the most reads (between two of as many,
   * the one whose reads read the base where they differ at the higher quality). A sequencing error
   * in a long insertion splits its reads: Mason's 15x het G>GGAGGCGC had two carrying reads, one
   * reading GAGGGGC, two alleles of one read each and so no candidate, which bcftools, grouping an
   * indel's reads by length, called. Where one such allele reaches the count alone nothing moves
   * (its reads would grow by reads that may be errors, and a het on them turn hom-alt: blind15).
   * Events stay sorted.
   */
  private void poolSplitInsertions(int from, int to) {
    int off = offsetOf(events[from]);
    List<int[]> runs = null; // {allele, from, to} of the position's poolable insertion alleles
    for (int r = from; r < to; ) {
      int allele = alleleOf(events[r]);
      int k = r;
      while (k < to && alleleOf(events[k]) == allele) k++;
      if (allele >= FIRST_INDEL && insertionQualities.containsKey(unsureKey(off, readOf(events[r])))) {
        if (runs == null) runs = new ArrayList<>();
        runs.add(new int[] {allele, r, k});
      }
      r = k;
    }
    if (runs == null || runs.size() < 2) return;
    for (int[] best : runs) {
      String name = indelNames.get(best[0] - FIRST_INDEL);
      int pooled = best[2] - best[1];
      boolean alone = pooled >= o.indelMinCount();
      for (int[] other : runs) {
        String otherName = indelNames.get(other[0] - FIRST_INDEL);
        if (other == best || otherName.length() != name.length()) continue;
        alone |= other[2] - other[1] >= o.indelMinCount();
        int at = differingBase(name, otherName);
        if (at < 0) continue;
        if (!beats(off, best, other, at)) {
          pooled = -1; // a neighbour that beats it pools instead
          break;
        }
        pooled += other[2] - other[1];
      }
      if (alone || pooled < o.indelMinCount()) continue;
      for (int[] other : runs) {
        if (other == best || differingBase(name, indelNames.get(other[0] - FIRST_INDEL)) < 0) continue;
        for (int e = other[1]; e < other[2]; e++) events[e] = (events[e] & ~(ALLELE_MASK << READ_BITS)) | ((long) best[0] << READ_BITS);
      }
      Arrays.sort(events, from, to);
      return;
    }
  }

  /** The one index at which insertion names {@code a} and {@code b} of one length differ, or -1 (none, or more than one). */
  static int differingBase(String a, String b) {
    if (a.length() != b.length()) return -1;
    int at = -1;
    for (int i = 1; i < a.length(); i++) {
      if (a.charAt(i) == b.charAt(i)) continue;
      if (at >= 0) return -1;
      at = i;
    }
    return at;
  }

  /**
   * Whether run {@code a} ({allele, from, to}) is the one to pool {@code b} into: more reads, or as
   * many and a higher quality at name index {@code at} (the base where they differ) in its best read;
   * a full tie goes to the first name.
   */
  private boolean beats(int off, int[] a, int[] b, int at) {
    int ca = a[2] - a[1], cb = b[2] - b[1];
    if (ca != cb) return ca > cb;
    int qa = bestQuality(off, a, at - 1), qb = bestQuality(off, b, at - 1);
    if (qa != qb) return qa > qb;
    return indelNames.get(a[0] - FIRST_INDEL).compareTo(indelNames.get(b[0] - FIRST_INDEL)) < 0;
  }

  /** The highest quality among run {@code r}'s reads of their inserted base {@code i}. */
  private int bestQuality(int off, int[] r, int i) {
    int best = 0;
    for (int e = r[1]; e < r[2]; e++) {
      byte[] q = insertionQualities.get(unsureKey(off, readOf(events[e])));
      if (q != null && i < q.length) best = Math.max(best, q[i]);
    }
    return best;
  }

  /** {allele, reads} of the indel alleles with a clean read at the position being folded (reused). */
  private final List<int[]> foldRuns = new ArrayList<>();

  /** {@link #foldRuns} of the position at partition offset {@code off}, whose events are {@code [from, to)}: once per position. */
  private void findCleanIndelRuns(int off, int from, int to) {
    foldRuns.clear();
    for (int r = from; r < to; ) {
      int allele = alleleOf(events[r]);
      int k = r;
      boolean clean = false;
      while (k < to && alleleOf(events[k]) == allele) {
        clean |= !unsureBases.containsKey(unsureKey(off, readOf(events[k])));
        k++;
      }
      if (allele >= FIRST_INDEL && clean) foldRuns.add(new int[] {allele, k - r});
      r = k;
    }
  }

  /** Whether insertion names {@code a} and {@code b} ("I" + bases) have one length and the same bases outside {@code a}'s unsure ones. */
  static boolean agreesOutside(String a, String b, long unsure) {
    if (a.length() != b.length() || a.charAt(0) != 'I' || b.charAt(0) != 'I') return false;
    for (int i = 1; i < a.length(); i++) {
      boolean isUnsure = i - 1 < Long.SIZE && (unsure >>> (i - 1) & 1) != 0;
      if (!isUnsure && a.charAt(i) != b.charAt(i)) return false;
    }
    return true;
  }

  private int internIndel(String name) {
    Integer id = indelIds.get(name);
    if (id == null) {
      id = FIRST_INDEL + indelNames.size();
      indelIds.put(name, id);
      indelNames.add(name);
    }
    return id;
  }

  private void addEvent(int off, int allele, int readIndex) {
    if (nEvents == events.length) events = Arrays.copyOf(events, events.length * 2);
    events[nEvents++] = ((long) off << (READ_BITS + ALLELE_BITS)) | ((long) allele << READ_BITS) | readIndex;
  }

  /** An event's partition offset, allele and read, as {@link #addEvent} packed them. */
  private static int offsetOf(long event) {
    return (int) (event >>> (READ_BITS + ALLELE_BITS));
  }

  private static int alleleOf(long event) {
    return (int) ((event >>> READ_BITS) & ALLELE_MASK);
  }

  private static int readOf(long event) {
    return (int) (event & READ_MASK);
  }

  /** {@link #unsureBases}' key of a read's insertion at a partition offset. */
  private static long unsureKey(int off, int readIndex) {
    return ((long) off << READ_BITS) | readIndex;
  }

  /** Indel alleles of the current position short of the read count only, {allele, from, to} ({@link #candidates}). */
  private final List<int[]> seconds = new ArrayList<>();

  /** The candidate sites of this partition, in position order. */
  public List<Candidate> candidates() {
    Arrays.sort(events, 0, nEvents);
    List<Candidate> out = new ArrayList<>();
    int i = 0;
    List<int[]> runs = new ArrayList<>(); // {allele, from, to} of passing alleles at one position
    while (i < nEvents) {
      int off = offsetOf(events[i]);
      if (!unsureBases.isEmpty() || !insertionQualities.isEmpty()) { // else no extra pass over the position
        int positionEnd = i;
        while (positionEnd < nEvents && offsetOf(events[positionEnd]) == off) positionEnd++;
        if (!unsureBases.isEmpty()) foldUnsureInsertions(i, positionEnd);
        if (!insertionQualities.isEmpty()) poolSplitInsertions(i, positionEnd);
      }
      int j = i;
      runs.clear();
      boolean indelPasses = false;
      seconds.clear(); // indel alleles short of the read count only
      while (j < nEvents && offsetOf(events[j]) == off) {
        int allele = alleleOf(events[j]);
        int k = j;
        while (k < nEvents && (events[k] >>> READ_BITS) == (events[j] >>> READ_BITS)) k++;
        int count = k - j;
        double frac = count / (double) Math.max(depth[off], count);
        boolean pass = allele < FIRST_INDEL
            ? count >= o.snpMinCount() && frac >= o.snpMinFraction()
            : count >= o.indelMinCount() && frac >= o.indelMinFraction();
        if (pass) {
          runs.add(new int[] {allele, j, k});
          indelPasses |= allele >= FIRST_INDEL;
        } else if (allele >= FIRST_INDEL && count >= o.indelMinCount() - 1 && frac >= o.indelMinFraction()) {
          seconds.add(new int[] {allele, j, k});
        }
        j = k;
      }
      int[] second = indelPasses ? second(runs) : null;
      if (second != null) runs.add(second);
      int pos = start + off;
      if (!runs.isEmpty() && baseCode(refAt(pos)) >= 0) out.add(build(pos, off, runs));
      i = j;
    }
    return out;
  }

  /**
   * A second indel allele at a site that already has an indel candidate needs the candidate
   * fraction and one read fewer than the count (one, by default): at 10x a 1/2 site in a repeat (an
   * insertion and a deletion of the unit, or two lengths) often has one clean read of its second
   * allele, the others carrying errors in their inserted bases, and without a candidate the site is
   * written as one allele (bcftools, which takes indel candidates from one read, calls them). The
   * fraction keeps it to low depth: one read of 17 or more is below 0.06. One such allele per site,
   * of those that are no shadow of the site's passing indel alleles ({@link #shadowOfPassing}): the
   * most reads, then the first by name (independent of read order).
   */
  private int[] second(List<int[]> passing) {
    int[] best = null;
    for (int[] r : seconds) {
      if (shadowOfPassing(r, passing)) continue;
      if (best == null) {
        best = r;
        continue;
      }
      int count = r[2] - r[1];
      int had = best[2] - best[1];
      if (count != had ? count > had
          : indelNames.get(r[0] - FIRST_INDEL).compareTo(indelNames.get(best[0] - FIRST_INDEL)) < 0) {
        best = r;
      }
    }
    return best;
  }

  /**
   * Whether the indel allele of run {@code r} is a shadow ({@link ShadowAlleles}) of a passing indel
   * allele at its own site: the same length change on at least {@code --indel-shadow-ratio} times
   * its reads. Such an allele would be dropped later; choosing it as the site's second allele would
   * cost the site a real one (an error copy of a +6 insertion chosen by name over the one clean
   * read of the site's +8).
   */
  private boolean shadowOfPassing(int[] r, List<int[]> passing) {
    int ratio = o.indelShadowRatio();
    if (ratio <= 0) return false;
    int change = lengthChange(r[0]);
    for (int[] p : passing) {
      if (p[0] >= FIRST_INDEL && lengthChange(p[0]) == change && ShadowAlleles.isShadow(r[2] - r[1], p[2] - p[1], ratio)) {
        return true;
      }
    }
    return false;
  }

  /** Bases an indel allele adds (positive) or removes (negative). */
  private int lengthChange(int allele) {
    String name = indelNames.get(allele - FIRST_INDEL);
    return name.charAt(0) == 'D' ? -Integer.parseInt(name.substring(1)) : name.length() - 1;
  }

  private Candidate build(int pos, int off, List<int[]> runs) {
    int maxDel = 0;
    for (int[] r : runs) {
      if (r[0] >= FIRST_INDEL) {
        String name = indelNames.get(r[0] - FIRST_INDEL);
        if (name.charAt(0) == 'D') maxDel = Math.max(maxDel, Integer.parseInt(name.substring(1)));
      }
    }
    String ref = refString(pos, 1 + maxDel);
    String anchor = ref.substring(0, 1);
    int n = runs.size();
    String[] alts = new String[n];
    String[] minRef = new String[n];
    String[] minAlt = new String[n];
    for (int a = 0; a < n; a++) {
      int allele = runs.get(a)[0];
      if (allele < FIRST_INDEL) {
        String b = String.valueOf("ACGT".charAt(allele));
        alts[a] = b + ref.substring(1);
        minRef[a] = anchor;
        minAlt[a] = b;
      } else {
        String name = indelNames.get(allele - FIRST_INDEL);
        if (name.charAt(0) == 'D') {
          int len = Integer.parseInt(name.substring(1));
          alts[a] = anchor + ref.substring(1 + len);
          minRef[a] = refString(pos, 1 + len);
          minAlt[a] = anchor;
        } else {
          String ins = name.substring(1);
          alts[a] = anchor + ins + ref.substring(1);
          minRef[a] = anchor;
          minAlt[a] = anchor + ins;
        }
      }
    }
    int[] altDepths = new int[n];
    int[][] support = new int[n][];
    for (int a = 0; a < n; a++) {
      int[] r = runs.get(a);
      altDepths[a] = r[2] - r[1];
      support[a] = new int[r[2] - r[1]];
      for (int k = r[1]; k < r[2]; k++) support[a][k - r[1]] = readOf(events[k]);
    }
    return Candidate.inCanonicalOrder(contigIndex, contig, pos, ref, alts, minRef, minAlt, refSupport[off], altDepths,
        depth[off], support);
  }

  private String refString(int pos, int len) {
    StringBuilder sb = new StringBuilder(len);
    for (int i = 0; i < len; i++) sb.append((char) refAt(pos + i));
    return sb.toString();
  }
}
