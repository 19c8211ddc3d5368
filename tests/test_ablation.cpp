// The ablation switches of the partitioner, and our own Table 4.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/ablation.h"
#include "core/fusion.h"
#include "core/measured/h200_ablation.h"
#include "core/report.h"
#include "core/units.h"
#include "core/pipeline.h"
#include "core/trace.h"
#include "json_helpers.h"

using namespace fl;

TEST_CASE("without inlining a view is a copy kernel") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor y = exp(transpose(x, {1, 0}));
  g.set_outputs({y.id()});
  CHECK(fuse(g).size() == 1);
  FuseOptions no_inline;
  no_inline.inlining = false;
  auto ks = fuse(g, no_inline);
  REQUIRE(ks.size() == 1);  // fusion still merges the copy with its consumer
  CHECK(ks[0].label == "transpose+exp");
  no_inline.fusion = false;
  no_inline.enable = false;
  auto alone = fuse(g, no_inline);
  REQUIRE(alone.size() == 2);
  CHECK(alone[0].label == "transpose");
  CHECK(alone[0].writes == 4 * 8 * 2);
}

TEST_CASE("without fusion, inlining still merges pointwise chains but no epilogues") {
  Graph g;
  Tensor x(&g, g.input("x", {16, 32}));
  Tensor w(&g, g.param("w", {32, 32}));
  Tensor y = exp(-matmul(x * rsqrt(mean(x * x) + 1e-5), w));
  g.set_outputs({y.id()});
  FuseOptions no_fusion;
  no_fusion.fusion = false;
  auto ks = fuse(g, no_fusion);
  std::vector<std::string> labels;
  for (const Kernel& k : ks) labels.push_back(k.label);
  // add+rsqrt loops over rows, mul over every element: another iteration space.
  CHECK(labels == std::vector<std::string>{"square+mean", "add+rsqrt", "mul", "matmul", "neg+exp"});
  CHECK(ks[0].ends[0].why == Boundary::SwitchedOff);
  CHECK(fuse(g).size() == 2);  // everything on: the rowwise norm, the matmul with its epilogue
}

TEST_CASE("without matmul epilogues the matmul kernel holds only the matmul") {
  Graph g;
  Tensor x(&g, g.input("x", {8, 16}));
  Tensor w(&g, g.param("w", {16, 4}));
  g.set_outputs({exp(matmul(x, w)).id()});
  FuseOptions o;
  o.matmul_epilogues = false;
  auto ks = fuse(g, o);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].label == "matmul");
}

TEST_CASE("our ablation has the paper's shape where the model allows it") {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  std::vector<AblationEntry> rows = run_ablation(c);
  REQUIRE(rows.size() == 8);
  const AblationEntry &all = rows.front(), &neither = rows.back();
  CHECK(all.setting == Text::OurAll);
  CHECK(neither.setting == Text::OurNoFusionInlining);
  for (size_t i = 1; i + 1 < rows.size(); ++i) {
    INFO("row " << i);
    CHECK(rows[i].prefill_speedup <= all.prefill_speedup + 1e-12);
    CHECK(rows[i].decode_speedup <= all.decode_speedup + 1e-12);
    CHECK(rows[i].prefill_speedup >= neither.prefill_speedup);  // one switch costs less than both
    CHECK(rows[i].decode_speedup >= neither.decode_speedup);
  }
  CHECK(all.prefill_speedup > 1.0);
  CHECK(neither.prefill_kernels > all.prefill_kernels);
  CHECK(neither.decode_bytes > all.decode_bytes);
}

TEST_CASE("every ablation row has a stable id apart from its label, the same in both languages") {
  AnalysisConfig zh = AnalysisConfig::for_demo(4), en = zh;
  en.lang = Lang::En;
  const nlohmann::json a = analyzed(zh), b = analyzed(en);
  for (const char* table : {"rows", "ours"}) {
    const nlohmann::json& ra = std::string(table) == "rows" ? a["rows"] : a["ours"]["rows"];
    const nlohmann::json& rb = std::string(table) == "rows" ? b["rows"] : b["ours"]["rows"];
    REQUIRE(ra.size() == rb.size());
    std::set<std::string> ids;
    for (size_t i = 0; i < ra.size(); ++i) {
      CHECK(ra[i]["id"] == rb[i]["id"]);
      CHECK(ra[i]["setting"] != rb[i]["setting"]);
      ids.insert(ra[i]["id"].get<std::string>());
    }
    CHECK(ids.size() == ra.size());
  }
  CHECK(a["rows"][8]["id"] == "no_fusion_no_inlining");
  CHECK(a["ours"]["rows"][1]["id"] == "no_fusion");
}

TEST_CASE("torch.compile's ablation under the Inductor model: Table 4's rows, computed where the model has the switch (freezing, pattern matching, CUDA graphs, fusion), listed with why not elsewhere") {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.compiler = Compiler::Inductor;
  c.use_hardware("h200");
  const std::vector<AblationEntry> rows = run_ablation(c);
  std::vector<std::string_view> ids;
  for (const AblationEntry& r : rows) ids.push_back(r.id);
  CHECK(ids == std::vector<std::string_view>{"all", "no_loop_reordering", "no_templates", "no_freezing", "no_pattern_matching",
                                             "no_cudagraphs", "no_fusion", "no_inlining", "no_fusion_inlining"});
  const AblationEntry &all = rows[0], &no_freezing = rows[3], &no_patterns = rows[4], &no_graphs = rows[5], &no_fusion = rows[6];
  for (const AblationEntry* r : {&all, &no_freezing, &no_patterns, &no_graphs, &no_fusion}) {
    INFO(r->id);
    CHECK_FALSE(r->not_modelled);
    CHECK(r->prefill_speedup > 1);  // faster than eager, one kernel per op
    CHECK(r->decode_speedup > 1);
  }
  // Launched one by one, the same kernels cost their launches; fusion off, more kernels and traffic.
  CHECK(no_graphs.prefill_kernels == all.prefill_kernels);
  CHECK(no_graphs.decode_speedup < all.decode_speedup);
  CHECK(no_fusion.prefill_kernels > all.prefill_kernels);
  CHECK(no_fusion.prefill_bytes > all.prefill_bytes);
  CHECK(no_fusion.prefill_speedup < all.prefill_speedup);
  // Freezing makes gate and up one GEMM: one kernel fewer, the same bytes of weights.
  CHECK(no_freezing.prefill_kernels == all.prefill_kernels + 1);
  CHECK(no_freezing.decode_kernels == all.decode_kernels + 1);
  // The online softmax changes names, not kernels or traffic.
  CHECK(no_patterns.prefill_kernels == all.prefill_kernels);
  CHECK(no_patterns.decode_bytes == all.decode_bytes);
  for (const AblationEntry& r : rows)
    if (&r != &all && &r != &no_freezing && &r != &no_patterns && &r != &no_graphs && &r != &no_fusion) CHECK(r.not_modelled);
  // The page's demo 4 keeps our compiler's own ablation whatever the compiler chosen for demos 2 and 3.
  AnalysisConfig page = AnalysisConfig::for_demo(4);
  page.compiler = Compiler::Inductor;
  CHECK(run_ablation(page).front().setting == Text::OurAll);
}

TEST_CASE("torch.compile's ablation beside the same rows measured on the H200, with how ours differs") {
  const std::span<const MeasuredAblationRow> measured = h200_ablation_rows();
  REQUIRE(measured.size() == 14);  // seven rows, prefill and decode
  AnalysisConfig c = h200_ablation_config(false);
  c.lang = Lang::En;
  const OurAblationReport r = our_ablation_report(c);
  size_t cells = 0;
  for (const OurAblationRow& row : r.rows) {
    INFO(row.id);
    for (const bool decode : {false, true}) {
      const std::optional<MeasuredAblationCell>& cell = decode ? row.measured_decode : row.measured_prefill;
      const MeasuredAblationRow* file = nullptr;
      for (const MeasuredAblationRow& m : measured)
        if (m.id == row.id && m.decode == decode) file = &m;
      REQUIRE(cell.has_value() == (file != nullptr));  // every measured row, and only those
      if (!file) continue;
      ++cells;
      CHECK(cell->speedup == file->speedup);
      CHECK(cell->launches == file->launches);
      CHECK(file->speedup == Approx(file->eager_ms / file->compiled_ms).epsilon(1e-9));
    }
    // A computed row with a measurement says how the two differ, phase by phase; a row not modelled says why not.
    const bool compared = row.not_modelled.empty() && (row.measured_prefill || row.measured_decode);
    CHECK(row.versus_measured.empty() == !compared);
    if (compared) {
      CHECK(row.versus_measured.find(fmt_ratio(row.prefill) + " against " + fmt_ratio(row.measured_prefill->speedup)) !=
            std::string::npos);
      CHECK(row.versus_measured.find(fmt_ratio(row.decode) + " against " + fmt_ratio(row.measured_decode->speedup)) !=
            std::string::npos);
    }
  }
  CHECK(cells == measured.size());
  // Measured eager: bound by the GPU at prefill (as a CUDA graph it is barely faster),
  // by the CPU's launches at decode (4.7x its kernels' GPU time).
  REQUIRE(r.measured_notes.size() == 2);
  CHECK(r.measured_notes[0].find("the GPU's work bound it") != std::string::npos);
  CHECK(r.measured_notes[1].find("the CPU's launches bound it") != std::string::npos);
  CHECK(r.measured_source.find("ablation.jsonl") != std::string::npos);

  // Another S: the decode rows were not measured for it, the prefill rows still were.
  AnalysisConfig other_s = c;
  other_s.kv_len = 1024;
  const OurAblationReport half = our_ablation_report(other_s);
  CHECK(half.rows[0].measured_prefill);
  CHECK_FALSE(half.rows[0].measured_decode);
  CHECK(half.measured_notes.size() == 1);
  // SDPA was not measured: no measured rows, and the report says what was.
  AnalysisConfig sdpa = c;
  sdpa.attention = AttentionForm::Sdpa;
  const OurAblationReport none = our_ablation_report(sdpa);
  for (const OurAblationRow& row : none.rows) CHECK_FALSE((row.measured_prefill || row.measured_decode));
  CHECK(none.measured_source.find("No measured rows") != std::string::npos);
  // The lecture's compiler has its own ablation: no measured rows beside it.
  AnalysisConfig lecture = c;
  lecture.compiler = Compiler::Lecture;
  CHECK(our_ablation_report(lecture).measured_source.empty());
}
