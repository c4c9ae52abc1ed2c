package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.shm.TfRecordReader;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.example.ExampleRecord;
import dev.fastpipe.streaming.example.ExampleRecordDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The classic path's reference blocks on disk ({@code make-examples --gvcf-blocks}): a gzipped
 * TFRecord file whose every record is one REF_BLOCK record as the rings carry it (64 bytes, laid
 * out as {@link ExampleRecordDescriptor} draws it), so {@code postprocess --gvcf} assembles the
 * same blocks as the streaming path.
 */
public final class RefBlockFile {
  private RefBlockFile() {}

  /** Every block of {@code path}; a file that is not one is an {@link InputException} naming it. */
  public static List<RefBlock> read(Path path) {
    if (!Files.isRegularFile(path)) throw new InputException(path + ": reference blocks file not found");
    List<RefBlock> blocks = new ArrayList<>();
    ExampleRecord record = new ExampleRecord();
    try (TfRecordReader in = TfRecordReader.gzipped(path)) {
      int n;
      while ((n = in.next()) >= 0) {
        if (n != ExampleRecordDescriptor.REF_BLOCK_LENGTH) {
          throw new InputException(path + ": record " + (blocks.size() + 1) + " is " + n
              + " bytes, not a reference block (written by make-examples --gvcf-blocks?)");
        }
        record.wrap(new UnsafeBuffer(in.data(), 0, n), 0);
        if (!record.isRefBlock()) {
          throw new InputException(path + ": record " + (blocks.size() + 1) + " is not a reference block");
        }
        blocks.add(RefBlock.of(record));
      }
    } catch (IOException e) {
      throw new InputException(path + ": not a reference blocks file (" + e.getMessage() + ")");
    }
    return blocks;
  }
}
