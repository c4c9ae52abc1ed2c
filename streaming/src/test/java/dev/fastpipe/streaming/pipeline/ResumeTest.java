package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.inference.GenotypeModel;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.simulate.Simulation;
import dev.fastpipe.streaming.simulate.SyntheticSample;
import dev.fastpipe.streaming.smallmodel.SmallModel;
import htsjdk.samtools.util.BlockCompressedInputStream;
import htsjdk.variant.vcf.VCFFileReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code call --resume} in process (thread shards): runs stopped right after a journal checkpoint
 * at random partition boundaries, as a kill there would leave them (plus bytes written after the
 * checkpoint, which a kill may leave too), then resumed with other shard counts and partition
 * sizes, give the VCF and gVCF records of an uninterrupted run; a damaged partial file, a torn
 * journal line, another plan, a second run of the same output and a missing journal each do what
 * docs/call.md's Resume section says.
 */
class ResumeTest {
  static final Path MODEL = Path.of("..", "models", "fastpipe-v5");
  @TempDir static Path dir;
  static Simulation.Result sample;
  static List<String> vcf;
  static List<String> gvcf;
  static int checkpoints;

  /** Thrown by the checkpoint hook: the run stops there as a kill would stop it. */
  static final class Killed extends RuntimeException {
    Killed() {
      super("killed by the test");
    }
  }

  @BeforeAll
  static void simulateAndCallUninterrupted() throws IOException {
    sample = Simulation.synthetic(33, 3, 150_000, 20).writeTo(dir.resolve("sample"));
    CallRequest.Builder s = settings("whole", 2, 10_000);
    RunMetrics m = run(s, null).metrics();
    vcf = body(vcfOf(s));
    gvcf = body(gvcfOf(s));
    checkpoints = (int) m.checkpoints;
    assertTrue(checkpoints >= 4, checkpoints + " checkpoints");
    assertFalse(Files.exists(CallJournal.dirOf(vcfOf(s))), "a finished run leaves no journal");
    assertFalse(Files.exists(CallJournal.partialOf(vcfOf(s))), "nor a partial file");
    assertTrue(vcf.size() > 100 && gvcf.size() > vcf.size(), vcf.size() + " VCF records, " + gvcf.size() + " gVCF");
  }

  static CallRequest.Builder settings(String name, int shards, int partitionSize) {
    CallRequest.Builder s = CallRequest.builder();
    s.examples().reference(sample.files().reference()).reads(sample.files().reads()).shards(shards).partitionSize(partitionSize).smallModel(SmallModel.find(MODEL));
    s.autoPartitionSize(false);
    s.calibration(GqCalibration.forModel(MODEL));
    s.modelDir(MODEL);
    s.output(dir.resolve(name + ".vcf.gz"));
    s.gvcf(dir.resolve(name + ".g.vcf.gz"));
    s.transport("disruptor");
    s.progress(false);
    s.sample(SyntheticSample.SAMPLE);
    s.journalInterval(java.time.Duration.ZERO); // a checkpoint at every boundary: kills land anywhere
    s.maxBatchWait(java.time.Duration.ZERO); // the frontier moves at every dry spell, not once a second
    return s;
  }

  static final ByteArrayOutputStream ERR = new ByteArrayOutputStream();

  static StreamingCall.Summary run(CallRequest.Builder s, StreamingCall.CheckpointHook hook) {
    return run(s, hook, CallJournal.FILES);
  }

  static StreamingCall.Summary run(CallRequest.Builder s, StreamingCall.CheckpointHook hook, CallJournal.ChannelOpener opener) {
    ERR.reset();
    return StreamingCall.run(s.build(), () -> GenotypeModel.load(MODEL), new PrintStream(ERR, true, StandardCharsets.UTF_8), hook,
        opener);
  }

  static String err() {
    return ERR.toString(StandardCharsets.UTF_8);
  }

  /** Stops the run of {@code s} right after its first checkpoint with at least {@code share} of the bases done. */
  static void killAfter(CallRequest.Builder s, double share) {
    assertThrows(Killed.class, () -> run(s, (n, c) -> {
      if (c.basesDone() >= share * c.bases()) throw new Killed();
    }), "the run was not stopped at " + share);
    assertTrue(Files.exists(CallJournal.dirOf(vcfOf(s))), "the journal stays: " + err());
    assertFalse(Files.exists(vcfOf(s)), "nothing under the final name");
  }

  /** The records of a bgzipped VCF as text (the header left out). */
  static List<String> body(Path vcf) throws IOException {
    List<String> out = new ArrayList<>();
    try (BlockCompressedInputStream in = new BlockCompressedInputStream(Files.newInputStream(vcf))) {
      for (String l = in.readLine(); l != null; l = in.readLine()) if (!l.startsWith("#")) out.add(l);
    }
    return out;
  }

  static void appendJunk(Path file, Random r) throws IOException {
    byte[] junk = new byte[1 + r.nextInt(5000)];
    r.nextBytes(junk);
    Files.write(file, junk, StandardOpenOption.APPEND);
  }

  static void assertSameRecords(CallRequest.Builder s) throws IOException {
    assertEquals(vcf, body(vcfOf(s)), "VCF records after the resume");
    assertEquals(gvcf, body(gvcfOf(s)), "gVCF records after the resume");
    assertFalse(Files.exists(CallJournal.dirOf(vcfOf(s))), "the journal is gone once published");
    try (VCFFileReader r = new VCFFileReader(gvcfOf(s), true)) { // the index covers the kept part too
      String contig = r.getFileHeader().getSequenceDictionary().getSequence(0).getSequenceName();
      List<String> viaIndex = new ArrayList<>();
      try (var it = r.query(contig, 1, 60_000)) {
        it.forEachRemaining(v -> viaIndex.add(v.getContig() + ":" + v.getStart()));
      }
      List<String> expected = new ArrayList<>();
      for (String l : gvcf) {
        String[] f = l.split("\t", 9);
        int start = Integer.parseInt(f[1]);
        int end = f[7].startsWith("END=") ? Integer.parseInt(f[7].substring(4).split(";")[0]) : start + f[3].length() - 1;
        if (f[0].equals(contig) && start <= 60_000 && end >= 1) expected.add(f[0] + ":" + start);
      }
      assertEquals(expected, viaIndex, "records found through the index");
    }
  }

  @Test
  void killedAtRandomBoundariesAndResumedWithOtherShardsGivesTheSameRecords() throws IOException {
    int[] sizes = {7_000, 10_000, 13_000};
    for (long seed = 1; seed <= 5; seed++) {
      Random r = new Random(seed);
      CallRequest.Builder first = settings("kill" + seed, 1 + r.nextInt(3), sizes[r.nextInt(sizes.length)]);
      double k = 0.1 + 0.7 * r.nextDouble();
      killAfter(first, k);
      if (r.nextBoolean()) appendJunk(CallJournal.partialOf(vcfOf(first)), r); // written after the checkpoint
      if (r.nextBoolean()) appendJunk(CallJournal.partialOf(gvcfOf(first)), r);
      CallRequest.Builder again = settings("kill" + seed, 1 + r.nextInt(3), sizes[r.nextInt(sizes.length)]);
      again.resume(true);
      StreamingCall.Summary done = run(again, null);
      String what = "seed " + seed + ", killed at " + k + " of the bases done: " + err();
      assertTrue(err().contains("resuming"), what);
      assertTrue(done.metrics().basesResumed > 0 && done.metrics().basesResumed < done.metrics().basesTotal, what);
      assertTrue(done.metrics().secondsResumed > 0, what);
      assertTrue(done.metrics().toJson().contains("\"bases_resumed\": " + done.metrics().basesResumed), what);
      assertSameRecords(again);
      assertEquals(vcf.size(), done.sites(), "the summary counts the kept records too");
    }
  }

  @Test
  void aResumeOfAResumeGivesTheSameRecords() throws IOException {
    CallRequest.Builder s = settings("twice", 2, 10_000);
    killAfter(s, 0.3);
    s.resume(true);
    killAfter(s, 0.6); // checkpoints of the resumed run
    run(s, null);
    assertTrue(err().contains("resuming"), err());
    assertSameRecords(s);
  }

  @Test
  void anEditedPartialFileIsFoundAndItsTailRecomputed() throws IOException {
    CallRequest.Builder s = settings("edited", 2, 10_000);
    killAfter(s, 0.7);
    Path partial = CallJournal.partialOf(vcfOf(s));
    long size = Files.size(partial);
    try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, size * 2 / 3);
      b.put(0, (byte) ~b.get(0)).rewind();
      ch.write(b, size * 2 / 3); // one flipped byte two thirds in
    }
    s.resume(true);
    run(s, null);
    assertTrue(err().contains("differ from what the journal records"), err());
    assertSameRecords(s);
  }

  @Test
  void aTruncatedPartialFileResumesFromTheLastCheckpointItHolds() throws IOException {
    CallRequest.Builder s = settings("truncated", 2, 10_000);
    killAfter(s, 0.7);
    Path partial = CallJournal.partialOf(gvcfOf(s));
    try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }
    s.resume(true);
    run(s, null);
    assertTrue(err().contains("is shorter"), err());
    assertSameRecords(s);
  }

  @Test
  void aTornJournalLineAfterAFullDiskIsNotTrusted() throws IOException {
    CallRequest.Builder s = settings("full", 2, 10_000);
    // the checkpoints file fills after its 4th line (the header's and 3 boundaries'): the 5th is written half,
    // then "No space left"; the run goes on without a journal until the kill
    CallJournal.ChannelOpener full = f -> new FullDisk(CallJournal.FILES.open(f), 4);
    assertThrows(Killed.class, () -> run(s, (n, c) -> {
      if (n == 4) throw new Killed(); // the checkpoint whose line was torn
    }, full));
    assertTrue(err().contains("cannot write the resume journal (No space left on device)"), err());
    String journal = Files.readString(CallJournal.dirOf(vcfOf(s)).resolve("checkpoints"));
    assertFalse(journal.endsWith("\n"), "the torn line is still there: " + journal);
    s.resume(true);
    run(s, null);
    assertTrue(err().contains("checkpoint 5 is torn"), err());
    assertTrue(err().contains("resuming"), err());
    assertSameRecords(s);
  }

  @Test
  void anotherPlanIsRefusedWithOneLineNamingWhatChanged() throws IOException {
    CallRequest.Builder s = settings("changed", 2, 10_000);
    killAfter(s, 0.3);
    CallRequest.Builder other = settings("changed", 2, 10_000);
    other.resume(true);
    other.minQual(5);
    InputException e = assertThrows(InputException.class, () -> run(other, null));
    assertTrue(e.getMessage().contains("minQual (--min-qual) was 1.0, now 5.0"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    CallRequest.Builder noSmall = settings("changed", 2, 10_000);
    noSmall.resume(true);
    noSmall.examples().smallModel(null);
    e = assertThrows(InputException.class, () -> run(noSmall, null));
    assertTrue(e.getMessage().contains("small_model.json was an input of the interrupted run but is not one now"),
        e.getMessage());
    s.resume(true);
    run(s, null); // the refusals changed nothing
    assertTrue(err().contains("resuming"), err());
    assertSameRecords(s);
  }

  @Test
  void aSecondRunOfTheSameOutputStopsWhileTheFirstHoldsTheJournal() throws IOException {
    CallRequest.Builder s = settings("locked", 2, 10_000);
    try (CallJournal held = CallJournal.open(vcfOf(s), CallJournal.FILES, null)) {
      s.resume(true);
      InputException e = assertThrows(InputException.class, () -> run(s, null));
      assertTrue(e.getMessage().contains("another fastpipe call (pid " + ProcessHandle.current().pid() + ") is writing"),
          e.getMessage());
      assertTrue(Files.exists(CallJournal.dirOf(vcfOf(s)).resolve("lock")), "the holder's journal is untouched");
    }
  }

  @Test
  void resumeWithoutAJournalSaysSoAndCallsEverything() throws IOException {
    CallRequest.Builder s = settings("nojournal", 2, 10_000);
    s.resume(true);
    StreamingCall.Summary r = run(s, null);
    assertTrue(err().contains("no journal of an interrupted run"), err());
    assertEquals(0, r.metrics().basesResumed);
    assertSameRecords(s);
  }

  @Test
  void resumeWithNoJournalIsRefused() {
    CallRequest.Builder s = settings("both", 2, 10_000);
    s.resume(true);
    s.journal(false);
    InputException e = assertThrows(InputException.class, () -> run(s, null));
    assertTrue(e.getMessage().contains("cannot go with --no-journal"), e.getMessage());
  }

  /** A checkpoints file on a disk that fills after {@code lines} lines: the next write stores half, then fails. */
  static final class FullDisk extends FileChannel {
    private final FileChannel in;
    private int left;

    FullDisk(FileChannel in, int lines) {
      this.in = in;
      this.left = lines;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      if (left-- > 0) return in.write(src);
      ByteBuffer half = src.duplicate();
      half.limit(src.position() + src.remaining() / 2);
      in.write(half);
      in.force(false);
      throw new IOException("No space left on device");
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      throw new IOException("No space left on device"); // the torn line stays
    }

    @Override
    public void force(boolean metaData) throws IOException {
      in.force(metaData);
    }

    @Override
    public long size() throws IOException {
      return in.size();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return in.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return in.read(dsts, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() throws IOException {
      return in.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      in.position(newPosition);
      return this;
    }

    @Override
    public long transferTo(long position, long count, java.nio.channels.WritableByteChannel target) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferFrom(java.nio.channels.ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return in.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.nio.MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.nio.channels.FileLock lock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.nio.channels.FileLock tryLock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected void implCloseChannel() throws IOException {
      in.close();
    }
  }

  /** The VCF {@code s} writes. */
  static Path vcfOf(CallRequest.Builder s) {
    return s.build().output();
  }

  /** The gVCF {@code s} writes. */
  static Path gvcfOf(CallRequest.Builder s) {
    return s.build().outputs().gvcf();
  }
}
