// Plain-text tables for the terminal, aligned by display width (a Chinese
// character takes two columns).
#pragma once

#include <string>
#include <vector>

namespace fl::cli {

size_t display_width(const std::string& utf8);
std::string render_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
std::string render_header(const std::string& title);
std::string render_observations(const std::string& heading, const std::vector<std::string>& items);

}  // namespace fl::cli
