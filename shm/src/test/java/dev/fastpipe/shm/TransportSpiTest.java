package dev.fastpipe.shm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transports are found through ServiceLoader, and their options are checked with one-line errors. */
class TransportSpiTest {
  @TempDir Path dir;

  @Test
  void theBuiltInsAndTheExamplePlugInAreFoundByName() {
    List<String> names = Transports.names();
    assertEquals(Transports.NAMES, names.subList(0, Transports.NAMES.size()), "built-ins first, in their order");
    assertTrue(names.contains("example-queue"), names.toString());
    for (String n : names) assertEquals(n, Transports.provider(n).name());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Transports.provider("nope"));
    assertEquals("unknown transport 'nope' (available: " + String.join(", ", names) + ")", e.getMessage());
  }

  @Test
  void optionsAreParsedScopedAndValidatedByTheirProvider() {
    TransportOptions o = TransportOptions.parse(List.of("gzip=false", "disk.keep=yes", "shm.dir=" + dir));
    assertEquals(Set.of("disk", "shm"), o.scopes());
    assertEquals(Map.of("gzip", "false", "keep", "yes"), o.forTransport("disk").asMap());
    Transports.provider("disk").validate(o.forTransport("disk"));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Transports.provider("shm").validate(o.forTransport("shm")));
    assertEquals("transport shm: unknown option 'gzip' (known: dir, spill-after, spill-dir)", unknown.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> Transports.provider("mutex").validate(TransportOptions.parse(List.of("x=1"))));
    assertEquals("transport mutex: unknown option 'x' (it takes no options)", none.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> Transports.provider("disk").validate(TransportOptions.parse(List.of("gzip=maybe"))));
    assertEquals("transport disk: option gzip=maybe: expected true or false", bad.getMessage());
    IllegalArgumentException noDir = assertThrows(IllegalArgumentException.class,
        () -> Transports.provider("shm").validate(TransportOptions.parse(List.of("dir=" + dir.resolve("missing")))));
    assertEquals("transport shm: option dir=" + dir.resolve("missing") + ": no such directory", noDir.getMessage());
    assertEquals("--transport-opt 'gzip': expected key=value",
        assertThrows(IllegalArgumentException.class, () -> TransportOptions.parse(List.of("gzip"))).getMessage());
    assertEquals("--transport-opt gzip given twice",
        assertThrows(IllegalArgumentException.class, () -> TransportOptions.parse(List.of("gzip=1", "gzip=0"))).getMessage());
    for (RuntimeException ex : List.of(unknown, none, bad, noDir)) assertFalse(ex.getMessage().contains("\n"));
  }

  @Test
  void anOptionChangesWhatTheTransportDoes() throws Exception {
    Path other = dir.resolve("rings");
    java.nio.file.Files.createDirectory(other);
    TransportConfig cfg = TransportConfig.of(1, 64).withDir(dir).withRingBytes(4096);
    try (ExampleTransport t = Transports.create("shm", cfg, TransportOptions.parse(List.of("dir=" + other)))) {
      assertEquals(other, Path.of(t.address(0)).getParent(), "the ring file went to the option's directory");
    }
    try (DiskTransport t = (DiskTransport) Transports.create("disk", cfg, TransportOptions.parse(List.of("gzip=false")))) {
      assertTrue(t.path(0).toString().endsWith(".tfrecord"), t.path(0).toString());
    }
  }
}
