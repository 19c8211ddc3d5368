#include "cli/table.h"

#include <algorithm>

#include "core/utf8.h"

namespace fl::cli {

namespace {

int columns(char32_t cp) {
  if (cp >= 0x300 && cp <= 0x36F) return 0;  // combining marks (the hat of x̂)
  bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
              (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
              (cp >= 0xFFE0 && cp <= 0xFFE6);
  return wide ? 2 : 1;
}

std::string pad(const std::string& s, size_t width) { return s + std::string(width - std::min(width, display_width(s)), ' '); }

}  // namespace

size_t display_width(const std::string& s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size();) w += static_cast<size_t>(columns(next_code_point(s, i)));
  return w;
}

std::string render_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) width[c] = display_width(header[c]);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], display_width(r[c]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < width.size(); ++c) out += (c ? "  " : "") + pad(c < cells.size() ? cells[c] : "", width[c]);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  size_t total = 0;
  for (size_t w : width) total += w;
  out += std::string(total + 2 * (width.size() - 1), '-') + "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string render_header(const std::string& title) {
  std::string rule(std::max<size_t>(display_width(title), 40), '=');
  return "\n" + rule + "\n" + title + "\n" + rule + "\n";
}

std::string render_observations(const std::string& heading, const std::vector<std::string>& items) {
  std::string out = "\n" + heading + "\n";
  for (size_t i = 0; i < items.size(); ++i) out += "  " + std::to_string(i + 1) + ". " + items[i] + "\n";
  return out;
}

}  // namespace fl::cli
