package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupLikelihood;
import dev.fastpipe.streaming.pileup.StrandArtifactRate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.InputFiles;
import htsjdk.samtools.AlignmentBlock;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Measures a sample's {@link StrandArtifactRate} on the first {@link #READS} reads of its file that
 * the run's {@link ReadFilter} keeps, in file order, whatever regions the run calls: every scatter
 * job, shard count and resume of one sample therefore fits the same rate and writes the same VCF.
 * Reads on contigs the run excludes ({@code --exclude-contigs}), on the mitochondrion and on
 * contigs the reference lacks do not count.
 * The reads are piled up against the reference; each column with two reads or more counts, and
 * those where two reads or more show the same non-reference base become the fit's evidence, each
 * read with the error the caller gives it (its base quality, times how many more errors the
 * sample's bases make than their qualities promise, combined with its mapping quality, capped as
 * the image caps them).
 */
public final class StrandArtifactSample {
  private StrandArtifactSample() {}

  /** Reads sampled: half a megabase of columns at 30x with 150 bp reads. */
  public static final int READS = 100_000;
  /** A read spanning more reference than this (a long N or D) is left out of the sample. */
  static final int MAX_SPAN = 10_000;
  /** Records looked at per read wanted, at most. */
  static final int EXAMINED_PER_READ = 4;
  private static final int RING = 1 << 15;
  private static final int REFERENCE_CHUNK = 1 << 20;
  private static final int MIN_DEPTH = 2;
  /** The mitochondrion's usual names: its thousands of reads (chrM sorts first in UCSC's hg19) say nothing of the nuclear genome's. */
  static final Pattern MITOCHONDRIAL = Pattern.compile("(chr)?(M|MT)", Pattern.CASE_INSENSITIVE);

  /** The rate of the reads of {@code settings}, from at most {@code maxReads} of them. */
  public static StrandArtifactRate measure(ExampleSettings settings, int maxReads) {
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

  /** Columns piled up as the reads arrive in coordinate order, each read base packed into an int. */
  static final class Pileup {
    private final InputFiles in;
    private final int defaultBaseQuality;
    private final int[][] columns = new int[RING][];
    private final int[] sizes = new int[RING];
    private String contig;
    private int next; // the first 1-based position not yet flushed
    private int end; // the last position any read reached
    private byte[] reference;
    private int referenceStart = -1;
    private long counted;
    private long mismatches;
    private double promised;
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
      for (AlignmentBlock b : r.getAlignmentBlocks()) {
        for (int i = 0; i < b.getLength(); i++) {
          int read = b.getReadStart() - 1 + i;
          int base = baseIndex(bases[read]);
          int bq = noQualities ? defaultBaseQuality : quals[read];
          if (base < 0 || bq <= 0) continue;
          bq = Math.min(bq, PileupConstants.BASE_QUALITY_CAP);
          push(b.getReferenceStart() + i, base | strand << 2 | bq << 3 | mq << 10);
        }
      }
      end = Math.max(end, r.getAlignmentEnd());
      return true;
    }

    private void push(int pos, int packed) {
      int slot = pos & (RING - 1);
      int[] c = columns[slot];
      if (c == null) columns[slot] = c = new int[64];
      else if (sizes[slot] == c.length) columns[slot] = c = Arrays.copyOf(c, c.length * 2);
      c[sizes[slot]++] = packed;
    }

    void flushAll() {
      if (contig != null) flushBefore(end + 1);
    }

    private void flushBefore(int pos) {
      for (; next < pos; next++) {
        int slot = next & (RING - 1);
        if (sizes[slot] >= MIN_DEPTH) column(next, columns[slot], sizes[slot]);
        sizes[slot] = 0;
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
      }
    }

    private byte referenceBase(int pos) {
      if (reference == null || pos < referenceStart || pos >= referenceStart + reference.length) {
        long length = in.dictionary.getSequence(contig).getSequenceLength();
        referenceStart = pos;
        int last = (int) Math.min(length, (long) pos + REFERENCE_CHUNK - 1);
        reference = in.reference.getSubsequenceAt(contig, pos, last).getBases();
      }
      return reference[pos - referenceStart];
    }

    /** The rate fitted to the columns, each read's error as the caller gives it. */
    StrandArtifactRate fit() {
      if (counted == 0) return StrandArtifactRate.assumed();
      double factor = PileupLikelihood.errorFactor(mismatches, promised);
      List<PileupLikelihood.ReadEvidence> sites = new ArrayList<>(evidence.size());
      for (int[] e : evidence) {
        PileupLikelihood.ReadEvidence site = new PileupLikelihood.ReadEvidence(4);
        for (int i = 2; i < e.length; i++) {
          int base = e[i] & 3;
          if (base != e[0] && base != e[1]) continue;
          site.add(base == e[1], PileupLikelihood.readError(e[i] >>> 3 & 0x7F, e[i] >>> 10 & 0x7F, factor),
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
