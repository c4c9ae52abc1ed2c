package dev.fastpipe.streaming.callvariants;

import dev.fastpipe.inference.BatchAllocationException;
import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.inference.ImageBatch;
import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.genome.TandemRepeat;
import dev.fastpipe.streaming.pileup.BaseErrorRate;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import dev.fastpipe.streaming.pileup.PileupLikelihood;
import dev.fastpipe.streaming.pileup.IndelErrorRate;
import dev.fastpipe.streaming.pileup.ReadErrors;
import dev.fastpipe.streaming.postprocess.CallResult;
import dev.fastpipe.streaming.postprocess.GenotypeCombiner;
import dev.fastpipe.streaming.postprocess.RefBlock;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The call_variants consumer loop body: a {@link RecordHandler} that copies each EXAMPLE
 * record's image straight from record memory (ring slot or file buffer) into the next slot of
 * an {@link ImageBatch}, keeps the record's small header fields, and when the batch is full
 * runs the model and hands one {@link CallResult} per example to {@code sink}, in arrival order.
 * PARTITION_DONE markers go to {@code onPartitionDone} after the examples before them have been
 * classified and delivered (so a sink that sees a marker has every result it covers). A marker
 * does not force a partial batch: it waits for the batch it follows, so batches stay full while
 * the stream is busy; {@link #flush()} (end of stream, or an idle ring) delivers the rest.
 * REF_BLOCK records (gVCF runs) need no model: they go to {@link #onRefBlock} at once, which is
 * before their partition's marker. SMALL_CALL records (bi-allelic sites make_examples' small
 * model called) carry their probabilities: they become a {@link CallResult} at once, like a
 * classified example, which is before their partition's marker too. A bi-allelic indel example
 * whose reads that tell its alleles apart all carry the alt goes to the model without the reads
 * that cannot (they end inside its repeat, or are clipped there, and are drawn as the reference):
 * {@link #addIndelExample}; its pileup likelihoods are read off the whole image.
 *
 * <p>One per consumer thread (the batch and header arrays are not shared); the model is shared.
 */
public final class ExampleClassifier implements RecordHandler, AutoCloseable {

  /** Receives PARTITION_DONE markers: the index of the partition (in the run plan) that is done. */
  @FunctionalInterface
  public interface PartitionListener {
    void onPartitionDone(long partition);
  }

  private final GenotypeModel model;
  private final ImageShape modelInput;
  private final ImageBatch batch;
  private final Consumer<CallResult> sink;
  private final PartitionListener partitions;
  /** The sample's strand artifact rate, the prior of the pileup likelihoods' artifact term. */
  private final double artifactRate;
  /** The sample's indel error rates, the per-read error of the indel pileup likelihoods. */
  private final IndelErrorRate indelErrors;
  /** Whether the sample's reads slip within the envelope in every repeat class ({@link IndelErrorRate#withinEnvelope}). */
  private final boolean sampleWithinEnvelope;
  /** Whether the sample's good bases err at several times their promise ({@link BaseErrorRate#qualitiesOverpromise}). */
  private final boolean sampleQualitiesOverpromise;
  /** The sample's base error per quality, the per-read base error of the SNP pileup likelihoods. */
  private final BaseErrorRate baseErrors;
  private Consumer<RefBlock> refBlocks;
  private final ExampleRecord record = new ExampleRecord();
  private final Header[] headers;
  /** Reused by {@link #rowCycles}. */
  private byte[] cycles;
  /** Multi-allelic sites whose single-alt examples are not all in yet. */
  private final java.util.Map<CallResult.SiteKey, PileupLikelihood.SiteAlleles> pendingSites = new java.util.HashMap<>();
  /** Partitions whose markers arrived after examples still in the batch. */
  private final java.util.ArrayDeque<Long> markers = new java.util.ArrayDeque<>();
  private float[] probabilities;
  private long examples;
  private long smallCalls;
  private long batches;
  private long paddingImages;
  private long inferenceNanos;
  /** {@link System#nanoTime()} when the batch's first example arrived. */
  private long batchStartNanos;

  private record Header(
      int contigIndex, int position, String ref, List<String> alts, int[] altSubset, int examplesAtSite, int depth,
      int[] alleleDepths, float[] pileupLikelihoods, boolean slipsBeyondEnvelope) {}

  /** {@code errors}: the sample's read errors, measured once per run, which the pileup likelihoods use. */
  public ExampleClassifier(GenotypeModel model, int batchSize, ReadErrors errors, Consumer<CallResult> sink,
      PartitionListener partitions) {
    this.model = model;
    this.artifactRate = errors.strandArtifacts().rate();
    this.indelErrors = errors.indels();
    this.sampleWithinEnvelope = indelErrors.withinEnvelope();
    this.baseErrors = errors.bases();
    this.sampleQualitiesOverpromise = baseErrors.qualitiesOverpromise();
    this.modelInput = ImageShape.deepVariant(model.channels());
    try {
      this.batch = model.newBatch(batchSize);
    } catch (BatchAllocationException e) {
      throw new InputException("--batch-size " + batchSize + ": " + e.getMessage() + "; use a smaller --batch-size", e);
    }
    this.sink = sink;
    this.partitions = partitions;
    this.headers = new Header[batchSize];
    this.probabilities = new float[batchSize * GenotypeModel.GENOTYPES];
  }

  /** Where REF_BLOCK records go; without one they are dropped (a run without a gVCF has none). */
  public ExampleClassifier onRefBlock(Consumer<RefBlock> sink) {
    this.refBlocks = sink;
    return this;
  }

  @Override
  public void onRecord(int shard, org.agrona.DirectBuffer buffer, int offset, int length) {
    record.wrap(buffer, offset);
    if (record.isRefBlock()) {
      if (refBlocks != null) refBlocks.accept(RefBlock.of(record));
      return;
    }
    if (record.isPartitionDone()) {
      if (partitions == null) return;
      if (batch.isEmpty()) {
        partitions.onPartitionDone(record.partition());
      } else {
        markers.add(record.partition());
      }
      return;
    }
    if (record.isSmallCall()) {
      float[] p = record.floats(new float[3]);
      sink.accept(new CallResult(record.contigIndex(), record.position(), record.ref(), List.of(record.alts()),
          record.altSubset(), p, record.examplesAtSite(), record.depth(), record.alleleDepths()));
      smallCalls++;
      return;
    }
    if (!record.isExample()) throw new IllegalArgumentException("record of unknown kind " + record.kind());
    if (!record.hasShape(modelInput)) {
      throw new IllegalArgumentException("example image is " + record.shape() + " but the model takes " + modelInput);
    }
    if (batch.isEmpty()) batchStartNanos = System.nanoTime();
    String[] alts = record.alts();
    String ref = record.ref();
    boolean indel = alts.length == 1 && ref.length() != alts[0].length();
    PileupLikelihood.IndelSpan span = indel
        ? PileupLikelihood.indelSpan(buffer, record.imageOffset(), record.height(), record.width(), record.channels(), ref, alts[0])
        : null;
    int slot = indel ? addIndelExample(buffer, span) : batch.add(buffer, record.imageOffset(), record.imageLength());
    float[] gl = null;
    boolean slips = false;
    if (alts.length == 1 && ref.length() == 1 && alts[0].length() == 1) {
      gl = snpLikelihoods(buffer, null, null);
    } else if (indel) {
      // an indel's reads stay independent: PCR stutter puts one error in both mates of a fragment,
      // which a fragment read as one haplotype would take for a het (validation: 12 more false indels)
      gl = PileupLikelihood.indel(buffer, record.imageOffset(), record.height(), record.width(), record.channels(),
          ref, alts[0], span, artifactRate, indelErrors);
    } else if (record.altSubset().length == 1 && alts.length >= 2) {
      boolean snps = allSnps(ref, alts);
      if (snps || allIndels(ref, alts)) {
        if (alts.length <= PileupLikelihood.MAX_MULTI_ALLELIC_ALTS) gl = siteAlleles(buffer, ref, alts, record.altSubset()[0], snps);
      } else {
        gl = mixedSiteSnps(buffer, ref, alts);
      }
    }
    List<String> altList = List.of(alts);
    if (!GenotypeCombiner.isSnp(ref, altList)) { // an indel among the site's alts, at a multi-allelic site too
      TandemRepeat.Repeat after = span != null ? span.after() // a bi-allelic indel's span has read it already
          : PileupLikelihood.repeatAfterAnchor(buffer, record.imageOffset(), record.height(), record.width(),
              record.channels());
      slips = after != null && indelErrors.beyondEnvelope(after.length(), after.unit());
    }
    headers[slot] = new Header(record.contigIndex(), record.position(), ref, altList, record.altSubset(),
        record.examplesAtSite(), record.depth(), record.alleleDepths(), gl, slips);
    if (batch.isFull()) flush();
  }

  /** Per read row of the current SNP example, its mate's row or -1 (reused). */
  private int[] mateOf;

  /** A bi-allelic indel example's image without the rows that cannot tell its alleles apart. */
  private UnsafeBuffer compacted;

  /**
   * Adds a bi-allelic indel example to the batch. Where every read that tells its alleles apart
   * carries the alt and no other read shows an indel where they are told apart ({@link PileupLikelihood#indelRowEvidence}),
   * the rows that cannot tell them apart (reads that end inside the indel's repeat or are clipped
   * there, drawn as the reference) are left out, the rows below moved up and the freed rows blank;
   * otherwise the image goes as it is.
   */
  private int addIndelExample(org.agrona.DirectBuffer buffer, PileupLikelihood.IndelSpan span) {
    int offset = record.imageOffset();
    int length = record.imageLength();
    byte[] says = PileupLikelihood.indelRowEvidence(buffer, offset, record.height(), record.width(), record.channels(), span);
    if (says == null) return batch.add(buffer, offset, length);
    boolean[] keep = new boolean[says.length];
    int altRows = 0;
    for (int r = 0; r < says.length; r++) {
      if (says[r] == PileupLikelihood.REFERENCE || says[r] == PileupLikelihood.OTHER) return batch.add(buffer, offset, length);
      keep[r] = says[r] == PileupLikelihood.ALT;
      if (keep[r]) altRows++;
    }
    if (altRows == 0) return batch.add(buffer, offset, length);
    if (compacted == null || compacted.capacity() < length) compacted = new UnsafeBuffer(new byte[length]);
    PileupImageEncoder.copyReadRows(buffer, offset, record.height(), record.width(), record.channels(), keep, compacted);
    return batch.add(compacted, 0, length);
  }

  /**
   * Adds the current single-alt example of a multi-allelic site, of {@code alts[alt]}, to the site's
   * {@code SiteAlleles} over {@code alts} (all the site's alts, or its SNP alts), SNPs or indels; its
   * likelihoods over them once every alt's example is in (a site's examples come one after another
   * from one make_examples task), else null.
   */
  private float[] siteAlleles(org.agrona.DirectBuffer buffer, String ref, String[] alts, int alt, boolean snps) {
    CallResult.SiteKey key = new CallResult.SiteKey(record.contigIndex(), record.position(), ref, List.of(record.alts()));
    PileupLikelihood.SiteAlleles site = pendingSites.computeIfAbsent(key, k -> new PileupLikelihood.SiteAlleles(alts.length, snps, indelErrors, baseErrors));
    site.add(alt + 1, buffer, record.imageOffset(), record.height(), record.width(), record.channels(), ref, alts,
        snps ? rowCycles() : null);
    if (!site.complete()) return null;
    pendingSites.remove(key);
    return site.likelihoods();
  }

  /**
   * The pileup likelihoods of a site whose alts are SNPs and indels (a SNP in an STR whose stutter
   * reads make an indel candidate) over its SNP alts' genotypes, once the examples of its SNP alts are
   * in: as at a bi-allelic SNP ({@link PileupLikelihood#snp}) where it has one SNP alt, as at a
   * multi-allelic SNP site where it has more. Where it has one, the SNP pileup counts the reads of the
   * site's indels as reads without the SNP's alt, so a genotype's likelihood is that of its copies of
   * the SNP's alt (the indels' as the reference's: the network tells those apart); where it has more,
   * every genotype with an indel allele is NaN, unmeasured, and counts only once the indels are pruned.
   * The SNP call so gets the reads' opinion a SNP site gets (blind54: T>A,C in a (TTTC)n STR on AD
   * 1,11,17 beside a stutter insertion, left to the network alone, came out 1/2 at GQ 1; blind59: a
   * hom-alt T>G beside a stutter insertion TG, 1/2 at GQ 1 on AD 0,19,2). Null until then, and for
   * examples of its indel alts.
   */
  private float[] mixedSiteSnps(org.agrona.DirectBuffer buffer, String ref, String[] alts) {
    int[] snpAlts = new int[alts.length];
    int count = 0;
    for (int i = 0; i < alts.length; i++) if (isSnpAlt(ref, alts[i])) snpAlts[count++] = i;
    int alt = record.altSubset()[0];
    if (count == 0 || count > PileupLikelihood.MAX_MULTI_ALLELIC_ALTS || !isSnpAlt(ref, alts[alt])) return null;
    if (count == 1) {
      String[] indels = new String[alts.length - 1];
      for (int i = 0, k = 0; i < alts.length; i++) if (i != alt) indels[k++] = alts[i];
      float[] snp = snpLikelihoods(buffer, ref, indels);
      if (snp == null) return null;
      float[] all = new float[CallResult.genotypes(alts.length)];
      // the SNP's pileup counts the indels' reads as reads without the SNP's alt, as the reference's:
      // it measures copies of the SNP's alt, and says nothing between the reference and the indels
      for (int b = 0; b <= alts.length; b++) {
        for (int a = 0; a <= b; a++) {
          all[GenotypeCombiner.genotypeIndex(a, b)] = snp[GenotypeCombiner.genotypeIndex(a == alt + 1 ? 1 : 0, b == alt + 1 ? 1 : 0)];
        }
      }
      return all;
    }
    snpAlts = Arrays.copyOf(snpAlts, count);
    String[] snps = new String[count];
    for (int k = 0; k < count; k++) snps[k] = alts[snpAlts[k]];
    float[] likelihoods = siteAlleles(buffer, ref, snps, Arrays.binarySearch(snpAlts, alt), true);
    if (likelihoods == null) return null;
    float[] all = new float[CallResult.genotypes(alts.length)];
    Arrays.fill(all, Float.NaN);
    for (int b = 0; b <= count; b++) {
      for (int a = 0; a <= b; a++) {
        int siteA = a == 0 ? 0 : snpAlts[a - 1] + 1;
        int siteB = b == 0 ? 0 : snpAlts[b - 1] + 1;
        all[GenotypeCombiner.genotypeIndex(siteA, siteB)] = likelihoods[GenotypeCombiner.genotypeIndex(a, b)];
      }
    }
    return all;
  }

  /**
   * The current single-alt SNP example's pileup likelihoods {0/0, 0/1, 1/1} ({@link PileupLikelihood#snp}),
   * at a site whose other alts ({@code indelAlts} of {@code ref}; null: none) are indels.
   */
  private float[] snpLikelihoods(org.agrona.DirectBuffer buffer, String ref, String[] indelAlts) {
    int[] mates = record.mateOfRows(record.height() - PileupConstants.REFERENCE_ROWS, mateOf);
    if (mates != null) mateOf = mates;
    return PileupLikelihood.snp(buffer, record.imageOffset(), record.height(), record.width(), record.channels(),
        new PileupLikelihood.SnpInputs(artifactRate, baseErrors, indelErrors, mates, rowCycles(), ref, indelAlts));
  }

  /** The current record's read rows' cycles at its centre, in a reused array; null where it has none. */
  private byte[] rowCycles() {
    byte[] c = record.cycles(record.height() - PileupConstants.REFERENCE_ROWS, cycles);
    if (c != null) cycles = c;
    return c;
  }

  /** An alt of {@code ref}'s length that differs from it at its first base only: a SNP, padded where the site holds a deletion. */
  private static boolean isSnpAlt(String ref, String alt) {
    return alt.length() == ref.length() && alt.charAt(0) != ref.charAt(0) && alt.regionMatches(1, ref, 1, ref.length() - 1);
  }

  private static boolean allSnps(String ref, String[] alts) {
    if (ref.length() != 1) return false;
    for (String a : alts) if (a.length() != 1) return false;
    return true;
  }

  private static boolean allIndels(String ref, String[] alts) {
    for (String a : alts) if (a.length() == ref.length()) return false;
    return true;
  }

  /** Classifies and delivers whatever is batched, then the markers that followed it. Call at end of stream. */
  public void flush() {
    classifyBatch();
    Long partition;
    while ((partition = markers.poll()) != null) partitions.onPartitionDone(partition);
  }

  /**
   * How long the first example of the batch has waited for classification at {@code now}
   * ({@link System#nanoTime()}); {@link Long#MAX_VALUE} when the batch is empty (markers alone
   * cost nothing to deliver).
   */
  public long batchWaitNanos(long now) {
    return batch.isEmpty() ? Long.MAX_VALUE : now - batchStartNanos;
  }

  /** True when examples or markers wait for {@link #flush()}. */
  public boolean hasPending() {
    return !batch.isEmpty() || !markers.isEmpty();
  }

  /**
   * Test-only throttle: {@code -Dfastpipe.test.inference-sleep-ms=N} makes every batch's inference
   * take N ms longer, a slow consumer on demand (the spill-to-disk figure, docs/figures.md). 0: off.
   */
  static final long THROTTLE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(Long.getLong("fastpipe.test.inference-sleep-ms", 0));

  private void classifyBatch() {
    int n = batch.size();
    if (n == 0) return;
    long t0 = System.nanoTime();
    if (THROTTLE_NANOS > 0) java.util.concurrent.locks.LockSupport.parkNanos(THROTTLE_NANOS);
    probabilities = model.predict(batch, probabilities);
    inferenceNanos += System.nanoTime() - t0;
    paddingImages += (long) batch.filledChunks() * batch.chunkImages() - n;
    batch.clear();
    batches++;
    for (int i = 0; i < n; i++) {
      Header h = headers[i];
      headers[i] = null;
      float[] p = Arrays.copyOfRange(probabilities, 3 * i, 3 * i + 3);
      sink.accept(new CallResult(h.contigIndex, h.position, h.ref, h.alts, h.altSubset, p, h.examplesAtSite, h.depth,
          h.alleleDepths, h.pileupLikelihoods, h.slipsBeyondEnvelope, sampleWithinEnvelope, sampleQualitiesOverpromise));
      examples++;
    }
  }

  /** Examples the CNN classified. */
  public long examples() {
    return examples;
  }

  /** SMALL_CALL records passed on (sites the small model called in make_examples). */
  public long smallCalls() {
    return smallCalls;
  }

  public long batches() {
    return batches;
  }

  /** Images the model ran that held no example: the unused slots of each batch's last chunk. */
  public long paddingImages() {
    return paddingImages;
  }

  /** Nanoseconds spent inside the model (session runs). */
  public long inferenceNanos() {
    return inferenceNanos;
  }

  @Override
  public void close() {
    batch.close();
  }
}
