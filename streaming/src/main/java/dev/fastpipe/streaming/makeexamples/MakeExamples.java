package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import dev.fastpipe.streaming.genome.HaploidRegions;
import dev.fastpipe.streaming.makeexamples.realign.Realigner;
import dev.fastpipe.streaming.pileup.PileupConstants;
import dev.fastpipe.streaming.pileup.PileupImageEncoder;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import htsjdk.samtools.SAMException;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
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


  private final MakeExamplesOptions o;
  private final int task;
  private final InputFiles in;
  private final ExampleProducer out;
  private final MakeExamplesStats stats = new MakeExamplesStats();
  private final ReadFilter filter;
  private final ReadNormalizer normalizer;
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
  /** The reads fetched for a partition (over {@link #readPad}); {@link #reads} are those within {@link #pad}. */
  private final ArrayList<SAMRecord> fetched = new ArrayList<>();
  /** Reference confidence for gVCF blocks; null unless {@code o.gvcf}. */
  private final ReferenceConfidence confidence;
  /** Its haploid form, for the positions of {@link #haploid}; null without a gVCF or haploid regions. */
  private final ReferenceConfidence haploidConfidence;
  private final HaploidRegions haploid;
  private final int[] blockPl = new int[3];
  private boolean[] inCandidate = new boolean[0];
  /** Summary features of bi-allelic candidates: for training records and the small model; null when neither. */
  private final CandidateFeatures features;
  /** Calls easy bi-allelic candidates without an image; null without {@code o.smallModel} or when labelling. */
  private final SmallModel smallModel;
  private final float[] featureVector = new float[CandidateFeatures.COUNT];
  private final float[] smallProbabilities = new float[3];

  private final ArrayList<SAMRecord> reads = new ArrayList<>();
  private final ArrayList<SAMRecord> window = new ArrayList<>();
  private SAMRecord pending;
  /** The start of the last read taken from the stream of the current run of partitions. */
  private int lastStart;
  /** The first partition of the current run that can still hold the next read's start (reads come by start). */
  private int countedPartition;
  private int[] readAlt = new int[1024];
  private int[] rowIndex = new int[1024];
  private long[] sortKeys = new long[1024];
  /**
   * The partition's reads' alignment spans (0-based start, exclusive end), their longest span and
   * their order by start: each candidate's rows are then found by a binary search instead of a
   * scan over every read of the partition (which was a fifth of make_examples' CPU).
   */
  private int[] readStarts = new int[1024];
  private int[] readEnds = new int[1024];
  private int longestSpan;
  private boolean startsSorted;
  /** (start << 32 | index) of every read, sorted: the reads by start even where the list is not. */
  private long[] byStart = new long[1024];
  /** Candidates of the strips just before and just after the current partition, for {@link #nearestCandidate}. */
  private final AlleleCounter edgeCounter;
  private final long[] edgePartition = {-1, -1};
  private final int[][] edgePositions = {new int[0], new int[0]};
  private final SAMRecord[] rowReads;
  private final int[] rowSupport;
  private long sequence;

  private MakeExamples(RunPlan plan, int task, InputFiles in, ExampleProducer out) {
    this.o = plan.settings();
    this.task = task;
    this.in = in;
    this.out = out;
    this.filter = new ReadFilter(o, in.reads.getFileHeader());
    this.normalizer = new ReadNormalizer((contig, start, end) -> in.bases(contig, start,
        Math.min(end, in.dictionary.getSequence(contig).getSequenceLength())), in.readsPath, o.defaultBaseQuality);
    this.counter = new AlleleCounter(o);
    this.edgeCounter = new AlleleCounter(o);
    this.encoder = new PileupImageEncoder(PileupImageEncoder.defaultChannels(o.channels), o.height, o.width);
    this.halfWidth = o.width / 2;
    this.pad = halfWidth + PileupConstants.READ_OVERLAP_BUFFER_BP + 1;
    this.realigner = o.realignReads ? new Realigner(Realigner.Limits.DEFAULT) : null;
    this.readPad = pad + (realigner == null ? 0 : Realigner.READ_MARGIN);
    this.labeler = o.truthVcf == null ? null : new TruthLabeler(o.truthVcf, o.confidentBed, in.dictionary, in);
    this.candidatesVcf = o.candidatesVcf == null ? null : new CandidateVcfWriter(o.candidatesVcf, in.dictionary);
    this.confidence = o.gvcf ? new ReferenceConfidence(o.gvcfGqBinSize) : null;
    this.haploid = HaploidRegions.of(o.haploidContigs, o.parBed, in.dictionary);
    this.haploidConfidence = confidence == null || haploid.isEmpty() ? null : confidence.haploid();
    rowReads = new SAMRecord[o.height];
    rowSupport = new int[o.height];
    this.smallModel = o.smallModel == null || labeler != null ? null : SmallModel.load(o.smallModel, CandidateFeatures.NAMES);
    this.features = labeler != null || smallModel != null ? new CandidateFeatures() : null;
    if (features != null && pad < CandidateFeatures.DISTANCE_CAP) {
      throw new IllegalArgumentException("--width " + o.width + ": too narrow for the candidate features (reads must reach "
          + CandidateFeatures.DISTANCE_CAP + " bp beyond a partition; use a width of at least "
          + 2 * (CandidateFeatures.DISTANCE_CAP - PileupConstants.READ_OVERLAP_BUFFER_BP) + ")");
    }
  }

  /**
   * Plans the run as {@code make-examples --task opts.task --shards opts.shards} does
   * ({@link RunPlan#forTasks}) and runs task {@code opts.task} of it. A task that is the whole run
   * also checks that it read reads where the index promised some ({@link RunPlan#requireReadsSeen}).
   */
  public static MakeExamplesStats run(MakeExamplesOptions opts, ExampleProducer out) {
    try (InputFiles in = new InputFiles(opts.reference, opts.reads)) {
      RunPlan plan = RunPlan.forTasks(opts, in);
      MakeExamplesStats stats = new MakeExamples(plan, opts.task, in, out).runPartitions(plan.partitionsOf(opts.task));
      if (plan.shards() == 1) plan.requireReadsSeen(stats.readsSeen());
      return stats;
    }
  }

  /**
   * Runs task {@code task} of {@code plan}, writing its records into {@code out}; ends the stream on
   * success. Throws {@link dev.fastpipe.streaming.InputException} for bad input.
   */
  public static MakeExamplesStats run(RunPlan plan, int task, ExampleProducer out) {
    MakeExamplesOptions s = plan.settings();
    try (InputFiles in = InputFiles.forShard(s.reference, s.reads)) {
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
        Partition first = run.get(0);
        Partition last = run.get(run.size() - 1);
        int contigLength = in.dictionary.getSequence(first.contigIndex()).getSequenceLength();
        SAMRecordIterator stream = run.size() > 1
            ? query(first.contig(), Math.max(1, first.start() - readPad + 1), Math.min(contigLength, last.end() + readPad))
            : null;
        window.clear();
        pending = null;
        lastStart = 0;
        countedPartition = 0;
        try {
          for (Partition p : run) {
            if (stream != null) {
              slideWindow(stream, p, run, contigLength);
            } else {
              queryReads(p, contigLength);
            }
            try {
              process(p, contigLength);
            } catch (SAMException e) { // a read's fields are decoded when first used
              throw in.readsProblem(p.contig() + ":" + (p.start() + 1) + "-" + p.end(), e);
            }
          }
        } finally {
          if (stream != null) stream.close();
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
    stats.readsWithoutQualities = normalizer.readsWithoutQualities;
    if (realigner != null) {
      stats.realignedWindows = realigner.windowsRealigned();
      stats.realignFallbackWindows = realigner.windowsFallenBack();
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

  /** The reads overlapping [start - readPad, end + readPad) of {@code p}, by an indexed query. */
  private void queryReads(Partition p, int contigLength) {
    fetched.clear();
    int qStart = Math.max(1, p.start() - readPad + 1);
    int qEnd = Math.min(contigLength, p.end() + readPad);
    int previous = 0;
    try (SAMRecordIterator it = query(p.contig(), qStart, qEnd)) {
      while (it.hasNext()) {
        SAMRecord r = it.next();
        previous = requireSorted(r, previous);
        boolean accepted = filter.accept(r);
        int s = r.getAlignmentStart() - 1;
        if (s >= p.start() && s < p.end()) {
          if (accepted) stats.reads++; else stats.readsFiltered++;
        }
        if (accepted) {
          normalizer.normalize(r);
          fetched.add(r);
        }
      }
    } catch (RuntimeException e) {
      throw in.readsProblem(p.contig() + ":" + qStart + "-" + qEnd, e);
    }
    selectReads(p, contigLength);
  }

  /** {@link #reads}: the fetched reads overlapping [start - pad, end + pad) of {@code p}, in order. */
  private void selectReads(Partition p, int contigLength) {
    reads.clear();
    if (readPad == pad) {
      reads.addAll(fetched);
      return;
    }
    int qStart = Math.max(1, p.start() - pad + 1);
    int qEnd = Math.min(contigLength, p.end() + pad);
    for (SAMRecord r : fetched) {
      if (r.getAlignmentStart() <= qEnd && r.getAlignmentEnd() >= qStart) reads.add(r);
    }
  }

  /** The reads overlapping [start, end] (1-based), by an indexed query. */
  private SAMRecordIterator query(String contig, int start, int end) {
    try {
      return in.reads.queryOverlapping(contig, start, end);
    } catch (RuntimeException e) {
      throw in.readsProblem(contig + ":" + start + "-" + end, e);
    }
  }

  /** The read's start, after checking that it does not come before {@code previous}'s. */
  private int requireSorted(SAMRecord r, int previous) {
    int start = r.getAlignmentStart();
    if (start < previous) {
      throw new InputException(in.readsPath + ": not sorted by coordinate: read " + r.getReadName() + " at "
          + r.getContig() + ":" + start + " comes after a read at " + previous + "; sort it with samtools sort,"
          + " then index it");
    }
    return start;
  }

  /**
   * The same read set as {@link #queryReads}, from one sequential pass over the run's range. A read
   * is counted (seen, filtered) once, when it leaves the stream, and only if it starts inside one of
   * the run's partitions: reads in the gaps between them belong to other tasks' partitions.
   */
  private void slideWindow(SAMRecordIterator stream, Partition p, List<Partition> run, int contigLength) {
    int qStart = Math.max(1, p.start() - readPad + 1);
    int qEnd = Math.min(contigLength, p.end() + readPad);
    while (true) {
      if (pending == null) {
        try {
          if (!stream.hasNext()) break;
          pending = stream.next();
        } catch (RuntimeException e) {
          throw in.readsProblem(p.contig() + ":" + qStart + "-" + qEnd, e);
        }
        lastStart = requireSorted(pending, lastStart);
      }
      if (pending.getAlignmentStart() > qEnd) break;
      SAMRecord r = pending;
      pending = null;
      boolean accepted = filter.accept(r);
      int s = r.getAlignmentStart() - 1;
      while (countedPartition < run.size() && run.get(countedPartition).end() <= s) countedPartition++;
      if (countedPartition < run.size() && s >= run.get(countedPartition).start()) {
        if (accepted) stats.reads++; else stats.readsFiltered++;
      }
      if (accepted) {
        normalizer.normalize(r);
        window.add(r);
      }
    }
    window.removeIf(r -> r.getAlignmentEnd() < qStart);
    fetched.clear();
    fetched.addAll(window);
    selectReads(p, contigLength);
  }

  private void process(Partition p, int contigLength) {
    stats.partitions++;
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
    indexReadSpans();

    List<Candidate> candidates = counter.candidates();
    for (int ci = 0; ci < candidates.size(); ci++) {
      Candidate c = candidates.get(ci);
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
        int n = readsCovering(c.position, c.position + 1);
        summary = features.compute(c, reads, rowIndex, n, ref, refStart, nearestCandidate(p, candidates, ci, ref, refStart),
            featureVector);
      }
      if (smallModel != null && summary != null && emitSmallCall(c, p, summary)) continue;
      emitExamples(c, p, ref, refStart, labeler != null ? summary : null);
    }
    if (confidence != null) emitRefBlocks(p, candidates, ref, refStart);

    int at = out.claim(ExampleRecordDescriptor.PARTITION_DONE_LENGTH);
    ExampleRecord.encodePartitionDone(out.buffer(), at, p.contigIndex(), p.end(), task, sequence++, p.index());
    out.commit();
    stats.bytesWritten += ExampleRecordDescriptor.PARTITION_DONE_LENGTH;
  }

  /**
   * The partition's reference confidence as REF_BLOCK records: maximal runs of positions with one
   * GQ bin, one genotype (0/0 or ./.) and one ploidy (haploid regions get the haploid confidence). Every position of a candidate's reference span is a
   * block of its own, so that the postprocess can drop exactly the positions a variant record
   * covers and merge the rest: the blocks it writes then do not depend on where candidates or
   * partitions fell.
   */
  private void emitRefBlocks(Partition p, List<Candidate> candidates, byte[] ref, int refStart) {
    int n = p.end() - p.start();
    if (inCandidate.length < n) inCandidate = new boolean[Math.max(n, 2 * inCandidate.length)];
    Arrays.fill(inCandidate, 0, n, false);
    for (Candidate c : candidates) {
      int from = Math.max(c.position, p.start());
      int to = Math.min(c.position + c.ref.length(), p.end());
      for (int pos = from; pos < to; pos++) inCandidate[pos - p.start()] = true;
    }
    int blockStart = -1;
    int blockKey = -1;
    int blockGq = 0;
    int blockDp = 0;
    for (int pos = p.start(); pos < p.end(); pos++) {
      int depth = counter.depth(pos);
      int refReads = Math.min(counter.refSupport(pos), depth);
      boolean callable = AlleleCounter.baseCode(ref[pos - refStart]) >= 0;
      boolean oneCopy = haploidConfidence != null && haploid.isHaploid(p.contigIndex(), pos);
      ReferenceConfidence rc = oneCopy ? haploidConfidence : confidence;
      int r = callable ? rc.evaluate(refReads, depth) : 0;
      int key = ReferenceConfidence.bin(r) | (ReferenceConfidence.called(r) ? 1 << 8 : 0) | (oneCopy ? 1 << 9 : 0);
      int gq = ReferenceConfidence.gq(r);
      boolean alone = inCandidate[pos - p.start()];
      if (blockStart >= 0 && !alone && key == blockKey && !inCandidate[pos - 1 - p.start()]) {
        if (gq < blockGq) {
          blockGq = gq;
          likelihoods(rc, callable, refReads, depth);
        }
        blockDp = Math.min(blockDp, depth);
        continue;
      }
      if (blockStart >= 0) emitRefBlock(p, blockStart, pos, blockGq, blockDp, blockKey, ref[blockStart - refStart]);
      blockStart = pos;
      blockKey = key;
      blockGq = gq;
      blockDp = depth;
      likelihoods(rc, callable, refReads, depth);
    }
    if (blockStart >= 0) emitRefBlock(p, blockStart, p.end(), blockGq, blockDp, blockKey, ref[blockStart - refStart]);
  }

  /** The block's PL: those of this position (all 0 where the reference base is not A, C, G or T). */
  private void likelihoods(ReferenceConfidence rc, boolean callable, int refReads, int depth) {
    if (callable) rc.pl(refReads, depth, blockPl);
    else ReferenceConfidence.uncallable(blockPl);
  }

  private void emitRefBlock(Partition p, int start, int end, int minGq, int minDp, int key, byte refBase) {
    int at = out.claim(ExampleRecordDescriptor.REF_BLOCK_LENGTH);
    ExampleRecord.encodeRefBlock(out.buffer(), at, p.contigIndex(), start, end, task, sequence++, p.index(), minGq, minDp,
        blockPl, key & 0xFF, (key & 1 << 8) != 0, (key & 1 << 9) != 0, refBase);
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
    ExampleRecord.encodeSmallCall(out.buffer(), at, c.contigIndex, c.position, task, sequence++, p.index(), c.ref, c.alts,
        c.depth, c.alleleDepths, probs);
    out.commit();
    stats.smallCalls++;
    out.progress(stats.examples + stats.smallCalls);
    stats.bytesWritten += len;
    return true;
  }

  /** The candidate's examples, one per alt subset; {@code summary}: its features for training records, or null. */
  private void emitExamples(Candidate c, Partition p, byte[] ref, int refStart, float[] summary) {
    int n = selectRows(c);
    if (readAlt.length < reads.size()) readAlt = new int[reads.size() * 2];
    for (int a = 0; a < c.alts.length; a++) {
      for (int r : c.supportingReads[a]) readAlt[r] = a + 1;
    }
    int[][] subsets = c.altSubsets();
    for (int[] subset : subsets) {
      for (int i = 0; i < n; i++) {
        int alt = readAlt[rowIndex[i]] - 1;
        rowReads[i] = reads.get(rowIndex[i]);
        rowSupport[i] = alt < 0 ? 0 : (alt == subset[0] || (subset.length > 1 && alt == subset[1])) ? 1 : 2;
      }
      int label = labeler == null ? -1 : labeler.label(c, subset);
      int len = ExampleRecordDescriptor.encodedLength(c.ref, c.alts, summary == null ? 0 : summary.length, o.height, o.width,
          encoder.channels());
      if (len > out.maxRecordLength()) {
        throw new IllegalStateException(c + ": example of " + len + " bytes exceeds the transport's "
            + out.maxRecordLength() + "-byte records");
      }
      int at = out.claim(len);
      int imageAt = ExampleRecord.encodeExample(out.buffer(), at, c.contigIndex, c.position, task,
          sequence++, p.index(), label, c.ref, c.alts, subset, subsets.length, c.depth,
          c.alleleDepths, summary, o.height, o.width, encoder.channels());
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
   * The distance from candidate {@code at} to the nearest other candidate, capped at
   * {@link CandidateFeatures#DISTANCE_CAP}, whichever partition that neighbour falls in: where the
   * cap reaches past an edge of {@code p} and no neighbour inside is nearer, the strip beyond the
   * edge is counted from this partition's reads (which reach {@link #pad} >= the cap beyond it),
   * so the answer does not depend on where partitions fall. Each strip is counted at most once
   * per partition, and only when a candidate needs it.
   */
  private int nearestCandidate(Partition p, List<Candidate> candidates, int at, byte[] ref, int refStart) {
    int pos = candidates.get(at).position;
    int d = CandidateFeatures.nearestCandidate(candidates, at);
    if (pos - p.start() < d) d = Math.min(d, edgeDistance(p, pos, true, ref, refStart));
    if (p.end() - 1 - pos < d) d = Math.min(d, edgeDistance(p, pos, false, ref, refStart));
    return d;
  }

  /** Distance from {@code pos} to the nearest candidate in the strip before (left) or after the partition; the cap if none. */
  private int edgeDistance(Partition p, int pos, boolean left, byte[] ref, int refStart) {
    int side = left ? 0 : 1;
    if (edgePartition[side] != p.index()) {
      edgePartition[side] = p.index();
      int contigLength = in.dictionary.getSequence(p.contigIndex()).getSequenceLength();
      int from = left ? Math.max(0, p.start() - CandidateFeatures.DISTANCE_CAP) : p.end();
      int to = left ? p.start() : Math.min(contigLength, p.end() + CandidateFeatures.DISTANCE_CAP);
      edgePositions[side] = new int[0];
      if (from < to) {
        edgeCounter.reset(p.contigIndex(), p.contig(), from, to, ref, refStart);
        for (int i = 0; i < reads.size(); i++) {
          if (readEnds[i] > from && readStarts[i] < to + 1) edgeCounter.add(reads.get(i), i);
        }
        edgePositions[side] = edgeCounter.candidates().stream().mapToInt(c -> c.position).toArray();
      }
    }
    int d = CandidateFeatures.DISTANCE_CAP;
    for (int q : edgePositions[side]) d = Math.min(d, Math.abs(q - pos));
    return d;
  }

  /**
   * Puts into {@code rowIndex[0, n)} the indices of the reads whose alignment overlaps [from, to),
   * in list order, and returns n.
   */
  private int readsCovering(int from, int to) {
    if (rowIndex.length < reads.size()) rowIndex = new int[reads.size() * 2];
    int n = 0;
    for (int k = firstStartingAtOrAfter(from - longestSpan); k < reads.size(); k++) {
      int i = (int) byStart[k];
      if (readStarts[i] >= to) break;
      if (readEnds[i] > from) rowIndex[n++] = i;
    }
    if (!startsSorted) Arrays.sort(rowIndex, 0, n); // back to list order
    return n;
  }

  /**
   * Fills {@link #readStarts}, {@link #readEnds}, {@link #longestSpan}, {@link #startsSorted} and
   * {@link #byStart} for {@link #reads}. The realigner may move a read's start, so the list need
   * not be sorted by start; {@link #byStart} always is.
   */
  private void indexReadSpans() {
    int n = reads.size();
    if (readStarts.length < n) {
      readStarts = new int[n * 2];
      readEnds = new int[n * 2];
      byStart = new long[n * 2];
    }
    longestSpan = 0;
    startsSorted = true;
    for (int i = 0; i < n; i++) {
      SAMRecord r = reads.get(i);
      readStarts[i] = r.getAlignmentStart() - 1;
      readEnds[i] = r.getAlignmentEnd();
      longestSpan = Math.max(longestSpan, readEnds[i] - readStarts[i]);
      if (i > 0 && readStarts[i] < readStarts[i - 1]) startsSorted = false;
      byStart[i] = ((long) Math.max(0, readStarts[i]) << 32) | i;
    }
    if (!startsSorted) Arrays.sort(byStart, 0, n);
  }

  /** The first position in {@link #byStart} whose read starts at or after {@code pos}. */
  private int firstStartingAtOrAfter(int pos) {
    long key = (long) Math.max(0, pos) << 32;
    int lo = 0;
    int hi = reads.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (byStart[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * Picks the image rows into {@code rowIndex[0, n)}: reads overlapping the candidate's ref span
   * widened by read_overlap_buffer_bp, without a low-quality base at the candidate, in alignment
   * order; above the row limit, a deterministic sample keyed on (seed, read name, mate, position).
   */
  private int selectRows(Candidate c) {
    int from = c.position - PileupConstants.READ_OVERLAP_BUFFER_BP;
    int to = c.position + c.ref.length() + PileupConstants.READ_OVERLAP_BUFFER_BP;
    int covering = readsCovering(from, to);
    int n = 0;
    for (int k = 0; k < covering; k++) {
      int i = rowIndex[k];
      if (PileupImageEncoder.qualityOkAt(reads.get(i), c.position, o.minBaseQuality)) rowIndex[n++] = i;
    }
    int max = encoder.maxReadRows();
    if (n <= max) return n;
    if (sortKeys.length < n) sortKeys = new long[n * 2];
    for (int i = 0; i < n; i++) {
      SAMRecord r = reads.get(rowIndex[i]);
      long h = mix(o.downsampleSeed ^ mix(r.getReadName().hashCode() * 0x9E3779B97F4A7C15L
          + (r.getReadPairedFlag() && r.getSecondOfPairFlag() ? 1 : 0)) ^ c.position);
      sortKeys[i] = (h & ~0xFFFFFL) | i;
    }
    Arrays.sort(sortKeys, 0, n);
    int[] chosen = new int[max];
    for (int i = 0; i < max; i++) chosen[i] = rowIndex[(int) (sortKeys[i] & 0xFFFFF)];
    Arrays.sort(chosen);
    System.arraycopy(chosen, 0, rowIndex, 0, max);
    return max;
  }

  /** SplitMix64's finaliser. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
