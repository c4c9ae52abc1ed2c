package dev.fastpipe.streaming.makeexamples.realign;

import htsjdk.samtools.CigarElement;
import htsjdk.samtools.CigarOperator;
import htsjdk.samtools.SAMRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The events the reads' alignments show inside one assembly region, and the combination of them that
 * spells a haplotype: how {@link HaplotypeAssembler#writtenAsTheReads} keeps the reads' way of writing
 * a haplotype.
 */
final class ReadEvents {
  /** Base quality below which a mismatch is not an event. */
  static final int MIN_QUALITY = 10;
  /** The most events a region keeps (the best supported). */
  static final int MAX_EVENTS = 16;
  /** Search steps per haplotype before giving up (the haplotype then keeps its own alignment). */
  static final int MAX_STEPS = 20_000;

  enum Kind { INSERTION, SNP, DELETION } // this order at one position: an insertion goes before the base

  /**
   * One event: a SNP replaces the base at {@code pos} by {@code bases[0]}; an insertion puts
   * {@code bases} before the base at {@code pos}; a deletion removes {@code length} bases from
   * {@code pos}.
   */
  record Event(Kind kind, int pos, byte[] bases, int length, int support) {
    String key() {
      return kind + ":" + pos + ":" + new String(bases) + ":" + length;
    }
  }

  private ReadEvents() {}

  /**
   * The events at least {@code minSupport} reads show strictly inside {@code [rs, re)} (both region
   * ends stay reference bases), at most {@link #MAX_EVENTS}, by position.
   */
  static List<Event> observed(List<SAMRecord> reads, byte[] ref, int refStart, int rs, int re, int minSupport) {
    Map<String, Event> seen = new HashMap<>();
    for (SAMRecord r : reads) {
      if (r.getReadUnmappedFlag() || r.getCigar() == null) continue;
      byte[] bases = r.getReadBases();
      byte[] quals = r.getBaseQualities();
      int refPos = r.getAlignmentStart() - 1;
      int readPos = 0;
      for (CigarElement e : r.getCigar().getCigarElements()) {
        CigarOperator op = e.getOperator();
        int len = e.getLength();
        if (op.consumesReadBases() && op.consumesReferenceBases()) {
          for (int t = 0; t < len; t++) {
            int pos = refPos + t;
            int rp = readPos + t;
            if (pos <= rs || pos >= re - 1 || rp >= bases.length) continue;
            int ri = pos - refStart;
            if (ri < 0 || ri >= ref.length) continue;
            byte b = WindowSelector.upper(bases[rp]);
            if (b == WindowSelector.upper(ref[ri]) || b == 'N') continue;
            if (quals.length > rp && quals[rp] < MIN_QUALITY) continue;
            count(seen, new Event(Kind.SNP, pos, new byte[] {b}, 1, 0));
          }
          refPos += len;
          readPos += len;
        } else if (op == CigarOperator.INSERTION) {
          if (refPos > rs && refPos < re && readPos + len <= bases.length) {
            byte[] ins = new byte[len];
            for (int t = 0; t < len; t++) ins[t] = WindowSelector.upper(bases[readPos + t]);
            count(seen, new Event(Kind.INSERTION, refPos, ins, len, 0));
          }
          readPos += len;
        } else if (op == CigarOperator.DELETION) {
          if (refPos > rs && refPos + len < re) count(seen, new Event(Kind.DELETION, refPos, new byte[0], len, 0));
          refPos += len;
        } else if (op.consumesReferenceBases()) { // N
          refPos += len;
        } else if (op.consumesReadBases()) { // soft clip
          readPos += len;
        }
      }
    }
    List<Event> out = new ArrayList<>();
    for (Event e : seen.values()) if (e.support() >= minSupport) out.add(e);
    out.sort(Comparator.comparingInt(Event::support).reversed().thenComparing(Event::key));
    if (out.size() > MAX_EVENTS) out = new ArrayList<>(out.subList(0, MAX_EVENTS));
    out.sort(Comparator.comparingInt(Event::pos).thenComparing(Event::kind).thenComparing(Event::key));
    return out;
  }

  private static void count(Map<String, Event> seen, Event e) {
    seen.merge(e.key(), new Event(e.kind(), e.pos(), e.bases(), e.length(), 1),
        (a, b) -> new Event(a.kind(), a.pos(), a.bases(), a.length(), a.support() + 1));
  }

  /**
   * The alignment ({@link Haplotype#refOf}) of {@code hap} over {@code [rs, re)} made of
   * {@code events} applied to the reference, the combination whose least supported event has the most
   * reads (then the fewest events); null when none spells it.
   */
  static int[] spell(byte[] hap, List<Event> events, byte[] ref, int refStart, int rs, int re) {
    Search s = new Search(hap, events, ref, refStart, re);
    s.walk(0, rs, 0, Integer.MAX_VALUE, 0);
    return s.best;
  }

  private static final class Search {
    final byte[] hap;
    final List<Event> events;
    final byte[] ref;
    final int refStart;
    final int re;
    final int[] refOf;
    int[] best;
    int bestMin = -1;
    int bestCount;
    int steps;

    Search(byte[] hap, List<Event> events, byte[] ref, int refStart, int re) {
      this.hap = hap;
      this.events = events;
      this.ref = ref;
      this.refStart = refStart;
      this.re = re;
      this.refOf = new int[hap.length];
    }

    /** Reference bases [cursor, to) against hap from j: the next j, or -1 where they differ. */
    int copy(int cursor, int to, int j) {
      for (int p = cursor; p < to; p++, j++) {
        if (j >= hap.length || hap[j] != WindowSelector.upper(ref[p - refStart])) return -1;
        refOf[j] = p;
      }
      return j;
    }

    void walk(int i, int cursor, int j, int minSupport, int used) {
      if (++steps > MAX_STEPS) return;
      if (i == events.size()) {
        int end = copy(cursor, re, j);
        if (end != hap.length || used == 0) return;
        if (minSupport > bestMin || minSupport == bestMin && used < bestCount) {
          best = Arrays.copyOf(refOf, refOf.length);
          bestMin = minSupport;
          bestCount = used;
        }
        return;
      }
      Event e = events.get(i);
      if (e.pos() >= cursor) {
        int k = copy(cursor, e.pos(), j);
        if (k >= 0) {
          int min = Math.min(minSupport, e.support());
          switch (e.kind()) {
            case SNP -> {
              if (k < hap.length && hap[k] == e.bases()[0]) {
                refOf[k] = e.pos();
                walk(i + 1, e.pos() + 1, k + 1, min, used + 1);
              }
            }
            case INSERTION -> {
              boolean fits = k + e.length() <= hap.length;
              for (int t = 0; fits && t < e.length(); t++) fits = hap[k + t] == e.bases()[t];
              if (fits) {
                for (int t = 0; t < e.length(); t++) refOf[k + t] = -1;
                walk(i + 1, e.pos(), k + e.length(), min, used + 1);
              }
            }
            case DELETION -> walk(i + 1, e.pos() + e.length(), k, min, used + 1);
          }
        }
      }
      walk(i + 1, cursor, j, minSupport, used);
    }
  }
}
