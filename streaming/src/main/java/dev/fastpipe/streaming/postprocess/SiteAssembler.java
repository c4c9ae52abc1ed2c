package dev.fastpipe.streaming.postprocess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Gathers per-example results into sites and releases finished sites in sorted order.
 *
 * <p>Results may arrive in any order (from concurrent consumers). {@link #completeBefore}
 * declares that nothing more will arrive for sites before (contig, position): those sites are
 * combined ({@link GenotypeCombiner}) and returned sorted by contig index, position, ref.
 * {@link #finish()} releases everything left. Thread-safe: {@code add} and the release methods
 * synchronise on the assembler (the work under the lock is a map insert or a few combines).
 *
 * <p>A site released with fewer examples than it announced ({@code examplesAtSite}) is
 * combined from what arrived and counted in {@link #incompleteSites()}.
 */
public final class SiteAssembler {
  private final GenotypeCombiner combiner;
  private final TreeMap<CallResult.SiteKey, List<CallResult>> pending = new TreeMap<>();
  private long incomplete;
  private int doneContig = -1; // results before (doneContig, donePosition) are refused
  private int donePosition = -1;
  private boolean finished;

  public SiteAssembler(GenotypeCombiner combiner) {
    this.combiner = combiner;
  }

  /** Adds one example's result. A result for an already released position is an error. */
  public synchronized void add(CallResult result) {
    CallResult.SiteKey key = result.site();
    if (finished || key.contigIndex() < doneContig
        || (key.contigIndex() == doneContig && key.position() < donePosition)) {
      throw new IllegalStateException(
          "result for contig " + key.contigIndex() + " position " + key.position()
              + " arrived after that region was declared complete");
    }
    pending.computeIfAbsent(key, k -> new ArrayList<>(1)).add(result);
  }

  /** Sites held, not yet released. */
  public synchronized int pendingSites() {
    return pending.size();
  }

  /** Releases, sorted, every site at a contig index below {@code contigIndex}, or on it at 0-based {@code position} or before. */
  public synchronized List<GenotypeCall> completeBefore(int contigIndex, int position) {
    if (contigIndex > doneContig || (contigIndex == doneContig && position > donePosition)) {
      doneContig = contigIndex;
      donePosition = position;
    }
    List<GenotypeCall> out = new ArrayList<>();
    while (!pending.isEmpty()) {
      Map.Entry<CallResult.SiteKey, List<CallResult>> e = pending.firstEntry();
      CallResult.SiteKey k = e.getKey();
      if (k.contigIndex() > contigIndex || (k.contigIndex() == contigIndex && k.position() >= position)) break;
      out.add(release(pending.pollFirstEntry()));
    }
    return out;
  }

  /** Releases every remaining site, sorted. */
  public synchronized List<GenotypeCall> finish() {
    finished = true;
    List<GenotypeCall> out = new ArrayList<>(pending.size());
    while (!pending.isEmpty()) out.add(release(pending.pollFirstEntry()));
    return out;
  }

  private GenotypeCall release(Map.Entry<CallResult.SiteKey, List<CallResult>> e) {
    List<CallResult> results = e.getValue();
    if (results.size() < results.get(0).examplesAtSite()) incomplete++;
    results.sort((a, b) -> {
      int c = Integer.compare(a.altSubset().length, b.altSubset().length);
      for (int i = 0; c == 0 && i < a.altSubset().length; i++) c = Integer.compare(a.altSubset()[i], b.altSubset()[i]);
      return c;
    });
    return combiner.combine(results);
  }

  public synchronized long incompleteSites() {
    return incomplete;
  }
}
