// The explain views' state: its keys leave the query before the settings see
// it, and come back into the link for the view that uses them.
#include <catch2/catch.hpp>

#include "page/explain_state.h"

using namespace fl;
using namespace fl::web;

TEST_CASE("the explain keys are taken out of a query and written back for their view", "[page]") {
  ExplainState e;
  const std::string rest = TakeExplainKeys("view=sweep&sweep=batch&measure=bytes&tokens=5&phase=decode", e);
  CHECK(rest == "view=sweep&tokens=5");
  CHECK(e.phase == 1);
  CHECK(e.sweep_bytes);
  Settings s;
  ApplySettings(s, ParseQuery(rest));
  const std::vector<std::pair<std::string, std::string>> pairs = ExplainPairs(s, e);
  const std::vector<std::pair<std::string, std::string>> expected{{"phase", "decode"}, {"sweep", "batch"}, {"measure", "bytes"}};
  CHECK(pairs == expected);
  // Another view keeps none of the sweep's keys.
  s.view = View::Passes;
  CHECK(ExplainPairs(s, e) == std::vector<std::pair<std::string, std::string>>{{"stage", "fused"}});
}

TEST_CASE("the timeline opens on decode, the roofline on prefill, unless a phase is chosen", "[page]") {
  Settings s;
  ExplainState e;
  s.view = View::Timeline;
  CHECK(ExplainDecode(s, e));
  CHECK(ShownPhases(s, e) == Phases::Decode);
  s.view = View::Roofline;
  CHECK(!ExplainDecode(s, e));
  e.phase = 1;
  CHECK(ExplainDecode(s, e));
  s.view = View::Ablation;
  CHECK(ShownPhases(s, e) == Phases::Both);
  CHECK(!ApplyExplainKey(e, "tokens", "5"));  // not an explain key
}
