package dev.fastpipe.streaming.makeexamples;

/**
 * One fixed-size piece of a region, the unit of sharding: partition {@code index} (global, in
 * reference order) belongs to task {@code index % shards}, as DeepVariant's --task does.
 */
public record Partition(long index, int contigIndex, String contig, int start, int end) {

  /** Walks the partitions of {@code regions} of size {@code size}, calling {@code visitor} for each. */
  public static void forEach(java.util.List<Region> regions, int size, java.util.function.Consumer<Partition> visitor) {
    long index = 0;
    for (Region r : regions) {
      for (int s = r.start(); s < r.end(); s += size) {
        visitor.accept(new Partition(index++, r.contigIndex(), r.contig(), s, Math.min(r.end(), s + size)));
      }
    }
  }
}
