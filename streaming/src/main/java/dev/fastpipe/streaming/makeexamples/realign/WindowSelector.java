package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the stretches of reference where reads disagree with it: per position, the reads with an
 * insertion or deletion there, a soft clip starting or ending there, or a high-quality mismatch
 * there that lies within {@link #MISMATCH_CLUSTER_BP} of another of the same read's (an isolated
 * mismatch is a SNP or an error, not a misalignment). Positions that {@link #MIN_SUPPORT} reads
 * mark are active; active positions closer than {@link #MERGE_GAP} join one window. A window is kept
 * when {@link #MIN_SUPPORT} reads put an indel or a clip at one of its positions, or when it has two
 * active positions or more: one active position of mismatches alone is a SNP, which the reads'
 * alignments already show as well as a haplotype would.
 *
 * <p>The signal at a position depends only on the reads that overlap it, so a window computed over
 * a range of complete read coverage is the same whichever range it was computed in, as long as it
 * stays {@link #MERGE_GAP} clear of the range's ends: windows that do not are reported as
 * {@linkplain Window#known() unknown}.
 */
public final class WindowSelector {
  /** Reads that must mark a position for it to be active. */
  public static final int MIN_SUPPORT = 2;
  /** Active positions at most this far apart join one window. */
  public static final int MERGE_GAP = 30;
  /** Two mismatches of one read at most this far apart form a cluster. */
  public static final int MISMATCH_CLUSTER_BP = 25;
  /** Mismatches below this base quality are not signal. */
  public static final int MIN_MISMATCH_QUALITY = 20;

  /**
   * A run of active positions {@code [first, last]} (0-based, inclusive); {@code known} is false
   * when it comes within {@link #MERGE_GAP} of the end of the range it was computed in (its true
   * extent may be larger).
   */
  public record Window(int first, int last, boolean known) {
    public int length() {
      return last - first + 1;
    }
  }

  private int[] count = new int[0];
  /** The marks of indels and clips alone. */
  private int[] gaps = new int[0];
  private int[] mismatches = new int[64];
  private int[] events = new int[64];
  private static final int[] NO_EVENTS = new int[0];
  /**
   * The reads of the last {@link #select} call, in its order, and their facts (each read's marks:
   * {@code 2 * position + 1} for an indel or clip, {@code 2 * position} for a clustered mismatch),
   * kept while the read stays in the list: a sliding window of partitions sees the same read objects
   * again, and a read's marks depend on the read and the reference only.
   */
  private SAMRecord[] listed = new SAMRecord[0];
  private ReadFacts[] listedFacts = new ReadFacts[0];
  private int nListed;

  /**
   * What the realigner needs of a read, computed once while the read stays in the list: its marks,
   * aligned span {@code [start, end)}, unclipped span, where its first base would lie without indels
   * ({@code firstBase}: the alignment start less a leading soft clip), and whether it may be realigned.
   */
  public record ReadFacts(int[] marks, int start, int end, int unclippedStart, int unclippedEnd, int firstBase,
      boolean eligible) {}

  /** The facts of the {@code i}-th read of the last {@link #select} call. */
  public ReadFacts factsAt(int i) {
    if (i < 0 || i >= nListed) throw new IndexOutOfBoundsException(i + " of " + nListed + " reads");
    return listedFacts[i];
  }

  /**
   * The facts of {@code sub}'s reads, in its order; {@code sub} holds reads of the last {@link
   * #select} call (the same objects), usually in that call's order (found in one pass then).
   */
  public ReadFacts[] factsOf(List<SAMRecord> sub) {
    ReadFacts[] out = new ReadFacts[sub.size()];
    int j = 0;
    for (int i = 0; i < out.length; i++) {
      SAMRecord r = sub.get(i);
      int k = j;
      while (k < nListed && listed[k] != r) k++;
      if (k == nListed) { // out of order: look from the start
        k = 0;
        while (k < nListed && listed[k] != r) k++;
        if (k == nListed) throw new IllegalArgumentException("read " + r.getReadName() + " was not in the last select call");
      }
      out[i] = listedFacts[k];
      j = k + 1;
    }
    return out;
  }

  /** The facts of a read of the last {@link #select} call. */
  public ReadFacts facts(SAMRecord r) {
    return factsOf(List.of(r))[0];
  }

  /**
   * The windows of {@code [lo, hi)} (0-based), in position order. {@code reads} must hold every read
   * overlapping that range; {@code ref[i]} is the base at {@code refStart + i} and covers the range
   * widened by {@link Realigner#MAX_READ_SPAN} on each side (or to the contig's ends).
   * {@code contigLength} tells a range end that is the contig's end (nothing lies beyond it).
   */
  public List<Window> select(List<SAMRecord> reads, byte[] ref, int refStart, int lo, int hi, int contigLength) {
    int n = Math.max(0, hi - lo);
    if (count.length < n) {
      count = new int[Math.max(n, count.length * 2)];
      gaps = new int[count.length];
    }
    Arrays.fill(count, 0, n, 0);
    Arrays.fill(gaps, 0, n, 0);
    int m = reads.size();
    SAMRecord[] nowReads = new SAMRecord[m];
    ReadFacts[] nowFacts = new ReadFacts[m];
    // A sliding window of partitions passes the reads that stay first, in the same order, then the
    // new ones: their facts are found in one pass over the last call's; from the first read that is
    // not there on, they are worked out.
    int j = 0;
    boolean reuse = true;
    for (int i = 0; i < m; i++) {
      SAMRecord r = reads.get(i);
      ReadFacts f = null;
      if (reuse) {
        int k = j;
        while (k < nListed && listed[k] != r) k++;
        if (k < nListed) {
          f = listedFacts[k];
          j = k + 1;
        } else {
          reuse = false;
        }
      }
      if (f == null) f = factsOf(r, ref, refStart);
      nowReads[i] = r;
      nowFacts[i] = f;
      for (int e : f.marks()) {
        int pos = e >> 1;
        if (pos < lo || pos >= hi) continue;
        count[pos - lo]++;
        if ((e & 1) != 0) gaps[pos - lo]++;
      }
    }
    listed = nowReads;
    listedFacts = nowFacts;
    nListed = m;
    java.util.ArrayList<Window> out = new java.util.ArrayList<>();
    int first = -1;
    int last = -1;
    int active = 0;
    boolean gapped = false;
    for (int i = 0; i < n; i++) {
      if (count[i] < MIN_SUPPORT) continue;
      if (first >= 0 && i - last > MERGE_GAP) {
        if (gapped || active > 1) out.add(window(first, last, lo, hi, contigLength));
        first = -1;
      }
      if (first < 0) {
        first = i;
        active = 0;
        gapped = false;
      }
      last = i;
      active++;
      gapped |= gaps[i] >= MIN_SUPPORT;
    }
    if (first >= 0 && (gapped || active > 1)) out.add(window(first, last, lo, hi, contigLength));
    return out;
  }

  private static Window window(int first, int last, int lo, int hi, int contigLength) {
    boolean leftKnown = lo == 0 || first - MERGE_GAP > 0;
    boolean rightKnown = hi >= contigLength || last + MERGE_GAP < hi - lo - 1;
    return new Window(lo + first, lo + last, leftKnown && rightKnown);
  }

  private int nEvents;

  private void event(int pos, boolean gap) {
    if (nEvents == events.length) events = Arrays.copyOf(events, nEvents * 2);
    events[nEvents++] = 2 * pos + (gap ? 1 : 0);
  }

  private ReadFacts factsOf(SAMRecord r, byte[] ref, int refStart) {
    int start = r.getAlignmentStart() - 1;
    int leadingSoft = 0;
    Cigar cigar = r.getCigar();
    for (int i = 0, n = cigar.numCigarElements(); i < n; i++) {
      CigarElement e = cigar.getCigarElement(i);
      if (e.getOperator() == CigarOperator.S) leadingSoft = e.getLength();
      if (e.getOperator() != CigarOperator.H) break;
    }
    return new ReadFacts(marks(r, ref, refStart), start, r.getAlignmentEnd(), ReadAligner.unclippedStart(r) - 1,
        ReadAligner.unclippedEnd(r), start - leadingSoft, ReadAligner.eligible(r));
  }

  /** One read's marks ({@code ref} must cover its aligned span, or the marks beyond are lost). */
  private int[] marks(SAMRecord r, byte[] ref, int refStart) {
    nEvents = 0;
    List<CigarElement> cigar = r.getCigar().getCigarElements();
    int refPos = r.getAlignmentStart() - 1;
    // Mismatches count only in reads short enough for the caller's reference to cover them whole.
    // (Not first asked of the NM tag: reading one tag decodes all of a read's tags, and that cost
    // more than this scan of bases the read has already decoded.)
    boolean scan = r.getAlignmentEnd() - refPos <= Realigner.MAX_READ_SPAN;
    byte[] bases = scan ? r.getReadBases() : null;
    byte[] quals = scan ? r.getBaseQualities() : null;
    int nm = 0;
    int readPos = 0;
    int ne = cigar.size();
    for (int e = 0; e < ne; e++) {
      CigarElement el = cigar.get(e);
      int len = el.getLength();
      CigarOperator op = el.getOperator();
      switch (op) {
        case M, EQ, X -> {
          if (scan) {
            // Only the bases that lie over the reference given and that the read has.
            int riAt = refPos - refStart;
            int from = Math.max(0, -riAt);
            int to = Math.min(len, Math.min(ref.length - riAt, bases.length - readPos));
            for (int k = from; k < to; k++) {
              byte raw = bases[readPos + k];
              byte rawRef = ref[riAt + k];
              if (raw == rawRef) continue; // the same byte is no mismatch, in either case
              byte b = upper(raw);
              byte rb = upper(rawRef);
              if (b != rb && isBase(b) && isBase(rb) && quals.length > readPos + k
                  && quals[readPos + k] >= MIN_MISMATCH_QUALITY) {
                if (nm == mismatches.length) mismatches = Arrays.copyOf(mismatches, nm * 2);
                mismatches[nm++] = refPos + k;
              }
            }
          }
          refPos += len;
          readPos += len;
        }
        case I -> {
          event(refPos, true);
          readPos += len;
        }
        case D -> {
          event(refPos, true);
          refPos += len;
        }
        case S -> {
          event(e == 0 || (e == 1 && cigar.get(0).getOperator() == CigarOperator.H) ? refPos : refPos - 1, true);
          readPos += len;
        }
        case N -> refPos += len;
        default -> { } // H, P
      }
    }
    for (int i = 0; i < nm; i++) {
      boolean clustered = (i > 0 && mismatches[i] - mismatches[i - 1] <= MISMATCH_CLUSTER_BP)
          || (i + 1 < nm && mismatches[i + 1] - mismatches[i] <= MISMATCH_CLUSTER_BP);
      if (clustered) event(mismatches[i], false);
    }
    return nEvents == 0 ? NO_EVENTS : Arrays.copyOf(events, nEvents);
  }

  static byte upper(byte b) {
    return b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
  }

  static boolean isBase(byte b) {
    return b == 'A' || b == 'C' || b == 'G' || b == 'T';
  }
}
