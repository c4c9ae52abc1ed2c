package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.Partition;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMRecordIterator;
import java.util.ArrayList;
import java.util.List;

/**
 * The reads of each partition of a task, filtered ({@link ReadFilter}) and normalised
 * ({@link ReadNormalizer}), in two sets: {@link #fetched()}, over the partition widened by
 * {@code readPad} (what the realigner needs), and {@link #reads()}, those within {@code pad} (what
 * the counter and the images use). A run of partitions whose fetched ranges touch is read by one
 * sequential stream through a sliding window ({@link #startRun}), reading each read once; a lone
 * partition by an indexed query. Reads are counted (seen, filtered) once, and only if they start
 * inside one of the task's partitions.
 */
final class PartitionReads {
  private final InputFiles in;
  private final ReadFilter filter;
  private final ReadNormalizer normalizer;
  private final MakeExamplesStats stats;
  private final int pad;
  private final int readPad;
  private final ArrayList<SAMRecord> fetched = new ArrayList<>();
  private final ArrayList<SAMRecord> reads = new ArrayList<>();
  private final ArrayList<SAMRecord> window = new ArrayList<>();
  /** The current run's stream; null when its one partition is read by a query. */
  private SAMRecordIterator stream;
  private List<Partition> run = List.of();
  private SAMRecord pending;
  /** The start of the last read taken from the stream of the current run of partitions. */
  private int lastStart;
  /** The first partition of the current run that can still hold the next read's start (reads come by start). */
  private int countedPartition;

  PartitionReads(InputFiles in, ReadFilter filter, ReadNormalizer normalizer, MakeExamplesStats stats, int pad, int readPad) {
    this.in = in;
    this.filter = filter;
    this.normalizer = normalizer;
    this.stats = stats;
    this.pad = pad;
    this.readPad = readPad;
  }

  /** The reads fetched for the last {@link #load}ed partition (over the read pad). */
  List<SAMRecord> fetched() {
    return fetched;
  }

  /** Those of {@link #fetched()} within the pad, in order. */
  ArrayList<SAMRecord> reads() {
    return reads;
  }

  /** Reads that came without base qualities and were given the default (see {@link ReadNormalizer}). */
  long readsWithoutQualities() {
    return normalizer.readsWithoutQualities;
  }

  /** Starts a run of partitions (in order, on one contig) whose fetched ranges touch; {@link #endRun} after it. */
  void startRun(List<Partition> partitions, int contigLength) {
    Partition first = partitions.get(0);
    Partition last = partitions.get(partitions.size() - 1);
    run = partitions;
    stream = partitions.size() > 1
        ? query(first.contig(), Math.max(1, first.start() - readPad + 1), Math.min(contigLength, last.end() + readPad))
        : null;
    window.clear();
    pending = null;
    lastStart = 0;
    countedPartition = 0;
  }

  /** Closes the run's stream. */
  void endRun() {
    if (stream != null) stream.close();
    stream = null;
  }

  /** Loads the reads of {@code p}, the next partition of the run. */
  void load(Partition p, int contigLength) {
    if (stream != null) {
      slideWindow(p, contigLength);
    } else {
      queryReads(p, contigLength);
    }
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
   * The same read set as {@link #queryReads}, from the run's sequential stream. A read is counted
   * (seen, filtered) once, when it leaves the stream, and only if it starts inside one of the run's
   * partitions: reads in the gaps between them belong to other tasks' partitions.
   */
  private void slideWindow(Partition p, int contigLength) {
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
}
