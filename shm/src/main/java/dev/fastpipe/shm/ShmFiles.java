package dev.fastpipe.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Files this JVM must delete when it exits, SIGINT and SIGTERM included (one shutdown hook). */
final class ShmFiles {
  private static final Set<Path> OWNED = ConcurrentHashMap.newKeySet();
  private static volatile boolean hooked;

  private ShmFiles() {}

  static void register(Path p) {
    if (!hooked) {
      synchronized (ShmFiles.class) {
        if (!hooked) {
          Runtime.getRuntime().addShutdownHook(new Thread(ShmFiles::deleteAll, "fastpipe-shm-cleanup"));
          hooked = true;
        }
      }
    }
    OWNED.add(p);
  }

  /** Stops tracking {@code p} without deleting it (it turned out to be another process's file). */
  static void forget(Path p) {
    OWNED.remove(p);
  }

  static void delete(Path p) {
    OWNED.remove(p);
    try {
      if (Files.isDirectory(p)) {
        try (var walk = Files.walk(p)) {
          for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        }
      } else {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("fastpipe: warning: cannot delete " + p + ": " + e.getMessage());
    }
  }

  private static void deleteAll() {
    for (Path p : OWNED.toArray(new Path[0])) delete(p);
  }
}
