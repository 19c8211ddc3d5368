// The one serializer of the typed reports: `fusionlab --json` and the page's
// JS API print what these return; nothing else writes or parses them.
#pragma once

#include <nlohmann/json.hpp>

#include "core/lineup.h"
#include "core/measured/comparison.h"
#include "core/measured/op_profile.h"
#include "core/measured/reality.h"
#include "core/report.h"

namespace fl {

nlohmann::json to_json(const AnalysisConfig& c);  // the "config" object of every demo
nlohmann::json to_json(const KernelReport& k);
nlohmann::json to_json(const PartitionReport& p);
nlohmann::json to_json(const MemoryReport& m);
nlohmann::json to_json(const std::vector<Observation>& observations);
nlohmann::json to_json(const PhaseReport& r);
nlohmann::json to_json(const KernelsReport& r);
// to_json(r).dump(), appended to `out` without building it whole: the
// stages, most of a whole model's output (a DOM ten times its text), one at a
// time.
void append_json(std::string& out, const KernelsReport& r);
nlohmann::json to_json(const OurAblationReport& r);
nlohmann::json to_json(const AblationReport& r);
nlohmann::json to_json(const RunComparison& r);       // --compare-compilers --run
nlohmann::json to_json(const CompilerComparison& c);  // --compare-compilers
nlohmann::json to_json(const OpProfile& p, const ProfileValidation& v);  // --validate
nlohmann::json to_json(const RealityReport& r);                           // --reality
nlohmann::json to_json(const LineupReport& r);                            // --lineup

}  // namespace fl
