#include "web/log_plot.h"

#include "web/theme.h"

namespace fl::web {

void LogPlot::AddGrid(std::vector<Quad>& quads, float px) const {
  for (int d = first_x_decade(); d <= last_x_decade(); ++d) {
    const float x = X(std::pow(10.0, d));
    quads.push_back({x * px, top * px, (x + 1) * px, (top + height) * px, Colors().chart_grid});
  }
  for (int d = first_y_decade(); d <= last_y_decade(); ++d) {
    const float y = Y(std::pow(10.0, d));
    quads.push_back({left * px, y * px, (left + width) * px, (y + 1) * px, Colors().chart_grid});
  }
  quads.push_back({left * px, (top + height) * px, (left + width) * px, (top + height + 1) * px, Colors().chart_axis});
  quads.push_back({left * px, top * px, (left + 1) * px, (top + height) * px, Colors().chart_axis});
}

std::string DecadeTick(std::string s) {
  for (const char* zeros : {".00 ", ".0 "})
    if (size_t at = s.find(zeros); at != std::string::npos) s.erase(at, std::string(zeros).size() - 1);
  return s;
}

}  // namespace fl::web
