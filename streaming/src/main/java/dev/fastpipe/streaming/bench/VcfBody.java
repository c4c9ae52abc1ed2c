package dev.fastpipe.streaming.bench;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.genome.FileFormat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;

/**
 * The md5 of a VCF's body: every line that does not start with '#', each ended by '\n'. The header
 * holds the date and the command line, which differ from run to run; the records must not.
 */
public final class VcfBody {
  private VcfBody() {}

  /** The md5 (hex) of the body of {@code vcf} (bgzipped, gzipped or plain: told by its first bytes). */
  public static String md5(Path vcf) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream raw = Files.newInputStream(vcf);
        InputStream in = FileFormat.compression(vcf) == FileFormat.Compression.PLAIN ? raw : new GZIPInputStream(raw);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("#")) continue;
        md.update(line.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
      }
    } catch (IOException | RuntimeException e) {
      throw InputException.reading(vcf, "cannot read the VCF", e);
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
