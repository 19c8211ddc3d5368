#include "page/embed_fit.h"

#include <algorithm>

namespace fl::web {

namespace {

// Scales closer than this are not told apart: the search stops.
constexpr double kTolerance = 0.02;
// A little under the proportional guess, so rounding of wrapped lines and
// pixel-snapped widgets does not leave a one-pixel overflow for another frame.
constexpr double kMargin = 0.99;

}  // namespace

double EmbedFit::Begin(const EmbedFitKey& key) {
  if (!started_ || !(key == key_)) {
    // The page's first frame is laid out unseen already; a later change of
    // frame size or view lays out one frame to settle before measuring.
    settling_ = started_;
    started_ = true;
    key_ = key;
    scale_ = key.requested;
    fits_ = std::min(kMinEmbedScale, key.requested);
    overflows_ = 0;
    gave_up_ = false;
  }
  return scale_;
}

bool EmbedFit::Observe(float display_width, float display_height, float overflow_x, float overflow_y) {
  if (settling_) return !(settling_ = false);
  const bool changed = observe(display_width, display_height, overflow_x, overflow_y);
  settling_ = changed;
  return changed;
}

bool EmbedFit::observe(float display_width, float display_height, float overflow_x, float overflow_y) {
  const double before = scale_;
  const double floor = std::min(kMinEmbedScale, key_.requested);
  // A width no scale down to the floor holds (a wide table in a phone's
  // frame) is left to the table's own sideways scroll: shrinking the text
  // would only make it smaller.
  if (overflow_x > 0 && display_width > 0 && scale_ * display_width / (display_width + overflow_x) < floor) overflow_x = 0;
  if (overflow_x <= 0 && overflow_y <= 0) {
    fits_ = scale_;
    // Try halfway up to the smallest scale that ran over, while one did.
    if (overflows_ > 0 && overflows_ - fits_ > kTolerance) scale_ = (fits_ + overflows_) / 2;
    return scale_ != before;
  }
  if (gave_up_) return false;
  if (scale_ <= floor && key_.requested > floor) {
    // Not even the floor holds it (a phone's narrow frame stacks the charts):
    // smaller text would scroll all the same, so it scrolls at the scale asked for.
    gave_up_ = true;
    scale_ = key_.requested;
    return true;
  }
  overflows_ = scale_;
  // What fitted before no longer does (the results grew): search down from here.
  if (fits_ >= scale_) fits_ = floor;
  if (display_width <= 0 || display_height <= 0) return false;
  // Were the content's size in layout units the same at any scale, the
  // display would hold it at s' = s × display / (display + overflow).
  const double by_width = display_width / (display_width + std::max(0.0f, overflow_x));
  const double by_height = display_height / (display_height + std::max(0.0f, overflow_y));
  const double guess = scale_ * std::min(by_width, by_height) * kMargin;
  scale_ = std::max(fits_, std::min(guess, overflows_ - kTolerance));
  return scale_ != before;
}

}  // namespace fl::web
