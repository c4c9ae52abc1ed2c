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
