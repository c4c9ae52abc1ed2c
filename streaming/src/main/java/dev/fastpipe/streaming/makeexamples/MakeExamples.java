package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.plan.RunPlan;
import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.streaming.example.ExampleRecordEncoder;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.makeexamples.realign.Realigner;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import dev.fastpipe.streaming.pileup.PileupLikelihood;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import htsjdk.samtools.SAMException;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * make_examples for one task of a {@link RunPlan}: reads -> local realignment ({@link Realigner},
 * unless {@code --no-realign-reads}) -> allele counts -> candidates -> pileup images (+ labels),
 * written in place into an {@link ExampleProducer}, partition by partition in
 * reference order. The task does not plan: it runs the partitions the plan gives it.
 * After each partition of its shard the task emits a PARTITION_DONE marker, and on success it
 * ends the stream; on failure it throws and leaves ending or discarding to the caller.
 *
 * <p>Every partition is computed only from the reads and reference around it, so the output of
 * a partition is the same whichever task runs it: the union over {@code --task 0..N-1} equals
 * the unsharded output (apart from each record's shard and sequence fields). With realignment the
 * reads are fetched {@link Realigner#READ_MARGIN} further on each side, so that the realigner sees
 * every window a partition's reads reach whole, whichever partition asks.
 */
public final class MakeExamples {
  /** Reference bases fetched beyond a partition on each side, for left-aligning indels. */
  static final int REFERENCE_MARGIN = 1000;


  private final ExampleSettings o;
  private final int task;
  private final InputFiles in;
  private final ExampleProducer out;
  private final MakeExamplesStats stats = new MakeExamplesStats();
  /** The partition's reads, fetched and filtered. */
  private final PartitionReads partitionReads;
  private final AlleleCounter counter;
  private final PileupImageEncoder encoder;
  private final TruthLabeler labeler;
  private final CandidateVcfWriter candidatesVcf;
  private final int halfWidth;
  private final int pad;
  /** Reads are fetched this far beyond a partition: {@link #pad}, plus the realigner's margin when it runs. */
  private final int readPad;
  /** Local haplotype realignment of each partition's reads; null with {@code --no-realign-reads}. */
  private final Realigner realigner;
  /** The gVCF's reference blocks; null unless {@code o.gvcf().enabled()}. */
  private final ReferenceBlocks referenceBlocks;
  /** Summary features of bi-allelic candidates: for training records and the small model; null when neither. */
  private final CandidateFeatures features;
  /** Calls easy bi-allelic candidates without an image; null without a small model or when labelling. */
  private final SmallModel smallModel;
  private final float[] featureVector = new float[CandidateFeatures.COUNT];
  private final float[] smallProbabilities = new float[3];
  /** Writes every record of this shard in place (reused: no allocation per record). */
  private final ExampleRecordEncoder record = new ExampleRecordEncoder();
  /** The partition's reads by alignment span, and the rows of each candidate's image. */
  private final ReadSpans spans = new ReadSpans();
  private final PileupRows rows;
  private int[] readAlt = new int[1024];
  /** Candidates of the strips just before and just after the current partition, for {@link #nearestCandidate}. */
  private final AlleleCounter edgeCounter;
  private final long[] edgePartition = {-1, -1};
  private final int[][] edgePositions = {new int[0], new int[0]};
  /** How far {@link ShadowAlleles} looks for a shadow's source: its reach, within the reads' pad. */
  private final int shadowReach;
  private final SAMRecord[] rowReads;
  /** The current candidate's mate pairs ({@link #matePairs}): rows {@code [2k]} and {@code [2k + 1]}. */
  private final int[] mateRows;
  private final java.util.HashMap<String, Integer> firstRowOfName = new java.util.HashMap<>();
  private final int[] rowSupport;
  /** The current candidate's rows' cycles at its position ({@link ReadCycle}), for the record. */
  private final byte[] rowCycles;
  private long sequence;

  private MakeExamples(RunPlan plan, int task, InputFiles in, ExampleProducer out) {
    this.o = plan.settings();
    this.task = task;
    this.in = in;
    this.out = out;
    ExampleSettings.Image image = o.image();
    ExampleSettings.Inputs inputs = o.inputs();
    this.counter = new AlleleCounter(o.readFilters(), o.candidates());
    this.edgeCounter = new AlleleCounter(o.readFilters(), o.candidates());
    this.encoder = new PileupImageEncoder(PileupImageEncoder.defaultChannels(image.channels()), image.height(), image.width());
    this.halfWidth = image.width() / 2;
    this.pad = halfWidth + PileupConstants.READ_OVERLAP_BUFFER_BP + 1;
    this.realigner = image.realignReads() ? new Realigner(Realigner.Limits.DEFAULT) : null;
    this.readPad = pad + (realigner == null ? 0 : Realigner.READ_MARGIN);
    this.shadowReach = Math.min(ShadowAlleles.REACH, pad);
    ReadNormalizer normalizer = new ReadNormalizer((contig, start, end) -> in.bases(contig, start,
        Math.min(end, in.dictionary.getSequence(contig).getSequenceLength())), in.readsPath, o.readFilters().defaultBaseQuality());
    this.partitionReads = new PartitionReads(in, new ReadFilter(o.readFilters(), inputs.sample(), in.reads.getFileHeader()), normalizer, stats, pad, readPad);
    this.labeler = inputs.truthVcf() == null ? null : new TruthLabeler(inputs.truthVcf(), inputs.confidentBed(), in.dictionary, in);
    this.candidatesVcf = inputs.candidatesVcf() == null ? null : new CandidateVcfWriter(inputs.candidatesVcf(), in.dictionary);
    ExampleSettings.Gvcf gvcf = o.gvcf();
    this.referenceBlocks = gvcf.enabled()
        ? new ReferenceBlocks(gvcf.gqBinSize(), HaploidRegions.of(gvcf.haploidContigs(), gvcf.parBed(), in.dictionary))
        : null;
    rowReads = new SAMRecord[image.height()];
    rowSupport = new int[image.height()];
    mateRows = new int[image.height()];
    rowCycles = new byte[Math.min(image.height(), ExampleRecordDescriptor.MAX_CYCLE_ROWS)];
    this.rows = new PileupRows(spans, o.readFilters().minBaseQuality(), encoder.maxReadRows(), image.downsampleSeed());
    this.smallModel = inputs.smallModel() == null || labeler != null ? null
        : SmallModel.load(inputs.smallModel(), CandidateFeatures.NAMES);
    this.features = labeler != null || smallModel != null ? new CandidateFeatures() : null;
    if (features != null && pad < CandidateFeatures.DISTANCE_CAP) {
      throw new IllegalArgumentException("--width " + image.width() + ": too narrow for the candidate features (reads must reach "
          + CandidateFeatures.DISTANCE_CAP + " bp beyond a partition; use a width of at least "
          + 2 * (CandidateFeatures.DISTANCE_CAP - PileupConstants.READ_OVERLAP_BUFFER_BP) + ")");
    }
  }

  /**
   * Plans the run as {@code make-examples --task T --shards N} does ({@link RunPlan#forTasks}) and
   * runs task T of it. A task that is the whole run
   * also checks that it read reads where the index promised some ({@link RunPlan#requireReadsSeen}).
   */
  public static MakeExamplesStats run(ExampleSettings opts, ExampleProducer out) {
    try (InputFiles in = new InputFiles(opts.inputs().reference(), opts.inputs().reads())) {
      RunPlan plan = RunPlan.forTasks(opts, in);
      int task = opts.sharding().task();
      MakeExamplesStats stats = new MakeExamples(plan, task, in, out).runPartitions(plan.partitionsOf(task));
      if (plan.shards() == 1) plan.requireReadsSeen(stats.readsSeen());
      return stats;
    }
  }

  /**
   * Runs task {@code task} of {@code plan}, writing its records into {@code out}; ends the stream on
   * success. Throws {@link dev.fastpipe.streaming.InputException} for bad input.
   */
  public static MakeExamplesStats run(RunPlan plan, int task, ExampleProducer out) {
    ExampleSettings.Inputs s = plan.settings().inputs();
    try (InputFiles in = InputFiles.forShard(s.reference(), s.reads())) {
      return new MakeExamples(plan, task, in, out).runPartitions(plan.partitionsOf(task));
    }
  }

  /** Runs this task's {@code mine}, in reference order. */
  private MakeExamplesStats runPartitions(List<Partition> mine) {
    long t0 = System.nanoTime();
    boolean ok = false;
    try {
      int at = 0;
      while (at < mine.size()) {
        // A run of partitions whose fetched ranges touch (adjacent ones: one shard; or ones with
        // gaps shorter than two read pads: several shards taking turns on small partitions with
        // realignment's wide margin) streams its reads once through a sliding window, reading each
        // read once where separate queries would read the overlaps twice; a partition far from the
        // next (several shards taking turns on large partitions) is read by an indexed query, which
        // reads far less than a stream over the others' turns.
        int runEnd = at + 1;
        while (runEnd < mine.size() && rangesTouch(mine.get(runEnd - 1), mine.get(runEnd), readPad)) runEnd++;
        List<Partition> run = mine.subList(at, runEnd);
        int contigLength = in.dictionary.getSequence(run.get(0).contigIndex()).getSequenceLength();
        partitionReads.startRun(run, contigLength);
        try {
          for (Partition p : run) {
            partitionReads.load(p, contigLength);
            try {
              process(p, contigLength);
            } catch (SAMException e) { // a read's fields are decoded when first used
              throw in.readsProblem(p.contig() + ":" + (p.start() + 1) + "-" + p.end(), e);
            }
          }
        } finally {
          partitionReads.endRun();
        }
        at = runEnd;
      }
      ok = true;
    } finally {
      if (candidatesVcf != null) {
        if (ok) candidatesVcf.finish(); else candidatesVcf.discard();
      }
    }
    out.endOfStream();
    stats.nanos = System.nanoTime() - t0;
    stats.readsWithoutQualities = partitionReads.readsWithoutQualities();
    if (realigner != null) {
      stats.realignedWindows = realigner.windowsRealigned();
      stats.realignFallbackWindows = realigner.windowsFallenBack();
      stats.realignedFromReadIndels = realigner.windowsFromReadIndels();
      stats.realignedWithReadIndel = realigner.windowsWithReadIndel();
      stats.realignedReads = realigner.readsRealigned();
      stats.realignNanos = realigner.nanos();
    }
    return stats;
  }

  /**
   * True when the reads fetched for {@code b} (its range widened by {@code readPad}) start no later
   * than those fetched for {@code a} end: one stream over both reads no read that neither needs.
   */
  static boolean rangesTouch(Partition a, Partition b, int readPad) {
    return a.contigIndex() == b.contigIndex() && b.start() >= a.end() && b.start() - a.end() <= 2L * readPad;
  }

  /** One partition: realign its reads, count alleles, emit each candidate's call or examples, its reference blocks, then PARTITION_DONE. */
  private void process(Partition p, int contigLength) {
    stats.partitions++;
    List<SAMRecord> fetched = partitionReads.fetched();
    ArrayList<SAMRecord> reads = partitionReads.reads();
    int refStart = Math.max(0, p.start() - pad - REFERENCE_MARGIN);
    int refEnd = Math.min(contigLength, p.end() + pad + REFERENCE_MARGIN);
    byte[] ref;
    if (realigner != null) {
      // The realigner reaches further than the counter: fetch once, give the counter its part.
      int wideStart = Math.max(0, p.start() - pad - Realigner.REFERENCE_REACH);
      int wideEnd = Math.min(contigLength, p.end() + pad + Realigner.REFERENCE_REACH);
      byte[] wide = in.bases(p.contig(), wideStart, wideEnd);
      realigner.realign(fetched, reads, wide, wideStart, Math.max(0, p.start() - readPad),
          Math.min(contigLength, p.end() + readPad), contigLength, p.start(), p.end());
      ref = Arrays.copyOfRange(wide, refStart - wideStart, refEnd - wideStart);
    } else {
      ref = in.bases(p.contig(), refStart, refEnd);
    }

    counter.reset(p.contigIndex(), p.contig(), p.start(), p.end(), ref, refStart);
    for (int i = 0; i < reads.size(); i++) counter.add(reads.get(i), i);
    spans.index(reads);

    List<Candidate> candidates = counter.candidates();
    Candidate[] kept = ShadowAlleles.drop(candidates, shadowStrips(p, reads, candidates, ref, refStart, contigLength),
        o.candidates().indelShadowRatio(), shadowReach);
    List<Candidate> emitted = new ArrayList<>(kept.length);
    for (int ci = 0; ci < candidates.size(); ci++) {
      Candidate c = kept[ci];
      stats.shadowAlleles += candidates.get(ci).alts.length - (c == null ? 0 : c.alts.length);
      if (c == null) continue;
      emitted.add(c);
      stats.candidates++;
      stats.candidateAlleles += c.alts.length;
      if (candidatesVcf != null) candidatesVcf.write(c);
      if (c.position - halfWidth < 0 || c.position + halfWidth >= contigLength) {
        stats.skippedAtContigEdge++;
        continue;
      }
      if (labeler != null && !labeler.confident(c)) {
        stats.skippedNotConfident++;
        continue;
      }
      float[] summary = null;
      if (features != null && c.alts.length == 1) {
        int n = spans.covering(c.position, c.position + 1);
        summary = features.compute(c, reads, spans.rows(), n, ref, refStart,
            nearestCandidate(p, reads, candidates, ci, ref, refStart), featureVector);
      }
      // where a variant's deletion takes the candidate's base, the features do not show it: the network decides
      if (smallModel != null && summary != null && features.deletingReads() < PileupLikelihood.SHARED_INDEL_ROWS
          && emitSmallCall(c, p, summary)) {
        continue;
      }
      emitExamples(c, p, reads, ref, refStart, labeler != null ? summary : null);
    }
    if (referenceBlocks != null) referenceBlocks.emit(p, emitted, counter, ref, refStart, this::emitRefBlock);

    int at = out.claim(ExampleRecordDescriptor.PARTITION_DONE_LENGTH);
    record.wrap(out.buffer(), at).origin(task, sequence++, p.index()).partitionDone(p.contigIndex(), p.end());
    out.commit();
    stats.bytesWritten += ExampleRecordDescriptor.PARTITION_DONE_LENGTH;
  }

  /** A REF_BLOCK record ({@link ReferenceBlocks.Sink}). */
  private void emitRefBlock(Partition p, int start, int end, int minGq, int minDp, int[] pl, int gqBin, boolean called,
      boolean oneCopy, byte refBase) {
    int at = out.claim(ExampleRecordDescriptor.REF_BLOCK_LENGTH);
    record.wrap(out.buffer(), at).origin(task, sequence++, p.index()).refBlock(p.contigIndex(), start, end)
        .blockQuality(minGq, minDp, pl).blockBin(gqBin, called, oneCopy, refBase);
    out.commit();
    stats.refBlocks++;
    stats.bytesWritten += ExampleRecordDescriptor.REF_BLOCK_LENGTH;
  }

  /**
   * A SMALL_CALL record for {@code c} when the small model takes it (inside its envelope, GQ at
   * or above the type's threshold); false (nothing emitted) otherwise.
   */
  private boolean emitSmallCall(Candidate c, Partition p, float[] summary) {
    float[] probs = smallProbabilities;
    if (!smallModel.takes(summary, c.isSnp(0), probs)) return false;
    int len = ExampleRecordDescriptor.smallCallLength(c.ref, c.alts);
    int at = out.claim(len);
    record.wrap(out.buffer(), at).origin(task, sequence++, p.index()).smallCall(c.contigIndex, c.position, c.depth)
        .alleles(c.ref, c.alts, c.alleleDepths).probabilities(probs);
    out.commit();
    stats.smallCalls++;
    out.progress(stats.examples + stats.smallCalls);
    stats.bytesWritten += len;
    return true;
  }

  /** The candidate's examples, one per alt subset; {@code summary}: its features for training records, or null. */
  private void emitExamples(Candidate c, Partition p, List<SAMRecord> reads, byte[] ref, int refStart, float[] summary) {
    int n = rows.select(c, reads);
    int[] rowIndex = spans.rows();
    if (readAlt.length < reads.size()) readAlt = new int[reads.size() * 2];
    for (int a = 0; a < c.alts.length; a++) {
      for (int r : c.supportingReads[a]) readAlt[r] = a + 1;
    }
    int[][] subsets = c.altSubsets();
    for (int i = 0; i < n; i++) rowReads[i] = reads.get(rowIndex[i]);
    int pairs = matePairs(n);
    int cycled = Math.min(n, rowCycles.length);
    for (int i = 0; i < cycled; i++) rowCycles[i] = (byte) ReadCycle.atReference(rowReads[i], c.position + 1);
    for (int[] subset : subsets) {
      for (int i = 0; i < n; i++) {
        int alt = readAlt[rowIndex[i]] - 1;
        rowSupport[i] = alt < 0 ? 0 : (alt == subset[0] || (subset.length > 1 && alt == subset[1])) ? 1 : 2;
      }
      int label = labeler == null ? -1 : labeler.label(c, subset);
      int len = ExampleRecordDescriptor.encodedLength(c.ref, c.alts, summary == null ? 0 : summary.length, pairs, cycled,
          o.image().height(), o.image().width(), encoder.channels());
      if (len > out.maxRecordLength()) {
        throw new IllegalStateException(c + ": example of " + len + " bytes exceeds the transport's "
            + out.maxRecordLength() + "-byte records");
      }
      int at = out.claim(len);
      int imageAt = record.wrap(out.buffer(), at).origin(task, sequence++, p.index())
          .example(c.contigIndex, c.position, label).site(subsets.length, c.depth)
          .alleles(c.ref, c.alts, c.alleleDepths).altSubset(subset).floats(summary).matePairs(mateRows, pairs)
          .cycles(rowCycles, cycled)
          .image(o.image().height(), o.image().width(), encoder.channels());
      encoder.encode(out.buffer(), imageAt, ref, refStart, c.position - halfWidth, rowReads, rowSupport, n);
      out.commit();
      stats.examples++;
      out.progress(stats.examples + stats.smallCalls); // live metrics: examples made so far, of both kinds
      stats.bytesWritten += len;
    }
    for (int a = 0; a < c.alts.length; a++) {
      for (int r : c.supportingReads[a]) readAlt[r] = 0;
    }
    Arrays.fill(rowReads, null);
  }

  /**
   * Puts into {@link #mateRows} the rows of {@code rowReads[0, rows)} that hold the two reads of one
   * fragment (paired reads of one name, first and second of pair; rows past
   * {@link ExampleRecordDescriptor#MAX_MATE_ROW} aside) and returns how many pairs.
   */
  private int matePairs(int rows) {
    firstRowOfName.clear();
    int pairs = 0;
    for (int i = 0; i < rows && i <= ExampleRecordDescriptor.MAX_MATE_ROW; i++) {
      SAMRecord r = rowReads[i];
      if (!r.getReadPairedFlag() || r.getMateUnmappedFlag()) continue;
      Integer first = firstRowOfName.putIfAbsent(r.getReadName(), i);
      if (first == null) continue;
      SAMRecord mate = rowReads[first];
      if (mate.getFirstOfPairFlag() == r.getFirstOfPairFlag()) continue; // a supplementary or duplicate name
      mateRows[2 * pairs] = first;
      mateRows[2 * pairs + 1] = i;
      pairs++;
      firstRowOfName.remove(r.getReadName());
    }
    return pairs;
  }

  /**
   * The distance from candidate {@code at} to the nearest other candidate, capped at
   * {@link CandidateFeatures#DISTANCE_CAP}, whichever partition that neighbour falls in: where the
   * cap reaches past an edge of {@code p} and no neighbour inside is nearer, the strip beyond the
   * edge is counted from this partition's reads (which reach {@link #pad} >= the cap beyond it),
   * so the answer does not depend on where partitions fall. Each strip is counted at most once
   * per partition, and only when a candidate needs it.
   */
  private int nearestCandidate(Partition p, List<SAMRecord> reads, List<Candidate> candidates, int at, byte[] ref,
      int refStart) {
    int pos = candidates.get(at).position;
    int d = CandidateFeatures.nearestCandidate(candidates, at);
    if (pos - p.start() < d) d = Math.min(d, edgeDistance(p, reads, pos, true, ref, refStart));
    if (p.end() - 1 - pos < d) d = Math.min(d, edgeDistance(p, reads, pos, false, ref, refStart));
    return d;
  }

  /**
   * The candidates of the strips within {@link #shadowReach} before and after {@code p}, counted from
   * this partition's reads as its neighbours count them, for {@link ShadowAlleles}; counted only
   * where a candidate of {@code p} with an indel allele lies that close to the edge.
   */
  private List<Candidate> shadowStrips(Partition p, List<SAMRecord> reads, List<Candidate> candidates, byte[] ref,
      int refStart, int contigLength) {
    if (o.candidates().indelShadowRatio() <= 0) return List.of();
    List<Candidate> out = new ArrayList<>();
    int before = Math.max(0, p.start() - shadowReach);
    if (before < p.start() && ShadowAlleles.indelNear(candidates, p.start(), p.start() + shadowReach)) {
      out.addAll(strip(p, reads, before, p.start(), ref, refStart));
    }
    int after = Math.min(contigLength, p.end() + shadowReach);
    if (p.end() < after && ShadowAlleles.indelNear(candidates, p.end() - shadowReach, p.end())) {
      out.addAll(strip(p, reads, p.end(), after, ref, refStart));
    }
    return out;
  }

  /** The candidates of [from, to), a strip beside {@code p}, from the reads of {@code p} that touch it. */
  private List<Candidate> strip(Partition p, List<SAMRecord> reads, int from, int to, byte[] ref, int refStart) {
    edgeCounter.reset(p.contigIndex(), p.contig(), from, to, ref, refStart);
    for (int i = 0; i < reads.size(); i++) {
      if (spans.touches(i, from, to)) edgeCounter.add(reads.get(i), i);
    }
    return edgeCounter.candidates();
  }

  /** Distance from {@code pos} to the nearest candidate in the strip before (left) or after the partition; the cap if none. */
  private int edgeDistance(Partition p, List<SAMRecord> reads, int pos, boolean left, byte[] ref, int refStart) {
    int side = left ? 0 : 1;
    if (edgePartition[side] != p.index()) {
      edgePartition[side] = p.index();
      int contigLength = in.dictionary.getSequence(p.contigIndex()).getSequenceLength();
      int from = left ? Math.max(0, p.start() - CandidateFeatures.DISTANCE_CAP) : p.end();
      int to = left ? p.start() : Math.min(contigLength, p.end() + CandidateFeatures.DISTANCE_CAP);
      edgePositions[side] = new int[0];
      if (from < to) {
        edgePositions[side] = strip(p, reads, from, to, ref, refStart).stream().mapToInt(c -> c.position).toArray();
      }
    }
    int d = CandidateFeatures.DISTANCE_CAP;
    for (int q : edgePositions[side]) d = Math.min(d, Math.abs(q - pos));
    return d;
  }
}
