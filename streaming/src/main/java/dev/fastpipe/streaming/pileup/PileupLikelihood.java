package dev.fastpipe.streaming.pileup;

import dev.fastpipe.streaming.genome.TandemRepeat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.DirectBuffer;

/**
 * The genotype likelihoods of a bi-allelic SNP or indel example ({@link #indel}), read back from the pileup image the
 * network classifies: the read rows' base at the candidate column (the image's centre), whether the
 * read supports the alt, and its base and mapping quality there, as {@link PileupImageEncoder}
 * drew them with DeepVariant's six channels (read base, base quality, mapping quality, strand,
 * read supports variant, base differs from ref, in that order; a seventh channel after them changes
 * nothing). Each read's error rate e combines a base error f * 10^(-BQ/10) and a mapping error
 * 10^(-MQ/10) (BQ capped at 40 and MQ at 60 as the image caps them; e = b + m - bm), where f >= 1 is
 * how many more errors than their qualities promise the window's other bases show
 * ({@link #errorFactor}: qualities are measured, not trusted), and, as bcftools and GATK do, reads
 * are independent given the genotype:
 *
 * <pre>
 *   alt read:  L(0/0) *= e/3      L(0/1) *= (1 - e)/2 + e/6      L(1/1) *= 1 - e
 *   ref read:  L(0/0) *= 1 - e    L(0/1) *= (1 - e)/2 + e/6      L(1/1) *= e/3
 * </pre>
 *
 * except that the two reads of one fragment ({@link #snp}'s {@code mateOf}: overlapping mates) are
 * one haplotype's, so het counts the fragment as the reference's or the alt's, half and half
 * ({@link ReadEvidence#addPair}): one mate's alt against the other's reference is an error, not a
 * het (bcftools and GATK count such a pair once too), while an indel's reads stay independent (PCR
 * stutter puts the same error in both mates); and except that hom-ref also explains a strand
 * artifact, the systematic error of real Illumina data
 * (and of the training data's injected errors) where one strand's reads carry the same wrong base:
 * L(0/0) += p_a/2 * B(alts_s + 1, refs_s + 1) * prod(e_i / mean e) * L_other strand(0/0) for each
 * strand s with alt reads, with B the Beta integral (the artifact's fraction is unknown), the
 * product over that strand's alt reads of their error e_i against the sample's share of wrong bases
 * ({@link BaseErrorRate#meanError}: an artifact's bases are wrong bases, and carry the qualities
 * wrong bases carry, so four Q37 alt reads weigh against it and five Q10 ones for it) and p_a the
 * sample's strand artifact rate (relative to hom-ref), which {@link StrandArtifactRate} measures on
 * the run's own reads with the same terms: data with many artifacts (real reads) make alt reads on
 * one strand only, against a clean other strand, errors until there are many; data with none (most
 * simulators) leave them to the plain model, as bcftools does. A het shows its alt on both strands.
 *
 * Rows with no base at the centre (a deletion, an indel anchor, a read that ends before it), rows
 * whose base is neither the reference nor the alt, the image's reference rows, and reads that show the
 * reference with an indel of their own within {@value #OWN_INDEL_COLUMNS} columns
 * ({@link #ownIndelNearCentre}: the aligner may have moved it to hide the SNP, which bcftools' BAQ
 * allows for) count for nothing. The
 * result is log10 L per genotype {0/0, 0/1, 1/1}, shifted so that the largest is 0 (VCF's GL, up to
 * that constant). Unlike the network, it sees every read row the same way wherever the reads are
 * few; the genotype combiner weighs it against the network with the model's fitted weight
 * ({@code postprocess.AlleleCountLikelihood}).
 */
public final class PileupLikelihood {
  private PileupLikelihood() {}

  static final int BASE_QUALITY = 1;
  static final int MAPPING_QUALITY = 2;
  static final int SUPPORTS_VARIANT = 4;
  static final int DIFFERS_FROM_REF = 5;
  private static final int SUPPORTING = ReadSupportsVariantChannel.supportsAltColor(1);
  private static final int MATCHES_REF = BaseDiffersFromRefChannel.matchesRefColor(true);
  private static final int DIFFERS = BaseDiffersFromRefChannel.matchesRefColor(false);
  private static final double[] ERROR = new double[61];
  /** The read-base channel's colour of A, C, G or T as 0..3 (any other colour: 0; no base is 0 and is skipped). */
  private static final int[] BASE_INDEX = new int[256];
  private static final byte[] BASES = {'A', 'C', 'G', 'T'};

  static {
    for (int i = 0; i < BASES.length; i++) BASE_INDEX[ReadBaseChannel.baseColor(BASES[i])] = i;
    for (int q = 0; q < ERROR.length; q++) ERROR[q] = Math.pow(10, -q / 10.0);
  }

  /** Columns this close to the centre are the candidate's own: they do not measure the errors. */
  static final int OWN_COLUMNS = 1;
  /** A column where this many reads show one and the same non-reference base is a variant, not errors. */
  static final int VARIANT_COLUMN_READS = 2;
  /** Pseudo-counts of the error-rate factor: a window with no evidence keeps the qualities as they are. */
  static final double PRIOR_ERRORS = 1;
  static final int STRAND = 3;
  /** A read's error rate never exceeds this (3 of 4 bases wrong would be no information). */
  static final double MAX_ERROR = 0.75;

  /**
   * The log10 likelihoods {0/0, 0/1, 1/1} (largest 0) of the SNP example whose image of
   * {@code height x width x channels} starts at {@code buffer[offset]}, read with what {@code inputs}
   * holds of the sample and the record ({@link SnpInputs}); null when the image has fewer than six
   * channels or no read row with the reference or alt base at the centre.
   *
   * <p>A read that deletes the centre's base, in a deletion whose anchor {@value #SHARED_INDEL_ROWS}
   * rows or more share (a variant's, not an error of its own), counts as a read without the alt, as a
   * reference read does, at the error of its anchor's base: its haplotype carries neither base, so
   * 0/1 and 1/1 leave it to an error (a SNP called inside a 1/1 deletion, on AD 1,2 beside 53 reads
   * that delete its base, was 0/1; a het SNP on the other haplotype of a het deletion keeps half its
   * reads as the alt's).
   *
   * <p>With the sample's indel slips ({@link SnpInputs#slips}), in three places: an indel anchor that
   * {@value #SHARED_INDEL_ROWS} rows or more share is a variant's only where a het explains its rows
   * better than the sample's slips in the repeat after it ({@link #variantAnchorRows}): PCR stutter
   * puts 8 of 63 reads' unit deletion at one anchor. And a read that deletes the centre's base where
   * deleting bases of a repeat of the alt's haplotype gives the same sequence ({@link #altSlipRate})
   * is a read of that haplotype that slipped as much as it is one without the alt: its error is at
   * least the sample's slip rate in that repeat. A hom-alt SNP that extends a T run or a (TA)n repeat,
   * whose stutter reads delete one unit (the aligner writes it over the SNP's base, AD 0,55 beside 8
   * such reads), came out 0/1. And where the sample slips beyond the GQ map's envelope, an alt read
   * that is a slip's rather than the SNP's counts for nothing ({@link #slippedAlt}). A read showing
   * another base than the reference row's near the centre (a reference read) or the reference's
   * centre base beside it (an alt read) may be the other allele's haplotype slipped by 1-4 bases and
   * laid without a gap ({@link #slipOfHaplotype}, {@link #movedSlipRate}): blind62's hom-alt G>T in
   * a (TGA)n repeat was 0/1 on AD 2,16 beside reads one unit short; blind68's reads one (TTTC) unit
   * longer around a hom-alt T>C carried its C one unit on and made a false T>C, 0/1 on AD 53,8. An alt
   * read is tried so where it shows the reference's centre base beside the centre, or where the sample
   * has the alt's base 2-4 columns away and the read the reference's centre base as far the other way
   * ({@link #altOfShiftedSample}): blind73's reads one CA longer around a hom-alt C>T in (CA)n show
   * the T two columns on, the repeat's A beside it.
   *
   * <p>At a site whose other alleles include indels ({@link SnpInputs#siteRef},
   * {@link SnpInputs#indelAlts}), an alt read with an indel near the centre, or one that shows the
   * reference's centre base beside it, may be one of their haplotypes slipped ({@link
   * #slipOfHaplotype}), as it may be the reference's. blind58's hom-alt insertion C>CT between nine T
   * and five made a false C>T (and T>C one base before) from reads of the insertion's haplotype with
   * eight T before the C, which an aligner lays without a gap: the C a column back, then six T over
   * the reference's C and five T. Called 1/2 (C>CT,T) at GQ 1 on AD 1,54,8. Only where the indel has
   * as many reads anchored at the centre as the SNP has alt reads: with fewer, its reads are the
   * SNP's haplotype slipped, not the source of the SNP's (blind73's het T>A inside 36 T, 20 alt reads
   * of 59 beside 4 that insert an A, came out RefCall). And a read with an indel
   * anchored at the centre that {@value #SHARED_INDEL_ROWS} rows or more share (the site's indel,
   * anchored on the reference's base) is a read without the SNP's alt, unless it is a read of the
   * alt's haplotype slipped ({@link #slipOfHaplotype}): the image draws no base there, so the SNP's
   * reads alone made those 54 reads' site a hom-alt SNP's; and blind59's hom-alt T>G near the end of a
   * run of 13 T has four reads with one T more in the run, written as the reference's T and an
   * insertion of the G.
   *
   * <p>Each read's base at the centre errs as the sample's bases of its quality do at its place in the
   * read ({@link SnpInputs#cycles}, {@link BaseErrorRate#at(int, int)}): dwgsim's and Mason's late
   * bases err three to five times as often as their early ones of one quality, and two late alt reads
   * at 10-20x made false hets that two early ones do not.
   *
   * <p>Where the alt reads share a second changed base within {@value #LINK_COLUMNS} columns (a
   * multi-nucleotide variant), each read that shows all of the variant's bases or none of them is
   * read with them ({@link LinkedReads}): the other haplotype's only if each of its bases there is
   * wrong. An MNP's bases, called one by one, came out with different filters on the same two reads.
   *
   * <p>Where a het column beside the site places its reads on two haplotypes ({@link #phase}), the het
   * likelihood reads them so placed: the alt on either haplotype, each read on its own unless its
   * base at the column is wrong, or the column is none of the sample's hets ({@value
   * #PHASE_COLUMN_ERROR}) and the reads count unphased. Error reads fall on both haplotypes beside
   * reads of the same haplotype that show the reference; a real het's alt reads on one.
   *
   * <p>Where a read was taken for a slip and the sample's loci of the repeat at the site slip apart
   * ({@link IndelErrorRate#locusWeights}), the likelihoods are summed over that spread ({@link
   * #overLoci}), as an indel's are: blind68's hom-alt T>C inside a (TTTC)n with 11 of its 60 reads
   * slipped a unit, at the class's rate (0.012 a read) a het's, stayed LowQual at GQ 2 at 20-60x.
   */
  public static float[] snp(DirectBuffer buffer, int offset, int height, int width, int channels, SnpInputs inputs) {
    AtRates first = snpAtRates(buffer, offset, height, width, channels, inputs);
    if (first == null) return null;
    if (!first.slipped()) return shifted(first.likelihoods());
    TandemRepeat.Repeat locus = repeatAround(buffer, offset, width, channels, (width - 1) / 2);
    return overLoci(inputs.slips().locusWeights(locus.length(), locus.unit()),
        m -> {
          AtRates at = m == 1 ? first : snpAtRates(buffer, offset, height, width, channels, inputs.withSlips(inputs.slips().atLocus(m)));
          return at == null ? null : at.likelihoods();
        });
  }

  /** {@link #snpAtRates}' unshifted log10 likelihoods, and whether a read was taken for a slip of the other allele's haplotype. */
  private record AtRates(double[] likelihoods, boolean slipped) {}

  /**
   * The longest tandem repeat of the reference row that covers column {@code col} or ends or starts
   * beside it (starting at most {@value #SLIP_WINDOW} columns before it): at the centre, the locus
   * whose slips a SNP's slipped reads show; at a het column, one whose slipped reads make such a
   * column ({@link #inRepeat}).
   */
  static TandemRepeat.Repeat repeatAround(DirectBuffer buffer, int offset, int width, int channels, int col) {
    TandemRepeat.Repeat best = new TandemRepeat.Repeat(0, 0);
    for (int c = Math.max(0, col - SLIP_WINDOW); c <= Math.min(width - 1, col + 1); c++) {
      TandemRepeat.Repeat r = tandemRepeat(buffer, offset, width, channels, c);
      if (c + r.length() >= col && r.length() > best.length()) best = r;
    }
    return best;
  }

  /**
   * {@link #snp}'s unshifted log10 likelihoods at the slip rates {@code inputs} holds, one locus's,
   * and whether a read was taken for a slip of the other allele's haplotype; null where {@link #snp}
   * has none.
   */
  private static AtRates snpAtRates(DirectBuffer buffer, int offset, int height, int width, int channels, SnpInputs inputs) {
    double artifactRate = inputs.artifactRate();
    BaseErrorRate baseErrors = inputs.baseErrors();
    IndelErrorRate slips = inputs.slips();
    int[] mateOf = inputs.mateOf();
    byte[] cycles = inputs.cycles();
    String siteRef = inputs.siteRef();
    String[] indelAlts = inputs.indelAlts();
    if (channels < 6 || width < 1 || height <= PileupConstants.REFERENCE_ROWS) return null;
    int centre = (width - 1) / 2;
    double factor = errorFactor(buffer, offset, height, width, channels, baseErrors);
    int rowLength = width * channels;
    int[] anchors = anchorRowsNearCentre(buffer, offset, height, width, channels);
    boolean indelNear = false; // an indel that reads share near the centre: its reads laid without a gap share changed bases
    for (int n : anchors) indelNear |= n >= SHARED_INDEL_ROWS;
    int siteIndelReads = anchors[OWN_INDEL_COLUMNS]; // reads with an indel anchored at the centre: a mixed site's indel's
    int altReads = 0;
    byte[] sampleNear = null; // the sample's bases near the centre (sampleBasesNearCentre), once an alt read needs them
    if (slips != null) anchors = variantAnchorRows(buffer, offset, height, width, channels, centre - OWN_INDEL_COLUMNS, anchors, slips);
    Fragments fragments = new Fragments(height - PileupConstants.REFERENCE_ROWS, mateOf == null ? new int[0] : mateOf);
    int altBase = -1;
    int[] deletionRows = null; // per column, the read rows with an indel anchor there: only where a read deletes the site
    int[] deleting = null; // the deleting reads' rows and anchors, weighed once the alt's base is known
    int deletingCount = 0;
    int[] gapped = null; // rows of reads with an indel near the centre and its anchor (or MOVED), alike
    int gappedCount = 0;
    int refBase = baseIndex(buffer.getByte(offset + centre * channels) & 0xFF);
    LinkedReads linked = null; // the reads whose bases beside the centre may be one variant's with it
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int at = offset + r * rowLength + centre * channels;
      int bqPixel = buffer.getByte(at + BASE_QUALITY) & 0xFF;
      int basePixel = buffer.getByte(at) & 0xFF;
      if (bqPixel == 0 && basePixel == 0 && (buffer.getByte(at + STRAND) & 0xFF) == 0) {
        // nothing drawn: no read here, or a read that deletes the site's base
        int anchor = deletionAnchorSpanning(buffer, offset + r * rowLength, width, channels, centre);
        if (anchor < 0) continue;
        if (deletionRows == null) {
          deletionRows = anchorRows(buffer, offset, height, width, channels, 0, width);
          if (slips != null) deletionRows = variantAnchorRows(buffer, offset, height, width, channels, 0, deletionRows, slips);
        }
        if (deletionRows[anchor] < SHARED_INDEL_ROWS) continue; // a lone read's deletion (or a slip): an error under any genotype
        if (deleting == null) deleting = new int[2 * (height - PileupConstants.REFERENCE_ROWS)];
        deleting[deletingCount++] = r;
        deleting[deletingCount++] = anchor;
        continue;
      }
      if (indelAlts != null && basePixel == 0 && bqPixel != 0 && anchors[OWN_INDEL_COLUMNS] >= SHARED_INDEL_ROWS) {
        // a read of the site's indel, anchored on the reference's base: one without the SNP's alt, unless
        // a read of the alt's haplotype slipped (the image draws neither the anchor's base nor an insertion's)
        int mq = quality(buffer.getByte(at + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP);
        fragments.add(r - PileupConstants.REFERENCE_ROWS, false,
            readError(baseErrors, quality(bqPixel, PileupConstants.BASE_QUALITY_CAP), cycleOf(cycles, r), mq, factor),
            reverse(buffer, at));
        if (slips != null) {
          if (gapped == null) gapped = new int[2 * (height - PileupConstants.REFERENCE_ROWS)];
          gapped[gappedCount++] = r;
          gapped[gappedCount++] = ANCHORED;
        }
        continue;
      }
      if (bqPixel == 0 || basePixel == 0) continue; // no base here, an indel anchor '*', an N, or Q0
      int supports = buffer.getByte(at + SUPPORTS_VARIANT) & 0xFF;
      int differs = buffer.getByte(at + DIFFERS_FROM_REF) & 0xFF;
      boolean alt = supports == SUPPORTING && differs == DIFFERS;
      boolean ref = supports != SUPPORTING && differs == MATCHES_REF;
      if (!alt && !ref) continue;
      if (ref && ownIndelNearCentre(buffer, offset + r * rowLength, width, channels, anchors)) continue;
      if (alt && slips != null && slippedAlt(buffer, offset, height, offset + r * rowLength, width, channels, basePixel, anchors, slips)) {
        continue;
      }
      if (alt && altBase < 0) altBase = baseIndex(basePixel);
      if (alt) altReads++;
      int mq = quality(buffer.getByte(at + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP);
      int cycle = cycleOf(cycles, r);
      double baseError = baseError(baseErrors, quality(bqPixel, PileupConstants.BASE_QUALITY_CAP), cycle, factor);
      fragments.add(r - PileupConstants.REFERENCE_ROWS, alt, combined(baseError, ERROR[mq]), baseError, reverse(buffer, at));
      if (linked == null) linked = new LinkedReads(height - PileupConstants.REFERENCE_ROWS);
      linked.add(r - PileupConstants.REFERENCE_ROWS, alt, baseError, mq, cycle);
      int indel = slips == null ? -1 : indelAnchorNearCentre(buffer, offset + r * rowLength, width, channels);
      if (indel < 0 && slips != null && !ref && refBase >= 0 && sampleNear == null) {
        sampleNear = sampleBasesNearCentre(buffer, offset, height, width, channels);
      }
      if (indel < 0 && slips != null && (ref ? otherBaseNearCentre(buffer, offset, offset + r * rowLength, width, channels)
          : refBase >= 0 && (baseBesideCentre(buffer, offset + r * rowLength, width, channels, refBase)
              || altOfShiftedSample(buffer, offset + r * rowLength, width, channels, sampleNear, baseIndex(basePixel), refBase)))) {
        indel = MOVED;
      }
      if (indel != -1) { // its slip weighed once the alt's base is known: a slipped read of the other haplotype?
        if (indel != MOVED) linked.drop(r - PileupConstants.REFERENCE_ROWS); // an indel of its own beside the centre
        if (gapped == null) gapped = new int[2 * (height - PileupConstants.REFERENCE_ROWS)];
        gapped[gappedCount++] = r;
        gapped[gappedCount++] = indel;
      }
    }
    byte[] altHaplotype = null; // the sample's bases with the alt at the centre, once a read needs them
    byte[] refHaplotype = null; // and with the reference's
    if ((gappedCount > 0 || deletingCount > 0) && slips != null && altBase >= 0 && refBase >= 0) {
      altHaplotype = sampleBases(buffer, offset, height, width, channels);
      refHaplotype = altHaplotype.clone();
      if (centre < altHaplotype.length) {
        altHaplotype[centre] = BASES[altBase];
        refHaplotype[centre] = BASES[refBase];
      }
    }
    if (gappedCount > 0 && altHaplotype != null) {
      // an alt read may be the site's indel's haplotype slipped only where that indel has as many reads as the SNP's alt:
      // fewer, and they are the SNP's haplotype slipped (a het T>A inside 36 T beside 4 reads that insert an A was RefCall)
      boolean indelAsStrong = siteIndelReads >= altReads;
      // null where one does not fit
      byte[][] indelHaplotypes = new byte[indelAlts == null || !indelAsStrong ? 0 : indelAlts.length][];
      for (int k = 0; k < indelHaplotypes.length; k++) indelHaplotypes[k] = withAllele(refHaplotype, centre, siteRef, indelAlts[k]);
      for (int i = 0; i < gappedCount; i += 2) {
        int r = gapped[i], anchor = gapped[i + 1];
        int at = offset + r * rowLength + centre * channels;
        boolean alt = anchor != ANCHORED && (buffer.getByte(at + SUPPORTS_VARIANT) & 0xFF) == SUPPORTING;
        byte[] other = alt ? refHaplotype : altHaplotype; // the haplotype the read does not show at the centre
        // a read may be the other haplotype slipped by more than a base: slipOfHaplotype reads any slip of 1-4
        double slip = anchor == MOVED ? Math.max(movedSlipRate(buffer, offset + r * rowLength, width, channels, other, slips),
                slipOfHaplotype(buffer, offset + r * rowLength, width, channels, other, slips))
            : anchor == ANCHORED ? slipOfHaplotype(buffer, offset + r * rowLength, width, channels, other, slips)
            : slipRateOfIndel(buffer, offset + r * rowLength, width, channels, other, anchor, slips);
        for (int k = 0; alt && k < indelHaplotypes.length; k++) {
          if (indelHaplotypes[k] == null) continue;
          slip = Math.max(slip, slipOfHaplotype(buffer, offset + r * rowLength, width, channels, indelHaplotypes[k], slips));
        }
        int mq = quality(buffer.getByte(at + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP);
        if (slip > 0) {
          fragments.slipped(r - PileupConstants.REFERENCE_ROWS, combined(slip, ERROR[mq]));
          if (linked != null) linked.drop(r - PileupConstants.REFERENCE_ROWS); // its bases beside the centre may be a slip's
        }
      }
    }
    // reads are read with other columns (an MNP's bases, a het's) only away from an indel that reads share
    boolean readTogether = altBase >= 0 && refBase >= 0 && !indelNear && deletingCount == 0;
    if (linked != null && readTogether) linked.link(buffer, offset, width, channels, baseErrors, factor, fragments);
    for (int i = 0; i < deletingCount; i += 2) {
      int r = deleting[i], anchor = deleting[i + 1];
      double slip = altHaplotype == null ? 0
          : altSlipRate(buffer, offset + r * rowLength, width, channels, altHaplotype, anchor,
              deletedColumns(buffer, offset + r * rowLength, width, channels, anchor), slips);
      addDeletingRead(buffer, offset, r, rowLength, channels, anchor, baseErrors, factor, slip, fragments);
    }
    if (readTogether) phase(buffer, offset, height, width, channels, baseErrors, factor, fragments);
    // the sample's substitutions where both bases are known, else a third each
    ReadEvidence reads = refBase >= 0 && altBase >= 0 && refBase != altBase
        ? ReadEvidence.snp(baseErrors, refBase, altBase)
        : new ReadEvidence(4, baseErrors.meanError());
    fragments.addTo(reads);
    double[] l = reads.likelihoodsUnshifted(artifactRate);
    return l == null ? null : new AtRates(l, slips != null && fragments.anySlip());
  }

  /** The shortest run of the reference beside a SNP whose base a read's alt may be, moved ({@link #shiftedBase}). */
  static final int SHIFT_RUN = 4;

  /**
   * Whether an alt read at a SNP is a slip's rather than the SNP's, where the sample's reads slip
   * beyond the envelope ({@link IndelErrorRate#beyondEnvelope}) in the repeat concerned: it has an
   * indel of its own within {@value #OWN_INDEL_COLUMNS} columns whose repeat is such (as a reference
   * read with an indel of its own counts for nothing anywhere), or its alt is a base of such a run
   * beside the centre moved by one column ({@link #shiftedBase}). Outside such repeats, or in samples
   * that slip no more than the GQ map's, both are as likely a real SNP's read (a TA>AT MNP beside
   * an A run; a het's two alt reads, one with an indel error): validation lost five SNPs where they
   * applied everywhere.
   *
   * <p>An indel is the read's own where fewer than {@value #SHARED_INDEL_ROWS} rows share its anchor
   * column, or fewer share its form there ({@link #rowsOfForm}: a deletion of as many bases, or an
   * insertion) or the sample's slips explain those that do ({@link #slipsExplain}), though more share
   * the column with a variant's indel of another length. blind80's
   * hom-alt TATAT>T after CAC(AT)n, whose stutter reads one AT longer in the (AT)n before it the
   * aligner wrote as a 2-base deletion at the variant's anchor and two mismatches, made false hets
   * C>T on AD 13,2 and T>C on AD 0,2 at 15 and 20x: the 4-base deletion's 12 reads hid the two
   * reads' own.
   */
  static boolean slippedAlt(DirectBuffer buffer, int offset, int height, int row, int width, int channels, int basePixel,
      int[] anchors, IndelErrorRate slips) {
    int first = (width - 1) / 2 - OWN_INDEL_COLUMNS; // anchors[0]'s column
    for (int c = anchorColumnNearCentre(buffer, row, width, channels, 0); c >= 0;
        c = anchorColumnNearCentre(buffer, row, width, channels, c + 1)) {
      TandemRepeat.Repeat after = tandemRepeat(buffer, offset, width, channels, c + 1);
      if (!slips.beyondEnvelope(after.length(), after.unit())) continue;
      if (anchors[c - first] >= SHARED_INDEL_ROWS) {
        int form = rowsOfForm(buffer, offset, height, width, channels, c, deletedColumns(buffer, row, width, channels, c));
        if (form >= SHARED_INDEL_ROWS && !slipsExplain(form, Math.max(drawnRows(buffer, offset, height, width, channels, c), form),
            slips.ofReferenceReads(after.length(), after.unit()))) {
          continue; // a variant's indel, as the read shows it
        }
      }
      return true;
    }
    int run = shiftedBase(buffer, offset, row, width, channels, basePixel);
    return run > 0 && slips.beyondEnvelope(run, 1);
  }

  /**
   * The read rows with an indel anchored at column {@code c} of the form {@code deleted}: as many
   * blank columns after it ({@link #deletedColumns}; 0: an insertion, whose bases the image does not
   * draw, or an N, drawn as an anchor is).
   */
  static int rowsOfForm(DirectBuffer buffer, int offset, int height, int width, int channels, int c, int deleted) {
    int rowLength = width * channels;
    int n = 0;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int row = offset + r * rowLength;
      if (indelAnchorIn(buffer, row, channels, c, c) && deletedColumns(buffer, row, width, channels, c) == deleted) n++;
    }
    return n;
  }

  /**
   * The length of the reference's run beside the centre whose base the read in {@code row}, showing
   * base {@code basePixel} other than the reference's at the centre, shows moved by one column rather
   * than a SNP (0: none): its base is the reference's at a column beside the centre and, one column
   * the other way, it shows the reference's centre base or ends (or is clipped). A read of a haplotype
   * whose run is one base longer before the centre (or shorter), aligned without a gap, shows just
   * that: in an A run broken by one G, reads with one A more before the G and one fewer after it carry an A at the G and the G
   * one column on (two mismatches cost an aligner less than two gaps), and a read that ends at the G
   * shows the run's A there. A dev stutter sample's false 0/1 SNP at 60x, AD 53,8 in such a run, had
   * every alt read so (or with an indel of its own beside it). Only where the base beside the centre
   * is the end of a run of at least {@value #SHIFT_RUN} (a two-base swap elsewhere may be a real
   * MNP's). A real SNP's read shows this only with a second error beside it, or where it ends on the
   * SNP and the SNP's base continues the run.
   */
  static int shiftedBase(DirectBuffer buffer, int offset, int row, int width, int channels, int basePixel) {
    int centre = (width - 1) / 2;
    int base = baseIndex(basePixel);
    int refCentre = baseAt(buffer, offset, channels, centre);
    if (base < 0 || refCentre < 0) return 0;
    for (int side = -1; side <= 1; side += 2) {
      int from = centre + side, to = centre - side; // the base came from 'from'; the centre's went to 'to'
      if (from < 0 || from >= width || to < 0 || to >= width) continue;
      int run = 0;
      for (int c = from; c >= 0 && c < width && baseAt(buffer, offset, channels, c) == base; c += side) run++;
      if (run < SHIFT_RUN) continue;
      int toAt = row + to * channels;
      if ((buffer.getByte(toAt + STRAND) & 0xFF) == 0) return run; // the read ends (or is clipped) at the centre
      if (baseAt(buffer, row, channels, to) == refCentre && baseAt(buffer, offset, channels, to) != refCentre) return run;
    }
    return 0;
  }

  /** A het column is at least this many columns from the SNP: nearer, its bases may be an MNP's with it ({@link LinkedReads}). */
  static final int PHASE_MIN_DISTANCE = PileupLikelihood.LINK_COLUMNS + 1;
  /** A het column shows each of its two bases on at least this many reads, and phases at least this many of the SNP's. */
  static final int PHASE_COLUMN_READS = 3;
  /** A het column shows the reference's base on at least this many reads. */
  static final int PHASE_REFERENCE_READS = 2;
  /** A het column's reads show a third base on at most one in this many. */
  static final int PHASE_OTHER_SHARE = 10;
  /** The chance that a het column, as {@link #phase} finds it, is not one of the sample's hets. */
  static final double PHASE_COLUMN_ERROR = 0.02;

  /**
   * Places the SNP's reads in {@code fragments} on the two haplotypes of a het column beside it
   * ({@link #phaseColumn}, at least {@value #PHASE_MIN_DISTANCE} columns from the centre). Two hets of
   * a diploid sit on one haplotype or on two, on every read: at a real het every read of the alt's
   * haplotype shows the alt, while a SNP's error reads fall on both beside reads of the same
   * haplotype that show the reference. At 10-15x the false SNPs are mostly 0/1 on two alt reads of
   * twelve, which read one by one a het explains as well as two errors (GQ 3, half of them wrong).
   */
  static void phase(DirectBuffer buffer, int offset, int height, int width, int channels, BaseErrorRate baseErrors,
      double factor, Fragments fragments) {
    int centre = (width - 1) / 2;
    boolean[] placeable = new boolean[fragments.rows()];
    for (int i = 0; i < placeable.length; i++) placeable[i] = fragments.informative(i);
    PhaseColumn column = phaseColumn(buffer, offset, height, width, channels, placeable,
        centre - PHASE_MIN_DISTANCE + 1, centre + PHASE_MIN_DISTANCE - 1);
    if (column == null) return;
    for (int i = 0; i < placeable.length; i++) {
      byte hap = placeable[i] ? column.haplotype(buffer, offset, i, width, channels) : Fragments.UNPHASED;
      if (hap != Fragments.UNPHASED) fragments.phased(i, hap, column.error(buffer, offset, i, width, channels, baseErrors, factor));
    }
  }

  /**
   * A het column beside a site: its {@code column} and the {@code base} (0..3) other than the
   * reference's that half its reads show.
   */
  record PhaseColumn(int column, int base) {
    /**
     * The haplotype of read row {@code i} (0 = the first read row): {@link Fragments#HAPLOTYPE_A}
     * where it shows the column's other base, {@link Fragments#HAPLOTYPE_B} where it shows the
     * reference's, else {@link Fragments#UNPHASED}.
     */
    byte haplotype(DirectBuffer buffer, int offset, int i, int width, int channels) {
      int b = baseAt(buffer, offset + (i + PileupConstants.REFERENCE_ROWS) * width * channels, channels, column);
      if (b == base) return Fragments.HAPLOTYPE_A;
      return b == baseAt(buffer, offset, channels, column) ? Fragments.HAPLOTYPE_B : Fragments.UNPHASED;
    }

    /** The chance that read row {@code i}'s base at the column places it wrongly: its base's error. */
    double error(DirectBuffer buffer, int offset, int i, int width, int channels, BaseErrorRate baseErrors, double factor) {
      int row = offset + (i + PileupConstants.REFERENCE_ROWS) * width * channels;
      return baseErrorAt(buffer, row, channels, column, baseErrors, BaseErrorRate.NO_CYCLE, factor);
    }
  }

  /**
   * The het column that places the most of the {@code placeable} read rows (0 = the first read row;
   * at least {@value #PHASE_COLUMN_READS}), outside columns {@code skipFrom .. skipTo}: a column whose
   * reads show one base other than the reference's on at least {@value #PHASE_COLUMN_READS} reads
   * (three reads seldom share an error) and the reference's on at least {@value #PHASE_REFERENCE_READS},
   * a third base on at most one in {@value #PHASE_OTHER_SHARE}, with no indel that {@value
   * #SHARED_INDEL_ROWS} rows share anchored within {@value #OWN_INDEL_COLUMNS} columns of it (reads
   * laid around an indel share changed bases). Null where there is none.
   */
  static PhaseColumn phaseColumn(DirectBuffer buffer, int offset, int height, int width, int channels, boolean[] placeable,
      int skipFrom, int skipTo) {
    int rowLength = width * channels;
    int best = -1, bestBase = -1, bestPlaced = PHASE_COLUMN_READS - 1;
    int[] counts = new int[4];
    for (int c = 0; c < width; c++) {
      if (c >= skipFrom && c <= skipTo) continue;
      int refC = baseAt(buffer, offset, channels, c);
      if (refC < 0) continue;
      int drawn = columnCounts(buffer, offset, height, width, channels, c, counts);
      int other = -1;
      for (int b = 0; b < 4; b++) if (b != refC && (other < 0 || counts[b] > counts[other])) other = b;
      int nOther = counts[other], nRef = counts[refC];
      if (nOther < PHASE_COLUMN_READS || nRef < PHASE_REFERENCE_READS) continue;
      if (PHASE_OTHER_SHARE * (drawn - nOther - nRef) > drawn) continue;
      int placed = 0;
      for (int i = 0; i < placeable.length; i++) {
        if (!placeable[i]) continue;
        int b = baseAt(buffer, offset + (i + PileupConstants.REFERENCE_ROWS) * rowLength, channels, c);
        if (b == other || b == refC) placed++;
      }
      if (placed <= bestPlaced || sharedIndelAnchored(buffer, offset, height, width, channels, c - OWN_INDEL_COLUMNS, c + OWN_INDEL_COLUMNS, -1)
          || inRepeat(buffer, offset, width, channels, c)
          || PHASE_UNCLEAN_SHARE * uncleanReads(buffer, offset, height, width, channels, c, other) > nOther + 1) continue;
      best = c;
      bestBase = other;
      bestPlaced = placed;
    }
    return best < 0 ? null : new PhaseColumn(best, bestBase);
  }

  /** A het column is no closer than a base to a tandem repeat of the reference of at least this many bases. */
  static final int PHASE_REPEAT_BASES = 6;

  /**
   * Whether column {@code c} lies in a tandem repeat of the reference row of at least {@value
   * #PHASE_REPEAT_BASES} bases, or beside one: reads that slipped there, laid without their gap, show
   * a base of the repeat moved a unit (in a (TTTC)n repeat with a hom-alt C, eight of 35 reads one
   * unit longer show the C four columns on), a column that looks like a het's.
   */
  static boolean inRepeat(DirectBuffer buffer, int offset, int width, int channels, int c) {
    return repeatAround(buffer, offset, width, channels, c).length() >= PHASE_REPEAT_BASES;
  }

  /** Columns either side of a het column where its other base's reads should show the reference's bases. */
  static final int PHASE_CLEAN_COLUMNS = 5;
  /** At most about one in this many of a het column's reads of its other base show another change beside it. */
  static final int PHASE_UNCLEAN_SHARE = 4;

  /**
   * The read rows showing {@code base} at column {@code c} that show a base other than the
   * reference's within {@value #PHASE_CLEAN_COLUMNS} columns of it: a read that slipped in a repeat,
   * laid without its gap, shows the reference's bases moved over several columns, and reads that
   * slipped alike make a column that looks like a het's.
   */
  static int uncleanReads(DirectBuffer buffer, int offset, int height, int width, int channels, int c, int base) {
    int rowLength = width * channels;
    int unclean = 0;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int row = offset + r * rowLength;
      if (baseAt(buffer, row, channels, c) != base) continue;
      for (int k = Math.max(0, c - PHASE_CLEAN_COLUMNS); k <= Math.min(width - 1, c + PHASE_CLEAN_COLUMNS); k++) {
        int b = baseAt(buffer, row, channels, k);
        if (k != c && b >= 0 && b != baseAt(buffer, offset, channels, k)) {
          unclean++;
          break;
        }
      }
    }
    return unclean;
  }

  /** The read rows showing each base (0..3) at column {@code c}, into {@code counts}; returns how many show any. */
  private static int columnCounts(DirectBuffer buffer, int offset, int height, int width, int channels, int c, int[] counts) {
    Arrays.fill(counts, 0);
    int rowLength = width * channels;
    int drawn = 0;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int b = baseAt(buffer, offset + r * rowLength, channels, c);
      if (b < 0) continue;
      counts[b]++;
      drawn++;
    }
    return drawn;
  }

  /**
   * Whether an indel that {@value #SHARED_INDEL_ROWS} read rows share is anchored at a column from
   * {@code from} to {@code to}, other than {@code skip} (-1: none).
   */
  private static boolean sharedIndelAnchored(DirectBuffer buffer, int offset, int height, int width, int channels, int from,
      int to, int skip) {
    int[] rows = anchorRows(buffer, offset, height, width, channels, from, to - from + 1);
    for (int k = 0; k < rows.length; k++) if (from + k != skip && rows[k] >= SHARED_INDEL_ROWS) return true;
    return false;
  }

  /**
   * Adds the read in row {@code r}, which deletes the centre's base after its anchor column, as a read
   * without the alt at its anchor base's error, which a read of the alt's haplotype shows at {@code
   * slip} too (its mapping error combined; 0: no slip of that haplotype gives it).
   */
  private static void addDeletingRead(DirectBuffer buffer, int offset, int r, int rowLength, int channels, int anchor,
      BaseErrorRate baseErrors, double factor, double slip, Fragments fragments) {
    int anchorAt = offset + r * rowLength + anchor * channels;
    int mq = quality(buffer.getByte(anchorAt + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP);
    double e = readError(baseErrors, quality(buffer.getByte(anchorAt + BASE_QUALITY) & 0xFF, PileupConstants.BASE_QUALITY_CAP),
        mq, factor);
    fragments.add(r - PileupConstants.REFERENCE_ROWS, false, e, reverse(buffer, anchorAt), slip > 0 ? combined(slip, ERROR[mq]) : 0);
  }

  /**
   * {@code rows} (read rows with an indel anchor at each column from {@code from}) with every count of
   * {@value #SHARED_INDEL_ROWS} or more that the sample's slips explain better than a het set to 0:
   * with n rows drawn at the column, k of them anchors and r the rate at which the sample's reads of a
   * haplotype show an indel in the repeat after it ({@link IndelErrorRate#ofReferenceReads}), when
   * k ln(0.5 / r) + (n - k) ln(0.5 / (1 - r)) is not above 0. Such rows are reads' own indels, as a
   * lone read's is.
   */
  static int[] variantAnchorRows(DirectBuffer buffer, int offset, int height, int width, int channels, int from,
      int[] rows, IndelErrorRate slips) {
    int[] out = rows.clone();
    for (int k = 0; k < out.length; k++) {
      int c = from + k;
      if (out[k] < SHARED_INDEL_ROWS || c < 0 || c >= width) continue;
      TandemRepeat.Repeat after = tandemRepeat(buffer, offset, width, channels, c + 1);
      int drawn = drawnRows(buffer, offset, height, width, channels, c);
      if (slipsExplain(out[k], Math.max(drawn, out[k]), slips.ofReferenceReads(after.length(), after.unit()))) out[k] = 0;
    }
    return out;
  }

  /** The read rows drawn at column {@code c} (a base, an anchor or a blank of a deletion's: any strand pixel). */
  static int drawnRows(DirectBuffer buffer, int offset, int height, int width, int channels, int c) {
    int rowLength = width * channels;
    int drawn = 0;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      if ((buffer.getByte(offset + r * rowLength + c * channels + STRAND) & 0xFF) != 0) drawn++;
    }
    return drawn;
  }

  /** Whether {@code k} of {@code n} reads showing one indel are likelier slips at {@code rate} a read than a het's. */
  static boolean slipsExplain(int k, int n, double rate) {
    return k * Math.log(0.5 / rate) + (n - k) * Math.log(0.5 / (1 - rate)) <= 0;
  }

  /** The columns a read row leaves blank after its deletion's anchor column, up to its next drawn column. */
  static int deletedColumns(DirectBuffer buffer, int row, int width, int channels, int anchor) {
    int c = anchor + 1;
    while (c < width && (buffer.getByte(row + c * channels + STRAND) & 0xFF) == 0) c++;
    return c - anchor - 1;
  }

  /** Columns either side of a deleting read's gap whose bases {@link #altSlipRate} compares. */
  static final int SLIP_WINDOW = 12;

  /**
   * The rate at which the sample's reads of the alt's haplotype {@code hap} ({@link #sampleBases} with
   * the alt at the centre) show what the read in {@code row} shows around its deletion of the {@code
   * length} bases after column {@code anchor}; 0 where no slip of that haplotype gives it. Its bases
   * (the anchor's, which the image does not draw, any base) up to {@value #SLIP_WINDOW} columns either side of the
   * gap, as far as the read goes without another gap, must be that haplotype with {@code length} bases
   * deleted somewhere, every base alike or, where no place gives that, one base aside (a base error,
   * as {@link #slipRateOfIndel} allows: blind85's MSv1 15x hom-alt C>A before an (AG)n was 0/1 on AD
   * 0,7 beside a read one AG short, written as a deletion of the C and the A after it, whose one base
   * error ten columns before the gap made it no slip): the leftmost such place is a deletion in the
   * repeat after it, which the reads slip in at {@link IndelErrorRate#ofReferenceReads} (outside any
   * repeat, that class's small rate).
   * The place need not be the gap's: a read that slipped in a run after the SNP may be written as a
   * deletion of the SNP's base and a mismatch (blind53: A>C before fourteen A, 5 such reads at 60x).
   * At least the rate of the gap's own bases deleted from that haplotype, so that a base error of the
   * read near the gap takes nothing away (733b27f read only that). The sample's haplotype, not the
   * reference's: blind59's hom-alt GAA>TCT before nine A, whose reads with eight A the aligner wrote
   * as a deletion of the G and three mismatches, was 0/1 on AD 0,28 beside three such reads. And
   * blind68's hom-alt MNP ACT>GGA at the end of a (CA)n repeat, whose reads with one CA fewer were
   * written as a deletion of its C and T after an anchor showing its A: taken as the sample's G
   * there, they were no slip, and T>A was 0/1 on AD 0,59 beside five of them.
   */
  static double altSlipRate(DirectBuffer buffer, int row, int width, int channels, byte[] hap, int anchor,
      int length, IndelErrorRate slips) {
    int centre = (width - 1) / 2;
    int end = hap.length;
    if (length < 1 || centre >= end || anchor + length >= end) return 0;
    double gap = slipRateOfDeletion(hap, anchor + 1, length, slips);
    int lo = windowStart(buffer, row, channels, anchor);
    int hi = windowEnd(buffer, row, channels, anchor + length, end);
    if (hi == anchor + length) return gap; // nothing of the read after the gap
    byte[] read = new byte[hi - lo + 1 - length];
    int n = 0;
    for (int c = lo; c <= hi; c++) {
      if (c > anchor && c <= anchor + length) continue;
      read[n++] = c == anchor ? ANY : BASES[baseAt(buffer, row, channels, c)];
    }
    // the leftmost place whose deletion gives the read, every base alike; else one base aside (a base error)
    for (int mismatches = 0; mismatches <= 1; mismatches++) {
      for (int j = lo; j + length - 1 <= hi; j++) {
        if (deletionShows(read, hap, lo, j, length, mismatches)) return Math.max(gap, slipRateOfDeletion(hap, j, length, slips));
      }
    }
    return gap;
  }

  /**
   * Whether {@code read} (from column {@code lo}; {@link #ANY} matching any base) is {@code hap} with
   * {@code hap[j .. j + length - 1]} deleted, but for at most {@code mismatches} bases.
   */
  private static boolean deletionShows(byte[] read, byte[] hap, int lo, int j, int length, int mismatches) {
    int wrong = 0;
    for (int i = 0; i < read.length; i++) {
      int h = lo + i < j ? lo + i : lo + i + length;
      if (h >= hap.length) return false;
      if (read[i] != ANY && read[i] != hap[h] && ++wrong > mismatches) return false;
    }
    return true;
  }

  /** The first column of the read in {@code row}, drawn without a gap back from {@code col}, within {@value #SLIP_WINDOW} of it. */
  private static int windowStart(DirectBuffer buffer, int row, int channels, int col) {
    int lo = col;
    while (lo > 0 && lo > col - SLIP_WINDOW && baseAt(buffer, row, channels, lo - 1) >= 0) lo--;
    return lo;
  }

  /** The last column before {@code end} of the read in {@code row}, drawn without a gap on from {@code col}, within {@value #SLIP_WINDOW} of it. */
  private static int windowEnd(DirectBuffer buffer, int row, int channels, int col, int end) {
    int hi = col;
    while (hi + 1 < end && hi < col + SLIP_WINDOW && baseAt(buffer, row, channels, hi + 1) >= 0) hi++;
    return hi;
  }

  /** The longest insertion {@link #slipRateOfIndel} tries: a repeat unit of up to four bases, once. */
  static final int MAX_SLIP_INSERTION = 4;

  /**
   * The column of the anchor of an indel within {@value #OWN_INDEL_COLUMNS} columns of the centre in
   * the read row starting at {@code row}, which shows a base at the centre: an anchor column with a
   * base after it (an insertion) or blank columns and then a base (a deletion); -1 if none.
   */
  static int indelAnchorNearCentre(DirectBuffer buffer, int row, int width, int channels) {
    int centre = (width - 1) / 2;
    for (int c = Math.max(0, centre - OWN_INDEL_COLUMNS); c <= Math.min(width - 2, centre + OWN_INDEL_COLUMNS); c++) {
      if (c == centre || !indelAnchorIn(buffer, row, channels, c, c)) continue;
      int next = c + 1 + deletedColumns(buffer, row, width, channels, c);
      if (next < width && baseAt(buffer, row, channels, next) >= 0) return c;
    }
    return -1;
  }

  /**
   * The rate at which the sample's reads of the haplotype {@code hap} ({@link #sampleBases} with, at a
   * SNP, the other allele than the read shows at the centre) show what the read in
   * {@code row}, which has an indel after column {@code anchor} (blank columns after it: a deletion),
   * shows; 0 where no slip of that haplotype gives it. As {@link #altSlipRate} reads a read that
   * deletes the SNP's base: its bases up to {@value #SLIP_WINDOW} columns either side of the indel
   * (the anchor's taken as the haplotype's; an insertion's bases, which the image does not draw, as
   * any) must be that haplotype with as many bases deleted somewhere, or with a copy of the 1 to
   * {@value #MAX_SLIP_INSERTION} bases before some place inserted there, one base aside (a base error):
   * a slip at the sample's rate in the repeat there (the largest where several places give them).
   * Reads of a hom-alt A>G before an (AC)n run with one AC more in the run, which the aligner writes
   * as an insertion two bases before the SNP and mismatches, show the reference's A at it and the
   * run's C one base on, a false T>C (blind55: AD 7,60 at 60x called 0/1, six such reads).
   */
  static double slipRateOfIndel(DirectBuffer buffer, int row, int width, int channels, byte[] hap, int anchor,
      IndelErrorRate slips) {
    int centre = (width - 1) / 2;
    int end = hap.length;
    int deleted = deletedColumns(buffer, row, width, channels, anchor);
    if (centre >= end || anchor + deleted + 1 >= end) return 0;
    int lo = windowStart(buffer, row, channels, anchor);
    int hi = windowEnd(buffer, row, channels, anchor + deleted, end);
    if (hi == anchor + deleted) return 0; // nothing of the read after the indel
    double rate = 0;
    if (deleted > 0) {
      for (int j = lo; j + deleted <= hi; j++) {
        if (readIsSlip(buffer, row, channels, hap, lo, hi, anchor, -deleted, j)) {
          rate = Math.max(rate, slipRateOfDeletion(hap, j, deleted, slips));
        }
      }
      return rate;
    }
    for (int k = 1; k <= MAX_SLIP_INSERTION; k++) {
      for (int j = lo + k; j <= hi + k; j++) {
        if (readIsSlip(buffer, row, channels, hap, lo, hi, anchor, k, j)) {
          rate = Math.max(rate, slipRateOfDeletion(hap, j - k, k, slips));
        }
      }
    }
    return rate;
  }

  /**
   * Whether the read in {@code row}, drawn over columns {@code lo .. hi} with an indel after {@code
   * anchor} ({@code k} > 0 bases inserted there, its own bases unknown; or -k columns deleted), is
   * {@code hap} with that indel at {@code j} instead, one base aside: with {@code hap[j - k .. j - 1]}
   * inserted again at j, the longer haplotype has {@code hap[i]} at i before j and {@code hap[i - k]}
   * from j on, and the read's base at column c is its base at c left of the anchor and at c + k right
   * of it; with {@code hap[j .. j - k - 1]} deleted, the shorter one has {@code hap[i]} before j and
   * {@code hap[i - k]} from j on, the read's base at c right of the gap its base at c + k.
   */
  private static boolean readIsSlip(DirectBuffer buffer, int row, int channels, byte[] hap, int lo, int hi, int anchor,
      int k, int j) {
    int mismatches = 0;
    for (int c = lo; c <= hi; c++) {
      if (c == anchor || (k < 0 && c > anchor && c <= anchor - k)) continue; // the anchor, a deleted column
      int i = c < anchor ? c : c + k;
      int h = i < j ? i : i - k;
      if (h < 0 || h >= hap.length) return false;
      if (BASES[baseAt(buffer, row, channels, c)] != hap[h] && ++mismatches > 1) return false;
    }
    return true;
  }

  /**
   * {@code snp}'s mark for a read without an indel near the SNP that may show the other allele's base
   * moved a column: a reference read that shows another base than the reference beside the centre,
   * an alt read that shows the reference's centre base beside it.
   */
  private static final int MOVED = -2;

  /** {@code snp}'s mark for a read of a mixed site's indel, anchored at the centre: no base drawn there. */
  private static final int ANCHORED = -3;

  /** The read's base a window of {@link #readWindow} marks unknown: an indel anchor's, or an insertion's. */
  private static final byte ANY = '?';

  /**
   * The read in {@code row} over the {@value #SLIP_WINDOW} columns either side of the centre as a
   * sequence ({@link #readWindow}): {@code bases} from column {@code first}.
   */
  private record ReadWindow(int first, byte[] bases) {}

  /**
   * The read in {@code row} over the {@value #SLIP_WINDOW} columns either side of the centre: its
   * bases, {@code inserted} unknown bases ({@link #ANY}) after an anchor that a base follows (an
   * insertion; the image draws neither its bases nor their count), deleted columns left out, an
   * anchor's own base unknown. Null where the read draws nothing at the centre.
   */
  private static ReadWindow readWindow(DirectBuffer buffer, int row, int width, int channels, int inserted) {
    int centre = (width - 1) / 2;
    int from = Math.max(0, centre - SLIP_WINDOW), to = Math.min(width - 1, centre + SLIP_WINDOW);
    while (from < centre && (buffer.getByte(row + from * channels + STRAND) & 0xFF) == 0) from++;
    while (to > centre && (buffer.getByte(row + to * channels + STRAND) & 0xFF) == 0) to--;
    if ((buffer.getByte(row + centre * channels + STRAND) & 0xFF) == 0) return null;
    byte[] seq = new byte[(to - from + 1) * (1 + inserted)];
    int n = 0;
    for (int c = from; c <= to; c++) {
      if ((buffer.getByte(row + c * channels + STRAND) & 0xFF) == 0) continue; // a deleted column
      int b = baseAt(buffer, row, channels, c);
      seq[n++] = b >= 0 ? BASES[b] : ANY;
      if (c < to && insertionAfter(buffer, row, width, channels, c)) {
        for (int k = 0; k < inserted; k++) seq[n++] = ANY;
      }
    }
    return new ReadWindow(from, java.util.Arrays.copyOf(seq, n));
  }

  /** The most places {@link #slipOfHaplotype} tries a read either side of its own column. */
  static final int SLIP_PLACES = MAX_SLIP_INSERTION;

  /**
   * The rate at which the sample's reads of haplotype {@code hap} (from column 0, with its own
   * length) show what the read in {@code row} shows over the {@value #SLIP_WINDOW} columns either
   * side of the centre ({@link #readWindow}, with 1 to {@value #MAX_SLIP_INSERTION} bases for an
   * insertion of its own): 0 unless that sequence, every base alike, is {@code hap} with one slip, 1
   * to {@value #MAX_SLIP_INSERTION} bases deleted at some place or a copy of the bases before it
   * inserted there, starting within {@value #SLIP_PLACES} of its first base's column (an aligner may
   * lay it either way round a slip); the sample's rate of that slip in the repeat there, the largest
   * where several give it. It reads what the aligner made of a slipped read whatever it wrote: an
   * indel where the read has none, mismatches where a slip moved bases a column.
   */
  static double slipOfHaplotype(DirectBuffer buffer, int row, int width, int channels, byte[] hap, IndelErrorRate slips) {
    ReadWindow plain = readWindow(buffer, row, width, channels, 0);
    if (plain == null) return 0;
    ReadWindow one = readWindow(buffer, row, width, channels, 1); // each insertion of its own one base long
    boolean insertion = one.bases().length > plain.bases().length;
    double rate = 0;
    for (int inserted = insertion ? 1 : 0; inserted <= (insertion ? MAX_SLIP_INSERTION : 0); inserted++) {
      ReadWindow window = inserted == 0 ? plain : inserted == 1 ? one : readWindow(buffer, row, width, channels, inserted);
      byte[] read = window.bases();
      int first = window.first();
      for (int length = 1; length <= MAX_SLIP_INSERTION; length++) {
        for (int j = Math.max(length, first - SLIP_PLACES); j <= Math.min(hap.length - length, first + read.length + SLIP_PLACES); j++) {
          if (shownBySlip(read, hap, first, j, length, true)) rate = Math.max(rate, slipRateOfDeletion(hap, j, length, slips));
          if (shownBySlip(read, hap, first, j, length, false)) rate = Math.max(rate, slipRateOfDeletion(hap, j - length, length, slips));
        }
      }
    }
    return rate;
  }

  /**
   * Whether {@code read} is, every base alike ({@link #ANY} matching any), {@code hap} with {@code
   * hap[j .. j + length - 1]} deleted ({@code deleted}) or {@code hap[j - length .. j - 1]} inserted
   * again at j, starting within {@value #SLIP_PLACES} of index {@code first}.
   */
  private static boolean shownBySlip(byte[] read, byte[] hap, int first, int j, int length, boolean deleted) {
    int slipped = hap.length + (deleted ? -length : length);
    for (int start = Math.max(0, first - SLIP_PLACES); start <= first + SLIP_PLACES && start + read.length <= slipped; start++) {
      boolean all = true;
      for (int i = 0; i < read.length && all; i++) {
        int h = start + i; // in the slipped haplotype
        byte base = h < j ? hap[h] : deleted ? hap[h + length] : hap[h - length];
        all = read[i] == ANY || read[i] == base;
      }
      if (all) return true;
    }
    return false;
  }

  /** Whether the read in {@code row} has an insertion after column {@code c}: an anchor there and a base drawn after it. */
  private static boolean insertionAfter(DirectBuffer buffer, int row, int width, int channels, int c) {
    return c + 1 < width && indelAnchorIn(buffer, row, channels, c, c) && (buffer.getByte(row + (c + 1) * channels + STRAND) & 0xFF) != 0;
  }

  /**
   * {@code hap} with the allele {@code alt} in place of {@code ref} from column {@code centre}; null
   * where {@code ref} is not there or the result would not reach the centre's next column.
   */
  static byte[] withAllele(byte[] hap, int centre, String ref, String alt) {
    int after = centre + ref.length();
    if (after > hap.length || alt.isEmpty()) return null;
    for (int i = 0; i < ref.length(); i++) if (hap[centre + i] != ref.charAt(i)) return null;
    byte[] out = new byte[hap.length - ref.length() + alt.length()];
    System.arraycopy(hap, 0, out, 0, centre);
    for (int i = 0; i < alt.length(); i++) out[centre + i] = (byte) alt.charAt(i);
    System.arraycopy(hap, after, out, centre + alt.length(), hap.length - after);
    return out.length > centre + 1 ? out : null;
  }

  /** Whether the read in {@code row} shows base {@code base} (0..3) a column either side of the centre. */
  private static boolean baseBesideCentre(DirectBuffer buffer, int row, int width, int channels, int base) {
    int centre = (width - 1) / 2;
    return centre > 0 && baseAt(buffer, row, channels, centre - 1) == base
        || centre + 1 < width && baseAt(buffer, row, channels, centre + 1) == base;
  }

  /**
   * Whether the read in {@code row} shows a base other than the reference row's within {@value
   * #SLIP_PLACES} columns either side of the centre: where a reference read at a hom-alt SNP is the
   * sample's haplotype slipped by a repeat's unit (1 to {@value #MAX_SLIP_INSERTION} bases) and laid
   * without a gap, the alt's base sits that far from the SNP (blind62: a hom-alt G>T inside a (TGA)n
   * repeat called 0/1 on AD 2,16, its two reference reads one unit short, the T three columns on).
   */
  private static boolean otherBaseNearCentre(DirectBuffer buffer, int offset, int row, int width, int channels) {
    int centre = (width - 1) / 2;
    for (int c = centre - SLIP_PLACES; c <= centre + SLIP_PLACES; c++) {
      if (c < 0 || c >= width || c == centre) continue;
      int b = baseAt(buffer, row, channels, c);
      if (b >= 0 && b != baseAt(buffer, offset, channels, c)) return true;
    }
    return false;
  }

  /**
   * The rate at which the sample's reads of the haplotype {@code hap} ({@link #sampleBases} with, at
   * the centre, the other allele than the read in {@code row} shows) show what that read shows, where
   * it shows the haplotype's centre base a column either side of the centre instead of the
   * haplotype's: 0 unless its bases up to {@value #SLIP_WINDOW} columns either side, all alike, are
   * that haplotype with one base more or fewer at some place and the bases on one side of it moved a
   * column (an aligner lays a read of a slipped run without a gap where the bases beyond it are the
   * run's own), the sample's rate of that slip in the repeat there. The mirror of {@link #shiftedBase}
   * for reads of the other allele: blind57's hom-alt A>G that splits a run of 24 A into 9 and 14 was
   * called 0/1 on AD 5,37 beside reads with ten A before the G, which show the reference's A at the
   * SNP and the G one column on. And an alt read may be the sample's haplotype so moved: blind58 made
   * a false T>G one base after a hom-alt T>G that splits a run of 23 T into 7 and 15 (AD 44,7 at 60x)
   * from reads with eight T before the G, which show the reference's T at the hom-alt's column.
   */
  static double movedSlipRate(DirectBuffer buffer, int row, int width, int channels, byte[] hap, IndelErrorRate slips) {
    int centre = (width - 1) / 2;
    int end = hap.length;
    if (centre + 1 >= end) return 0;
    if (!(shows(buffer, row, channels, centre - 1, hap[centre]) && hap[centre - 1] != hap[centre])
        && !(shows(buffer, row, channels, centre + 1, hap[centre]) && hap[centre + 1] != hap[centre])) {
      return 0; // the alt's base is not beside the SNP in the read
    }
    int lo = windowStart(buffer, row, channels, centre);
    int hi = windowEnd(buffer, row, channels, centre, end);
    double rate = 0;
    for (int j = lo; j <= hi + 1; j++) {
      // from j on moved right (a base more at j) or left (hap[j] gone); before j moved left (a base more) or right (hap[j - 1] gone)
      if (movedFrom(buffer, row, channels, hap, lo, hi, j, true, -1)) rate = Math.max(rate, slipRateOfDeletion(hap, j - 1, 1, slips));
      if (movedFrom(buffer, row, channels, hap, lo, hi, j, true, 1)) rate = Math.max(rate, slipRateOfDeletion(hap, j, 1, slips));
      if (movedFrom(buffer, row, channels, hap, lo, hi, j, false, 1)) rate = Math.max(rate, slipRateOfDeletion(hap, j, 1, slips));
      if (movedFrom(buffer, row, channels, hap, lo, hi, j, false, -1)) rate = Math.max(rate, slipRateOfDeletion(hap, j - 1, 1, slips));
    }
    return rate;
  }

  /**
   * Whether the read in {@code row} shows, at every column c of {@code lo .. hi}, {@code hap[c + by]}
   * on the moved side of {@code j} (from j on where {@code after}, before j otherwise) and {@code
   * hap[c]} on the other.
   */
  private static boolean movedFrom(DirectBuffer buffer, int row, int channels, byte[] hap, int lo, int hi, int j,
      boolean after, int by) {
    for (int c = lo; c <= hi; c++) {
      int h = (after ? c >= j : c < j) ? c + by : c;
      if (h < 0 || h >= hap.length || BASES[baseAt(buffer, row, channels, c)] != hap[h]) return false;
    }
    return true;
  }

  /**
   * The sample's bases over the example's window: the reference row's, but where more than half the
   * reads drawn at a column show one other base (a hom-alt variant near the site), that base.
   */
  static byte[] sampleBases(DirectBuffer buffer, int offset, int height, int width, int channels) {
    byte[] bases = referenceBases(buffer, offset, width, channels, 0);
    int[] counts = new int[4];
    for (int c = 0; c < bases.length; c++) bases[c] = sampleBase(buffer, offset, height, width, channels, c, bases[c], counts);
    return bases;
  }

  /** {@link #sampleBases} at column {@code c} alone, the reference row's base there being {@code reference}. */
  private static byte sampleBase(DirectBuffer buffer, int offset, int height, int width, int channels, int c, byte reference,
      int[] counts) {
    int drawn = columnCounts(buffer, offset, height, width, channels, c, counts);
    for (int b = 0; b < 4; b++) if (2 * counts[b] > drawn && BASES[b] != reference) return BASES[b];
    return reference;
  }

  /**
   * {@link #sampleBases} from {@value #SLIP_PLACES} columns before the centre to as many after it
   * (index 0 the first; 0 where the window has no such column or the reference row no base).
   */
  static byte[] sampleBasesNearCentre(DirectBuffer buffer, int offset, int height, int width, int channels) {
    int centre = (width - 1) / 2;
    byte[] near = new byte[2 * SLIP_PLACES + 1];
    int[] counts = new int[4];
    for (int d = -SLIP_PLACES; d <= SLIP_PLACES; d++) {
      int c = centre + d;
      int reference = c < 0 || c >= width ? -1 : baseAt(buffer, offset, channels, c);
      if (reference >= 0) near[d + SLIP_PLACES] = sampleBase(buffer, offset, height, width, channels, c, BASES[reference], counts);
    }
    return near;
  }

  /**
   * Whether the alt read in {@code row}, whose base at the centre is {@code alt} (0..3), may be the
   * sample's haplotype with the reference's base {@code refBase} at the centre, moved 2 to {@value
   * #SLIP_PLACES} columns by a slip and laid without a gap: the sample has the alt's base that many
   * columns one way ({@code sampleNear}: {@link #sampleBasesNearCentre}) and the read the reference's
   * centre base as many the other way. {@link #slipOfHaplotype} then weighs the whole read; a move of
   * one column is {@link #baseBesideCentre}'s. blind73's hom-alt C>T inside a (CA)n repeat made a
   * false C>T two columns on, 0/1 on AD 33,5 at GQ 24, from reads one CA longer before the T.
   */
  static boolean altOfShiftedSample(DirectBuffer buffer, int row, int width, int channels, byte[] sampleNear, int alt,
      int refBase) {
    if (alt < 0) return false;
    int centre = (width - 1) / 2;
    for (int d = 2; d <= SLIP_PLACES; d++) {
      for (int sign = -1; sign <= 1; sign += 2) {
        int to = centre - sign * d; // where the sample's centre base went, its base sign * d columns away moving to the centre
        if (to < 0 || to >= width) continue;
        if (sampleNear[sign * d + SLIP_PLACES] == BASES[alt] && baseAt(buffer, row, channels, to) == refBase) return true;
      }
    }
    return false;
  }

  /** The sample's slip rate for deleting {@code hap[first .. first + length - 1]}, left-aligned: the repeat after its anchor's. */
  private static double slipRateOfDeletion(byte[] hap, int first, int length, IndelErrorRate slips) {
    while (first > 0 && hap[first - 1] == hap[first - 1 + length]) first--;
    TandemRepeat.Repeat after = TandemRepeat.longest(hap, first, Integer.MAX_VALUE);
    return slips.ofReferenceReads(after.length(), after.unit());
  }

  /** Whether the row starting at {@code row} shows {@code base} (a letter) at column {@code c}. */
  private static boolean shows(DirectBuffer buffer, int row, int channels, int c, byte base) {
    int b = baseAt(buffer, row, channels, c);
    return b >= 0 && BASES[b] == base;
  }

  /** The base (0..3) the row starting at {@code row} (a read's or the reference's) shows at column {@code c}; -1 for none, an anchor or an N. */
  private static int baseAt(DirectBuffer buffer, int row, int channels, int c) {
    return baseIndex(buffer.getByte(row + c * channels) & 0xFF);
  }

  /**
   * The column of the indel anchor of a deletion that spans column {@code centre} in the read row
   * starting at {@code row}: the row has nothing drawn at the centre, its last drawn column before it
   * is an anchor, and it has a drawn column after it; -1 otherwise (no read there, or one that ends or
   * starts beside it).
   */
  static int deletionAnchorSpanning(DirectBuffer buffer, int row, int width, int channels, int centre) {
    int left = centre - 1;
    while (left >= 0 && (buffer.getByte(row + left * channels + STRAND) & 0xFF) == 0) left--;
    if (left < 0 || !indelAnchorIn(buffer, row, channels, left, left)) return -1;
    for (int c = centre + 1; c < width; c++) {
      if ((buffer.getByte(row + c * channels + STRAND) & 0xFF) != 0) return left;
    }
    return -1;
  }

  /**
   * The read rows with an indel anchor at each of the {@code count} columns from {@code from} (index
   * 0 the first; a column outside the image has none).
   */
  static int[] anchorRows(DirectBuffer buffer, int offset, int height, int width, int channels, int from, int count) {
    int[] rows = new int[count];
    int rowLength = width * channels;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int row = offset + r * rowLength;
      for (int k = 0; k < count; k++) {
        int c = from + k;
        if (c >= 0 && c < width && indelAnchorIn(buffer, row, channels, c, c)) rows[k]++;
      }
    }
    return rows;
  }

  /** A, C, G or T of the read-base channel's colour {@code pixel} as 0..3; -1 for any other colour. */
  private static int baseIndex(int pixel) {
    int b = BASE_INDEX[pixel];
    return ReadBaseChannel.baseColor(BASES[b]) == pixel ? b : -1;
  }

  /** Columns either side of a SNP where its alt reads may show a second base of one variant with it (an MNP's). */
  static final int LINK_COLUMNS = 3;
  /** A read is read with its bases beside a SNP only where it shows a base, and no indel, this many columns beyond them either side. */
  static final int LINK_MARGIN = 5;
  /** A column links to a SNP only where at most one in this many reference reads there shows the alt reads' base. */
  static final int LINK_REFERENCE_SHARE = 5;

  /**
   * A SNP's reads read together with the bases its alt reads share beside it: a multi-nucleotide
   * variant's second (and third) base. A column within {@value #LINK_COLUMNS} of the centre links to
   * the SNP where every alt read that shows a base there shows one and the same non-reference base,
   * at least {@value #VARIANT_COLUMN_READS} of them, and at most one in {@value #LINK_REFERENCE_SHARE}
   * of the reference reads there does (a hom-alt neighbour sits on both haplotypes, a het one on the
   * other haplotype shows on reference reads). The alt haplotype then carries the alt at the centre
   * and those bases beside it; a read that shows all of them (an alt read) or none (a reference read)
   * is the other haplotype only if each of its bases there is wrong, so its error is its centre base's
   * times each linked base's chance to show that base (its error over three), combined with its
   * mapping error as before; a read that shows some and not others stays as it was. Calling each base
   * alone weighs two reads with three matching changes as three independent pairs of errors: blind70's
   * ATA>CGT at 10x came out A>C and A>T PASS on AD 6,2 and T>G between them RefCall on the same two
   * reads; blind66's CTT>GCG one PASS and two RefCall on AD 8,2. Only reads whose bases are drawn from
   * {@value #LINK_MARGIN} columns before the centre and the column to as many after, with no indel
   * anchor, count towards a link, and only such reads over all the linked columns are so read: an
   * aligner lays a read that ends in an indel as changed bases, a cluster that reads of a slip share;
   * and a read with an indel of its own near the centre, or taken for a slip ({@link #snp}'s slipped
   * reads), or an alt read whose bases there are the reference's moved by 1-{@value
   * #MAX_SLIP_INSERTION} columns on one side of a column or both ({@link #shiftedReference}; blind69:
   * a het insertion of AA in an A run, its reads laid without the gap showing C>A, C>A beside it), is
   * not. Nor is any read where an indel
   * that {@value #SHARED_INDEL_ROWS} rows share is anchored within {@value #OWN_INDEL_COLUMNS}
   * columns of the centre, or deletes its base: development samples made four false SNPs beside
   * such deletions in repeats (blind66-69's stutter samples, a G>T two bases after a (GT)n unit's
   * deletion at AD 10,10, 0/1 at GQ 38), whose reads laid without the gap share the changed bases.
   */
  static final class LinkedReads {
    private static final byte NONE = 0;
    private static final byte ALT = 1;
    private static final byte REFERENCE = 2;
    private final byte[] kind;
    private final double[] baseError;
    private final int[] mq;
    private final int[] cycle;

    LinkedReads(int rows) {
      kind = new byte[rows];
      baseError = new double[rows];
      mq = new int[rows];
      cycle = new int[rows];
    }

    /** Read row {@code row} (from the first read row) shows the alt (or the reference) at the centre, its base erring at {@code e}. */
    void add(int row, boolean showsAlt, double e, int mappingQuality, int readCycle) {
      kind[row] = showsAlt ? ALT : REFERENCE;
      baseError[row] = e;
      mq[row] = mappingQuality;
      cycle[row] = readCycle;
    }

    /** Row {@code row}'s read is not read with its bases beside the centre. */
    void drop(int row) {
      kind[row] = NONE;
    }

    /**
     * Whether the row starting at {@code row} shows, over {@code from .. to}, the reference's bases
     * on one side of some column and the reference's bases 1 to {@value #MAX_SLIP_INSERTION} columns
     * on or back on the other (or over all of it): a read of an indel's haplotype laid without its
     * gap, whose changed bases are the reference's moved.
     */
    private static boolean shiftedReference(DirectBuffer buffer, int offset, int row, int channels, int from, int to, int width) {
      int n = to - from + 1;
      for (int k = -MAX_SLIP_INSERTION; k <= MAX_SLIP_INSERTION; k++) {
        if (k == 0 || from + k < 0 || to + k >= width) continue;
        // the first and last columns (from from, 0 .. n - 1; n or -1 for none) that do not show the
        // reference's base, and that do not show the reference's base k columns on
        int firstNotPlain = n, lastNotPlain = -1, firstNotMoved = n, lastNotMoved = -1;
        for (int i = 0; i < n; i++) {
          int b = baseAt(buffer, row, channels, from + i);
          if (b != baseAt(buffer, offset, channels, from + i)) {
            firstNotPlain = Math.min(firstNotPlain, i);
            lastNotPlain = i;
          }
          if (b != baseAt(buffer, offset, channels, from + i + k)) {
            firstNotMoved = Math.min(firstNotMoved, i);
            lastNotMoved = i;
          }
        }
        // plain before some column j and moved from it on (or the other way round)
        if (lastNotMoved < firstNotPlain || lastNotPlain < firstNotMoved) return true;
      }
      return false;
    }

    /**
     * Whether {@value #VARIANT_COLUMN_READS} alt reads show one and the same non-reference base at
     * column {@code j} (whose reference base is {@code refJ}): what a link needs, before any read is
     * left out of it; most SNPs have no such column. Counts in {@code counts}, which it clears first.
     */
    private boolean twoAltReadsShareABase(DirectBuffer buffer, int offset, int rowLength, int channels, int j, int refJ,
        int[] counts) {
      Arrays.fill(counts, 0);
      for (int i = 0; i < kind.length; i++) {
        if (kind[i] != ALT) continue;
        int b = baseAt(buffer, offset + (i + PileupConstants.REFERENCE_ROWS) * rowLength, channels, j);
        if (b >= 0 && b != refJ && ++counts[b] >= VARIANT_COLUMN_READS) return true;
      }
      return false;
    }

    /** Sets the error, in {@code fragments}, of each read that shows all the linked bases or none of them. */
    void link(DirectBuffer buffer, int offset, int width, int channels, BaseErrorRate baseErrors, double factor,
        Fragments fragments) {
      int centre = (width - 1) / 2;
      int rowLength = width * channels;
      int[] linked = new int[2 * LINK_COLUMNS + 1];
      int lo = centre, hi = centre;
      int[] altCounts = new int[4];
      int[] refCounts = new int[4];
      for (int j = centre - LINK_COLUMNS; j <= centre + LINK_COLUMNS; j++) {
        linked[j - centre + LINK_COLUMNS] = -1;
        if (j == centre || j < 0 || j >= width) continue;
        int refJ = baseAt(buffer, offset, channels, j);
        if (refJ < 0) continue;
        int first = Math.min(centre, j) - LINK_MARGIN, last = Math.max(centre, j) + LINK_MARGIN;
        if (first < 0 || last >= width || !twoAltReadsShareABase(buffer, offset, rowLength, channels, j, refJ, altCounts)) continue;
        Arrays.fill(altCounts, 0); // the check above counted in it
        Arrays.fill(refCounts, 0);
        int altCover = 0, refCover = 0;
        for (int i = 0; i < kind.length; i++) {
          if (kind[i] == NONE) continue;
          int row = offset + (i + PileupConstants.REFERENCE_ROWS) * rowLength;
          if (!basesDrawn(buffer, row, channels, first, last)
              || kind[i] == ALT && shiftedReference(buffer, offset, row, channels, first, last, width)) continue;
          int b = baseAt(buffer, row, channels, j);
          if (kind[i] == ALT) {
            altCounts[b]++;
            altCover++;
          } else {
            refCounts[b]++;
            refCover++;
          }
        }
        int best = 0;
        for (int b = 1; b < 4; b++) if (altCounts[b] > altCounts[best]) best = b;
        if (best == refJ || altCounts[best] < VARIANT_COLUMN_READS || altCounts[best] != altCover) continue;
        if (LINK_REFERENCE_SHARE * refCounts[best] > refCover) continue;
        linked[j - centre + LINK_COLUMNS] = best;
        lo = Math.min(lo, j);
        hi = Math.max(hi, j);
      }
      if (lo == centre && hi == centre) return;
      int from = lo - LINK_MARGIN, to = hi + LINK_MARGIN;
      if (from < 0 || to >= width) return;
      for (int i = 0; i < kind.length; i++) {
        if (kind[i] == NONE) continue;
        int row = offset + (i + PileupConstants.REFERENCE_ROWS) * rowLength;
        double link = basesDrawn(buffer, row, channels, from, to)
            && !(kind[i] == ALT && shiftedReference(buffer, offset, row, channels, from, to, width)) ? 1 : 0;
        for (int j = lo; j <= hi && link > 0; j++) {
          int base = linked[j - centre + LINK_COLUMNS];
          if (j == centre || base < 0) continue;
          int shown = baseAt(buffer, row, channels, j);
          if (shown != (kind[i] == ALT ? base : baseAt(buffer, offset, channels, j))) {
            link = 0; // shows some of the variant's bases and not others: as it was
            continue;
          }
          link *= baseErrorAt(buffer, row, channels, j, baseErrors, cycle[i], factor) / 3;
        }
        if (link > 0 && link < 1) fragments.error(i, combined(baseError[i] * link, ERROR[mq[i]]), baseError[i] * link);
      }
    }
  }

  /**
   * The informative reads of an example, held until all are seen so that the two reads of one
   * fragment go to {@link ReadEvidence#addPair} together and every other read to {@link ReadEvidence#add}.
   */
  static final class Fragments {
    private final int[] mateOf;
    private final boolean[] informative;
    private final boolean[] alt;
    private final boolean[] reverse;
    private final double[] error;
    /** Per row: the error its base's quality alone gives, without the mapping's (what a strand artifact's wrong bases show). */
    private final double[] qualityError;
    private final double[] slip;
    /** Per row: {@link #UNPHASED}, or the haplotype a het column places it on ({@link #HAPLOTYPE_A}, {@link #HAPLOTYPE_B}). */
    private final byte[] haplotype;
    /** Per phased row: the chance that its base at the het column places it wrongly. */
    private final double[] phaseError;

    static final byte UNPHASED = 0;
    static final byte HAPLOTYPE_A = 1;
    static final byte HAPLOTYPE_B = 2;

    /** {@code rows} read rows; {@code mateOf[r]}: row r's mate's row or -1 (rows past its length: -1). */
    Fragments(int rows, int[] mateOf) {
      this.mateOf = mateOf;
      informative = new boolean[rows];
      alt = new boolean[rows];
      reverse = new boolean[rows];
      error = new double[rows];
      qualityError = new double[rows];
      slip = new double[rows];
      haplotype = new byte[rows];
      phaseError = new double[rows];
    }

    int rows() {
      return informative.length;
    }

    boolean informative(int row) {
      return informative[row];
    }

    /** Row {@code row}'s read, added already, sits on haplotype {@code hap} of a het column beside the site, wrongly at {@code e}. */
    void phased(int row, byte hap, double e) {
      haplotype[row] = hap;
      phaseError[row] = e;
    }

    void add(int row, boolean showsAlt, double e, boolean onReverse) {
      add(row, showsAlt, e, onReverse, 0);
    }

    /**
     * As {@link #add(int, boolean, double, boolean)}, the read erring at {@code e} in all, its base at
     * {@code baseError} alone (its quality's, without the mapping's error).
     */
    void add(int row, boolean showsAlt, double e, double baseError, boolean onReverse) {
      add(row, showsAlt, e, onReverse, 0);
      qualityError[row] = baseError;
    }

    /** As {@link #add(int, boolean, double, boolean)}; {@code slipRate}: see {@link ReadEvidence#add(boolean, double, boolean, double)}. */
    void add(int row, boolean showsAlt, double e, boolean onReverse, double slipRate) {
      informative[row] = true;
      alt[row] = showsAlt;
      error[row] = e;
      qualityError[row] = e;
      reverse[row] = onReverse;
      slip[row] = slipRate;
    }

    /** Row {@code row}'s read, added already, is also one of the other allele's haplotype that slipped at {@code slipRate}. */
    void slipped(int row, double slipRate) {
      slip[row] = slipRate;
    }

    /**
     * Row {@code row}'s read, added already, errs at {@code e} after all, its bases at {@code baseError}
     * without the mapping's error (its bases beside the centre read with it: {@link LinkedReads}).
     */
    void error(int row, double e, double baseError) {
      error[row] = e;
      qualityError[row] = baseError;
    }

    /** Whether a read was taken for a slip. */
    boolean anySlip() {
      for (int r = 0; r < slip.length; r++) if (informative[r] && slip[r] > 0) return true;
      return false;
    }

    void addTo(ReadEvidence reads) {
      for (int r = 0; r < informative.length; r++) {
        if (!informative[r]) continue;
        int m = r < mateOf.length ? mateOf[r] : -1;
        if (m > r && m < informative.length && informative[m]) {
          // a fragment's haplotype: either mate's, the likelier placed where both are (none where they disagree)
          byte hap = haplotype[r];
          double e = phaseError[r];
          if (hap == UNPHASED || haplotype[m] != UNPHASED && phaseError[m] < e) {
            hap = haplotype[m];
            e = phaseError[m];
          }
          if (haplotype[r] != UNPHASED && haplotype[m] != UNPHASED && haplotype[r] != haplotype[m]) hap = UNPHASED;
          reads.addPair(alt[r], error[r], qualityError[r], reverse[r], slip[r], alt[m], error[m], qualityError[m], reverse[m], slip[m],
              hap, e);
          informative[m] = false; // counted with r
        } else {
          reads.add(alt[r], error[r], qualityError[r], reverse[r], slip[r], haplotype[r], phaseError[r]);
        }
      }
    }
  }

  /** Bases a read must reach past an indel's repeat tract to tell the alleles apart. */
  static final int INDEL_FLANK = 3;

  /**
   * A short-read aligner's scores (bwa mem's defaults: match 1, mismatch 4, gap open 6, extend 1):
   * a read of an indel's allele is aligned as the reference, without the gap, only where that costs
   * less than the gap, so where the reference alignment has few mismatches with the allele.
   */
  static final int ALIGNER_MATCH = 1;
  static final int ALIGNER_MISMATCH = 4;
  static final int ALIGNER_GAP_OPEN = 6;
  static final int ALIGNER_GAP_EXTEND = 1;

  /**
   * The bases a reference read must show on each side of an indel where its allele's haplotype,
   * laid over the read without the gap, has another base, for no aligner to have made the read of a
   * read of that allele: the fewest whose mismatches cost more than the gap (a read of the alt with
   * that many would be aligned with its gap, or clipped, and a clipped base is not drawn).
   */
  static int basesNoAlignerLeaves(int indelLength) {
    return (ALIGNER_GAP_OPEN + ALIGNER_GAP_EXTEND * indelLength) / (ALIGNER_MATCH + ALIGNER_MISMATCH) + 1;
  }

  /**
   * The log10 likelihoods {0/0, 0/1, 1/1} (largest 0) of a bi-allelic indel example whose alleles
   * are {@code ref} and {@code alt} (anchor included), as {@link #snp} but for an indel: alt reads
   * are those the image marks as supporting it; reference reads are only those that reach from the
   * base before the anchor to {@value #INDEL_FLANK} bases past the deleted bases, past the tandem
   * repeat that starts after the anchor and past the bases over which both alleles' haplotypes read
   * alike ({@link #readsAlike}; all read off the image's reference rows), with a base drawn at every
   * column between (no indel of their own there), since a read that ends before the alleles differ
   * shows the reference whichever allele it came from. A
   * reference read errs under hom-alt at the sample's indel error rate for that repeat's length and
   * unit ({@link IndelErrorRate#at}, floored: a read of the alt that ends a few bases past the indel
   * is left as the reference by the aligner), unless on both sides of the indel it shows the
   * reference where the alt's haplotype, laid over it without the gap, differs, at more bases than
   * an aligner leaves mismatched rather than open the gap ({@link #noAlignerMadeIt}), so that only
   * slippage explains it; such a read,
   * and an alt read under hom-ref, err at the rate the sample's reference reads grow such an indel
   * ({@link IndelErrorRate#ofReferenceReads}, not floored), each combined with its mapping error;
   * under the alt, a read without it errs at the rate of the repeat after the anchor on the alt's
   * haplotype ({@link #repeatOfAllele}) where that is more: a hom-alt A>AT before seven T has reads
   * of eight T that slipped back to seven ({@link ReadEvidence#addIndelRead});
   * the strand-artifact term is the SNPs'. The het likelihood reads the reads phased by a het column
   * beside the indel, outside its span ({@link #phaseColumn}; as {@link #snp} does), unless another
   * indel that {@value #SHARED_INDEL_ROWS} rows share sits near its span or another allele's reads
   * share its anchor: that haplotype's reads slip alike, on one haplotype. Null when no read is either.
   */
  public static float[] indel(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt, double artifactRate, IndelErrorRate indelErrors) {
    return indel(buffer, offset, height, width, channels, ref, alt, indelSpan(buffer, offset, height, width, channels, ref, alt),
        artifactRate, indelErrors);
  }

  /** As {@link #indel(DirectBuffer, int, int, int, int, String, String, double, IndelErrorRate)}, on the example's {@link #indelSpan}. */
  public static float[] indel(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt, IndelSpan span, double artifactRate, IndelErrorRate indelErrors) {
    if (span == null) return null;
    IndelRows rows = indelRows(buffer, offset, height, width, channels, ref, alt, span, indelErrors);
    TandemRepeat.Repeat slips = span.slippier(indelErrors);
    return overLoci(indelErrors.locusWeights(slips.length(), slips.unit()),
        m -> rows.evidence(span, indelErrors.atLocus(m), m).likelihoodsUnshifted(artifactRate));
  }

  /**
   * log10 of the likelihoods summed over the sample's spread of loci ({@link
   * IndelErrorRate#locusWeights}: {@code weights[k]} of them slip at {@link
   * IndelErrorRate#LOCUS_MULTIPLIERS}[k] times their class's rate), from {@code likelihoodsAt}, the
   * unshifted log10 likelihoods at a multiple; shifted so that the largest is 0 (a NaN stays NaN);
   * null where they are.
   */
  static float[] overLoci(double[] weights, java.util.function.DoubleFunction<double[]> likelihoodsAt) {
    double[] sum = null;
    for (int k = 0; k < weights.length; k++) {
      if (weights[k] <= 0) continue;
      double[] l = likelihoodsAt.apply(IndelErrorRate.LOCUS_MULTIPLIERS[k]);
      if (l == null) return null;
      double w = Math.log10(weights[k]);
      if (sum == null) {
        sum = new double[l.length];
        for (int g = 0; g < l.length; g++) sum[g] = l[g] + w;
      } else {
        for (int g = 0; g < l.length; g++) sum[g] = log10Sum(sum[g], l[g] + w);
      }
    }
    return sum == null ? null : shifted(sum);
  }

  /** {@code l} less its largest value (NaN aside), as floats: the largest 0. */
  static float[] shifted(double[] l) {
    double max = Double.NEGATIVE_INFINITY;
    for (double v : l) if (!Double.isNaN(v)) max = Math.max(max, v);
    float[] out = new float[l.length];
    for (int g = 0; g < l.length; g++) out[g] = (float) (l[g] - max);
    return out;
  }

  /**
   * The informative reads of a bi-allelic indel example, read off the image once whatever rates
   * they are weighed at: whether each shows the alt, whether no aligner made it of a read of the
   * other allele ({@code slipped}), its mapping error and its strand.
   */
  private record IndelRows(int count, boolean[] showsAlt, boolean[] slipped, double[] mapping, boolean[] reverse,
      byte[] haplotype, double[] phaseError, double[] snpSlip) {
    /**
     * The reads as {@link #indel} weighs them at the rates {@code indelErrors}, the sample's rates at
     * a locus of {@code multiple} times its class's.
     */
    ReadEvidence evidence(IndelSpan span, IndelErrorRate indelErrors, double multiple) {
      TandemRepeat.Repeat after = span.slippier(indelErrors);
      double readError = indelErrors.at(after.length(), after.unit());
      // a read that only a slip explains slipped by the indel's units (an aligner's read, by none)
      double referenceReadError = indelErrors.ofReferenceReads(after.length(), after.unit(), span.slipLength());
      TandemRepeat.Repeat altAfter = span.altAfter();
      double altReadError = indelErrors.at(altAfter.length(), altAfter.unit());
      double altReadSlip = indelErrors.ofReferenceReads(altAfter.length(), altAfter.unit(), span.slipLength());
      ReadEvidence reads = new ReadEvidence(2);
      for (int i = 0; i < count; i++) {
        double e = slipped[i] ? referenceReadError : readError;
        // an alt read that is a nearby SNP's haplotype slipped errs under the reference at that slip's rate
        if (snpSlip[i] > 0) e = Math.max(e, IndelErrorRate.atLocus(snpSlip[i], multiple));
        // a read without the alt from the alt's haplotype slips at the rate of the alt's repeat
        double fromAlt = showsAlt[i] ? 0 : combined(slipped[i] ? altReadSlip : altReadError, mapping[i]);
        reads.addIndelRead(showsAlt[i], combined(e, mapping[i]), reverse[i], fromAlt, haplotype[i], phaseError[i]);
      }
      return reads;
    }
  }

  /** The rows of a bi-allelic indel example that {@link #indel} counts ({@link IndelRows}). */
  private static IndelRows indelRows(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt, IndelSpan span, IndelErrorRate indelErrors) {
    int centre = (width - 1) / 2;
    int rowLength = width * channels;
    int from = centre - 1;
    int to = span.to();
    int n = Math.max(0, height - PileupConstants.REFERENCE_ROWS);
    boolean[] showsAlt = new boolean[n];
    boolean[] slipped = new boolean[n];
    double[] mapping = new double[n];
    boolean[] reverse = new boolean[n];
    boolean[] counted = new boolean[n]; // per read row (0 = the first)
    int[] rowOf = new int[n]; // per counted read, its read row
    int count = 0;
    int otherIndels = 0; // reads with an indel at the anchor that do not support the alt: another allele's
    double[] snpSlip = new double[n];
    SnpHaplotype[] snpHaplotypes = snpHaplotypesBeside(buffer, offset, height, width, channels,
        centre - OWN_INDEL_COLUMNS, to + OWN_INDEL_COLUMNS, supportingRows(buffer, offset, height, width, channels));
    int inserted = Math.max(0, alt.length() - ref.length());
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
      int row = offset + r * rowLength;
      int at = row + centre * channels;
      if ((buffer.getByte(at + BASE_QUALITY) & 0xFF) == 0) continue; // nothing drawn at the anchor
      boolean shows = (buffer.getByte(at + SUPPORTS_VARIANT) & 0xFF) == SUPPORTING;
      if (!shows && indelAnchorIn(buffer, row, channels, centre, centre)) otherIndels++;
      if (!shows && !drawnThroughout(buffer, row, channels, from, to)
          && !endsShowingTheReference(buffer, offset, row, width, channels, ref, alt, to)) continue;
      if (shows && snpHaplotypes.length > 0) {
        double slip = snpHaplotypeSlip(buffer, row, width, channels, snpHaplotypes, inserted, indelErrors);
        if (slip < 0) continue; // a nearby SNP's haplotype as it stands, written with the indel: says nothing of it
        snpSlip[count] = slip;
      }
      counted[r - PileupConstants.REFERENCE_ROWS] = true;
      rowOf[count] = r - PileupConstants.REFERENCE_ROWS;
      showsAlt[count] = shows;
      // an alt read from a reference haplotype, or a reference read from an alt one that no aligner made so
      slipped[count] = shows || noAlignerMadeIt(buffer, offset, row, width, channels, ref, alt);
      mapping[count] = mappingError(buffer, at);
      reverse[count] = reverse(buffer, at);
      count++;
    }
    // the reads placed on the haplotypes of a het column beside the indel, outside its repeat, where
    // no other indel is near: its haplotype's reads slip alike, on one haplotype
    byte[] haplotype = new byte[n];
    double[] phaseError = new double[n];
    PhaseColumn column = otherIndels >= SHARED_INDEL_ROWS
        || sharedIndelAnchored(buffer, offset, height, width, channels, centre - OWN_INDEL_COLUMNS, to + OWN_INDEL_COLUMNS, centre) ? null
        : phaseColumn(buffer, offset, height, width, channels, counted, centre - PHASE_MIN_DISTANCE + 1, to + PHASE_MIN_DISTANCE - 1);
    for (int i = 0; column != null && i < count; i++) {
      haplotype[i] = column.haplotype(buffer, offset, rowOf[i], width, channels);
      if (haplotype[i] != Fragments.UNPHASED) {
        phaseError[i] = column.error(buffer, offset, rowOf[i], width, channels, BaseErrorRate.promised(), 1);
      }
    }
    return new IndelRows(count, showsAlt, slipped, mapping, reverse, haplotype, phaseError, snpSlip);
  }

  /** A column whose reads show one base other than the reference's on at least this share of them is a SNP's. */
  static final double SNP_COLUMN_SHARE = 0.2;
  /** The most SNP columns beside an indel whose haplotypes {@link #snpHaplotypesBeside} gives. */
  static final int MAX_SNP_HAPLOTYPES = 2;
  /**
   * A SNP's read shows bases without a gap this many columns either side of it: an aligner leaves a
   * read of an indel's haplotype mismatched, rather than open the gap, only a few bases from its end.
   */
  static final int SNP_READ_FLANK = 5;

  /**
   * The haplotypes of the SNPs beside an indel allele that {@code indelReads} reads show: for each
   * column from {@code from} to {@code to}, the centre (the indel's anchor) aside, where more reads
   * than {@code indelReads}, at least {@value #SHARED_INDEL_ROWS} and {@value #SNP_COLUMN_SHARE} of
   * those drawn there, show one base other than the reference's with bases drawn {@value
   * #SNP_READ_FLANK} columns either side, the sample's bases ({@link #sampleBases}) with that base
   * there; the {@value #MAX_SNP_HAPLOTYPES} columns most reads show, none where no column does. A
   * read of such a haplotype that ends in a repeat before it and the indel's differ, or that slipped
   * there, is what an aligner writes as the indel: blind78-82's stutter samples and validation made
   * false indels of them beside true SNPs in 21 and 8 places (reads of a het T>A with a T more in the
   * run after it written C>CA on 5 of 50; a hom-alt G>C's reads with a T fewer in the run after it
   * written TG>T on 2 of 17). Where the indel has as many reads or more, the column may be its own
   * reads laid without the gap, and it is left alone (as {@link #snp} leaves a mixed site's SNP).
   */
  static SnpHaplotype[] snpHaplotypesBeside(DirectBuffer buffer, int offset, int height, int width, int channels, int from,
      int to, int indelReads) {
    int centre = (width - 1) / 2;
    int rowLength = width * channels;
    int[] counts = new int[4];
    List<int[]> snps = new ArrayList<>(); // {column, base, reads}
    // within the window a read is compared over (readWindow), so that its base there counts
    int lo = Math.max(Math.max(SNP_READ_FLANK, from), centre - SLIP_WINDOW);
    int hi = Math.min(Math.min(width - 1 - SNP_READ_FLANK, to), centre + SLIP_WINDOW);
    for (int c = lo; c <= hi; c++) {
      if (c == centre) continue;
      int reference = baseAt(buffer, offset, channels, c);
      if (reference < 0) continue;
      Arrays.fill(counts, 0);
      int drawn = 0;
      for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
        int row = offset + r * rowLength;
        int b = baseAt(buffer, row, channels, c);
        if (b < 0) continue;
        drawn++;
        if (b != reference && basesDrawn(buffer, row, channels, c - SNP_READ_FLANK, c + SNP_READ_FLANK)) counts[b]++;
      }
      for (int b = 0; b < 4; b++) {
        if (counts[b] > indelReads && counts[b] >= SHARED_INDEL_ROWS && counts[b] >= SNP_COLUMN_SHARE * drawn) {
          snps.add(new int[] {c, b, counts[b]});
        }
      }
    }
    if (snps.isEmpty()) return new SnpHaplotype[0];
    snps.sort((x, y) -> Integer.compare(y[2], x[2]));
    byte[] sample = sampleBases(buffer, offset, height, width, channels);
    SnpHaplotype[] haps = new SnpHaplotype[Math.min(MAX_SNP_HAPLOTYPES, snps.size())];
    for (int k = 0; k < haps.length; k++) {
      byte[] bases = sample.clone();
      bases[snps.get(k)[0]] = BASES[snps.get(k)[1]];
      haps[k] = new SnpHaplotype(snps.get(k)[0], bases);
    }
    return haps;
  }

  /**
   * Whether the read in {@code row} shows a base at column {@code c} or on both sides of it (a
   * deletion over it), within {@value #SLIP_WINDOW} columns.
   */
  private static boolean spans(DirectBuffer buffer, int row, int width, int channels, int c) {
    if (baseAt(buffer, row, channels, c) >= 0) return true;
    boolean before = false, after = false;
    for (int d = 1; d <= SLIP_WINDOW && !(before && after); d++) {
      before |= c - d >= 0 && baseAt(buffer, row, channels, c - d) >= 0;
      after |= c + d < width && baseAt(buffer, row, channels, c + d) >= 0;
    }
    return before && after;
  }

  /** The sample's bases over an example's window with a SNP's alt at {@code column} ({@link #snpHaplotypesBeside}). */
  record SnpHaplotype(int column, byte[] bases) {}

  /**
   * What the read in {@code row}, which shows an indel allele ({@code inserted} bases inserted, 0 for
   * a deletion), is beside the SNPs of {@code haplotypes} whose columns it shows a base at: -1 where it
   * is one of them as it stands ({@link #readsAsHaplotype}: no read of the indel's), otherwise the
   * largest rate at which one of them slips into it ({@link #slipOfHaplotype}; 0: none).
   */
  static double snpHaplotypeSlip(DirectBuffer buffer, int row, int width, int channels, SnpHaplotype[] haplotypes,
      int inserted, IndelErrorRate rates) {
    double slip = 0;
    for (SnpHaplotype hap : haplotypes) {
      if (!spans(buffer, row, width, channels, hap.column())) continue; // the read says nothing of the SNP
      if (readsAsHaplotype(buffer, row, width, channels, hap.bases(), inserted)) return -1;
      slip = Math.max(slip, slipOfHaplotype(buffer, row, width, channels, hap.bases(), rates));
    }
    return slip;
  }

  /** Whether the row starting at {@code row} shows a base at every column of {@code from .. to} (no end, clip, indel or N). */
  private static boolean basesDrawn(DirectBuffer buffer, int row, int channels, int from, int to) {
    for (int c = from; c <= to; c++) if (baseAt(buffer, row, channels, c) < 0) return false;
    return true;
  }

  /** The read rows whose pixel at the centre says they support the example's alt. */
  private static int supportingRows(DirectBuffer buffer, int offset, int height, int width, int channels) {
    int at = offset + PileupConstants.REFERENCE_ROWS * width * channels + (width - 1) / 2 * channels;
    int n = 0;
    for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++, at += width * channels) {
      if ((buffer.getByte(at + BASE_QUALITY) & 0xFF) != 0 && (buffer.getByte(at + SUPPORTS_VARIANT) & 0xFF) == SUPPORTING) n++;
    }
    return n;
  }

  /**
   * Whether the read in {@code row}, which shows an indel allele ({@code inserted} bases inserted,
   * any; 0 for a deletion), is {@code hap} as it stands over its window ({@link #readWindow}): its
   * bases, the indel's taken out or unknown, every one the haplotype's from the column where the read
   * starts, so that it is a read of that haplotype as much as of the indel's.
   */
  static boolean readsAsHaplotype(DirectBuffer buffer, int row, int width, int channels, byte[] hap, int inserted) {
    ReadWindow window = readWindow(buffer, row, width, channels, inserted);
    if (window == null || window.first() + window.bases().length > hap.length) return false;
    byte[] read = window.bases();
    for (int i = 0; i < read.length; i++) if (read[i] != ANY && read[i] != hap[window.first() + i]) return false;
    return true;
  }

  /** Multi-allelic sites with more alts than this get no pileup likelihoods (genotypes grow as alts squared). */
  public static final int MAX_MULTI_ALLELIC_ALTS = 4;

  /**
   * The pileup evidence of a multi-allelic site (every alt a SNP, or every alt an indel), gathered
   * from its single-alt examples: every example of a site shows the same read rows in the same
   * order, so a row that example {k} marks as supporting carries alt k. A row that no example marks
   * carries the reference when it shows it: at a SNP, the reference base at the site; at an indel, a
   * span as {@link #indel} asks of a reference read (from the base before the anchor past the
   * longest deletion and the tandem repeat, with {@value #INDEL_FLANK} bases to spare). Any other
   * row counts for nothing. A read errs as at a bi-allelic site of its type (a SNP read by its base
   * and mapping quality and the window's {@link #errorFactor}, an indel read at the sample's
   * {@link IndelErrorRate} for the repeat after the anchor with its mapping error), and a wrong read shows any one of the other
   * alleles alike: one of three other bases at a SNP, each at 1/3 of the error; at an indel each other
   * allele at the whole rate, since that rate is a read's rate of showing one wrong allele (the
   * column's most common indel), as at a bi-allelic indel. Split among the alts, it made an alt's
   * reads twice as unlikely errors at a site with two alts as at one, and a stutter read's second
   * allele, pruned, turned two stutter reads of ten into a het. {@link #likelihoods} gives log10 L of every
   * genotype of the site's alleles (VCF order: 0/0, 0/1, 1/1, 0/2, 1/2, 2/2, ...): a 1/2 site reads
   * as 1/2 where the network, shown one alt at a time, leaves the weaker alt at hom-ref. No strand
   * artifact term.
   */
  public static final class SiteAlleles {
    private final int alts;
    private final boolean snp;
    private final IndelErrorRate indelErrors;
    private final BaseErrorRate baseErrors;
    private final boolean[] seen;
    private int seenCount;
    private int rows;
    /** Per row: -1 counts for nothing, 0 the reference, k alt k. */
    private int[] allele = new int[0];
    private double[] error = new double[0];
    /**
     * Per row of an indel site, per allele (0 the reference) other than the row's: the rate at which a
     * read of that allele's haplotype shows the row's allele ({@link #indelRowErrors}).
     */
    private double[][] fromAllele = new double[0][];
    /** An indel site's {@link #slipLength} of each pair of its alleles (0 the reference). */
    private int[][] slipLengths;
    /**
     * Per row of a SNP site, per allele (0 the reference): the rate at which the sample's reads of the
     * haplotype with that allele show the row's read, slipped ({@link #movedSlipRate}); null where no
     * row is such a read. Per row of an indel site, per alt: the rate at which the sample's reads of
     * that alt's haplotype show another allele, at the repeat after the anchor on that haplotype
     * ({@link #repeatOfAllele}): an insertion that lengthens a repeat slips as the longer one does.
     */
    private double[][] slip;
    /** An indel site's repeat after the anchor, and each alt's on its haplotype ({@link #repeatOfAllele}; index 0 unused). */
    private TandemRepeat.Repeat after;
    private TandemRepeat.Repeat[] own;
    /** Per row of an indel site: its read's mapping error, and whether no aligner made it of any alt's read ({@link #noAlignerMadeIt}). */
    private double[] mapping;
    private boolean[] slipped;
    /** Per row of an indel site: the rate at which a nearby SNP's haplotype slips into its read ({@link #snpHaplotypesBeside}; 0: none). */
    private double[] snpSlip;

    /**
     * A site of {@code alts} (2..{@link #MAX_MULTI_ALLELIC_ALTS}) SNP alts ({@code snp}) or indel alts,
     * whose indel reads err at the sample's {@code indelErrors}.
     */
    public SiteAlleles(int alts, boolean snp, IndelErrorRate indelErrors) {
      this(alts, snp, indelErrors, BaseErrorRate.promised());
    }

    /** As {@link #SiteAlleles(int, boolean, IndelErrorRate)}, SNP bases erring at the sample's {@code baseErrors}. */
    public SiteAlleles(int alts, boolean snp, IndelErrorRate indelErrors, BaseErrorRate baseErrors) {
      if (alts < 2 || alts > MAX_MULTI_ALLELIC_ALTS) throw new IllegalArgumentException(alts + " alts");
      this.alts = alts;
      this.snp = snp;
      this.indelErrors = java.util.Objects.requireNonNull(indelErrors, "indelErrors");
      this.baseErrors = java.util.Objects.requireNonNull(baseErrors, "baseErrors");
      this.seen = new boolean[alts];
    }

    /**
     * Adds the example of alt {@code alt} (1-based) whose image starts at {@code buffer[offset]}, of
     * the site whose alleles are {@code ref} and {@code altAlleles}. An example of a different row count
     * than the first, or an image of fewer than six channels, is ignored.
     */
    public void add(int alt, DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
        String[] altAlleles) {
      add(alt, buffer, offset, height, width, channels, ref, altAlleles, null);
    }

    /**
     * As {@link #add(int, DirectBuffer, int, int, int, int, String, String[])}, a SNP site's reads
     * erring at their bases' places in their reads ({@code cycles}, as {@link PileupLikelihood#snp}
     * takes them; null: not known), read from its first example.
     */
    public void add(int alt, DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
        String[] altAlleles, byte[] cycles) {
      if (alt < 1 || alt > alts || seen[alt - 1]) return;
      if (channels < 6 || width < 1 || height <= PileupConstants.REFERENCE_ROWS) return;
      int n = height - PileupConstants.REFERENCE_ROWS;
      int centre = (width - 1) / 2;
      int rowLength = width * channels;
      if (seenCount == 0 && snp) {
        double factor = errorFactor(buffer, offset, height, width, channels, baseErrors);
        int[] anchors = anchorRowsNearCentre(buffer, offset, height, width, channels);
        rows = n;
        allele = new int[n];
        error = new double[n];
        for (int r = 0; r < n; r++) {
          int row = offset + (r + PileupConstants.REFERENCE_ROWS) * rowLength;
          int at = row + centre * channels;
          int bqPixel = buffer.getByte(at + BASE_QUALITY) & 0xFF;
          boolean drawn = bqPixel != 0 && (buffer.getByte(at) & 0xFF) != 0;
          allele[r] = drawn && (buffer.getByte(at + DIFFERS_FROM_REF) & 0xFF) == MATCHES_REF
              && !ownIndelNearCentre(buffer, row, width, channels, anchors) ? 0 : -1;
          int mq = quality(buffer.getByte(at + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP);
          error[r] = drawn
              ? readError(baseErrors, quality(bqPixel, PileupConstants.BASE_QUALITY_CAP),
                  cycleOf(cycles, r + PileupConstants.REFERENCE_ROWS), mq, factor)
              : MAX_ERROR;
        }
        slip = movedReads(buffer, offset, height, width, channels, ref, altAlleles);
      } else if (seenCount == 0) {
        after = tandemRepeat(buffer, offset, width, channels, centre + 1);
        int to = lastColumnToReach(buffer, offset, width, channels, ref, altAlleles, after);
        own = new TandemRepeat.Repeat[alts + 1];
        for (int k = 1; k <= alts; k++) own[k] = repeatOfAllele(buffer, offset, width, channels, ref, altAlleles[k - 1]);
        byte[] following = referenceBases(buffer, offset, width, channels, centre + 1);
        slipLengths = new int[alts + 1][alts + 1];
        for (int x = 0; x <= alts; x++) {
          for (int a = 0; a <= alts; a++) {
            slipLengths[x][a] = slipLength(following, x == 0 ? ref : altAlleles[x - 1], a == 0 ? ref : altAlleles[a - 1],
                ref.length(), after);
          }
        }
        rows = n;
        allele = new int[n];
        mapping = new double[n];
        slipped = new boolean[n];
        snpSlip = new double[n];
        for (int r = 0; r < n; r++) {
          int row = offset + (r + PileupConstants.REFERENCE_ROWS) * rowLength;
          int at = row + centre * channels;
          boolean anchor = (buffer.getByte(at + BASE_QUALITY) & 0xFF) != 0;
          boolean spans = to >= 0 && drawnThroughout(buffer, row, channels, centre - 1, to);
          allele[r] = anchor && spans ? 0 : -1;
          mapping[r] = mappingError(buffer, at);
          slipped[r] = spans;
          for (String a : altAlleles) slipped[r] = slipped[r] && noAlignerMadeIt(buffer, offset, row, width, channels, ref, a);
        }
      } else if (n != rows) {
        return;
      }
      SnpHaplotype[] snpHaplotypes = snp ? new SnpHaplotype[0] : snpHaplotypesBeside(buffer, offset, height, width, channels,
          centre - OWN_INDEL_COLUMNS, centre + Math.max(ref.length(), altAlleles[alt - 1].length()) + OWN_INDEL_COLUMNS,
          supportingRows(buffer, offset, height, width, channels));
      int inserted = snp ? 0 : Math.max(0, altAlleles[alt - 1].length() - ref.length());
      for (int r = 0; r < n; r++) {
        int at = offset + (r + PileupConstants.REFERENCE_ROWS) * rowLength + centre * channels;
        if ((buffer.getByte(at + BASE_QUALITY) & 0xFF) == 0) continue;
        if ((buffer.getByte(at + SUPPORTS_VARIANT) & 0xFF) != SUPPORTING) continue;
        if (snp && ((buffer.getByte(at) & 0xFF) == 0 || (buffer.getByte(at + DIFFERS_FROM_REF) & 0xFF) != DIFFERS)) continue;
        if (snpHaplotypes.length > 0) {
          double slip = snpHaplotypeSlip(buffer, at - centre * channels, width, channels, snpHaplotypes, inserted, indelErrors);
          if (slip < 0) {
            allele[r] = -1; // a nearby SNP's haplotype as it stands: no read of this allele's
            continue;
          }
          snpSlip[r] = slip;
        }
        allele[r] = alt;
      }
      seen[alt - 1] = true;
      seenCount++;
    }

    /**
     * Per read row, per allele of the SNP site {@code ref} > {@code altAlleles}: the rate at which the
     * sample's reads of its haplotype ({@link #sampleBases} with that allele's base at the centre) show
     * the read, slipped once ({@link #slipOfHaplotype}), where the read shows another base at the
     * centre and has an indel near it or shows that allele's base beside it; null where no read is
     * such. A hom-alt GAA>TCT before nine A has reads with eight A that the aligner writes as a
     * deletion of the G, so they show the T and C a column on: blind59 wrote it as A>C,T 1/2 on AD
     * 0,14,2 and A>T,C 1/2 on AD 0,2,14 at 15x, the two reads of the third allele base errors.
     */
    private double[][] movedReads(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
        String[] altAlleles) {
      int centre = (width - 1) / 2;
      int rowLength = width * channels;
      int[] bases = new int[alts + 1]; // each allele's base, 0..3 (-1: none)
      for (int k = 0; k <= alts; k++) {
        bases[k] = baseIndex(ReadBaseChannel.baseColor((byte) (k == 0 ? ref : altAlleles[k - 1]).charAt(0)));
      }
      byte[][] haplotypes = new byte[alts + 1][]; // the sample's bases with each allele, once a read needs it
      byte[] sample = null;
      double[][] out = null;
      for (int r = 0; r < rows; r++) {
        int row = offset + (r + PileupConstants.REFERENCE_ROWS) * rowLength;
        int shown = baseAt(buffer, row, channels, centre);
        if (shown < 0) continue;
        boolean gapped = indelAnchorNearCentre(buffer, row, width, channels) >= 0;
        for (int k = 0; k <= alts; k++) {
          int base = bases[k];
          if (base < 0 || base == shown || !gapped && !baseBesideCentre(buffer, row, width, channels, base)) continue;
          if (haplotypes[k] == null) {
            if (sample == null) sample = sampleBases(buffer, offset, height, width, channels);
            if (centre >= sample.length) return out;
            haplotypes[k] = sample.clone();
            haplotypes[k][centre] = BASES[base];
          }
          double rate = slipOfHaplotype(buffer, row, width, channels, haplotypes[k], indelErrors);
          if (rate <= 0) continue;
          if (out == null) out = new double[rows][alts + 1];
          out[r][k] = combined(rate, mappingError(buffer, row + centre * channels));
        }
      }
      return out;
    }

    /** True when every alt's example has been added. */
    public boolean complete() {
      return seenCount == alts;
    }

    /**
     * An indel site's per-row rates at the sample's {@code rates}, once every alt's rows are known: a
     * read errs at the rate of the repeat after the anchor (at the rate reference reads grow an
     * indel where no aligner made it of an alt's read); a reference read shows an alt at the latter,
     * and a read of alt k's haplotype shows another allele at the rate of that haplotype's repeat,
     * or at the repeat after the anchor's where that is more; a read that only a slip explains (an
     * alt's read from the reference, a read that no aligner made) slipped by as many units as the
     * two alleles differ ({@link IndelErrorRate#unitShare}); each combined with the read's mapping
     * error.
     */
    private void indelRowErrors(IndelErrorRate rates, double multiple) {
      double indelError = rates.at(after.length(), after.unit());
      double fromReference = rates.ofReferenceReads(after.length(), after.unit());
      double[] altError = new double[alts + 1]; // per alt: its haplotype's reads' rate of showing another allele
      for (int k = 1; k <= alts; k++) altError[k] = rates.at(own[k].length(), own[k].unit());
      if (error.length != rows) {
        error = new double[rows];
        fromAllele = new double[rows][alts + 1];
      }
      for (int r = 0; r < rows; r++) {
        int x = allele[r];
        if (x < 0) continue;
        error[r] = combined(slipped[r] ? fromReference : indelError, mapping[r]);
        for (int a = 0; a <= alts; a++) {
          if (a == x) continue;
          int length = slipLengths[x][a];
          double slip = rates.ofReferenceReads(after.length(), after.unit(), length);
          if (a == 0) {
            // an alt's read from a reference haplotype, or from a nearby SNP's haplotype slipped
            if (snpSlip[r] > 0) slip = Math.max(slip, IndelErrorRate.atLocus(snpSlip[r], multiple));
            fromAllele[r][a] = combined(slip, mapping[r]);
            continue;
          }
          double ownSlip = slipped[r] ? rates.ofReferenceReads(own[a].length(), own[a].unit(), length) : altError[a];
          fromAllele[r][a] = combined(Math.max(slipped[r] ? slip : indelError, ownSlip), mapping[r]);
        }
      }
    }

    /**
     * log10 L of each genotype in VCF order, largest 0; null unless complete or with no informative
     * read. An indel site's are summed over the sample's spread of loci ({@link #overLoci}).
     */
    public float[] likelihoods() {
      if (!complete()) return null;
      if (snp) {
        double[] l = likelihoodsUnshifted();
        return l == null ? null : shifted(l);
      }
      return overLoci(indelErrors.locusWeights(after.length(), after.unit()), m -> {
        indelRowErrors(indelErrors.atLocus(m), m);
        return likelihoodsUnshifted();
      });
    }

    /** log10 L of each genotype in VCF order at the rows' rates as they stand; null with no informative read. */
    private double[] likelihoodsUnshifted() {
      int alleles = alts + 1;
      double[] l = new double[alleles * (alleles + 1) / 2];
      int informative = 0;
      for (int r = 0; r < rows; r++) {
        int x = allele[r];
        if (x < 0) continue;
        informative++;
        double e = error[r];
        double right = 1 - e;
        // A SNP read's error is any of three other bases, or the read of a haplotype slipped; an
        // indel read's is the rate at which that allele's haplotype shows it (indelRowErrors).
        double[] from = snp ? null : fromAllele[r];
        double[] slipped = slip == null ? null : slip[r];
        for (int b = 0; b < alleles; b++) {
          for (int a = 0; a <= b; a++) {
            double pa = x == a ? right : from != null ? from[a] : Math.max(e / 3, slipped == null ? 0 : slipped[a]);
            double pb = x == b ? right : from != null ? from[b] : Math.max(e / 3, slipped == null ? 0 : slipped[b]);
            l[b * (b + 1) / 2 + a] += Math.log10((pa + pb) / 2);
          }
        }
      }
      if (informative == 0) return null;
      return l;
    }
  }

  /**
   * True when the reference read in {@code row} cannot be a read of the haplotype with {@code alt}
   * in place of {@code ref} (anchor included, at the image's centre) that an aligner left without
   * its gap: on each side of the indel, the read shows the reference base at as many columns as
   * {@link #basesNoAlignerLeaves} where that haplotype, laid over the read without the gap, has
   * another. Right of the anchor the read is laid from its left part (the haplotype's bases after
   * the anchor, then the reference shifted by the indel's length), left of it from its right part
   * (the reference shifted the other way, the inserted bases where they fall). A column counts while
   * the read has a base drawn there that matches the reference row.
   */
  static boolean noAlignerMadeIt(DirectBuffer buffer, int offset, int row, int width, int channels, String ref, String alt) {
    int centre = (width - 1) / 2;
    int delta = ref.length() - alt.length(); // > 0: a deletion
    int needed = basesNoAlignerLeaves(Math.abs(delta));
    int right = 0;
    for (int c = centre + 1; c < width && right < needed; c++) {
      int refColour = buffer.getByte(offset + c * channels) & 0xFF;
      if (!showsReference(buffer, row, channels, c, refColour)) break;
      int altColour = haplotypeColour(buffer, offset, width, channels, ref, alt, c);
      if (altColour <= 0) break;
      if (altColour != refColour) right++;
    }
    if (right < needed) return false;
    int left = 0;
    for (int c = centre; c >= 0 && left < needed; c--) {
      int refColour = buffer.getByte(offset + c * channels) & 0xFF;
      if (!showsReference(buffer, row, channels, c, refColour)) break;
      // the haplotype's base here when the read's right part is aligned
      int altColour = haplotypeColour(buffer, offset, width, channels, ref, alt, c - delta);
      if (altColour <= 0) break;
      if (altColour != refColour) left++;
    }
    return left >= needed;
  }

  /**
   * The read-base colour of base {@code h} of the haplotype with {@code alt} in place of {@code ref}
   * (anchor included, at the image's centre), counted in the image's columns: the first reference
   * row's base up to the anchor, then alt's bases, then the reference row's shifted by the alleles'
   * length difference. -1 where that reference column lies outside the image or has no base drawn;
   * an alt base other than ACGT is 0, as the read-base channel draws it.
   */
  static int haplotypeColour(DirectBuffer buffer, int offset, int width, int channels, String ref, String alt, int h) {
    int centre = (width - 1) / 2;
    if (h > centre && h - centre < alt.length()) {
      return ReadBaseChannel.baseColor((byte) Character.toUpperCase(alt.charAt(h - centre)));
    }
    int col = h <= centre ? h : h + ref.length() - alt.length();
    if (col < 0 || col >= width) return -1;
    int colour = buffer.getByte(offset + col * channels) & 0xFF;
    return colour == 0 ? -1 : colour;
  }

  /** True when the row has a base drawn at column {@code c} that is the reference row's {@code refColour}. */
  private static boolean showsReference(DirectBuffer buffer, int row, int channels, int c, int refColour) {
    int base = buffer.getByte(row + c * channels) & 0xFF;
    return base != 0 && refColour != 0 && base == refColour;
  }

  /**
   * Where a bi-allelic indel example's alleles are told apart: the tandem repeat {@code after} its
   * anchor on the reference and {@code altAfter} on the alt's haplotype ({@link #repeatOfAllele}),
   * and the last column {@code to} a read must reach from the column before the anchor
   * ({@link #lastColumnToReach}), and {@code slipLength}: the indel's length where its bases are
   * whole units of the reference's repeat after the anchor ({@link #slipLength}), so that a read
   * shows one allele for the other only by slipping that many units; 0 otherwise. Worked out once
   * per example: both {@link #indel} and {@link #indelRowEvidence} read it.
   */
  public record IndelSpan(TandemRepeat.Repeat after, TandemRepeat.Repeat altAfter, int to, String ref, String alt,
      TandemRepeat.Repeat sampleAfter, int slipLength) {

    /** Of the reference's repeat after the anchor and the sample's ({@link #sampleRepeat}), the one whose reads slip more at {@code rates}. */
    TandemRepeat.Repeat slippier(IndelErrorRate rates) {
      return rates.at(sampleAfter.length(), sampleAfter.unit()) > rates.at(after.length(), after.unit()) ? sampleAfter : after;
    }
  }

  /**
   * The tandem repeat of the reference after an example's anchor (the column after the centre), the
   * one whose indel error rate its indel reads err at, whichever its alts; null for an image without
   * the channels or read rows the indel likelihoods need.
   */
  public static TandemRepeat.Repeat repeatAfterAnchor(DirectBuffer buffer, int offset, int height, int width, int channels) {
    if (channels < 6 || width < 1 || height <= PileupConstants.REFERENCE_ROWS) return null;
    return tandemRepeat(buffer, offset, width, channels, (width - 1) / 2 + 1);
  }

  /**
   * The example's {@link IndelSpan}; null when it has none: not an indel (the alleles are as long),
   * an image without the channels or read rows it needs, or a span that leaves the image.
   */
  public static IndelSpan indelSpan(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt) {
    if (channels < 6 || width < 1 || height <= PileupConstants.REFERENCE_ROWS || ref.length() == alt.length()) return null;
    TandemRepeat.Repeat after = tandemRepeat(buffer, offset, width, channels, (width - 1) / 2 + 1);
    int to = lastColumnToReach(buffer, offset, width, channels, ref, alt, after);
    return to < 0 ? null : new IndelSpan(after, repeatOfAllele(buffer, offset, width, channels, ref, alt), to, ref, alt,
        sampleRepeat(buffer, offset, height, width, channels, ref, alt, after),
        slipLength(referenceBases(buffer, offset, width, channels, (width - 1) / 2 + 1), ref, alt, ref.length(), after));
  }

  /**
   * The length by which alleles {@code one} and {@code other} of a site (anchor included; the
   * shorter the longer's start) differ where the longer's extra bases are whole units of the
   * reference's repeat {@code after} the anchor, the reference's bases from the column after the
   * anchor being {@code following} and the reference allele {@code referenceLength} long: two units
   * or more, in phase with the repeat, and inside it where they are the reference's bases (a
   * deletion). 0 otherwise: a G>GTGTGTGTA after (TG)n is no slip of it, nor a deletion that runs
   * past the repeat, nor an indel of one unit or a length that is none.
   */
  static int slipLength(byte[] following, String one, String other, int referenceLength, TandemRepeat.Repeat after) {
    String shorter = one.length() < other.length() ? one : other;
    String longer = one.length() < other.length() ? other : one;
    int unit = after.unit();
    int length = longer.length() - shorter.length();
    if (unit <= 0 || length < 2 * unit || length % unit != 0 || !longer.startsWith(shorter)) return 0;
    int start = shorter.length() - 1; // the extra bases follow the shorter allele's: index in following
    boolean onReference = longer.length() <= referenceLength;
    if (start + unit > after.length() || (onReference && start + length > after.length())) return 0;
    for (int i = 0; i < length; i++) {
      if (start + i % unit >= following.length
          || (longer.charAt(shorter.length() + i) & 0xDF) != (following[start + i % unit] & 0xDF)) {
        return 0;
      }
    }
    return length;
  }

  /**
   * The tandem repeat that the indel {@code ref}>{@code alt} at the image's centre slips in on the
   * sample's bases ({@link #sampleBases}: a hom-alt variant's base where most reads show one), the
   * indel left-aligned there: the reference's repeat {@code after} the anchor where the sample shows
   * the reference's bases around it. A hom-alt T>C inside CTCTCTCTTCTCT makes the sample's (CT)n
   * longer, and its stutter reads one CT short, laid over the reference, delete TT after a C, a class
   * that hardly slips (blind62: 7 such reads of 22 made a false CTT>C at GQ 25, and the SNP 0/1 on AD
   * 0,15).
   */
  static TandemRepeat.Repeat sampleRepeat(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt, TandemRepeat.Repeat after) {
    int centre = (width - 1) / 2;
    byte[] hap = sampleBases(buffer, offset, height, width, channels);
    if (Arrays.equals(hap, referenceBases(buffer, offset, width, channels, 0)) || centre + ref.length() >= hap.length) return after;
    int first = centre + 1; // the first base the indel deletes, or the base an insertion goes before
    if (ref.length() > alt.length()) {
      int length = ref.length() - alt.length();
      while (first > 0 && first - 1 + length < hap.length && hap[first - 1] == hap[first - 1 + length]) first--;
    } else {
      byte[] inserted = alt.substring(ref.length()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      int k = inserted.length;
      while (first > 0 && hap[first - 1] == inserted[(k - 1 + inserted.length) % inserted.length]) {
        first--;
        k = (k - 1 + inserted.length) % inserted.length; // the inserted bases rotate as the insertion moves left
      }
    }
    return TandemRepeat.longest(hap, first, Integer.MAX_VALUE);
  }

  /**
   * The tandem repeat after the anchor (the image's centre) on the haplotype with {@code alt} in place
   * of {@code ref}: the alt's bases after the anchor, then the reference's after {@code ref}. An
   * insertion of the repeat's unit lengthens it (A>AT before seven T: eight), a deletion shortens it.
   */
  static TandemRepeat.Repeat repeatOfAllele(DirectBuffer buffer, int offset, int width, int channels, String ref, String alt) {
    byte[] rest = referenceBases(buffer, offset, width, channels, (width - 1) / 2 + ref.length());
    byte[] hap = new byte[alt.length() - 1 + rest.length];
    for (int i = 1; i < alt.length(); i++) hap[i - 1] = (byte) alt.charAt(i);
    System.arraycopy(rest, 0, hap, alt.length() - 1, rest.length);
    return TandemRepeat.longest(hap, 0, Integer.MAX_VALUE);
  }

  /**
   * The last column a read must reach, from the column before the anchor, to tell a bi-allelic
   * indel's alleles apart: {@value #INDEL_FLANK} bases past the deleted bases, the tandem repeat
   * {@code after} the anchor and the bases over which both haplotypes read alike; -1 when that is
   * outside the image (or the alleles read alike to its edge).
   */
  private static int lastColumnToReach(DirectBuffer buffer, int offset, int width, int channels, String ref, String alt,
      TandemRepeat.Repeat after) {
    int centre = (width - 1) / 2;
    int alike = readsAlike(buffer, offset, width, channels, ref, alt);
    int deleted = Math.max(0, ref.length() - alt.length());
    int to = centre + Math.max(Math.max(deleted, after.length()), alike) + INDEL_FLANK;
    return centre < 1 || alike < 0 || to >= width ? -1 : to;
  }

  /**
   * As {@link #lastColumnToReach(DirectBuffer, int, int, int, String, String, TandemRepeat.Repeat)} for
   * a site of several indel alleles: the furthest of the alts' last columns, a read having to tell
   * each apart from the reference; -1 when any alt's is.
   */
  private static int lastColumnToReach(DirectBuffer buffer, int offset, int width, int channels, String ref, String[] alts,
      TandemRepeat.Repeat after) {
    int to = -1;
    for (String a : alts) {
      int t = lastColumnToReach(buffer, offset, width, channels, ref, a, after);
      if (t < 0) return -1;
      to = Math.max(to, t);
    }
    return to;
  }

  /** {@link #indelRowEvidence}: a row that cannot tell the alleles apart (or holds no read). */
  public static final byte NEITHER = -1;
  /** {@link #indelRowEvidence}: a reference read that tells the alleles apart. */
  public static final byte REFERENCE = 0;
  /** {@link #indelRowEvidence}: a read the image marks as supporting the alt. */
  public static final byte ALT = 1;
  /**
   * {@link #indelRowEvidence}: a read not marked as the alt's with an indel of its own (or an N) where
   * the alleles are told apart: another allele, or the alt written elsewhere in its repeat.
   */
  public static final byte OTHER = 2;

  /**
   * What each read row (0 = the first row after the reference rows) of a bi-allelic indel example
   * says: {@link #ALT} where the image marks it as supporting the alt, {@link #REFERENCE} where it is
   * drawn without a gap from the base before the anchor to the last column {@link #indel} asks a
   * reference read to reach, {@link #OTHER} where it shows an indel of its own (or an N) in those
   * columns (another allele of the site, wherever the aligner put it in the repeat), else
   * {@link #NEITHER}: a row that ends inside the indel's repeat, or is clipped there, shows the
   * reference whichever allele it came from. Null when the image has no such span.
   */
  public static byte[] indelRowEvidence(DirectBuffer buffer, int offset, int height, int width, int channels, String ref,
      String alt) {
    return indelRowEvidence(buffer, offset, height, width, channels, indelSpan(buffer, offset, height, width, channels, ref, alt));
  }

  /** As {@link #indelRowEvidence(DirectBuffer, int, int, int, int, String, String)}, on the example's {@link #indelSpan}. */
  public static byte[] indelRowEvidence(DirectBuffer buffer, int offset, int height, int width, int channels, IndelSpan span) {
    if (span == null) return null;
    int centre = (width - 1) / 2;
    int rowLength = width * channels;
    int to = span.to();
    byte[] says = new byte[height - PileupConstants.REFERENCE_ROWS];
    for (int r = 0; r < says.length; r++) {
      int row = offset + (r + PileupConstants.REFERENCE_ROWS) * rowLength;
      boolean showsAlt = (buffer.getByte(row + centre * channels + SUPPORTS_VARIANT) & 0xFF) == SUPPORTING;
      says[r] = showsAlt ? ALT
          : drawnThroughout(buffer, row, channels, centre - 1, to)
              || endsShowingTheReference(buffer, offset, row, width, channels, span.ref(), span.alt(), to) ? REFERENCE
          : indelAnchorIn(buffer, row, channels, centre - 1, to) ? OTHER : NEITHER;
    }
    return says;
  }

  /**
   * Columns either side of a SNP's centre within which a read's own indel can hide the SNP: a read of
   * the alt with an indel error a few bases away is aligned with the gap moved so that the SNP's base
   * lines up as the reference (one mismatch fewer), and shows the reference whichever allele it came
   * from. At hom-alt SNPs of an ART HiSeq 1000 sample such reads showed the reference 7 times in 8
   * within 6 columns (0 in 3 at 7 to 10), where reads with no indel did 6 times in 7,666.
   */
  static final int OWN_INDEL_COLUMNS = 6;
  /** An indel anchor that this many read rows share is a variant's, where reads are aligned alike. */
  public static final int SHARED_INDEL_ROWS = 3;

  /**
   * The read rows with an indel anchor at each column from centre - {@value #OWN_INDEL_COLUMNS} to
   * centre + {@value #OWN_INDEL_COLUMNS} (index 0 the first).
   */
  static int[] anchorRowsNearCentre(DirectBuffer buffer, int offset, int height, int width, int channels) {
    int centre = (width - 1) / 2;
    return anchorRows(buffer, offset, height, width, channels, centre - OWN_INDEL_COLUMNS, 2 * OWN_INDEL_COLUMNS + 1);
  }

  /**
   * True when the row has an indel anchor of its own (fewer than {@value #SHARED_INDEL_ROWS} rows have
   * one there, {@code anchors} from {@link #anchorRowsNearCentre}) within {@value #OWN_INDEL_COLUMNS}
   * columns of the centre, the centre aside; an N base, which the image draws as it draws an anchor
   * ({@link #indelAnchorIn}), counts as one: such a read's reference base at the centre says
   * nothing of its allele (see {@link #OWN_INDEL_COLUMNS}), as bcftools' BAQ would make it.
   */
  static boolean ownIndelNearCentre(DirectBuffer buffer, int row, int width, int channels, int[] anchors) {
    return ownIndelColumn(buffer, row, width, channels, anchors, 0) >= 0;
  }

  /** The first column from {@code fromColumn} where the row has such an indel of its own; -1 if none. */
  static int ownIndelColumn(DirectBuffer buffer, int row, int width, int channels, int[] anchors, int fromColumn) {
    int first = (width - 1) / 2 - OWN_INDEL_COLUMNS; // anchors[0]'s column
    for (int c = anchorColumnNearCentre(buffer, row, width, channels, fromColumn); c >= 0;
        c = anchorColumnNearCentre(buffer, row, width, channels, c + 1)) {
      if (anchors[c - first] < SHARED_INDEL_ROWS) return c;
    }
    return -1;
  }

  /**
   * The first column from {@code fromColumn} within {@value #OWN_INDEL_COLUMNS} columns of the
   * centre, the centre aside, where the row has an indel anchor (or an N, {@link #indelAnchorIn}),
   * shared with other rows or not; -1 if none.
   */
  static int anchorColumnNearCentre(DirectBuffer buffer, int row, int width, int channels, int fromColumn) {
    int centre = (width - 1) / 2;
    int last = Math.min(width - 1, centre + OWN_INDEL_COLUMNS);
    for (int c = Math.max(Math.max(0, fromColumn), centre - OWN_INDEL_COLUMNS); c <= last; c++) {
      if (c != centre && indelAnchorIn(buffer, row, channels, c, c)) return c;
    }
    return -1;
  }

  /** True when a column in [from, to] of the row has a quality but no base: an indel's anchor (or an N). */
  private static boolean indelAnchorIn(DirectBuffer buffer, int row, int channels, int from, int to) {
    for (int c = from; c <= to; c++) {
      int at = row + c * channels;
      if ((buffer.getByte(at) & 0xFF) == 0 && (buffer.getByte(at + BASE_QUALITY) & 0xFF) != 0) return true;
    }
    return false;
  }

  /**
   * True when the read in {@code row} stops (it ends, or its bases are clipped) within the
   * {@value #INDEL_FLANK} columns before and at {@code to} (the last column a reference read must reach:
   * {@link #lastColumnToReach}), drawn without a gap from the column before the anchor to there,
   * and shows the reference base at each of those flank columns it reaches, one at least where the
   * haplotype with {@code alt}, laid over the read from its left part, has another base. A read of
   * that haplotype would show that base (an aligner leaves it as a mismatch or clips it, and a
   * clipped base is not drawn), so the read is the reference's but for a base error: a het
   * insertion in a 26-base GA tract on 15x reads, whose one reference-haplotype read ended a base
   * past the tract, came out 1/1 without it.
   */
  static boolean endsShowingTheReference(DirectBuffer buffer, int offset, int row, int width, int channels, String ref,
      String alt, int to) {
    int centre = (width - 1) / 2;
    int first = to - INDEL_FLANK + 1; // the first column past the repeat, the deleted bases and the alike bases
    if (first <= centre || !drawnThroughout(buffer, row, channels, centre - 1, first)) return false;
    boolean toldApart = false;
    for (int c = first; c <= to; c++) {
      int at = row + c * channels;
      int base = buffer.getByte(at) & 0xFF;
      if (base == 0) {
        if ((buffer.getByte(at + BASE_QUALITY) & 0xFF) != 0) return false; // an indel of its own, not its end
        break;
      }
      int refColour = buffer.getByte(offset + c * channels) & 0xFF;
      if (base != refColour) return false;
      int altColour = haplotypeColour(buffer, offset, width, channels, ref, alt, c);
      if (altColour > 0 && altColour != refColour) toldApart = true;
    }
    return toldApart;
  }

  /** True when every column in [from, to] of the row has a base drawn (no gap, no indel anchor). */
  private static boolean drawnThroughout(DirectBuffer buffer, int row, int channels, int from, int to) {
    for (int c = from; c <= to; c++) {
      if ((buffer.getByte(row + c * channels) & 0xFF) == 0) return false;
    }
    return true;
  }

  /**
   * How many bases after an indel's anchor (the image's centre) the reference and the haplotype
   * with {@code alt} in place of {@code ref} read alike, the reference taken from the image's first
   * reference row: the offset of the first base that tells them apart, which a read must reach to
   * show which allele it carries. In a tandem repeat it is the repeat's length; it also catches the
   * repeats no unit makes twice (an insertion of TCT before TCTG reads alike for 3 bases). -1 when
   * they read alike to the window's end or the row has no base drawn where it is needed.
   */
  static int readsAlike(DirectBuffer buffer, int offset, int width, int channels, String ref, String alt) {
    int centre = (width - 1) / 2;
    for (int k = 0; centre + 1 + k < width; k++) {
      int r = buffer.getByte(offset + (centre + 1 + k) * channels) & 0xFF;
      if (r == 0) return -1;
      int a = haplotypeColour(buffer, offset, width, channels, ref, alt, centre + 1 + k);
      if (a < 0) return -1;
      if (a != r) return k;
    }
    return -1;
  }

  /**
   * The longest tandem repeat of the first reference row starting at column {@code col}, with its
   * unit ({@link TandemRepeat#longest} of its bases up to the first column with none drawn), as the
   * small model's {@code str_length} feature measures it on the reference, but not capped.
   */
  static TandemRepeat.Repeat tandemRepeat(DirectBuffer buffer, int offset, int width, int channels, int col) {
    return TandemRepeat.longest(referenceBases(buffer, offset, width, channels, col), 0, Integer.MAX_VALUE);
  }

  /** The first reference row's bases from column {@code col} up to the first column with none drawn. */
  private static byte[] referenceBases(DirectBuffer buffer, int offset, int width, int channels, int col) {
    int end = col;
    while (end < width && (buffer.getByte(offset + end * channels) & 0xFF) != 0) end++;
    byte[] bases = new byte[end - col];
    for (int c = col; c < end; c++) bases[c - col] = BASES[BASE_INDEX[buffer.getByte(offset + c * channels) & 0xFF]];
    return bases;
  }

  /**
   * A SNP read's error at base quality {@code bq} (at most 40) and mapping quality {@code mq} (at most
   * 60): the sample's error rate for that quality ({@link BaseErrorRate#at}) times the window's
   * {@code factor} ({@link #errorFactor}), at most {@link #MAX_ERROR}, combined with the mapping error.
   */
  public static double readError(BaseErrorRate baseErrors, int bq, int mq, double factor) {
    return readError(baseErrors, bq, BaseErrorRate.NO_CYCLE, mq, factor);
  }

  /** As {@link #readError(BaseErrorRate, int, int, double)}, the base at place {@code cycle} of its read ({@link BaseErrorRate#at(int, int)}). */
  public static double readError(BaseErrorRate baseErrors, int bq, int cycle, int mq, double factor) {
    return combined(baseError(baseErrors, bq, cycle, factor), ERROR[mq]);
  }

  /** A read's base error alone, {@link #readError}'s without the mapping error. */
  static double baseError(BaseErrorRate baseErrors, int bq, int cycle, double factor) {
    return Math.min(MAX_ERROR, factor * baseErrors.at(bq, cycle));
  }

  /** {@link #baseError} of the base the row starting at {@code row} draws at column {@code c}, by its quality there. */
  static double baseErrorAt(DirectBuffer buffer, int row, int channels, int c, BaseErrorRate baseErrors, int cycle, double factor) {
    int q = quality(buffer.getByte(row + c * channels + BASE_QUALITY) & 0xFF, PileupConstants.BASE_QUALITY_CAP);
    return baseError(baseErrors, q, cycle, factor);
  }

  /** Image row {@code row}'s cycle in {@code cycles} (indexed from the first read row), or {@link BaseErrorRate#NO_CYCLE}. */
  private static int cycleOf(byte[] cycles, int row) {
    int r = row - PileupConstants.REFERENCE_ROWS;
    return cycles == null || r < 0 || r >= cycles.length ? BaseErrorRate.NO_CYCLE : cycles[r] & 0xFF;
  }

  /** The error rate quality {@code q} (0..60) promises, 10^(-q/10). */
  public static double promisedError(int q) {
    return ERROR[q];
  }

  /**
   * How many times more errors {@code mismatches} are than the {@code promised} sum of error rates,
   * at least 1, with {@link #PRIOR_ERRORS} pseudo-counts on both.
   */
  public static double errorFactor(long mismatches, double promised) {
    return Math.max(1.0, (mismatches + PRIOR_ERRORS) / (promised + PRIOR_ERRORS));
  }

  private static double mappingError(DirectBuffer buffer, int at) {
    return ERROR[quality(buffer.getByte(at + MAPPING_QUALITY) & 0xFF, PileupConstants.MAPPING_QUALITY_CAP)];
  }

  private static boolean reverse(DirectBuffer buffer, int at) {
    return (buffer.getByte(at + STRAND) & 0xFF) == PileupConstants.NEGATIVE_STRAND_COLOR;
  }

  /** Either error: e = a + b - ab, at most {@link #MAX_ERROR}. */
  private static double combined(double a, double b) {
    return Math.min(MAX_ERROR, a + b - a * b);
  }

  /**
   * The reads of one site, each an alt or a reference observation with its error rate and strand,
   * summed into the three genotypes' log10 likelihoods and hom-ref's strand artifact. A wrong read
   * shows the other allele with probability e / (alleles - 1): e/3 at a SNP (one of three other
   * bases), e at an indel; or, at a SNP of a sample whose errors were measured ({@link #snp(BaseErrorRate,
   * int, int)}), e times the share of that substitution among the errors on the read's strand. {@link StrandArtifactRate} fits the artifact rate with the same terms.
   */
  public static final class ReadEvidence {
    /** Per strand (forward, reverse): the share of a wrong read that shows the alt where the truth is the reference. */
    private final double[] altShare;
    /** Per strand: the share of a wrong read that shows the reference where the truth is the alt. */
    private final double[] refShare;
    private final int[] alts = new int[2]; // per strand: forward, reverse
    private final int[] refs = new int[2];
    private final double[] homRef = new double[2]; // log10 L(0/0) of each strand's reads
    /** log10 of each strand's alt reads' odds of their qualities on wrong bases against any base's. */
    private final double[] artifactQualities = new double[2];
    private final double meanError;
    private double het;
    private double homAlt;
    /**
     * log10 L(0/1) of the reads a het column beside the site places on a haplotype ({@link #phase}):
     * with the alt on haplotype A, with it on B, and as the reads would count unphased.
     */
    private double altOnA;
    private double altOnB;
    private double phasedUnphased;
    private boolean anyPhased;

    /** {@code alleles}: 4 at a SNP (a wrong base is one of three), 2 at an indel. */
    public ReadEvidence(int alleles) {
      this(alleles, Double.NaN);
    }

    /**
     * As {@link #ReadEvidence(int)}; with {@code meanError} (the sample's share of wrong bases,
     * {@link BaseErrorRate#meanError}) the strand artifact's alt reads, wrong bases all, carry the
     * qualities wrong bases carry: each read of error e is e / meanError times as likely under it
     * as its quality alone says (NaN: qualities left out).
     */
    public ReadEvidence(int alleles, double meanError) {
      this(meanError, evenly(alleles), evenly(alleles));
    }

    /**
     * A SNP's reads, a wrong read showing the alt at e x {@code bases.wrongShare(ref, strand, alt)}
     * where the truth is the reference and the reference at e x {@code bases.wrongShare(alt, strand,
     * ref)} where it is the alt (bases 0..3), as the sample's errors show them; the artifact's alt
     * reads weighed by {@code bases.meanError()} as {@link #ReadEvidence(int, double)} weighs them.
     */
    public static ReadEvidence snp(BaseErrorRate bases, int ref, int alt) {
      return new ReadEvidence(bases.meanError(),
          new double[] {bases.wrongShare(ref, false, alt), bases.wrongShare(ref, true, alt)},
          new double[] {bases.wrongShare(alt, false, ref), bases.wrongShare(alt, true, ref)});
    }

    private ReadEvidence(double meanError, double[] altShare, double[] refShare) {
      this.meanError = meanError;
      this.altShare = altShare;
      this.refShare = refShare;
    }

    private static double[] evenly(int alleles) {
      if (alleles < 2) throw new IllegalArgumentException(alleles + " alleles");
      return new double[] {1.0 / (alleles - 1), 1.0 / (alleles - 1)};
    }

    /**
     * P(the read | the reference's haplotype) and P(the read | the alt's); a read without the alt that
     * the alt's haplotype gives by a slip at {@code slip} (not a base error) has at least that.
     */
    private double fromRef(boolean alt, double e, int s, double slip) {
      return alt ? Math.max(e * altShare[s], slip) : 1 - Math.max(e, slip);
    }

    private double fromAlt(boolean alt, double e, int s, double slip) {
      return alt ? 1 - Math.max(e, slip) : Math.max(e * refShare[s], slip);
    }

    /** One read: it shows the alt ({@code alt}) or the reference, with error rate {@code e}, on the reverse strand or not. */
    public void add(boolean alt, double e, boolean reverse) {
      add(alt, e, reverse, 0);
    }

    /**
     * As {@link #add(boolean, double, boolean)}, for a read without the alt that a read of the alt's
     * haplotype shows at rate {@code slip} besides its base error (a slip in a repeat; 0: none), or an
     * alt read that a read of the reference's haplotype shows so.
     */
    public void add(boolean alt, double e, boolean reverse, double slip) {
      int s = reverse ? 1 : 0;
      addRead(alt, e, s, fromRef(alt, e, s, slip), fromAlt(alt, e, s, slip));
    }

    /**
     * As {@link #add(boolean, double, boolean, double)}, a read that a het column beside the site
     * places on haplotype {@code hap} ({@link Fragments#HAPLOTYPE_A} or {@link Fragments#HAPLOTYPE_B};
     * {@link Fragments#UNPHASED}: none), wrongly at {@code phaseError}; its base errs at {@code
     * qualityError} alone ({@code e} without the mapping's error), which the strand artifact weighs.
     */
    void add(boolean alt, double e, double qualityError, boolean reverse, double slip, byte hap, double phaseError) {
      int s = reverse ? 1 : 0;
      addRead(alt, qualityError, s, fromRef(alt, e, s, slip), fromAlt(alt, e, s, slip), hap, phaseError);
    }

    /**
     * A read or fragment of P(reads | reference's haplotype) {@code ref} and P(reads | alt's) {@code
     * other} on haplotype {@code hap} of the het column, wrongly at {@code phaseError}: with the alt on
     * its haplotype it is the alt's unless wrongly placed, with the alt on the other the reference's.
     */
    private void addPhased(double ref, double other, byte hap, double phaseError) {
      double onIts = (1 - phaseError) * other + phaseError * ref;
      double onOther = (1 - phaseError) * ref + phaseError * other;
      altOnA += Math.log10(hap == Fragments.HAPLOTYPE_A ? onIts : onOther);
      altOnB += Math.log10(hap == Fragments.HAPLOTYPE_A ? onOther : onIts);
      phasedUnphased += Math.log10((ref + other) / 2);
      anyPhased = true;
    }

    /**
     * A read of an indel site, as {@link #add(boolean, double, boolean)}; a read without the alt
     * comes from the alt's haplotype at {@code altSlip} where that is more than {@code e} (the
     * alt's repeat, longer than the reference's, slips more), and from the reference's at 1 - e.
     */
    public void addIndelRead(boolean alt, double e, boolean reverse, double altSlip) {
      addIndelRead(alt, e, reverse, altSlip, Fragments.UNPHASED, 0);
    }

    /** As {@link #addIndelRead(boolean, double, boolean, double)}, the read phased as {@link #add(boolean, double, boolean, double, byte, double)} takes one. */
    void addIndelRead(boolean alt, double e, boolean reverse, double altSlip, byte hap, double phaseError) {
      int s = reverse ? 1 : 0;
      addRead(alt, e, s, fromRef(alt, e, s, 0), fromAlt(alt, e, s, alt ? 0 : altSlip), hap, phaseError);
    }

    /** One read of P(read | reference's haplotype) {@code ref} and P(read | alt's) {@code other}, its base erring at {@code qualityError}. */
    private void addRead(boolean alt, double qualityError, int s, double ref, double other) {
      addRead(alt, qualityError, s, ref, other, Fragments.UNPHASED, 0);
    }

    /** As {@link #addRead(boolean, double, int, double, double)}, on haplotype {@code hap} of a het column (or none). */
    private void addRead(boolean alt, double qualityError, int s, double ref, double other, byte hap, double phaseError) {
      if (hap == Fragments.UNPHASED) {
        het += Math.log10((ref + other) / 2);
      } else {
        addPhased(ref, other, hap, phaseError);
      }
      addHomozygous(alt, qualityError, s, ref, other);
    }

    /**
     * The two reads of one fragment, each as {@link #add} takes a read. Both come from one
     * haplotype, so under het the fragment is the reference's or the alt's, half and half:
     * L(0/1) *= (P(a|ref) P(b|ref) + P(a|alt) P(b|alt)) / 2, where reads taken apart would give
     * (P(a|ref) + P(a|alt)) / 2 * (P(b|ref) + P(b|alt)) / 2. One mate's alt against the other's
     * reference is then what an error in either would make under hom-ref, no evidence of a het;
     * two mates that agree count as one fragment, not two. Hom-ref and hom-alt are unchanged
     * (each read errs on its own).
     */
    public void addPair(boolean altA, double eA, boolean reverseA, boolean altB, double eB, boolean reverseB) {
      addPair(altA, eA, reverseA, 0, altB, eB, reverseB, 0);
    }

    /** As {@link #addPair(boolean, double, boolean, boolean, double, boolean)}, each read with its slip ({@link #add(boolean, double, boolean, double)}). */
    public void addPair(boolean altA, double eA, boolean reverseA, double slipA, boolean altB, double eB, boolean reverseB,
        double slipB) {
      addPair(altA, eA, eA, reverseA, slipA, altB, eB, eB, reverseB, slipB, Fragments.UNPHASED, 0);
    }

    /**
     * As {@link #addPair(boolean, double, boolean, double, boolean, double, boolean, double)}, the
     * fragment phased, and each base erring alone, as {@link #add(boolean, double, double, boolean,
     * double, byte, double)} takes a read.
     */
    void addPair(boolean altA, double eA, double qualityErrorA, boolean reverseA, double slipA, boolean altB, double eB,
        double qualityErrorB, boolean reverseB, double slipB, byte hap, double phaseError) {
      int sA = reverseA ? 1 : 0, sB = reverseB ? 1 : 0;
      double refA = fromRef(altA, eA, sA, slipA), otherA = fromAlt(altA, eA, sA, slipA);
      double refB = fromRef(altB, eB, sB, slipB), otherB = fromAlt(altB, eB, sB, slipB);
      if (hap == Fragments.UNPHASED) {
        het += Math.log10((refA * refB + otherA * otherB) / 2);
      } else {
        addPhased(refA * refB, otherA * otherB, hap, phaseError);
      }
      addHomozygous(altA, qualityErrorA, sA, refA, otherA);
      addHomozygous(altB, qualityErrorB, sB, refB, otherB);
    }

    /**
     * A read's terms of hom-ref (the reference's haplotype: {@code ref}) and hom-alt ({@code other}),
     * its count, and for an alt read the strand artifact's odds of its base's error {@code
     * qualityError}: the quality alone, as wrong bases carry it; a read's mapping error is no sign of a
     * wrong base (blind74's Mason het on AD 7,15, every read reverse at MAPQ 10-25 in a paralogous
     * stretch, weighed each alt read 3 times as likely an artifact's and came out RefCall at 60x).
     */
    private void addHomozygous(boolean alt, double qualityError, int s, double ref, double other) {
      homRef[s] += Math.log10(ref);
      homAlt += Math.log10(other);
      if (alt) {
        alts[s]++;
        if (meanError > 0) artifactQualities[s] += Math.log10(qualityError / meanError);
      } else {
        refs[s]++;
      }
    }

    /** Alt reads on the forward (0) or reverse (1) strand. */
    public int alts(int strand) {
      return alts[strand];
    }

    /** log10 L of the reads under hom-ref without an artifact, het and hom-alt. */
    double homRef() {
      return homRef[0] + homRef[1];
    }

    /**
     * With phased reads, the het column is the sample's het ({@code 1 - }{@value #PHASE_COLUMN_ERROR})
     * and the alt sits on either of its haplotypes, half and half, or it is not and they count as
     * unphased reads.
     */
    double het() {
      if (!anyPhased) return het;
      double phased = LOG10_HALF + log10Sum(altOnA, altOnB);
      return het + log10Sum(Math.log10(1 - PHASE_COLUMN_ERROR) + phased, Math.log10(PHASE_COLUMN_ERROR) + phasedUnphased);
    }

    double homAlt() {
      return homAlt;
    }

    /**
     * log10 L of the reads under a strand artifact, before its prior: either strand alike (1/2
     * each), that strand's reads showing the alt at an unknown fraction (the Beta integral), the
     * other strand's hom-ref; -infinity when no strand has alt reads.
     */
    double artifact() {
      return withArtifact(Double.NEGATIVE_INFINITY, LOG10_HALF);
    }

    /**
     * log10 of 10^{@code l} plus, for each strand with alt reads, 10^{@code log10PerStrand} times that
     * strand's artifact likelihood: one strand's reads show the alt at a fraction of their own
     * (uniform: the Beta integral of the counts) with the qualities of wrong bases (the alt reads'
     * odds, when the sample's mean error is known), the other strand's reads are hom-ref.
     */
    private double withArtifact(double l, double log10PerStrand) {
      for (int s = 0; s < 2; s++) {
        if (alts[s] == 0) continue;
        l = log10Sum(l, log10PerStrand + log10Beta(alts[s], refs[s]) + artifactQualities[s] + homRef[1 - s]);
      }
      return l;
    }

    /** The log10 likelihoods {0/0, 0/1, 1/1}, largest 0, hom-ref with a strand artifact at {@code artifactRate}; null with no read. */
    float[] likelihoods(double artifactRate) {
      double[] l = likelihoodsUnshifted(artifactRate);
      return l == null ? null : shifted(l);
    }

    /** As {@link #likelihoods}, not shifted. */
    double[] likelihoodsUnshifted(double artifactRate) {
      if (alts[0] + alts[1] + refs[0] + refs[1] == 0) return null;
      double l00 = withArtifact(homRef[0] + homRef[1], Math.log10(artifactRate / 2)); // hom-ref, or a strand artifact
      return new double[] {l00, het(), homAlt};
    }
  }

  private static final double LOG10_HALF = Math.log10(0.5);

  /** log10(10^a + 10^b). */
  static double log10Sum(double a, double b) {
    if (a == Double.NEGATIVE_INFINITY) return b;
    if (b == Double.NEGATIVE_INFINITY) return a;
    return Math.max(a, b) + Math.log10(1 + Math.pow(10, -Math.abs(a - b)));
  }

  /** log10 of the integral over f in [0, 1] of f^a (1 - f)^r: a! r! / (a + r + 1)!. */
  static double log10Beta(int a, int r) {
    double l = 0;
    for (int k = 2; k <= a; k++) l += Math.log10(k);
    for (int k = 2; k <= r; k++) l += Math.log10(k);
    for (int k = 2; k <= a + r + 1; k++) l -= Math.log10(k);
    return l;
  }

  /**
   * How many times more errors the reads' bases make in this window than their qualities promise,
   * at least 1: (mismatches + 1) / (sum of the promised error rates + 1) over every read base drawn
   * outside the candidate's own columns and outside columns that look like variants (two reads or
   * more with the same non-reference base: random errors seldom agree). A simulator or a sequencer whose qualities are
   * too high (every base Q40 at a 1 % error rate) gets its errors counted, not trusted; well
   * calibrated qualities keep a factor of about 1. Local, like everything in the image: a noisy
   * stretch of the genome (misaligned reads around an indel, a repeat) is trusted less.
   */
  static double errorFactor(DirectBuffer buffer, int offset, int height, int width, int channels) {
    return errorFactor(buffer, offset, height, width, channels, BaseErrorRate.promised());
  }

  /** As above, against the sample's measured error rate per quality instead of the qualities' promise. */
  static double errorFactor(DirectBuffer buffer, int offset, int height, int width, int channels,
      BaseErrorRate baseErrors) {
    int centre = (width - 1) / 2;
    int rowLength = width * channels;
    double promised = 0;
    long mismatches = 0;
    int[] byBase = new int[4];
    for (int c = 0; c < width; c++) {
      if (Math.abs(c - centre) <= OWN_COLUMNS) continue;
      int wrong = 0;
      int sameBase = 0;
      double expected = 0;
      for (int r = PileupConstants.REFERENCE_ROWS; r < height; r++) {
        int at = offset + r * rowLength + c * channels;
        int bqPixel = buffer.getByte(at + BASE_QUALITY) & 0xFF;
        int base = buffer.getByte(at) & 0xFF;
        if (bqPixel == 0 || base == 0) continue;
        expected += baseErrors.at(quality(bqPixel, PileupConstants.BASE_QUALITY_CAP));
        if ((buffer.getByte(at + DIFFERS_FROM_REF) & 0xFF) == DIFFERS) {
          wrong++;
          sameBase = Math.max(sameBase, ++byBase[BASE_INDEX[base]]);
        }
      }
      Arrays.fill(byBase, 0);
      if (sameBase >= VARIANT_COLUMN_READS) continue;
      promised += expected;
      mismatches += wrong;
    }
    return errorFactor(mismatches, promised);
  }

  /** The quality a pixel of {@code cap * pixel / 254} stands for (the channels truncate; this rounds back). */
  static int quality(int pixel, int cap) {
    return Math.min(cap, Math.round(pixel * cap / PileupConstants.MAX_PIXEL));
  }

  /**
   * What a SNP example's likelihoods ({@link #snp}) read beside its image: the sample's strand
   * {@code artifactRate} ({@link StrandArtifactRate#rate}), the error of its bases per quality
   * ({@code baseErrors}: each base at the sample's measured rate for its quality before the window's
   * factor) and its indel {@code slips} (null: none assumed); and the record's facts: each read row's
   * mate ({@code mateOf[r]}: the read row, 0 = the first below the reference rows, of row r's mate,
   * or -1; the two reads of a fragment count as one fragment where both are informative,
   * {@link ReadEvidence#addPair}; null: every read on its own), each read row's place in its read at
   * the centre ({@code cycles[r]}; {@link BaseErrorRate#NO_CYCLE}: not known; null: none known), and
   * the site's other alleles where they include indels ({@code siteRef} and {@code indelAlts}, VCF
   * alleles from the centre's base; null: none). Start from {@link #of} and add what is known.
   */
  public record SnpInputs(double artifactRate, BaseErrorRate baseErrors, IndelErrorRate slips, int[] mateOf,
      byte[] cycles, String siteRef, String[] indelAlts) {
    public SnpInputs {
      java.util.Objects.requireNonNull(baseErrors, "baseErrors");
    }

    /** Only the strand artifact rate: bases at their qualities' promise, no slips, no row or site facts. */
    public static SnpInputs of(double artifactRate) {
      return new SnpInputs(artifactRate, BaseErrorRate.promised(), null, null, null, null, null);
    }

    public SnpInputs withBaseErrors(BaseErrorRate rates) {
      return new SnpInputs(artifactRate, rates, slips, mateOf, cycles, siteRef, indelAlts);
    }

    public SnpInputs withSlips(IndelErrorRate rates) {
      return new SnpInputs(artifactRate, baseErrors, rates, mateOf, cycles, siteRef, indelAlts);
    }

    public SnpInputs withMates(int[] rows) {
      return new SnpInputs(artifactRate, baseErrors, slips, rows, cycles, siteRef, indelAlts);
    }

    public SnpInputs withCycles(byte[] places) {
      return new SnpInputs(artifactRate, baseErrors, slips, mateOf, places, siteRef, indelAlts);
    }

    public SnpInputs withSite(String ref, String[] indelAlleles) {
      return new SnpInputs(artifactRate, baseErrors, slips, mateOf, cycles, ref, indelAlleles);
    }
  }
}
