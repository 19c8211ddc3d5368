// The graph view's layout: layers by longest path, every edge pointing to a
// later layer, no two nodes in one slot; a stage's node ids found by index.
#include <catch2/catch.hpp>

#include <set>

#include "core/analysis.h"
#include "core/report.h"
#include "page/graph_layout.h"

using namespace fl;
using namespace fl::web;

TEST_CASE("a node's layer is its longest path from a source") {
  // 0 → 1 → 2, and 0 → 2 directly: 2 sits after 1, not beside it.
  const GraphLayout g = LayoutDag({{}, {0}, {0, 1}, {}});
  CHECK(g.pos[0].layer == 0);
  CHECK(g.pos[1].layer == 1);
  CHECK(g.pos[2].layer == 2);
  CHECK(g.pos[3].layer == 0);
  CHECK(g.layers == 3);
  CHECK(g.widest == 2);
}

TEST_CASE("every stage of the small layer lays out with edges forward and one node per slot") {
  const KernelsReport r = kernels_report(AnalysisConfig::for_demo(1));
  REQUIRE(!r.stages.empty());
  for (const StageReport& st : r.stages) {
    INFO(stage_name(st.stage));
    const StageLayout L = LayoutStage(st);
    REQUIRE(L.g.pos.size() == st.nodes.size());
    std::set<std::pair<int, int>> slots;
    for (size_t i = 0; i < st.nodes.size(); ++i) {
      CHECK(L.index_of[static_cast<size_t>(st.nodes[i].id)] == static_cast<int>(i));
      const LayoutPos at = L.g.pos[i];
      CHECK(slots.insert({at.layer, at.order}).second);
      CHECK(at.order < L.g.widest);
      for (NodeId in : st.nodes[i].inputs) {
        const int from = L.index_of[static_cast<size_t>(in)];
        REQUIRE(from >= 0);
        CHECK(L.g.pos[static_cast<size_t>(from)].layer < at.layer);
      }
    }
  }
}
