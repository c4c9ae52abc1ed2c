package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.genome.TandemRepeat;
import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.pileup.IndelErrorRate;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupLikelihood;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.InputFiles;
import htsjdk.samtools.AlignmentBlock;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Measures a sample's {@link ReadErrors} (its {@link StrandArtifactRate}, {@link IndelErrorRate} and
 * {@link BaseErrorRate})
 * on the first {@link #READS} reads of its file that
 * the run's {@link ReadFilter} keeps, in file order, whatever regions the run calls: every scatter
 * job, shard count and resume of one sample therefore fits the same rate and writes the same VCF.
 * Reads on contigs the run excludes ({@code --exclude-contigs}), on the mitochondrion and on
 * contigs the reference lacks do not count.
 * The reads are piled up against the reference; each column with two reads or more counts, and
 * those where two reads or more show the same non-reference base become the fit's evidence, each
 * read with the error the caller gives it (the sample's error rate for its base quality, combined
 * with its mapping quality, capped as the image caps them). The other columns' bases, of reads of
 * mapping quality {@value #MIN_INDEL_MAPQ} or more, give that error rate per quality: how often a
 * base of each quality differs from the reference where no two reads agree on another base, per
 * fifth of its read in the order the bases were sequenced ({@link ReadCycle}), and which base a wrong
 * one shows, per reference base and strand.
 * For the indel error rates, each column is also an indel anchor: its reads of mapping quality
 * {@value #MIN_INDEL_MAPQ} or more, those among them whose CIGAR has an insertion after it or a
 * deletion starting after it (the most common such indel is the column's), and the tandem repeat
 * of the reference after it, which gives the column's class. Columns inside a repeat are left out:
 * aligners write a repeat's indels left-aligned, at the column before it.
 */
public final class ReadErrorSample {
  private ReadErrorSample() {}

  /** Reads sampled: half a megabase of columns at 30x with 150 bp reads. */
  public static final int READS = 100_000;
  /** A read spanning more reference than this (a long N or D) is left out of the sample. */
  static final int MAX_SPAN = 10_000;
  /** Records looked at per read wanted, at most. */
  static final int EXAMINED_PER_READ = 4;
  private static final int RING = 1 << 15;
  private static final int REFERENCE_CHUNK = 1 << 20;
  private static final int MIN_DEPTH = 2;
  /** Reads below this mapping quality say nothing of the indel errors (a misplaced read's indels are the aligner's). */
  static final int MIN_INDEL_MAPQ = 20;
  /** An anchor column whose most common indel is on two reads or more and on 1/this of its reads or more looks like a variant's. */
  static final int VARIANT_FRACTION = 5;
  /** Reference bases read after an anchor for its tandem repeat (every class starts below it). */
  static final int MAX_TRACT = 64;
  /** The mitochondrion's usual names: its thousands of reads (chrM sorts first in UCSC's hg19) say nothing of the nuclear genome's. */
  static final Pattern MITOCHONDRIAL = Pattern.compile("(chr)?(M|MT)", Pattern.CASE_INSENSITIVE);

  /** The errors of the reads of {@code settings}, from at most {@code maxReads} of them. */
  public static ReadErrors measure(ExampleSettings settings, int maxReads) {
    ExampleSettings.Inputs inputs = settings.inputs();
    try (InputFiles in = InputFiles.forShard(inputs.reference(), inputs.reads())) {
      ReadFilter filter = new ReadFilter(settings.readFilters(), inputs.sample(), in.reads.getFileHeader());
      Pileup pileup = new Pileup(in, settings.readFilters().defaultBaseQuality());
      ContigExclusion excluded = ContigExclusion.of(inputs.excludeContigs());
      int taken = 0;
      String contig = null;
      boolean skip = false;
      int position = 0; // where the last read started, for the error
      try (SAMRecordIterator it = in.reads.iterator()) {
        // a file whose reads the filter or the sample leave out (no qualities, another sample's) is
        // not read to its end: at most EXAMINED_PER_READ records per read wanted
        for (long examined = 0; it.hasNext() && taken < maxReads && examined < (long) EXAMINED_PER_READ * maxReads;
            examined++) {
          SAMRecord r = it.next();
          // the unplaced reads at the end (getContig() is null for every unmapped read, placed ones too)
          if (r.getReferenceIndex() < 0) break;
          position = r.getAlignmentStart();
          if (!r.getReferenceName().equals(contig)) {
            contig = r.getReferenceName();
            skip = excluded.excludes(contig) || MITOCHONDRIAL.matcher(contig).matches()
                || in.dictionary.getSequence(contig) == null; // a contig the reference lacks has no bases to compare
          }
          if (skip || !filter.accept(r)) continue;
          if (pileup.add(r)) taken++;
        }
      } catch (htsjdk.samtools.SAMException e) {
        throw in.readsProblem(contig == null ? "its first reads" : contig + ":" + position + " (reading its first reads)", e);
      }
      pileup.flushAll();
      return pileup.fit();
    }
  }

  /**
   * Columns piled up as the reads arrive in coordinate order, each read base packed into an int: its
   * base (bits 0-1), strand (2), quality (3-9), mapping quality (10-16) and cycle (17-24).
   */
  static final class Pileup {
    private static final int CYCLE_SHIFT = 17;
    private final InputFiles in;
    private final int defaultBaseQuality;
    private final int[][] columns = new int[RING][];
    private final int[] sizes = new int[RING];
    /** Per column, the indels that start after it: +length (insertion) or -length (deletion). */
    private final int[][] indels = new int[RING][];
    private final int[] indelSizes = new int[RING];
    private final long[] indelReads = new long[IndelErrorRate.CLASSES];
    private final long[] indelColumns = new long[IndelErrorRate.CLASSES];
    private final List<IndelErrorRate.Column> indelEvidence = new ArrayList<>();
    /** Per class, the indel errors of k whole units of the repeat after their anchor ({@link IndelErrorRate#unitShares}). */
    private final long[][] slipsByUnits = new long[IndelErrorRate.CLASSES][IndelErrorRate.MAX_UNITS + 1];
    private String contig;
    private int next; // the first 1-based position not yet flushed
    private int end; // the last position any read reached
    private byte[] reference;
    private int referenceStart = -1;
    private long counted;
    private long mismatches;
    private double promised;
    /** Per base quality, the bases of reads of MAPQ >= MIN_INDEL_MAPQ in columns that are no variant, and their mismatches. */
    private final long[] qualityBases = new long[BaseErrorRate.qualities()];
    private final long[] qualityMismatches = new long[BaseErrorRate.qualities()];
    /** The same bases and mismatches per quality and part of the read ({@link BaseErrorRate#alongRead}). */
    private final long[] binBases = new long[BaseErrorRate.qualities() * BaseErrorRate.CYCLE_BINS];
    private final long[] binMismatches = new long[BaseErrorRate.qualities() * BaseErrorRate.CYCLE_BINS];
    /** The same bases' mismatches per reference base, strand and base shown ({@link BaseErrorRate#substitution}). */
    private final long[] substitutions = new long[BaseErrorRate.substitutions()];
    /** The evidence columns: their reference base index, alt base index and packed reads. */
    private final List<int[]> evidence = new ArrayList<>();
    private final int[] byBase = new int[4];

    Pileup(InputFiles in, int defaultBaseQuality) {
      this.in = in;
      this.defaultBaseQuality = defaultBaseQuality;
    }

    /** Piles the read up; false when it was left out (no qualities, too long a span, malformed). */
    boolean add(SAMRecord r) {
      byte[] quals = r.getBaseQualities();
      byte[] bases = r.getReadBases();
      boolean noQualities = quals == null || quals.length == 0;
      if ((noQualities && defaultBaseQuality < 0) || r.getAlignmentEnd() - r.getAlignmentStart() >= MAX_SPAN) return false;
      // a malformed record (CIGAR and bases or qualities of other lengths) is make_examples' to report
      if (r.getCigar().getReadLength() != bases.length || (!noQualities && quals.length != bases.length)) return false;
      if (!r.getReferenceName().equals(contig)) {
        flushAll();
        contig = r.getReferenceName();
        reference = null;
        next = r.getAlignmentStart();
        end = next - 1;
      }
      flushBefore(r.getAlignmentStart());
      int mq = Math.min(r.getMappingQuality(), PileupConstants.MAPPING_QUALITY_CAP);
      int strand = r.getReadNegativeStrandFlag() ? 1 : 0;
      int clipped = ReadCycle.leadingHardClip(r), sequenced = ReadCycle.sequencedLength(r);
      for (AlignmentBlock b : r.getAlignmentBlocks()) {
        for (int i = 0; i < b.getLength(); i++) {
          int read = b.getReadStart() - 1 + i;
          int base = baseIndex(bases[read]);
          int bq = noQualities ? defaultBaseQuality : quals[read];
          if (base < 0 || bq <= 0) continue;
          bq = Math.min(bq, PileupConstants.BASE_QUALITY_CAP);
          int cycle = BaseErrorRate.cycle(clipped + read, sequenced, strand == 1);
          push(b.getReferenceStart() + i, base | strand << 2 | bq << 3 | mq << 10 | cycle << CYCLE_SHIFT);
        }
      }
      if (r.getMappingQuality() >= MIN_INDEL_MAPQ) pushIndels(r);
      end = Math.max(end, r.getAlignmentEnd());
      return true;
    }

    /** Records each indel of the read's CIGAR at its anchor, the aligned base before it. */
    private void pushIndels(SAMRecord r) {
      int pos = r.getAlignmentStart();
      for (CigarElement e : r.getCigar().getCigarElements()) {
        int len = e.getLength();
        switch (e.getOperator()) {
          case M, EQ, X, N -> pos += len;
          case D -> {
            if (pos > r.getAlignmentStart()) pushIndel(pos - 1, -len);
            pos += len;
          }
          case I -> {
            if (pos > r.getAlignmentStart()) pushIndel(pos - 1, len);
          }
          default -> { }
        }
      }
    }

    private void pushIndel(int anchor, int key) {
      append(indels, indelSizes, anchor, key, 4);
    }

    private void push(int pos, int packed) {
      append(columns, sizes, pos, packed, 64);
    }

    /** Appends {@code value} to the ring's column of {@code pos}, growing it as needed. */
    private static void append(int[][] ring, int[] sizes, int pos, int value, int initial) {
      int slot = pos & (RING - 1);
      int[] c = ring[slot];
      if (c == null) ring[slot] = c = new int[initial];
      else if (sizes[slot] == c.length) ring[slot] = c = Arrays.copyOf(c, c.length * 2);
      c[sizes[slot]++] = value;
    }

    void flushAll() {
      if (contig != null) flushBefore(end + 1);
    }

    private void flushBefore(int pos) {
      for (; next < pos; next++) {
        int slot = next & (RING - 1);
        if (sizes[slot] >= MIN_DEPTH) {
          column(next, columns[slot], sizes[slot]);
          indelColumn(next, columns[slot], sizes[slot], indels[slot], indelSizes[slot]);
        }
        sizes[slot] = 0;
        indelSizes[slot] = 0;
      }
    }

    private void column(int pos, int[] reads, int n) {
      int ref = baseIndex(referenceBase(pos));
      if (ref < 0) return;
      counted++;
      Arrays.fill(byBase, 0);
      int wrong = 0;
      double expected = 0;
      for (int i = 0; i < n; i++) {
        int base = reads[i] & 3;
        expected += PileupLikelihood.promisedError(reads[i] >>> 3 & 0x7F);
        if (base != ref) {
          wrong++;
          byBase[base]++;
        }
      }
      int alt = -1;
      for (int b = 0; b < 4; b++) if (b != ref && (alt < 0 || byBase[b] > byBase[alt])) alt = b;
      if (byBase[alt] >= 2) {
        int[] e = new int[n + 2];
        e[0] = ref;
        e[1] = alt;
        System.arraycopy(reads, 0, e, 2, n);
        evidence.add(e);
      } else {
        mismatches += wrong;
        promised += expected;
        for (int i = 0; i < n; i++) {
          if ((reads[i] >>> 10 & 0x7F) < MIN_INDEL_MAPQ) continue;
          int q = reads[i] >>> 3 & 0x7F;
          int bin = BaseErrorRate.alongRead(q, BaseErrorRate.cycleBin(reads[i] >>> CYCLE_SHIFT & 0xFF));
          qualityBases[q]++;
          binBases[bin]++;
          int base = reads[i] & 3;
          if (base != ref) {
            qualityMismatches[q]++;
            binMismatches[bin]++;
            substitutions[BaseErrorRate.substitution(ref, (reads[i] >>> 2 & 1) == 1, base)]++;
          }
        }
      }
    }

    /**
     * Counts an anchor column for the indel error rates: its reads of mapping quality
     * {@link #MIN_INDEL_MAPQ} or more, in the class of the tandem repeat after it (its length and
     * unit); with an indel,
     * the column and its most common indel's reads are evidence.
     */
    private void indelColumn(int pos, int[] reads, int n, int[] keys, int k) {
      int depth = 0;
      for (int i = 0; i < n; i++) if ((reads[i] >>> 10 & 0x7F) >= MIN_INDEL_MAPQ) depth++;
      if (depth < MIN_DEPTH || baseIndex(referenceBase(pos)) < 0) return;
      // the anchor and the repeat after it, read in place: the chunk that holds the last base
      // starts MAX_TRACT + 1 bases before it, so it holds the anchor too
      referenceBase((int) Math.min(in.dictionary.getSequence(contig).getSequenceLength(), (long) pos + MAX_TRACT));
      int at = pos - referenceStart;
      TandemRepeat.Repeat after = TandemRepeat.longest(reference, at + 1, MAX_TRACT);
      // A column inside a repeat is not where its indels are written (left-aligned, before the
      // repeat): counting its reads would dilute the repeat's errors with columns that never show any.
      if (after.length() > 0 && TandemRepeat.length(reference, at, MAX_TRACT + 1) == after.length() + 1) return;
      int c = IndelErrorRate.classOf(after.length(), after.unit());
      indelReads[c] += depth;
      indelColumns[c]++;
      if (k == 0) return;
      Arrays.sort(keys, 0, k);
      int best = 0;
      for (int i = 0, run = 0; i < k; i++) {
        run = i > 0 && keys[i] == keys[i - 1] ? run + 1 : 1;
        best = Math.max(best, run);
      }
      indelEvidence.add(new IndelErrorRate.Column(c, depth, Math.min(best, depth)));
      countSlips(c, after.unit(), keys, k, best, depth);
    }

    /**
     * Counts the indels of an anchor column ({@code keys}, sorted) by the whole units of the repeat
     * after it that each adds or removes, for {@link IndelErrorRate#unitShares}; none where no unit
     * repeats or where the column looks like a variant's (its most common indel on two reads or
     * more and on a fifth of them or more): a variant's allele is no slip, and the slips of its
     * reads are of the allele's repeat, not the reference's (a slip of one unit of a het's two-unit
     * deletion reads as three units).
     */
    private void countSlips(int c, int unit, int[] keys, int k, int best, int depth) {
      if (unit <= 0 || best >= 2 && best * VARIANT_FRACTION >= depth) return;
      for (int i = 0; i < k; i++) {
        int length = Math.abs(keys[i]);
        if (length % unit == 0) slipsByUnits[c][Math.min(IndelErrorRate.MAX_UNITS, length / unit)]++;
      }
    }

    private byte referenceBase(int pos) {
      if (reference == null || pos < referenceStart || pos >= referenceStart + reference.length) {
        long length = in.dictionary.getSequence(contig).getSequenceLength();
        // from a little before pos: the anchors before it still read their repeats up to pos
        referenceStart = Math.max(1, pos - MAX_TRACT - 1);
        int last = (int) Math.min(length, (long) referenceStart + REFERENCE_CHUNK - 1);
        reference = in.reference.getSubsequenceAt(contig, referenceStart, last).getBases();
      }
      return reference[pos - referenceStart];
    }

    /** The rates fitted to the columns. */
    ReadErrors fit() {
      BaseErrorRate bases = BaseErrorRate.measure(qualityBases, qualityMismatches, substitutions, binBases, binMismatches);
      return new ReadErrors(fitStrandArtifacts(bases),
          IndelErrorRate.estimate(indelEvidence, indelReads, indelColumns, slipsByUnits), bases);
    }

    /**
     * The strand artifact rate fitted to the columns, each read's error as the caller gives it: each
     * base at the sample's measured error for its quality ({@code bases}), a wrong one showing the
     * column's alt as often as the sample's errors of that reference base on that strand do: where
     * errors favour one base on one strand, random errors agree on one strand that often, and are
     * no artifact.
     */
    StrandArtifactRate fitStrandArtifacts(BaseErrorRate bases) {
      if (counted == 0) return StrandArtifactRate.assumed();
      // the window factor of the caller is the excess over the measured rates: here, over all columns, about 1
      double factor = bases.bases() == 0 ? PileupLikelihood.errorFactor(mismatches, promised) : 1.0;
      List<PileupLikelihood.ReadEvidence> sites = new ArrayList<>(evidence.size());
      for (int[] e : evidence) {
        PileupLikelihood.ReadEvidence site = PileupLikelihood.ReadEvidence.snp(bases, e[0], e[1]);
        for (int i = 2; i < e.length; i++) {
          int base = e[i] & 3;
          if (base != e[0] && base != e[1]) continue;
          site.add(base == e[1], PileupLikelihood.readError(bases, e[i] >>> 3 & 0x7F, e[i] >>> CYCLE_SHIFT & 0xFF,
                  e[i] >>> 10 & 0x7F, factor),
              (e[i] >>> 2 & 1) == 1);
        }
        sites.add(site);
      }
      return StrandArtifactRate.estimate(sites, counted);
    }

    private static int baseIndex(byte b) {
      switch (b) {
        case 'A': case 'a': return 0;
        case 'C': case 'c': return 1;
        case 'G': case 'g': return 2;
        case 'T': case 't': return 3;
        default: return -1;
      }
    }
  }
}
