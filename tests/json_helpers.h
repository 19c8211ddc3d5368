// Reports read back from the JSON text that `--json` and the JS API print,
// to check that text's fields.
#pragma once

#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/report_json.h"

namespace fl {

inline nlohmann::json analyzed(const AnalysisConfig& c) { return nlohmann::json::parse(analyze(c)); }

template <class Report>
nlohmann::json parsed(const Report& r) {
  return nlohmann::json::parse(json_text(r));
}

}  // namespace fl
