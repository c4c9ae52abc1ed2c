package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every built-in refuses an unknown name or an oversize record before anything exists (the rest: the conformance kit, *ConformanceTest). */
class TransportIntegrityTest {
  @TempDir Path dir;

  static java.util.List<String> names() { return Transports.NAMES; }

  @ParameterizedTest
  @MethodSource("names")
  void unknownOrOversizeIsRejectedBeforeAnythingIsCreated(String name) {
    if (Transports.maxRecordBytes(name, 4096) < Integer.MAX_VALUE / 2) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Transports.create(name, TransportConfig.of(1, 4097).withDir(dir).withRingBytes(4096)));
      assertTrue(e.getMessage().contains("raise --ring-size to at least 65536"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Transports.create(name + "x", TransportConfig.of(1, 10).withDir(dir)));
  }
}
