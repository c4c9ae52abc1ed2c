package dev.fastpipe.streaming.pileup;

import dev.fastpipe.inference.ImageShape;
import dev.fastpipe.streaming.plan.ExampleSettings;

/**
 * DeepVariant's PileupImageOptions defaults (deepvariant/dv_constants.py, pileup_image.py
 * default_options) and its channel constants (channels/channel.h), in one place.
 */
public final class PileupConstants {
  private PileupConstants() {}

  /** The image height, {@link ImageShape#DEFAULT_HEIGHT} under the name the pileup code uses. */
  public static final int HEIGHT = ImageShape.DEFAULT_HEIGHT;
  /** The image width, {@link ImageShape#DEFAULT_WIDTH} under the name the pileup code uses. */
  public static final int WIDTH = ImageShape.DEFAULT_WIDTH;
  /** The reference rows at the top of every image ({@link ExampleSettings.Image#REFERENCE_ROWS}). */
  public static final int REFERENCE_ROWS = ExampleSettings.Image.REFERENCE_ROWS;
  public static final int MAX_READ_ROWS = HEIGHT - REFERENCE_ROWS;
  /** kMaxPixelValueAsFloat: 254, so that pixel values stay in 0..254. */
  public static final float MAX_PIXEL = 254f;
  public static final int BASE_COLOR_OFFSET_A_AND_G = 40;
  public static final int BASE_COLOR_OFFSET_T_AND_C = 30;
  public static final int BASE_COLOR_STRIDE = 70;
  public static final float ALLELE_SUPPORTING_READ_ALPHA = 1.0f;
  public static final float ALLELE_UNSUPPORTING_READ_ALPHA = 0.6f;
  public static final float OTHER_ALLELE_SUPPORTING_READ_ALPHA = 0.6f;
  public static final float REFERENCE_MATCHING_READ_ALPHA = 0.2f;
  public static final float REFERENCE_MISMATCHING_READ_ALPHA = 1.0f;
  /** indel_anchoring_base_char: drawn at the anchor column of an insertion or deletion. */
  public static final byte INDEL_ANCHOR = '*';
  public static final int REFERENCE_BASE_QUALITY = 60;
  public static final int POSITIVE_STRAND_COLOR = 70;
  public static final int NEGATIVE_STRAND_COLOR = 240;
  public static final int BASE_QUALITY_CAP = 40;
  public static final int MAPPING_QUALITY_CAP = 60;
  public static final float MAX_FRAGMENT_LENGTH = 1000f;
  /** read_overlap_buffer_bp: reads must overlap the candidate's span widened by this much. */
  public static final int READ_OVERLAP_BUFFER_BP = 5;

  /** channel_utils BaseQualityColor: capped * 254 / cap, truncated. */
  public static int qualityColor(int quality, int cap) {
    int capped = Math.min(quality, cap);
    return (int) (capped * MAX_PIXEL / cap);
  }

  /** ScaleColor as the mapping-quality channel computes it: 254 * (value / cap), truncated. */
  public static int scaleColor(int value, float cap) {
    float v = value > cap ? cap : value;
    return (int) (MAX_PIXEL * (v / cap));
  }
}
