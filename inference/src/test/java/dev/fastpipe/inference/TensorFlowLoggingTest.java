package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * TF_CPP_MIN_LOG_LEVEL reaches Abseil inside TensorFlow's natives: the levels read, the libraries
 * found in /proc/self/maps, and, with the bundled TensorFlow, the variable really set in both.
 */
class TensorFlowLoggingTest {

  @Test
  void levelsFollowTensorFlowsVariableAndDefaultToWarnings() {
    assertEquals(1, TensorFlowLogging.level(null));
    assertEquals(1, TensorFlowLogging.level(""));
    assertEquals(1, TensorFlowLogging.level("quiet"));
    assertEquals(0, TensorFlowLogging.level("0"));
    assertEquals(2, TensorFlowLogging.level(" 2 "));
    assertEquals(3, TensorFlowLogging.level("3"));
    assertEquals(3, TensorFlowLogging.level("9"));
    assertEquals(0, TensorFlowLogging.level("-1"));
  }

  @Test
  void findsTheMappingOfFileOffsetZero() {
    List<String> maps = List.of(
        "7f0000000000-7f0000001000 r--p 00000000 08:01 12 /usr/lib/libz.so.1",
        "7f4178c00000-7f4178e00000 r-xp 08f9f000 08:01 99 /cache/x/libtensorflow_cc.so.2",
        "7f4178a00000-7f4178c00000 r--p 00000000 08:01 99 /cache/x/libtensorflow_cc.so.2",
        "7f5000000000-7f5000001000 rw-p 00000000 00:00 0 ",
        "7f6000000000-7f6000001000 r--p 00000000 08:01 98 /old/libtensorflow_framework.so.2 (deleted)");
    assertEquals(Optional.of(new TensorFlowLogging.Mapping(Path.of("/cache/x/libtensorflow_cc.so.2"), 0x7f4178a00000L)),
        TensorFlowLogging.mapping(maps, "libtensorflow_cc.so.2"));
    assertEquals(Optional.empty(), TensorFlowLogging.mapping(maps, "libtensorflow_framework.so.2"), "a deleted file is not used");
    assertEquals(Optional.empty(), TensorFlowLogging.mapping(maps, "libtensorflow.so"));
  }

  @Test
  void theBundledTensorFlowIsAKnownBuildAndItsAbseilLevelIsSet() {
    TensorFlowNatives.load();
    String state = TensorFlowLogging.state();
    for (TensorFlowLogging.Known k : TensorFlowLogging.KNOWN) {
      // An upgraded TensorFlow fails here: add its build IDs and offsets to TensorFlowLogging.KNOWN.
      assertTrue(state.contains(k.library() + " set"), state);
      assertEquals(Optional.of(TensorFlowLogging.level(System.getenv(TensorFlowLogging.ENV))), TensorFlowLogging.current(k), k.library());
    }
  }
}
