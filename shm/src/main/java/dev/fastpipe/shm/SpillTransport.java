package dev.fastpipe.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Spill to disk over a ring transport (shm, seqring; {@code --transport-opt spill-after=200ms},
 * optionally {@code spill-dir=DIR}): when a shard's ring stays full for longer than the bound, its
 * producer appends the record to a disk segment instead of waiting on; the consumer drains ring and
 * segment so that every producer's records arrive in the order it wrote them.
 *
 * <p>Protocol, per shard (records are numbered 0, 1, ... by their producer): a claim that finds the
 * ring full for {@code spill-after} opens segment {@code e} (epoch, counting up) starting at the next
 * index and publishes its start; from then on every record goes to that segment until the consumer
 * has read all of it (it publishes how many spilled records it has read), then the producer seals the
 * segment and returns to the ring. The consumer reads the ring only up to the start of a published
 * segment, then the segment up to the bytes the producer has published, and when the segment is sealed
 * and read through it deletes it and returns to the ring. A sealed segment was wholly read, so the
 * ring was empty when the producer returned to it: ring and segment never hold records out of order.
 *
 * <p>The shared state lives in a 4 KiB control file beside each ring ({@code <ring>.spill}, mapped,
 * so producers in other processes take part); segments are {@code <spill-dir>/<ring name>.spill-<e>}
 * in the {@link SpillSegment} format (length, CRC, index per record: a torn tail is never delivered).
 * Files carry the run id, so no later run opens them; each names its owner, and a run removes the
 * control files and segments of owners that are provably dead. The owner deletes its control files
 * and segments on close (and the control files at exit); the consumer deletes a segment once read
 * through. A producer never deletes its segments: one that ends its stream and exits before the
 * consumer has opened its last segment must leave the records there.
 *
 * <p>Off by default: without {@code spill-after} the ring transport is returned unwrapped.
 */
public final class SpillTransport implements ExampleTransport {
  /** The transport options of spilling (shm and seqring). */
  public static final String AFTER = "spill-after";
  public static final String DIR = "spill-dir";

  static final int CONTROL_LENGTH = 4096;
  private static final long CONTROL_MAGIC = 0x4c54434c4c495053L; // "SPILLCTL"
  private static final int OWNER_PID = 8, OWNER_START = 16;
  // Written by the producer (one cache line) ...
  private static final int EPOCH = 64, SEALED = 72, WRITTEN = 80, START0 = 88, BYTES0 = 104;
  // ... and by the consumer (another).
  private static final int READ = 128, DONE_EPOCH = 136;

  private final ExampleTransport ring;
  private final Path spillDir;
  private final long afterNanos;
  private final Path[] controlPaths;
  private final UnsafeBuffer[] controls;
  private final Producer[] producers;
  private boolean closed;

  private SpillTransport(ExampleTransport ring, Path spillDir, long afterNanos) {
    this.ring = ring;
    this.spillDir = spillDir;
    this.afterNanos = afterNanos;
    int n = ring.shards();
    controlPaths = new Path[n];
    controls = new UnsafeBuffer[n];
    producers = new Producer[n];
  }

  /** The spill bound of {@code opts} in nanoseconds, or -1 when spilling is off. */
  static long afterNanos(String transport, TransportOptions opts) {
    return opts.duration(transport, AFTER, -1, 0, 3_600_000_000_000L);
  }

  /** The segment directory: {@code spill.dir}, else java.io.tmpdir (a disk, not the ring's tmpfs). */
  static Path spillDir(String transport, TransportOptions opts) {
    return opts.directory(transport, DIR, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** The option descriptions, for a ring provider's {@link TransportProvider#options()}. */
  static void describe(java.util.Map<String, String> m) {
    m.put(AFTER, "spill to a disk segment when the ring stays full this long, e.g. 200ms (default: off, the producer waits)");
    m.put(DIR, "directory of the spill segments (default java.io.tmpdir)");
  }

  /** Wraps {@code ring} (already created) when spilling is on; returns it unchanged otherwise. */
  static ExampleTransport wrap(String transport, ExampleTransport ring, TransportOptions opts) {
    long after = afterNanos(transport, opts);
    if (after < 0) return ring;
    SpillTransport t = new SpillTransport(ring, spillDir(transport, opts), after);
    try {
      for (int s = 0; s < ring.shards(); s++) {
        Path ringFile = Path.of(ring.address(s));
        if (s == 0) {
          removeDeadOwners(ringFile.getParent(), "\\.?fastpipe-[A-Za-z0-9._-]+-[0-9]+\\.spill");
          removeDeadOwners(t.spillDir, "fastpipe-[A-Za-z0-9._-]+-[0-9]+\\.spill-[0-9]+");
        }
        t.controlPaths[s] = controlPath(ringFile);
        t.controls[s] = createControl(t.controlPaths[s]);
      }
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
    return t;
  }

  /** A producer in this or another process, over a ring producer attached to {@code address}. */
  static ExampleProducer attach(String transport, ExampleProducer ringProducer, String address, TransportOptions opts) {
    long after = afterNanos(transport, opts);
    if (after < 0) return ringProducer;
    Path ringFile = Path.of(address);
    return new Producer(spillable(ringProducer), openControl(controlPath(ringFile)), spillDir(transport, opts), ringFile, after);
  }

  private static SpillableProducer spillable(ExampleProducer p) {
    if (p instanceof SpillableProducer s) return s;
    throw new IllegalStateException("producer " + p.getClass().getName() + " cannot bound its wait: no spilling over it");
  }

  /** The shard number a ring file's name ends with ({@code fastpipe-<runId>-<shard>}), or -1. */
  private static int shardOf(Path ringFile) {
    String n = ringFile.getFileName().toString();
    try {
      return Integer.parseInt(n.substring(n.lastIndexOf('-') + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static Path controlPath(Path ringFile) {
    return ringFile.resolveSibling(ringFile.getFileName() + ".spill");
  }

  static Path segmentPath(Path spillDir, Path ringFile, long epoch) {
    return spillDir.resolve(ringFile.getFileName() + ".spill-" + epoch);
  }

  private static UnsafeBuffer createControl(Path p) {
    try (FileChannel ch = FileChannel.open(p, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ShmFiles.register(p);
      RingOwner me = RingOwner.current();
      ByteBuffer b = ByteBuffer.allocate(CONTROL_LENGTH).order(java.nio.ByteOrder.nativeOrder());
      b.putLong(0, CONTROL_MAGIC).putLong(OWNER_PID, me.pid()).putLong(OWNER_START, me.startTicks());
      while (b.hasRemaining()) ch.write(b);
      return new UnsafeBuffer(ch.map(FileChannel.MapMode.READ_WRITE, 0, CONTROL_LENGTH));
    } catch (FileAlreadyExistsException e) {
      throw new IllegalStateException(p + ": already exists (another run with the same id?)", e);
    } catch (IOException e) {
      throw new UncheckedIOException(p + ": cannot create spill control file: " + e.getMessage(), e);
    }
  }

  private static UnsafeBuffer openControl(Path p) {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (ch.size() < CONTROL_LENGTH) throw new IllegalStateException(p + ": not a spill control file (" + ch.size() + " bytes)");
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, CONTROL_LENGTH);
      UnsafeBuffer u = new UnsafeBuffer(m);
      if (u.getLongVolatile(0) != CONTROL_MAGIC) throw new IllegalStateException(p + ": not a spill control file (bad magic)");
      return u;
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalStateException(p + ": no spill control file (is spilling on in the consumer's run too?)", e);
    } catch (IOException e) {
      throw new UncheckedIOException(p + ": cannot open spill control file: " + e.getMessage(), e);
    }
  }

  /** Removes files in {@code dir} matching {@code regex} whose recorded owner is provably dead (a crashed run's). */
  private static void removeDeadOwners(Path dir, String regex) {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(p -> p.getFileName().toString().matches(regex) && Files.isRegularFile(p)).forEach(found::add);
    } catch (IOException e) {
      throw new UncheckedIOException(dir + ": cannot list: " + e.getMessage(), e);
    }
    for (Path p : found) {
      RingOwner owner = readOwner(p);
      if (owner.pid() > 0 && owner.provablyDead()) {
        System.err.println("fastpipe: removed stale spill file " + p + " (" + owner.deathReason() + ")");
        ShmFiles.delete(p);
      }
    }
  }

  /** The owner of a control file (native order) or segment (little-endian); pid 0 when unreadable. */
  static RingOwner readOwner(Path p) {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(SpillSegment.HEADER_LENGTH);
      while (b.hasRemaining() && ch.read(b) > 0) { }
      if (b.position() < SpillSegment.HEADER_LENGTH) return new RingOwner(0, 0, 0);
      b.order(java.nio.ByteOrder.LITTLE_ENDIAN);
      if (b.getLong(0) == SpillSegment.MAGIC) return new RingOwner(b.getLong(32), b.getLong(40), 0);
      b.order(java.nio.ByteOrder.nativeOrder());
      if (b.getLong(0) == CONTROL_MAGIC) return new RingOwner(b.getLong(OWNER_PID), b.getLong(OWNER_START), 0);
      return new RingOwner(0, 0, 0);
    } catch (IOException e) {
      return new RingOwner(0, 0, 0);
    }
  }

  /** Records of {@code shard} that went to disk segments so far. */
  public long spilled(int shard) {
    return controls[shard].getLongVolatile(WRITTEN);
  }

  /** The ring transport underneath. */
  public ExampleTransport ring() { return ring; }

  @Override public String name() { return ring.name(); }

  @Override public int shards() { return ring.shards(); }

  @Override
  public synchronized ExampleProducer producer(int shard) {
    if (producers[shard] == null) {
      producers[shard] = new Producer(spillable(ring.producer(shard)), controls[shard], spillDir, Path.of(ring.address(shard)), afterNanos);
    }
    return producers[shard];
  }

  @Override
  public ExampleConsumer consumer(int... shards) {
    ExampleConsumer[] rings = new ExampleConsumer[shards.length];
    UnsafeBuffer[] ctl = new UnsafeBuffer[shards.length];
    Path[] ringFiles = new Path[shards.length];
    long[] delivered = new long[shards.length];
    for (int i = 0; i < shards.length; i++) {
      rings[i] = ring.consumer(shards[i]);
      ctl[i] = controls[shards[i]];
      ringFiles[i] = Path.of(ring.address(shards[i]));
      delivered[i] = ring.stats(shards[i]).recordsConsumed() + ctl[i].getLongVolatile(READ);
    }
    return new Consumer(shards.clone(), rings, ctl, ringFiles, delivered, spillDir);
  }

  @Override public boolean ended(int shard) { return ring.ended(shard); }

  @Override public String address(int shard) { return ring.address(shard); }

  /** The ring's statistics, with the records that went through segments counted as committed and consumed. */
  @Override
  public TransportStats stats(int shard) {
    TransportStats r = ring.stats(shard);
    UnsafeBuffer c = controls[shard];
    return new TransportStats(r.shard(), r.capacityBytes(), r.fillBytes(), r.maxFillBytes(),
        r.recordsCommitted() + c.getLongVolatile(WRITTEN), r.recordsConsumed() + c.getLongVolatile(READ),
        r.producerStallNanos(), r.consumerIdleNanos(), r.producerStallCpuNanos());
  }

  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    for (int s = 0; s < controlPaths.length; s++) {
      if (controlPaths[s] == null) continue;
      long epochs = controls[s] == null ? 0 : controls[s].getLongVolatile(EPOCH);
      Path ringFile = Path.of(ring.address(s));
      for (long e = 1; e <= epochs; e++) ShmFiles.delete(segmentPath(spillDir, ringFile, e));
      ShmFiles.delete(controlPaths[s]);
    }
    ring.close();
  }

  /** The writing end of one shard: ring first, a segment while the ring stays full. Single-threaded. */
  static final class Producer implements ExampleProducer {
    private final SpillableProducer ring;
    private final UnsafeBuffer ctl;
    private final Path spillDir;
    private final Path ringFile;
    private final long afterNanos;
    private final ByteBuffer scratchBytes;
    private final UnsafeBuffer scratch;
    private SpillSegment.Writer segment; // non-null while spilling
    private long epoch;
    private long index;
    private long written;
    private int claimed = -1; // -1 none, 0 ring, 1 segment
    private int claimedLength;
    private boolean ended;

    Producer(SpillableProducer ring, UnsafeBuffer ctl, Path spillDir, Path ringFile, long afterNanos) {
      this.ring = ring;
      this.ctl = ctl;
      this.spillDir = spillDir;
      this.ringFile = ringFile;
      this.afterNanos = afterNanos;
      this.scratchBytes = ByteBuffer.allocateDirect(ring.maxRecordLength());
      this.scratch = new UnsafeBuffer(scratchBytes);
      this.epoch = ctl.getLongVolatile(EPOCH);
      this.written = ctl.getLongVolatile(WRITTEN);
      if (ctl.getLongVolatile(SEALED) < epoch) ctl.putLongVolatile(SEALED, epoch); // an earlier producer died spilling
      this.index = ring.committedRecords() + written;
    }

    @Override public int maxRecordLength() { return ring.maxRecordLength(); }

    @Override
    public int claim(int length) {
      if (claimed >= 0) throw new IllegalStateException("claim() before the previous record was committed or aborted");
      if (ended) throw new IllegalStateException("claim() after endOfStream()");
      if (segment != null && ctl.getLongVolatile(READ) == written) seal(); // drained: back to the ring
      if (segment == null) {
        int at = ring.claimWithin(length, afterNanos);
        if (at >= 0) {
          claimed = 0;
          return at;
        }
        openSegment();
      }
      if (length > scratch.capacity() || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the largest record " + scratch.capacity() + " bytes");
      }
      claimed = 1;
      claimedLength = length;
      return 0;
    }

    private void openSegment() {
      long e = epoch + 1;
      SpillSegment.Writer w = new SpillSegment.Writer(segmentPath(spillDir, ringFile, e), shardOf(ringFile), e, index);
      int slot = (int) (e & 1) * 8;
      ctl.putLongOrdered(START0 + slot, index);
      ctl.putLongOrdered(BYTES0 + slot, w.bytes());
      ctl.putLongVolatile(EPOCH, e); // last: the consumer sees start and bytes first
      epoch = e;
      segment = w;
    }

    private void seal() {
      segment.close();
      segment = null;
      ctl.putLongVolatile(SEALED, epoch);
    }

    @Override
    public MutableDirectBuffer buffer() {
      return claimed == 1 ? scratch : ring.buffer();
    }

    @Override
    public void commit() {
      if (claimed < 0) throw new IllegalStateException("commit() without claim()");
      if (claimed == 0) {
        ring.commit();
      } else {
        long bytes = segment.append(index, scratchBytes.duplicate().position(0).limit(claimedLength));
        ctl.putLongOrdered(BYTES0 + (int) (epoch & 1) * 8, bytes);
        ctl.putLongOrdered(WRITTEN, ++written);
      }
      claimed = -1;
      index++;
    }

    @Override
    public void abort() {
      if (claimed < 0) throw new IllegalStateException("abort() without claim()");
      if (claimed == 0) ring.abort();
      claimed = -1;
    }

    @Override public void progress(long units) { ring.progress(units); }

    @Override
    public void endOfStream() {
      if (ended) return;
      if (claimed >= 0) abort();
      if (segment != null) seal(); // before the ring's end of stream: the consumer sees the seal first
      ended = true;
      ring.endOfStream();
    }

    @Override public void close() {
      endOfStream();
      ring.close();
    }
  }

  /** Reads each shard's ring up to its next segment, the segment, then the ring again. Single-threaded. */
  private static final class Consumer implements ExampleConsumer {
    private final int[] shards;
    private final ExampleConsumer[] rings;
    private final UnsafeBuffer[] ctl;
    private final Path[] ringFiles;
    private final long[] delivered;
    private final long[] read;
    private final long[] done;
    private final SpillSegment.Reader[] segments;
    private final Path spillDir;
    private int next;

    Consumer(int[] shards, ExampleConsumer[] rings, UnsafeBuffer[] ctl, Path[] ringFiles, long[] delivered, Path spillDir) {
      this.shards = shards;
      this.rings = rings;
      this.ctl = ctl;
      this.ringFiles = ringFiles;
      this.delivered = delivered;
      this.spillDir = spillDir;
      this.read = new long[shards.length];
      this.done = new long[shards.length];
      this.segments = new SpillSegment.Reader[shards.length];
      for (int i = 0; i < shards.length; i++) {
        read[i] = ctl[i].getLongVolatile(READ);
        done[i] = ctl[i].getLongVolatile(DONE_EPOCH);
      }
    }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (int k = 0; k < shards.length && total < limit; k++) {
        int i = (next + k) % shards.length;
        total += pollShard(i, handler, limit - total);
      }
      next = (next + 1) % shards.length;
      return total;
    }

    /** Into each shard's ring, whose stats carry it (records read from a segment included). */
    @Override
    public void idled(long nanos) {
      for (ExampleConsumer r : rings) r.idled(nanos);
    }

    private int pollShard(int i, RecordHandler handler, int budget) {
      UnsafeBuffer c = ctl[i];
      if (segments[i] == null) {
        long e = c.getLongVolatile(EPOCH);
        int ringBudget = budget;
        if (e > done[i]) {
          long start = c.getLongVolatile(START0 + (int) (e & 1) * 8);
          if (delivered[i] >= start) {
            Path seg = segmentPath(spillDir, ringFiles[i], e);
            segments[i] = new SpillSegment.Reader(seg);
            ShmFiles.register(seg); // the reading JVM removes it if it exits before reading it through
          } else {
            ringBudget = (int) Math.min(budget, start - delivered[i]);
          }
        }
        if (segments[i] == null) {
          int n = rings[i].poll(handler, ringBudget);
          delivered[i] += n;
          return n;
        }
      }
      SpillSegment.Reader r = segments[i];
      long e = r.epoch();
      boolean sealed = c.getLongVolatile(SEALED) >= e; // first: the bytes read next are then final
      long bytes = c.getLongVolatile(BYTES0 + (int) (e & 1) * 8);
      int n = 0;
      while (n < budget) {
        SpillSegment.Next got = r.next(bytes);
        if (got == SpillSegment.Next.TORN) throw new IllegalStateException(r.problem());
        if (got == SpillSegment.Next.END) break;
        handler.onRecord(shards[i], r.buffer(), 0, r.length());
        n++;
      }
      if (n > 0) {
        delivered[i] += n;
        read[i] += n;
        c.putLongOrdered(READ, read[i]);
      }
      if (sealed && r.position() >= bytes) { // drained: delete it, back to the ring
        r.close();
        segments[i] = null;
        ShmFiles.delete(segmentPath(spillDir, ringFiles[i], e));
        done[i] = e;
        c.putLongOrdered(DONE_EPOCH, e);
      }
      return n;
    }

    @Override
    public boolean finished() {
      for (int i = 0; i < shards.length; i++) {
        if (segments[i] != null || !rings[i].finished()) return false; // the ring's end of stream first
        if (ctl[i].getLongVolatile(EPOCH) != done[i]) return false; // then no segment left to read
      }
      return true;
    }

    @Override
    public void close() {
      for (int i = 0; i < shards.length; i++) {
        if (segments[i] != null) segments[i].close();
        rings[i].close();
      }
    }
  }
}
