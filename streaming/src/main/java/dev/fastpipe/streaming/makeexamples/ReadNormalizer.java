package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.pileup.PileupConstants;
import htsjdk.samtools.Cigar;
import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns the legal variants of a SAM record into the one form the counters, the realigner and the
 * pileup encoder read, so that a read means the same however its aligner wrote it (SAM v1 §1.4):
 * <ul>
 *   <li>SEQ {@code =} (the base is the reference's) becomes the reference base it is aligned to, as
 *       bcftools resolves it ({@code N} in a clip or an insertion, where no reference base is aligned);
 *   <li>CIGAR {@code =} and {@code X} become {@code M}, padding ({@code P}) and zero-length operations
 *       go, and neighbours of one operation merge ({@code 10M1P47M} is {@code 57M});
 *   <li>MAPQ 255 (not available) becomes 60, the cap of the mapping-quality channel, where
 *       DeepVariant's images put it too;
 *   <li>a read without base qualities (QUAL {@code *}) is refused with one line naming it (DeepVariant
 *       stops on a failed check there; bcftools trusts every base), unless {@code --default-base-quality Q}
 *       gives its bases Q.
 * </ul>
 * Reads come in coordinate order, so the reference bases for {@code =} are read in windows of
 * {@link #WINDOW} bases, not once per read.
 */
final class ReadNormalizer {
  /** MAPQ 255: the mapping quality is not available. */
  static final int MAPQ_UNAVAILABLE = 255;
  /** Reference bases read at once for resolving {@code =}. */
  static final int WINDOW = 1 << 16;

  /** Reads the reference bases [start, end) (0-based) of a contig. */
  interface Reference {
    byte[] bases(String contig, int start, int end);
  }

  private final Reference reference;
  private final Path readsPath;
  /** Quality for the bases of reads without qualities; negative: such reads are refused. */
  private final int defaultBaseQuality;
  private String windowContig;
  private int windowStart;
  private byte[] window = new byte[0];
  /** Reads given {@link #defaultBaseQuality} because they had none. */
  long readsWithoutQualities;

  ReadNormalizer(Reference reference, Path readsPath, int defaultBaseQuality) {
    this.reference = reference;
    this.readsPath = readsPath;
    this.defaultBaseQuality = defaultBaseQuality;
  }

  /** Rewrites {@code r} in place (a read that passed the filter: mapped, with bases and a CIGAR). */
  void normalize(SAMRecord r) {
    Cigar cigar = r.getCigar();
    if (needsRewrite(cigar)) r.setCigar(canonical(cigar));
    byte[] bases = r.getReadBases();
    if (indexOf(bases, (byte) '=') >= 0) resolveEquals(r, bases);
    if (r.getBaseQualities().length == 0 && bases.length > 0) fillQualities(r, bases.length);
    if (r.getMappingQuality() == MAPQ_UNAVAILABLE) r.setMappingQuality(PileupConstants.MAPPING_QUALITY_CAP);
  }

  private static boolean needsRewrite(Cigar cigar) {
    CigarOperator previous = null;
    for (int i = 0, n = cigar.numCigarElements(); i < n; i++) { // by index: no list wrapper, no iterator per read
      CigarElement e = cigar.getCigarElement(i);
      CigarOperator op = e.getOperator();
      if (op == CigarOperator.EQ || op == CigarOperator.X || op == CigarOperator.P || e.getLength() == 0 || op == previous) {
        return true;
      }
      previous = op;
    }
    return false;
  }

  /** {@code cigar} with EQ and X as M, without P and zero-length operations, neighbours merged. */
  static Cigar canonical(Cigar cigar) {
    List<CigarElement> out = new ArrayList<>();
    for (CigarElement e : cigar.getCigarElements()) {
      CigarOperator op = e.getOperator();
      if (op == CigarOperator.P || e.getLength() == 0) continue;
      if (op == CigarOperator.EQ || op == CigarOperator.X) op = CigarOperator.M;
      int last = out.size() - 1;
      if (last >= 0 && out.get(last).getOperator() == op) {
        out.set(last, new CigarElement(out.get(last).getLength() + e.getLength(), op));
      } else {
        out.add(new CigarElement(e.getLength(), op));
      }
    }
    return new Cigar(out);
  }

  private void resolveEquals(SAMRecord r, byte[] bases) {
    byte[] b = Arrays.copyOf(bases, bases.length);
    int readPos = 0;
    int refPos = r.getAlignmentStart() - 1;
    for (CigarElement e : r.getCigar().getCigarElements()) {
      CigarOperator op = e.getOperator();
      int len = e.getLength();
      if (op.isAlignment()) {
        for (int k = 0; k < len; k++) if (b[readPos + k] == '=') b[readPos + k] = referenceBase(r.getContig(), refPos + k);
      } else if (op.consumesReadBases()) { // '=' against no reference base (clipped, inserted): unknown
        for (int k = 0; k < len; k++) if (b[readPos + k] == '=') b[readPos + k] = 'N';
      }
      if (op.consumesReadBases()) readPos += len;
      if (op.consumesReferenceBases()) refPos += len;
    }
    r.setReadBases(b);
  }

  private byte referenceBase(String contig, int pos) {
    if (!contig.equals(windowContig) || pos < windowStart || pos >= windowStart + window.length) {
      windowContig = contig;
      windowStart = pos;
      window = reference.bases(contig, pos, pos + WINDOW); // clipped to the contig
      if (window.length == 0) {
        throw new InputException(readsPath + ": a read is aligned at " + contig + ":" + (pos + 1) + ", past the end of the reference's contig");
      }
    }
    return window[pos - windowStart];
  }

  private void fillQualities(SAMRecord r, int length) {
    if (defaultBaseQuality < 0) {
      throw new InputException(readsPath + ": read " + r.getReadName() + " at " + r.getContig() + ":" + r.getAlignmentStart()
          + " has no base qualities (QUAL is '*'); call such reads with --default-base-quality Q (e.g. 30),"
          + " which gives each of their bases quality Q");
    }
    byte[] q = new byte[length];
    Arrays.fill(q, (byte) defaultBaseQuality);
    r.setBaseQualities(q);
    readsWithoutQualities++;
  }

  private static int indexOf(byte[] a, byte x) {
    for (int i = 0; i < a.length; i++) if (a[i] == x) return i;
    return -1;
  }
}
