package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tensorflow.Graph;
import org.tensorflow.Session;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;

class TensorFlowRuntimeTest {

  @Test
  void nativeLibraryIsTensorFlow2() {
    assertTrue(TensorFlowRuntime.version().startsWith("2."), TensorFlowRuntime.version());
  }

  @Test
  void runsATinyGraph() {
    try (Graph g = new Graph(); Session s = new Session(g)) {
      Ops tf = Ops.create(g);
      var a = tf.constant(new float[][] {{1f, 2f}, {3f, 4f}});
      var b = tf.constant(new float[][] {{1f}, {10f}});
      var product = tf.linalg.matMul(a, b);
      try (TFloat32 result = (TFloat32) s.runner().fetch(product).run().get(0)) {
        assertArrayEquals(new float[][] {{21f}, {43f}}, StdArrays.array2dCopyOf(result));
      }
    }
  }
}
