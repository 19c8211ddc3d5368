// Where each node comes from in the layer's code (core/origin.h), kept through
// every pass, and one layer under every compiler lined up step by step
// (core/lineup.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "core/lineup.h"
#include "core/model.h"
#include "core/partitions.h"
#include "core/pipeline.h"
#include "core/report_json.h"
#include "core/settings.h"
#include "json_helpers.h"

using namespace fl;

namespace {

// The nodes that compute something (not a source, not a view read in place) and came from no step.
size_t unplaced_nodes(const Graph& g) {
  return static_cast<size_t>(std::count_if(g.nodes().begin(), g.nodes().end(), [](const Node& n) {
    return op_kind(n.op) != OpKind::Source && op_kind(n.op) != OpKind::View && n.origin == Origin::None;
  }));
}

AnalysisConfig config(int demo, std::vector<Setting> settings) {
  settings.insert(settings.begin(), {"demo", std::to_string(demo)});
  return config_from_settings(settings);
}

// The kernels a column gives a step.
const std::vector<int>& cell(const LineupReport& r, Origin step, PartitionId column) {
  const auto row = std::find_if(r.rows.begin(), r.rows.end(), [&](const LineupRow& x) { return x.step == step; });
  REQUIRE(row != r.rows.end());
  const auto col = std::find(std::begin(kLineupPartitions), std::end(kLineupPartitions), column);
  return row->kernels[static_cast<size_t>(col - std::begin(kLineupPartitions))];
}

}  // namespace

TEST_CASE("every computed node of a traced layer comes from a step of its code, and keeps it through every pass") {
  for (AttentionForm form : kAttentionForms) {
    TraceOptions o;
    o.attention = form;
    for (const Graph& traced : {prefill_layer(kSmallCfg, 8, 0, ParamMode::random(), o), decode_layer(kSmallCfg, ParamMode::random(), o)}) {
      INFO("attention " << attention_form_key(form));
      CHECK(unplaced_nodes(traced) == 0);
      for (const StageResult& s : run_pipeline(traced)) {
        INFO("after " << stage_name(s.stage));
        CHECK(unplaced_nodes(s.graph) == 0);
      }
    }
  }
  TraceOptions whole;
  whole.layers = 2;
  whole.vocab = 64;
  const Graph model = prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes(), whole);
  CHECK(unplaced_nodes(model) == 0);
  CHECK(std::any_of(model.nodes().begin(), model.nodes().end(), [](const Node& n) { return n.origin == Origin::LmHead; }));
}

TEST_CASE("a pass gives the nodes it makes the origin of the node they replace") {
  const Graph traced = prefill_layer(kSmallCfg, 8, 0, ParamMode::shapes());
  const Graph optimized = optimize(traced);
  std::set<Origin> of_rsqrt, of_attention;
  for (const Node& n : optimized.nodes()) {
    if (n.op == Op::Rsqrt) of_rsqrt.insert(n.origin);  // from the two RMSNorms, decomposed
    if (n.op == Op::Attention) of_attention.insert(n.origin);  // scores, softmax and p·v matched as one op
  }
  CHECK(of_rsqrt == std::set<Origin>{Origin::AttnNorm, Origin::MlpNorm});
  CHECK(of_attention == std::set<Origin>{Origin::Attention});
  CHECK(origin_steps(Origin::Attention).size() == 3);
}

TEST_CASE("the lineup places every kernel of every compiler at some step of the layer") {
  for (int demo : {2, 3})
    for (const char* form : {"lecture", "math", "sdpa"}) {
      const LineupReport r = lineup_report(config(demo, {{"attention", form}, {"model", "small"}}));
      INFO("demo " << demo << ", attention " << form);
      REQUIRE(r.columns.size() == std::size(kLineupPartitions));
      for (size_t col = 0; col < r.columns.size(); ++col) {
        std::set<int> placed;
        for (const LineupRow& row : r.rows) {
          CHECK(std::is_sorted(row.kernels[col].begin(), row.kernels[col].end()));
          placed.insert(row.kernels[col].begin(), row.kernels[col].end());
        }
        CHECK(placed.size() == r.columns[col].kernels.size());
        CHECK((placed.empty() || *placed.rbegin() == static_cast<int>(r.columns[col].kernels.size()) - 1));
      }
    }
}

TEST_CASE("the lineup shows where the residual add, the RoPE, the GQA repeat and the norm went") {
  // Decode, 8B: the lecture's rules put the residual add in the o projection's
  // kernel (an epilogue); Inductor's cuBLAS takes no epilogue, so the add
  // joins the next RMSNorm; gpt-fast's GEMVs take the RMSNorm as a prologue.
  const LineupReport decode = lineup_report(config(3, {{"attention", "math"}}));
  CHECK(cell(decode, Origin::AttnResidual, PartitionId::FusedFlash) == cell(decode, Origin::OProj, PartitionId::FusedFlash));
  CHECK(cell(decode, Origin::AttnResidual, PartitionId::Inductor).front() ==
        cell(decode, Origin::MlpNorm, PartitionId::Inductor).front());
  CHECK(cell(decode, Origin::AttnResidual, PartitionId::Inductor) != cell(decode, Origin::OProj, PartitionId::Inductor));
  CHECK(cell(decode, Origin::AttnNorm, PartitionId::GptFast).size() > 1);  // recomputed in each GEMV that reads it
  // The same, said: one sentence per step told, naming each compiler's kernels and what shares them.
  const LineupReport said = lineup_report(config(3, {{"attention", "math"}, {"lang", "en"}}));
  REQUIRE(said.observations.size() == std::size(kLineupTold));
  CHECK(said.observations[0].id == "where_attn_residual");
  const std::string& residual = said.observations[0].text;
  CHECK(residual.find("the lecture's rules, kernel " + std::to_string(cell(decode, Origin::AttnResidual, PartitionId::FusedFlash).front()) +
                      " with o projection") != std::string::npos);
  CHECK(residual.find("RMSNorm before the MLP") != std::string::npos);
  // Prefill, math: eager runs RoPE as four kernels per tensor; every fusing
  // compiler in fewer; Inductor materialises the GQA repeat, the lecture's rules read it in place.
  const LineupReport prefill = lineup_report(config(2, {{"attention", "math"}}));
  CHECK(cell(prefill, Origin::QRope, PartitionId::Eager).size() == 4);
  CHECK(cell(prefill, Origin::QRope, PartitionId::Inductor).size() == 1);
  CHECK(cell(prefill, Origin::GqaRepeat, PartitionId::FusedFlash).empty());
  CHECK(cell(prefill, Origin::GqaRepeat, PartitionId::Inductor).size() == 2);  // k and v, one copy each
}

TEST_CASE("where torch.compile was measured for the configuration, the lineup sets each compiler's kernels beside the output code's") {
  const LineupReport r = lineup_report(config(3, {{"hardware", "h200"}, {"attention", "sdpa"}, {"lang", "en"}}));
  REQUIRE(r.measured.size() == 2);  // Inductor's default mode and gpt-fast's setting were both run at S = 4096
  for (const LineupMeasured& m : r.measured) {
    const auto col = std::find(std::begin(kLineupPartitions), std::end(kLineupPartitions), m.column);
    const PartitionReport& ours = r.columns[static_cast<size_t>(col - std::begin(kLineupPartitions))];
    CHECK(m.launches == ours.cost.kernels);
    CHECK(m.same_names == m.launches);  // every kernel named as the one PyTorch generated at its place
    CHECK(m.measured_graph_s > 0);
    CHECK(m.predicted_graph_s == Approx(ours.cost.t + ours.cost.kernels * r.config.hw.graph_launch));
    CHECK(m.text.find(m.run) != std::string::npos);
  }
  // Not measured: another GPU, or a size no run had.
  CHECK(lineup_report(config(3, {{"attention", "sdpa"}})).measured.empty());
  CHECK(lineup_report(config(3, {{"hardware", "h200"}, {"attention", "sdpa"}, {"kv_len", "5000"}})).measured.empty());
}

TEST_CASE("the lineup is of demos 2 and 3, and its JSON names each step and column by id") {
  CHECK_THROWS_AS(lineup_report(config(1, {})), ConfigError);
  const nlohmann::json j = parsed(lineup_report(config(2, {{"model", "small"}, {"lang", "en"}})));
  CHECK(j["phase"] == "prefill");
  std::vector<std::string> ids;
  for (const auto& row : j["rows"]) {
    ids.push_back(row["id"]);
    CHECK(row["kernels"].contains("gpt_fast"));
  }
  CHECK(ids.front() == "rope_tables");  // eager computes cos and sin of each position; the rest fold them
  CHECK(ids.back() == "mlp_residual");
  CHECK(j["columns"][1]["id"] == "fused_flash");
}

TEST_CASE("titles count one token as one token: the lineup's and both ablations' at T = 1, the lineup's at S = 1") {
  for (const char* tokens : {"1", "2048"}) {
    const bool one = std::string(tokens) == "1";
    const AnalysisConfig prefill = config_from_settings({{"demo", "2"}, {"tokens", tokens}, {"lang", "en"}}, 2);
    const AnalysisConfig ablation = config_from_settings({{"demo", "4"}, {"tokens", tokens}, {"lang", "en"}}, 4);
    const AblationReport a = ablation_report(ablation);
    REQUIRE(a.torch_compile);
    for (const std::string& title : {lineup_report(prefill).title, a.ours.title, a.torch_compile->title}) {
      INFO(title);
      CHECK(title.find(one ? "of one token" : "of 2048 tokens") != std::string::npos);
      CHECK(title.find("1 tokens") == std::string::npos);
    }
    const AnalysisConfig decode = config_from_settings({{"demo", "3"}, {"kv_len", tokens}, {"lang", "en"}}, 3);
    const std::string title = lineup_report(decode).title;
    INFO(title);
    CHECK(title.find(one ? "decode with one token cached" : "decode with 2048 tokens cached") != std::string::npos);
  }
}
