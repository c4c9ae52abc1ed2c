package dev.fastpipe.inference;

import org.tensorflow.TensorFlow;

/** Facts about the TensorFlow native library that this JVM loaded. */
public final class TensorFlowRuntime {
  private TensorFlowRuntime() {}

  /** Loads the native library (if not yet loaded) and returns its version, e.g. "2.18.0". */
  public static String version() {
    TensorFlowNatives.load();
    return TensorFlow.version();
  }
}
