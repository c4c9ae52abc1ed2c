package dev.fastpipe.streaming.example;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.TfRecordReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.tensorflow.proto.Example;
import org.tensorflow.proto.Feature;

/**
 * Reads a .tfrecord.gz written by {@link TfRecordExampleWriter} and hands each example back in
 * {@link ExampleRecordDescriptor} layout, checking both CRCs of every record. Pull style
 * ({@link #next()} then {@link #buffer()}/{@link #length()}/{@link #record()}) or push style
 * ({@link #forEach}). The buffer is reused: copy what must outlive the next call.
 */
public final class TfRecordExampleReader implements AutoCloseable {
  private final Path path;
  private final TfRecordReader in;
  private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256 << 10);
  private final ExampleRecord record = new ExampleRecord();
  private int length;
  private long count;

  public TfRecordExampleReader(Path path) {
    this.path = path;
    try {
      this.in = TfRecordReader.gzipped(path);
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot open as gzipped TFRecord (" + e.getMessage() + ")", e);
    }
  }

  /** Advances to the next example; false at the end of the file. */
  public boolean next() {
    try {
      int n = in.next();
      if (n < 0) return false;
      Example ex = Example.parseFrom(com.google.protobuf.CodedInputStream.newInstance(in.data(), 0, n));
      rebuild(ex);
      count++;
      return true;
    } catch (InvalidProtocolBufferException e) {
      throw new UncheckedIOException(path + ": record " + count + " is not a tf.Example", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  private void rebuild(Example ex) throws IOException {
    Feature header = ex.getFeatures().getFeatureMap().get(TfExampleFeatures.FASTPIPE_HEADER);
    Feature image = ex.getFeatures().getFeatureMap().get(TfExampleFeatures.IMAGE_ENCODED);
    if (header == null || image == null) {
      throw new IOException(path + ": record " + count + " lacks " + TfExampleFeatures.FASTPIPE_HEADER
          + " or " + TfExampleFeatures.IMAGE_ENCODED + " (not written by fastpipe)");
    }
    ByteString h = header.getBytesList().getValue(0);
    ByteString img = image.getBytesList().getValue(0);
    int total = h.size() + img.size();
    buffer.checkLimit(total);
    byte[] arr = buffer.byteArray();
    h.copyTo(arr, 0);
    img.copyTo(arr, h.size());
    record.wrap(buffer, 0);
    if (record.imageOffset() != h.size() || record.imageLength() != img.size()
        || record.length() != total) {
      throw new IOException(path + ": record " + count + " header and image sizes disagree");
    }
    length = total;
  }

  /** The current record's buffer (record at offset 0). */
  public DirectBuffer buffer() {
    return buffer;
  }

  public int length() {
    return length;
  }

  /** A flyweight over the current record. */
  public ExampleRecord record() {
    return record;
  }

  /** Delivers every remaining example as (shard, buffer, 0, length); returns how many. */
  public long forEach(RecordHandler handler) {
    long n = 0;
    while (next()) {
      handler.onRecord(record.shard(), buffer, 0, length);
      n++;
    }
    return n;
  }

  public long recordsRead() {
    return count;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
