// A chart on log axes (the sweep, the roofline, the reality check): where
// its plot area lies, a value's place in it, and its grid.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "web/chart_renderer.h"

namespace fl::web {

struct LogPlot {
  float left, top, width, height;  // the plot area inside the chart, CSS px
  double x0, x1, y0, y1;           // log10 of each axis's ends

  float X(double v) const { return left + static_cast<float>((std::log10(v) - x0) / (x1 - x0)) * width; }
  float Y(double v) const { return top + height - static_cast<float>((std::log10(v) - y0) / (y1 - y0)) * height; }
  // The powers of ten inside each axis.
  int first_x_decade() const { return static_cast<int>(std::ceil(x0 - 1e-9)); }
  int last_x_decade() const { return static_cast<int>(std::floor(x1 + 1e-9)); }
  int first_y_decade() const { return static_cast<int>(std::ceil(y0 - 1e-9)); }
  int last_y_decade() const { return static_cast<int>(std::floor(y1 + 1e-9)); }

  // A line at each power of ten and the two axes, at `px` framebuffer pixels per CSS px.
  void AddGrid(std::vector<Quad>& quads, float px) const;
};

// A tick at a power of ten without zero decimals: "1 µs", not "1.00 µs".
std::string DecadeTick(std::string formatted);

}  // namespace fl::web
