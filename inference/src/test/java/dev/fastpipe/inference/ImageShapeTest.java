package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ImageShapeTest {

  @Test
  void deepVariantsImageIs100By221() {
    ImageShape six = ImageShape.deepVariant(6);
    assertEquals(new ImageShape(100, 221, 6), six);
    assertEquals(221 * 6, six.rowBytes());
    assertEquals(132_600, six.bytes());
    assertEquals(154_700, ImageShape.deepVariant(7).bytes());
    assertNotEquals(six, ImageShape.deepVariant(7));
    assertEquals("100x221x6", six.toString());
    assertEquals("[N,100,221,C]", ImageShape.DEFAULT_TENSOR);
  }

  @Test
  void theModelAndThePileupUseTheSameSize() {
    assertEquals(ImageShape.DEFAULT_HEIGHT, GenotypeModel.HEIGHT);
    assertEquals(ImageShape.DEFAULT_WIDTH, GenotypeModel.WIDTH);
    assertEquals(ImageShape.deepVariant(6), new TrainingSet(6).shape());
  }

  @Test
  void emptyShapesAreRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ImageShape(100, 0, 6));
    assertEquals("image shape 100x0x6 must be positive", e.getMessage());
  }
}
