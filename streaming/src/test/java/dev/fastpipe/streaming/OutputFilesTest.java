package dev.fastpipe.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs are checked before work, and temporaries of dead processes do not pile up. */
class OutputFilesTest {
  @TempDir Path dir;

  @Test
  void aDirectoryAMissingDirectoryAndAnUnwritablePlaceAreRefusedInOneLine() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("out.vcf.gz"));
    var e = assertThrows(InputException.class, () -> OutputFiles.checkWritable(sub, "--output"));
    assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    e = assertThrows(InputException.class, () -> OutputFiles.checkWritable(dir.resolve("no/such/x.vcf.gz"), "--metrics"));
    assertTrue(e.getMessage().startsWith("--metrics ") && e.getMessage().contains("does not exist"), e.getMessage());
    if (Files.isDirectory(Path.of("/proc/self"))) {
      // root may write anywhere by permission bits, but /proc takes no new files: tried, not guessed.
      e = assertThrows(InputException.class, () -> OutputFiles.checkWritable(Path.of("/proc/x.vcf.gz"), "--output"));
      assertTrue(e.getMessage().contains("cannot create a file in /proc"), e.getMessage());
    }
    OutputFiles.checkWritable(dir.resolve("fine.vcf.gz"), "--output");
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "the probe file is gone");
    }
  }

  /**
   * An output naming a device, a FIFO or a link to a file descriptor is refused before any work: the
   * rename into place would replace it with a regular file ({@code call --metrics /dev/stdout} run as
   * root replaced the machine's /dev/stdout; {@code --metrics /dev/null} would have replaced /dev/null).
   */
  @Test
  void aDeviceAFifoOrALinkToAFileDescriptorIsRefusedAndNeverRenamedOver() throws Exception {
    Path fifo = dir.resolve("metrics.json");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo is available");
    var e = assertThrows(InputException.class, () -> OutputFiles.checkWritable(fifo, "--metrics"));
    assertEquals("--metrics " + fifo + ": is a FIFO (named pipe), not a regular file (an output is renamed into place"
        + " when complete, which would replace it); name a regular file", e.getMessage());
    Path linkToFifo = Files.createSymbolicLink(dir.resolve("link.json"), fifo);
    assertTrue(assertThrows(InputException.class, () -> OutputFiles.checkWritable(linkToFifo, "--report"))
        .getMessage().startsWith("--report " + linkToFifo + ": is a FIFO"));
    // /dev/stdout is such a link: refused even when standard output is a regular file
    Path stdoutLike = Files.createSymbolicLink(dir.resolve("stdout.json"), Path.of("/proc/self/fd/1"));
    assertTrue(assertThrows(InputException.class, () -> OutputFiles.checkWritable(stdoutLike, "--metrics"))
        .getMessage().contains("a link to an open file descriptor"));
    Path nul = Path.of("/dev/null");
    if (Files.exists(nul)) {
      assertTrue(assertThrows(InputException.class, () -> OutputFiles.checkWritable(nul, "--metrics"))
          .getMessage().startsWith("--metrics /dev/null: is a character device, not a regular file"));
    }
    // a FIFO made after the check: the commit renames nothing over it and drops the temporaries
    Path vcf = dir.resolve("out.vcf");
    Path tmp = Files.writeString(OutputFiles.temporary(vcf, ".vcf"), "##fileformat=VCFv4.2\n");
    Path json = dir.resolve("run.json");
    Path jsonTmp = Files.writeString(OutputFiles.temporary(json, ".json"), "{}");
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) {
      tx.stage(jsonTmp, json);
      tx.stage(tmp, fifo);
      var io = assertThrows(IOException.class, tx::commit);
      assertTrue(io.getMessage().contains("is a FIFO (named pipe) now"), io.getMessage());
    }
    assertFalse(Files.isRegularFile(fifo), "the FIFO is still a FIFO");
    assertFalse(Files.exists(json), "nothing published");
    assertFalse(Files.exists(tmp) || Files.exists(jsonTmp), "the temporaries are gone");
  }

  @Test
  void temporariesOfDeadProcessesAreRemovedAndLiveOnesKept() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
    Process running = new ProcessBuilder("sleep", "30").start();
    try {
      Path out = dir.resolve("calls.vcf.gz");
      Path dead = Files.createFile(dir.resolve(".calls.vcf.gz.tmp-" + gone.pid() + ".vcf.gz"));
      Path deadIndex = Files.createFile(dir.resolve(".calls.vcf.gz.tmp-" + gone.pid() + ".vcf.gz.tbi"));
      Path live = Files.createFile(dir.resolve(".calls.vcf.gz.tmp-" + running.pid() + ".vcf.gz"));
      Path mine = Files.createFile(OutputFiles.temporary(out, ".vcf.gz"));
      Path otherOutput = Files.createFile(dir.resolve(".other.vcf.gz.tmp-" + gone.pid() + ".vcf.gz"));
      assertEquals(2, OutputFiles.removeDeadTemporaries(out));
      assertFalse(Files.exists(dead));
      assertFalse(Files.exists(deadIndex));
      assertTrue(Files.exists(live), "another live run writes the same name");
      assertTrue(Files.exists(mine));
      assertTrue(Files.exists(otherOutput), "temporaries of other outputs are not ours to remove");
    } finally {
      running.destroyForcibly();
    }
  }

  @Test
  void rootCauseIsTheInnermostMessage() {
    var e = new RuntimeException("Write error; BinaryCodec in writemode",
        new IllegalStateException("wrapped", new IOException("No space left on device")));
    assertEquals("No space left on device", RootCause.of(e));
  }
}
