package dev.fastpipe.streaming.simulate;

import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordCoordinateComparator;
import htsjdk.samtools.util.SequenceUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Draws the read pairs of a contig and hands them out in coordinate order as it goes, holding only
 * a window's worth of reads.
 *
 * <p>Each span is cut into windows of {@link #windowBases} reference bases. A window gets its share
 * of the span's pairs (in proportion to its A/C/G/T bases, by cumulative rounding so that the span
 * gets exactly its total) and its own random stream (from the seed, contig, span and window), so a
 * window's reads do not depend on how many reads came before it. A fragment starts on one of the
 * two haplotypes at a haplotype base whose reference position lies in the window, and both mates
 * are made together, with each other's positions, strands and CIGARs. A read therefore starts at or
 * after its window's first base: once window k is drawn, every read that starts before window k+1
 * is known, so those are sorted and written, and only the mates that start further on (at most one
 * fragment length past the window) wait for the next round.
 *
 * <p>The haplotypes are built per window, over the window and {@link #PAD} bases after it (enough
 * for any fragment that starts in it), from bounds that cut no variant, so they match the whole
 * haplotype there.
 */
final class ReadSimulator {
  static final int READ_LENGTH = SyntheticSample.READ_LENGTH;
  static final int INSERT_MEAN = SyntheticSample.INSERT_MEAN;
  static final int INSERT_SD = SyntheticSample.INSERT_SD;
  static final int MAX_FRAGMENT = 2 * INSERT_MEAN;
  /** Haplotype bases built past a window's end: more than the longest fragment plus any deletions in it. */
  static final int PAD = 2000;
  /** Draws of a fragment start that may fall on an N before the fragment is given up. */
  private static final int N_RETRIES = 10;

  private final SAMFileHeader header;
  private final long readsSeed;
  private final double coverage;
  private final boolean sequencingErrors;
  private final String namePrefix;
  private final int nameWidth;
  private final int windowBases;
  private final SyntheticSample.ReadErrors errors = new SyntheticSample.ReadErrors();
  private final SAMRecordCoordinateComparator order = new SAMRecordCoordinateComparator();
  private long pairs; // pairs drawn so far (duplicates aside): the next pair's number
  private long records;

  ReadSimulator(SAMFileHeader header, long readsSeed, double coverage, boolean sequencingErrors, String namePrefix,
      int nameWidth, int windowBases) {
    this.header = header;
    this.readsSeed = readsSeed;
    this.coverage = coverage;
    this.sequencingErrors = sequencingErrors;
    this.namePrefix = namePrefix;
    this.nameWidth = nameWidth;
    if (windowBases < MAX_FRAGMENT) throw new IllegalArgumentException("windows of " + windowBases + " bp are shorter than a fragment");
    this.windowBases = windowBases;
  }

  /** About 20,000 pairs a window: 100 kb at 30x, between 10 kb and 1 Mb. */
  static int windowBases(double coverage) {
    return (int) Math.max(10_000, Math.min(1_000_000, Math.round(3_000_000 / coverage)));
  }

  /** Pairs in a stretch of {@code bases} callable bases at {@code coverage}. */
  static long pairsFor(double coverage, long bases) {
    return Math.round(coverage * bases / (2.0 * READ_LENGTH));
  }

  long pairsDrawn() {
    return pairs;
  }

  long recordsWritten() {
    return records;
  }

  /** Draws the reads of every span of {@code c} and passes them to {@code out} in coordinate order. */
  void simulate(SimulatedContig c, Consumer<SAMRecord> out) {
    List<SAMRecord> pending = new ArrayList<>();
    for (int s = 0; s < c.spans.size(); s++) {
      SimulatedContig.Span span = c.spans.get(s);
      int windows = Math.max(1, span.length() / windowBases);
      int[] bounds = new int[windows + 1];
      for (int k = 0; k < windows; k++) bounds[k] = span.start() + k * windowBases;
      bounds[windows] = span.end();
      long[] weight = new long[windows + 1]; // callable bases before window k
      for (int k = 0; k < windows; k++) {
        long acgt = 0;
        for (int i = bounds[k]; i < bounds[k + 1]; i++) if (SimulatedContig.isAcgt(c.bases[i])) acgt++;
        weight[k + 1] = weight[k] + acgt;
      }
      long spanPairs = pairsFor(span.haploid() ? coverage / 2 : coverage, weight[windows]); // one copy: half the reads
      for (int k = 0; k < windows; k++) {
        long from = weight[windows] == 0 ? 0 : Math.round((double) spanPairs * weight[k] / weight[windows]);
        long to = weight[windows] == 0 ? 0 : Math.round((double) spanPairs * weight[k + 1] / weight[windows]);
        SplittableRandom rnd = new SplittableRandom(SimulatedContig.mix64(readsSeed
            ^ SimulatedContig.mix64(((long) c.index << 40) ^ ((long) s << 24) ^ k)));
        drawWindow(c, bounds[k], bounds[k + 1], k == windows - 1 ? span.end() : Math.min(span.end(), bounds[k + 1] + PAD),
            to - from, rnd, pending);
        pending.sort(order);
        int release = k == windows - 1 ? pending.size() : firstAtOrAfter(pending, bounds[k + 1]);
        for (int i = 0; i < release; i++) out.accept(pending.get(i));
        records += release;
        pending.subList(0, release).clear();
      }
    }
    if (!pending.isEmpty()) throw new IllegalStateException(pending.size() + " reads left unwritten on " + c.name);
  }

  /** Index of the first record (sorted) whose 0-based start is at least {@code refOffset}. */
  private static int firstAtOrAfter(List<SAMRecord> sorted, int refOffset) {
    int i = 0;
    while (i < sorted.size() && sorted.get(i).getAlignmentStart() - 1 < refOffset) i++;
    return i;
  }

  /** Draws {@code n} pairs that start in reference [ws, we), on haplotypes built over [ws, sliceEnd). */
  private void drawWindow(SimulatedContig c, int ws, int we, int sliceEnd, long n, SplittableRandom rnd,
      List<SAMRecord> into) {
    int sliceFrom = notInsideVariant(c.variants, ws);
    int sliceTo = notInsideVariant(c.variants, sliceEnd);
    List<TruthVariant> near = variantsIn(c.variants, sliceFrom, sliceTo);
    Haplotype[] haps = new Haplotype[2];
    int[] hs = new int[2];
    int[] he = new int[2];
    for (int h = 0; h < 2; h++) {
      haps[h] = Haplotype.build(c.bases, sliceFrom, sliceTo, near, h);
      hs[h] = haps[h].indexOfReference(ws);
      he[h] = haps[h].indexOfReference(we);
    }
    for (long i = 0; i < n; i++) {
      long number = pairs++;
      int h = rnd.nextInt(2);
      Haplotype hap = haps[h];
      int fragment = (int) Math.round(INSERT_MEAN + INSERT_SD * gaussian(rnd));
      fragment = Math.max(READ_LENGTH, Math.min(fragment, Math.min(MAX_FRAGMENT, hap.length())));
      int last = Math.min(he[h], hap.length() - fragment + 1); // exclusive
      boolean firstIsForward = rnd.nextBoolean();
      if (last <= hs[h]) continue;
      int start = -1;
      for (int attempt = 0; attempt < N_RETRIES && start < 0; attempt++) {
        int s = hs[h] + rnd.nextInt(last - hs[h]);
        if (allAcgt(hap.bases, s, s + fragment)) start = s;
      }
      if (start < 0) continue; // a fragment on N: no read, as no sequencer gives one
      String name = namePrefix + pad(number);
      pair(c, name, hap, start, fragment, firstIsForward, false, rnd, into);
      if (rnd.nextDouble() < SyntheticSample.DUPLICATE_RATE) { // a PCR/optical copy: same fragment, its own errors, flagged
        pair(c, name + "d", hap, start, fragment, firstIsForward, true, rnd, into);
      }
    }
  }

  private String pad(long number) {
    String digits = Long.toString(number);
    if (digits.length() >= nameWidth) return digits;
    return "0".repeat(nameWidth - digits.length()) + digits;
  }

  private static boolean allAcgt(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) if (!SimulatedContig.isAcgt(b[i])) return false;
    return true;
  }

  /**
   * {@code at}, or the start of the variant that spans it, so that a haplotype slice bounded there
   * applies every variant whole or not at all.
   */
  private static int notInsideVariant(List<TruthVariant> sorted, int at) {
    int i = lastStartingBefore(sorted, at);
    return i >= 0 && sorted.get(i).end() > at ? sorted.get(i).start() : at;
  }

  /** The variants that lie wholly in [from, to). */
  private static List<TruthVariant> variantsIn(List<TruthVariant> sorted, int from, int to) {
    int a = lastStartingBefore(sorted, from) + 1;
    int b = lastStartingBefore(sorted, to) + 1;
    List<TruthVariant> out = new ArrayList<>(sorted.subList(a, b));
    out.removeIf(v -> v.end() > to);
    return out;
  }

  /** Index of the last variant whose start is before {@code at}; -1 when none. */
  private static int lastStartingBefore(List<TruthVariant> sorted, int at) {
    int lo = 0;
    int hi = sorted.size();
    while (lo < hi) { // first index whose start is at or after `at`
      int mid = (lo + hi) >>> 1;
      if (sorted.get(mid).start() < at) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  private void pair(SimulatedContig c, String name, Haplotype hap, int start, int fragment, boolean firstIsForward,
      boolean duplicate, SplittableRandom rnd, List<SAMRecord> into) {
    SAMRecord fwd = read(c, name, hap, start, false, rnd);
    SAMRecord rev = read(c, name, hap, start + fragment - READ_LENGTH, true, rnd);
    SAMRecord r1 = firstIsForward ? fwd : rev;
    SAMRecord r2 = firstIsForward ? rev : fwd;
    r1.setFirstOfPairFlag(true);
    r2.setSecondOfPairFlag(true);
    mate(c.index, fwd, rev);
    fwd.setDuplicateReadFlag(duplicate);
    rev.setDuplicateReadFlag(duplicate);
    into.add(r1);
    into.add(r2);
  }

  private SAMRecord read(SimulatedContig c, String name, Haplotype hap, int from, boolean reverse, SplittableRandom rnd) {
    byte[] bases = java.util.Arrays.copyOfRange(hap.bases, from, from + READ_LENGTH);
    byte[] quals = new byte[READ_LENGTH];
    for (int cycle = 0; cycle < READ_LENGTH; cycle++) {
      int i = reverse ? READ_LENGTH - 1 - cycle : cycle; // sequencing cycle -> offset on the forward strand
      int q = errors.quality(rnd, cycle);
      quals[i] = (byte) q;
      if (rnd.nextDouble() < SyntheticSample.ReadErrors.errorProbability(q) && sequencingErrors) {
        bases[i] = SyntheticReference.base((SyntheticReference.indexOf(bases[i]) + 1 + rnd.nextInt(3)) & 3);
      }
    }
    Haplotype.Alignment aln = hap.align(from, from + READ_LENGTH);
    SAMRecord rec = new SAMRecord(header);
    rec.setReadName(name);
    rec.setReferenceIndex(c.index);
    rec.setAlignmentStart(aln.referenceStart() + 1);
    rec.setCigar(aln.cigar());
    rec.setMappingQuality(60);
    rec.setReadBases(bases);
    rec.setBaseQualities(quals);
    rec.setReadPairedFlag(true);
    rec.setProperPairFlag(true);
    rec.setReadNegativeStrandFlag(reverse);
    rec.setAttribute("RG", SyntheticSample.SAMPLE);
    SequenceUtil.calculateMdAndNmTags(rec, c.bases, true, true);
    return rec;
  }

  private static void mate(int contig, SAMRecord fwd, SAMRecord rev) {
    int left = Math.min(fwd.getAlignmentStart(), rev.getAlignmentStart());
    int right = Math.max(fwd.getAlignmentEnd(), rev.getAlignmentEnd());
    int tlen = right - left + 1;
    boolean fwdIsLeft = fwd.getAlignmentStart() <= rev.getAlignmentStart();
    for (SAMRecord[] p : new SAMRecord[][] {{fwd, rev}, {rev, fwd}}) {
      SAMRecord r = p[0];
      SAMRecord m = p[1];
      r.setMateReferenceIndex(contig);
      r.setMateAlignmentStart(m.getAlignmentStart());
      r.setMateNegativeStrandFlag(m.getReadNegativeStrandFlag());
      r.setMateUnmappedFlag(false);
      r.setAttribute("MC", m.getCigarString());
      boolean isLeft = (r == fwd) == fwdIsLeft;
      r.setInferredInsertSize(isLeft ? tlen : -tlen);
    }
  }

  /** Box-Muller, so that the draws depend only on the generator's doubles. */
  private static double gaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }
}
