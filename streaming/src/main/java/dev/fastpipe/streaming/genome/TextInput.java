package dev.fastpipe.streaming.genome;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RootCause;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads a text file (BED, VCF) line by line, plain, gzipped or bgzipped. Compression is told by the
 * gzip magic bytes, not the file name: {@code .bed} files are often gzipped and {@code .gz} names
 * are sometimes plain. Concatenated gzip members (bgzip's blocks) are read as one stream.
 */
public final class TextInput {
  private static final int BUFFER = 1 << 16;

  private TextInput() {}

  /** Receives one line of a text file and its 1-based number. */
  @FunctionalInterface
  public interface LineHandler {
    void line(int number, String line);
  }

  /**
   * Hands every line of {@code file} to {@code handler}, in order. A missing file is an
   * {@link InputException} "{@code FILE: <kind> not found}", a failed read "{@code FILE: cannot read
   * (why)}"; what the handler throws goes through as it is.
   */
  public static void forEachLine(Path file, String kind, LineHandler handler) {
    if (!Files.isRegularFile(file)) throw new InputException(file + ": " + kind + " not found");
    try (BufferedReader in = open(file)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) handler.line(++n, line);
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
  }

  /** "{@code FILE: cannot read (why)}": the reason (permission denied), where java.nio's message is only the path. */
  static InputException cannotRead(Path file, IOException e) {
    return new InputException(file + ": cannot read (" + RootCause.of(e, file) + ")", e);
  }

  /** A UTF-8 reader over {@code file}'s text, decompressed when it starts with the gzip magic. */
  private static BufferedReader open(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), BUFFER);
    try {
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      if (b0 == 0x1f && b1 == 0x8b) in = new GZIPInputStream(in, BUFFER);
    } catch (IOException e) {
      in.close();
      throw e;
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), BUFFER);
  }
}
