// An embedded view (a slide's iframe) must fit its frame without an inner
// scrollbar. The URL's scale= asks for bigger text; where the view would not
// fit at that scale, the embed draws it at the largest scale that does, down
// to kMinEmbedScale. What the view needs is only known once it is laid out,
// and wrapped lines make it shrink faster than the scale, so the fit is
// searched over a few frames: a first guess in proportion to what ran over,
// then halving the interval between the largest scale seen to fit and the
// smallest seen to run over. A view that even the floor cannot hold is drawn
// at the requested scale and scrolls (a width the floor cannot reach is not
// tried). A frame laid out at a new scale only settles
// the tables' columns and wrapped lines; the frame after it is measured.
#pragma once

#include <string>
#include <vector>

#include "page/settings.h"

namespace fl::web {

inline constexpr double kMinEmbedScale = 0.75;

// What a fit holds for: a new view, frame size, language, requested scale or
// set of controls starts again from the requested scale. Results changing
// under a drag keep the fit (it only shrinks), so the text does not jump.
struct EmbedFitKey {
  View view = View::Kernels;
  int css_width = 0, css_height = 0;
  double requested = 1;
  Lang lang = Lang::Zh;
  std::vector<std::string> controls;
  bool operator==(const EmbedFitKey&) const = default;
};

class EmbedFit {
 public:
  // Before a frame: the scale to lay it out at.
  double Begin(const EmbedFitKey& key);

  // After the frame: the display's size in layout units, and how many of
  // those units the view's content ran past it (0 or less when it fit). True
  // when the scale changed and the view must be drawn again.
  bool Observe(float display_width, float display_height, float overflow_x, float overflow_y);

  double Scale() const { return scale_; }

 private:
  bool observe(float display_width, float display_height, float overflow_x, float overflow_y);

  EmbedFitKey key_;
  bool started_ = false;
  double scale_ = 1;
  double fits_ = 0;      // the largest scale seen to fit (or the floor)
  double overflows_ = 0;  // the smallest seen to run over (or 0: none yet)
  bool settling_ = false;  // this frame is the first at its scale: not measured
  bool gave_up_ = false;   // not even the floor held it: drawn at the requested scale, scrolling
};

}  // namespace fl::web
