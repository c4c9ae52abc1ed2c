package dev.fastpipe.streaming.example;

import com.google.protobuf.ByteString;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.TfRecordWriter;
import dev.fastpipe.streaming.OutputFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.tensorflow.proto.BytesList;
import org.tensorflow.proto.Example;
import org.tensorflow.proto.Feature;
import org.tensorflow.proto.Features;
import org.tensorflow.proto.Int64List;

/**
 * The disk format, DeepVariant's classic baseline and the training input: a gzipped TFRecord of
 * tf.Example protos, one per EXAMPLE record ({@link TfExampleFeatures} names the features),
 * framed and compressed by {@link TfRecordWriter#gzipped}.
 * PARTITION_DONE markers are counted but not written (a file is complete by definition).
 * REF_BLOCK records (gVCF runs) go, as their raw 64 bytes, one per TFRecord, to a second gzipped
 * file named by {@link #withRefBlocks}, which is written and renamed alongside the examples.
 *
 * <p>As an {@link ExampleProducer}: {@code claim} hands out the start of a private staging
 * buffer, {@code commit} encodes the record into the file. The file is written under
 * {@code .NAME.tmp-PID.tfrecord.gz} and renamed to its final name by {@link #endOfStream()}; {@link #discard()}
 * deletes it instead (call it on failure, before close, so no partial file keeps the final name).
 */
public final class TfRecordExampleWriter implements ExampleProducer {
  public static final int DEFAULT_MAX_RECORD_LENGTH = 4 << 20;

  private final Path target;
  private final Path temp;
  private final TfRecordWriter out;
  private final UnsafeBuffer staging;
  private final ExampleRecord record = new ExampleRecord();
  private int claimed = -1;
  private Path blocksTarget;
  private Path blocksTemp;
  private TfRecordWriter blocksOut;
  private final byte[] blockBytes = new byte[ExampleRecordDescriptor.REF_BLOCK_LENGTH];
  private long refBlocks;
  private boolean ended;
  private long examples;
  private long markers;

  public TfRecordExampleWriter(Path target) {
    this(target, DEFAULT_MAX_RECORD_LENGTH);
  }

  /** gzip level by default: 1 (fastest). Pileup images compress ~10x even so; level 6 costs ~3x the CPU. */
  public static final int DEFAULT_GZIP_LEVEL = 1;

  public TfRecordExampleWriter(Path target, int maxRecordLength) {
    this(target, maxRecordLength, DEFAULT_GZIP_LEVEL);
  }

  public TfRecordExampleWriter(Path target, int maxRecordLength, int gzipLevel) {
    this.target = target;
    this.temp = OutputFiles.temporary(target, ".tfrecord.gz");
    OutputFiles.removeDeadTemporaries(target);
    try {
      Path parent = target.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      this.out = TfRecordWriter.gzipped(temp, gzipLevel);
    } catch (IOException e) {
      throw new UncheckedIOException(target + ": cannot create (" + e.getMessage() + ")", e);
    }
    ByteBuffer bb = BufferUtil.allocateDirectAligned(
        ExampleRecordDescriptor.align(maxRecordLength), 64);
    this.staging = new UnsafeBuffer(bb);
  }

  /** Also writes the REF_BLOCK records (reference confidence for a gVCF) to {@code target}. */
  public TfRecordExampleWriter withRefBlocks(Path target) {
    if (blocksOut != null) throw new IllegalStateException("reference blocks go to " + blocksTarget + " already");
    Path temp = OutputFiles.temporary(target, ".tfrecord.gz");
    OutputFiles.removeDeadTemporaries(target);
    try {
      blocksOut = TfRecordWriter.gzipped(temp, DEFAULT_GZIP_LEVEL);
    } catch (IOException e) {
      throw new UncheckedIOException(target + ": cannot create (" + e.getMessage() + ")", e);
    }
    blocksTarget = target;
    blocksTemp = temp;
    return this;
  }

  @Override
  public int maxRecordLength() {
    return staging.capacity();
  }

  @Override
  public int claim(int length) {
    if (ended) throw new IllegalStateException(target + ": claim after endOfStream");
    if (length < ExampleRecordDescriptor.HEADER_LENGTH || length > staging.capacity()) {
      throw new IllegalArgumentException("record length " + length + " out of range");
    }
    claimed = length;
    return 0;
  }

  @Override
  public MutableDirectBuffer buffer() {
    return staging;
  }

  @Override
  public void commit() {
    if (claimed < 0) throw new IllegalStateException("commit without claim");
    claimed = -1;
    record.wrap(staging, 0);
    if (record.isPartitionDone()) {
      markers++;
      return;
    }
    if (record.isRefBlock()) {
      if (blocksOut == null) throw new IllegalStateException(target + ": a REF_BLOCK record but no file for reference blocks");
      staging.getBytes(0, blockBytes);
      try {
        blocksOut.write(blockBytes, 0, blockBytes.length);
      } catch (IOException e) {
        throw new UncheckedIOException(blocksTemp + ": write failed (" + e.getMessage() + ")", e);
      }
      refBlocks++;
      return;
    }
    try {
      byte[] bytes = toExample(record).toByteArray();
      out.write(bytes, 0, bytes.length);
      examples++;
    } catch (IOException e) {
      throw new UncheckedIOException(temp + ": write failed (" + e.getMessage() + ")", e);
    }
  }

  /** The tf.Example for one EXAMPLE record. */
  public static Example toExample(ExampleRecord r) {
    int imageAt = r.imageOffset();
    int headerLen = imageAt - r.offset();
    byte[] header = new byte[headerLen];
    r.buffer().getBytes(r.offset(), header);
    byte[] image = new byte[r.imageLength()];
    r.buffer().getBytes(imageAt, image);
    Features.Builder f = Features.newBuilder()
        .putFeature(TfExampleFeatures.IMAGE_ENCODED, bytes(image))
        .putFeature(TfExampleFeatures.IMAGE_SHAPE, Feature.newBuilder().setInt64List(
            Int64List.newBuilder().addValue(r.height()).addValue(r.width()).addValue(r.channels()))
            .build())
        .putFeature(TfExampleFeatures.ALT_ALLELE_INDICES, bytes(altAlleleIndicesProto(r.altSubset())))
        .putFeature(TfExampleFeatures.FASTPIPE_HEADER, bytes(header))
        .putFeature(TfExampleFeatures.LOCUS,
            bytes((r.contigIndex() + ":" + r.position()).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    if (r.label() >= 0) {
      f.putFeature(TfExampleFeatures.LABEL,
          Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(r.label())).build());
    }
    return Example.newBuilder().setFeatures(f).build();
  }

  private static Feature bytes(byte[] b) {
    return Feature.newBuilder().setBytesList(BytesList.newBuilder().addValue(ByteString.copyFrom(b)))
        .build();
  }

  /** DeepVariant's CallVariantsOutput.AltAlleleIndices: field 1, packed repeated int32. */
  static byte[] altAlleleIndicesProto(int[] indices) {
    byte[] payload = new byte[indices.length * 5];
    int n = 0;
    for (int v : indices) {
      long u = v & 0xFFFFFFFFL; // non-negative indices: one byte each in practice
      while ((u & ~0x7FL) != 0) {
        payload[n++] = (byte) ((u & 0x7F) | 0x80);
        u >>>= 7;
      }
      payload[n++] = (byte) u;
    }
    byte[] r = new byte[2 + n];
    r[0] = 0x0A;
    r[1] = (byte) n;
    System.arraycopy(payload, 0, r, 2, n);
    return r;
  }

  @Override
  public void abort() {
    claimed = -1;
  }

  /** Finishes the gzip stream and renames the file to its final name. Idempotent. */
  @Override
  public void endOfStream() {
    if (ended) return;
    ended = true;
    try {
      out.close();
      if (blocksOut != null) blocksOut.close();
      try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) { // the examples and their blocks: both or neither
        tx.stage(temp, target);
        if (blocksOut != null) tx.stage(blocksTemp, blocksTarget);
        tx.commit();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(target + ": cannot finish (" + e.getMessage() + ")", e);
    }
  }

  /** Abandons the file: closes and deletes the temporary; the final name is never created. */
  public void discard() {
    if (ended) return;
    ended = true;
    try {
      out.close();
      if (blocksOut != null) blocksOut.close();
    } catch (IOException ignored) {
      // the files are being deleted anyway
    }
    try {
      Files.deleteIfExists(temp);
      if (blocksTemp != null) Files.deleteIfExists(blocksTemp);
    } catch (IOException ignored) {
      // best effort
    }
  }

  public long examplesWritten() {
    return examples;
  }

  /** REF_BLOCK records written to the blocks file. */
  public long refBlocksWritten() {
    return refBlocks;
  }

  public long markersSeen() {
    return markers;
  }

  public Path path() {
    return target;
  }

  @Override
  public void close() {
    endOfStream();
  }
}
