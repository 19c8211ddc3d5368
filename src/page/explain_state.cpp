#include "page/explain_state.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/sweep.h"

namespace fl::web {

namespace {

bool parse_flag(const std::string& v) { return v == "1" || v == "true" || v == "on"; }

int stage_index(const std::string& v) {
  for (int i = 0; i < kStageCount; ++i)
    if (v == kStageKeys[i]) return i;
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (end && *end == '\0' && n >= 0 && n < kStageCount) return static_cast<int>(n);
  return -1;
}

}  // namespace

bool ApplyExplainKey(ExplainState& e, const std::string& key, const std::string& value) {
  if (key == "stage") {
    int i = stage_index(value);
    if (i >= 0) e.stage = i;
  } else if (key == "node") {
    e.node = std::atoi(value.c_str());
  } else if (key == "graphs") {
    e.graphs = parse_flag(value);
  } else if (key == "mega") {
    e.megakernel = parse_flag(value);
  } else if (key == "arrows") {
    e.arrows = parse_flag(value);
  } else if (key == "phase") {
    e.phase = value == "decode" ? 1 : value == "prefill" ? 0 : -1;
  } else if (key == "sweep") {
    e.sweep_key = -1;
    for (size_t i = 0; i < std::size(kSweepKeys); ++i)
      if (value == sweep_key_name(kSweepKeys[i])) e.sweep_key = static_cast<int>(i);
  } else if (key == "measure") {
    e.sweep_bytes = value == "bytes";
  } else if (key == "profile") {
    for (size_t i = 0; i < shipped_profiles().size(); ++i)
      if (value == RealityProfileKey(i)) e.reality_profile = static_cast<int>(i);
  } else if (key == "op") {
    e.reality_op = -1;
    for (size_t i = 0; i < std::size(kProfiledOps); ++i)
      if (value == profiled_op_name(kProfiledOps[i])) e.reality_op = static_cast<int>(i);
  } else {
    return false;
  }
  return true;
}

std::string TakeExplainKeys(std::string_view query, ExplainState& e) {
  std::vector<std::pair<std::string, std::string>> rest;
  for (auto& [key, value] : ParseQuery(query))
    if (!ApplyExplainKey(e, key, value)) rest.emplace_back(key, value);
  return FormatQuery(rest);
}

std::vector<std::pair<std::string, std::string>> ExplainPairs(const Settings& s, const ExplainState& e) {
  std::vector<std::pair<std::string, std::string>> out;
  if (s.view == View::Passes) {
    out.emplace_back("stage", kStageKeys[e.stage]);
    if (e.node >= 0) out.emplace_back("node", std::to_string(e.node));
  }
  if (s.view == View::Roofline || s.view == View::Timeline || s.view == View::Sweep || s.view == View::Compilers) {
    if (e.phase >= 0) out.emplace_back("phase", e.phase ? "decode" : "prefill");
  }
  if (s.view == View::Roofline && e.arrows) out.emplace_back("arrows", "1");
  if (s.view == View::Sweep) {
    if (e.sweep_key >= 0) out.emplace_back("sweep", sweep_key_name(kSweepKeys[static_cast<size_t>(e.sweep_key)]));
    if (e.sweep_bytes) out.emplace_back("measure", "bytes");
  }
  if (s.view == View::Reality) {
    if (e.reality_profile != 0) out.emplace_back("profile", RealityProfileKey(RealityProfileIndex(e)));
    if (e.reality_op >= 0) out.emplace_back("op", profiled_op_name(RealityOp(e)));
  }
  if (s.view == View::Timeline) {
    if (e.graphs) out.emplace_back("graphs", "1");
    if (e.megakernel) out.emplace_back("mega", "1");
  }
  return out;
}

size_t RealityProfileIndex(const ExplainState& e) {
  return static_cast<size_t>(std::clamp(e.reality_profile, 0, static_cast<int>(shipped_profiles().size()) - 1));
}

ProfiledOp RealityOp(const ExplainState& e) {
  if (e.reality_op < 0 || e.reality_op >= static_cast<int>(std::size(kProfiledOps))) return ProfiledOp::MlpUpProj;
  return kProfiledOps[static_cast<size_t>(e.reality_op)];
}

std::string RealityProfileKey(size_t i) {
  std::string_view file = shipped_profiles()[i].file;
  file = file.substr(file.rfind('/') + 1);
  return std::string(file.substr(0, file.rfind(".csv")));
}

bool ExplainDecode(const Settings& s, const ExplainState& e) {
  const int phase = e.phase;
  if (phase >= 0) return phase == 1;
  return s.view == View::Timeline;  // the timeline opens on decode: where launch overhead matters
}

Phases ShownPhases(const Settings& s, const ExplainState& e) {
  switch (s.view) {
    case View::Prefill:
    case View::Source: return Phases::Prefill;
    case View::Decode: return Phases::Decode;
    case View::Roofline:
    case View::Timeline:
    case View::Sweep:
    case View::Compilers: return ExplainDecode(s, e) ? Phases::Decode : Phases::Prefill;
    default: return Phases::Both;
  }
}

}  // namespace fl::web
