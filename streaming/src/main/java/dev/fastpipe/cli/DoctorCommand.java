package dev.fastpipe.cli;

import dev.fastpipe.inference.TensorFlowRuntime;
import dev.fastpipe.streaming.pipeline.ProcessFootprint;
import dev.fastpipe.streaming.pipeline.ShardProcesses;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Reports what this machine and this JVM actually have: Java, TensorFlow, cores, /dev/shm, allocator. */
@Command(
    name = "doctor",
    header = "Check the runtime: Java, TensorFlow, CPUs, /dev/shm and the mapped allocator.",
    mixinStandardHelpOptions = true,
    description = {
      "Check the runtime: Java, TensorFlow native library, CPU count, /dev/shm,",
      "the native allocator actually mapped into this JVM (from /proc/self/maps) and its MALLOC_CONF,",
      "and the same for a shard worker process started as 'call' starts them (--shard-allocator).",
      "Exits 1 if TensorFlow cannot be loaded."
    })
public final class DoctorCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    var out = System.out;
    out.println("java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
    out.println("cpus: " + Runtime.getRuntime().availableProcessors());
    out.println("max heap: " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
    out.println(shmLine(Path.of("/dev/shm")));
    out.println("allocator: " + ProcessFootprint.mappedAllocator(Path.of("/proc/self/maps")));
    String conf = System.getenv("MALLOC_CONF");
    out.println("MALLOC_CONF: " + (conf == null || conf.isEmpty() ? "(unset)" : conf));
    shardLines().forEach(out::println);
    int status = 0;
    try {
      out.println("tensorflow: " + TensorFlowRuntime.version());
      out.println("tensorflow natives from: " + dev.fastpipe.inference.TensorFlowNatives.source());
    } catch (Throwable t) {
      out.println("tensorflow: FAILED to load the native library: " + t);
      status = 1;
    }
    return status;
  }

  static String shmLine(Path shm) {
    try {
      FileStore store = Files.getFileStore(shm);
      return String.format(
          "/dev/shm: %s, size %d MiB, free %d MiB",
          store.type(), store.getTotalSpace() >> 20, store.getUsableSpace() >> 20);
    } catch (IOException e) {
      return "/dev/shm: not available (" + e.getMessage() + ")";
    }
  }

  /**
   * What a shard worker process runs on, from a worker started as {@code call} starts them (through
   * the launcher, so with the shard role's allocator and MALLOC_CONF), each line prefixed "shard ".
   */
  static List<String> shardLines() {
    if (System.getenv("FASTPIPE_LAUNCHER") == null) {
      return List.of("shard allocator: as this process (not started through bin/fastpipe)");
    }
    try {
      List<String> lines = ShardProcesses.probe(Main.LAUNCHER).stream()
          .filter(l -> l.startsWith("allocator: ") || l.startsWith("MALLOC_CONF: ")).map(l -> "shard " + l).toList();
      return lines.size() == 2 ? lines : List.of("shard allocator: unknown (the probe worker printed no answer)");
    } catch (IOException e) {
      return List.of("shard allocator: unknown (cannot start a worker: " + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of("shard allocator: unknown (interrupted)");
    }
  }
}
