package dev.fastpipe.inference;

/**
 * The shape of one pileup image: {@code height} rows by {@code width} columns by {@code channels}
 * uint8 values, row-major HWC as DeepVariant lays it out. make_examples draws images of this
 * shape, example records and TFRecords carry it, and a model takes {@code [N, height, width,
 * channels]}; all of them compare against this one type.
 *
 * <p>DeepVariant's default, the only size fastpipe's models take, is 100 rows (5 reference rows,
 * then up to 95 reads) by 221 columns centred on the candidate ({@link #deepVariant}); channels are
 * 6, or 7 with insert size. Plain Java, no TensorFlow, so the genomics side can use it freely.
 */
public record ImageShape(int height, int width, int channels) {
  /** DeepVariant's pileup height (PileupImageOptions.height). */
  public static final int DEFAULT_HEIGHT = 100;
  /** DeepVariant's pileup width (PileupImageOptions.width). */
  public static final int DEFAULT_WIDTH = 221;
  /** A model's input at the default size, as help texts write it. */
  public static final String DEFAULT_TENSOR = "[N," + DEFAULT_HEIGHT + "," + DEFAULT_WIDTH + ",C]";

  public ImageShape {
    if (height < 1 || width < 1 || channels < 1) {
      throw new IllegalArgumentException("image shape " + height + "x" + width + "x" + channels + " must be positive");
    }
  }

  /** DeepVariant's 100 x 221 image with {@code channels} channels. */
  public static ImageShape deepVariant(int channels) {
    return new ImageShape(DEFAULT_HEIGHT, DEFAULT_WIDTH, channels);
  }

  /** Bytes of one row ({@code width * channels}). */
  public int rowBytes() {
    return width * channels;
  }

  /** Bytes of one image ({@code height * width * channels}). */
  public int bytes() {
    return height * rowBytes();
  }

  /** {@code HxWxC}, as messages print it. */
  @Override
  public String toString() {
    return height + "x" + width + "x" + channels;
  }
}
