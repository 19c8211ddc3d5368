// The Inductor model against what torch.compile generated on an H200
// (data/measured/h200-inductor, the output code of each configuration).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/inductor/layout.h"
#include "core/inductor/freezing.h"
#include "core/inductor/partition.h"
#include "core/inductor/scheduler.h"
#include "core/analysis.h"
#include "core/model.h"
#include "core/settings.h"
#include "core/pipeline.h"
#include "core/presets.h"
#include "helpers.h"
#include "json_helpers.h"

using namespace fl;

namespace {

struct ShippedRun {
  std::string id;
  nlohmann::json record;
  std::vector<std::string> kinds;  // of its launches, as our model names kernel kinds
};

std::string kind_of_launch(const std::string& name) {
  for (const char* k : {"poi", "red", "per", "tem"})
    if (name.rfind(std::string("triton_") + k + "_", 0) == 0) return k;
  if (name == "extern_kernels.mm") return "mm";
  if (name == "extern_kernels.bmm") return "bmm";
  if (name.find("_scaled_dot_product_") != std::string::npos) return "sdpa";
  return "?" + name;
}

std::vector<ShippedRun> measured_runs() {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/sweep.jsonl");
  REQUIRE(in);
  std::vector<ShippedRun> runs;
  for (std::string line; std::getline(in, line);) {
    ShippedRun r{"", nlohmann::json::parse(line), {}};
    r.id = r.record["id"].get<std::string>();
    for (const auto& l : r.record["launches"]) r.kinds.push_back(kind_of_launch(l.get<std::string>()));
    runs.push_back(std::move(r));
  }
  return runs;
}

// The key operations of a kernel's code: what a student reading the output
// code looks for (a row sum or max, the softmax's exp, the norm's rsqrt, a
// store at computed rows: index_put). A looped softmax keeps max and sum
// online, in one pass: both.
using KeyOps = std::set<std::string>;

KeyOps key_ops_of_body(const std::string& body) {
  KeyOps ops;
  auto has = [&](const char* s) { return body.find(s) != std::string::npos; };
  if (has("tl.sum(")) ops.insert("sum");
  if (has("max2(")) ops.insert("max");
  if (has("online_softmax_reduce")) ops.insert({"max", "sum"});
  if (has("rsqrt(")) ops.insert("rsqrt");
  if (has(".exp(")) ops.insert("exp");
  for (size_t at = body.find("tl.store("); at != std::string::npos; at = body.find("tl.store(", at + 1)) {
    const std::string address = body.substr(at, body.find(',', at) - at);
    if (address.find("tmp") != std::string::npos) ops.insert("index_put");  // rows computed from a tensor
  }
  return ops;
}

KeyOps key_ops_of(const Graph& g, const inductor::Kernel& k) {
  KeyOps ops;
  for (NodeId id : k.computes) switch (g.node(id).op) {
      case Op::Sum: case Op::Mean: ops.insert("sum"); break;
      case Op::Max: ops.insert("max"); break;
      case Op::Rsqrt: ops.insert("rsqrt"); break;
      case Op::Exp: ops.insert("exp"); break;
      case Op::KVWrite: ops.insert("index_put"); break;
      case Op::MatMul: ops.insert("sum"); break;  // a GEMV in a Triton kernel: multiply, then sum
      default: break;
    }
  return ops;
}

// Each Triton kernel's code in an output code file, by name.
std::map<std::string, std::string> kernel_bodies(const std::string& id) {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/code/" + id + ".py");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string code = ss.str();
  std::map<std::string, std::string> out;
  const std::string open = "async_compile.triton('", quotes = "'''";
  for (size_t at = code.find(open); at != std::string::npos; at = code.find(open, at + 1)) {
    const size_t name_end = code.find('\'', at + open.size());
    const size_t body = code.find(quotes, name_end), end = code.find(quotes, body + 3);
    out[code.substr(at + open.size(), name_end - at - open.size())] = code.substr(body + 3, end - body - 3);
  }
  return out;
}

Graph compiled_graph(const nlohmann::json& rec) {
  const ModelPreset* m = find_model(rec["model"].get<std::string>());
  REQUIRE(m);
  TraceOptions o;
  o.batch = rec["batch"].get<int64_t>();
  o.attention = *attention_form_named(rec["attention"].get<std::string>());
  Graph traced = rec["phase"] == "decode" ? decode_layer(m->layer, ParamMode::shapes(), o)
                                          : prefill_layer(m->layer, rec["T"].get<int64_t>(), 0, ParamMode::shapes(), o);
  PipelineOptions p;
  p.match_attention = false;
  p.stop_after = Stage::Simplify;
  return run_pipeline(traced, p).back().graph;
}

Binding binding_of(const nlohmann::json& rec) {
  const int64_t S = rec["S"].get<int64_t>();
  return rec["phase"] == "decode" ? Binding{{"S", S}, {"P", S - 1}} : Binding{};
}

inductor::Options options_of(const nlohmann::json& rec) {
  inductor::Options o;
  o.gemv_as_reduction = rec["mode"] == "gpt-fast";
  return o;
}

std::vector<std::string> our_kinds(const nlohmann::json& rec) {
  std::vector<std::string> kinds;
  for (const inductor::Kernel& k : inductor::schedule(compiled_graph(rec), binding_of(rec), options_of(rec)))
    kinds.push_back(std::string(inductor::kernel_kind_name(k.kind)));
  return kinds;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s.append(s.empty() ? "" : " ").append(x);
  return s;
}

}  // namespace

TEST_CASE("inductor: the default mode's kernels, kind by kind and in order, as torch.compile launched them") {
  int compared = 0;
  for (const ShippedRun& r : measured_runs()) {
    if (r.record["mode"] != "default") continue;
    const std::vector<std::string> ours = our_kinds(r.record);
    INFO(r.id);
    INFO("measured: " << joined(r.kinds));
    INFO("ours:     " << joined(ours));
    CHECK(ours == r.kinds);
    ++compared;
  }
  CHECK(compared == 16);  // 8B and small, prefill and decode, math and sdpa, batch 1 and 8
}

TEST_CASE("inductor: a view an extern cannot read in place is copied, as PyTorch's view rule says") {
  using inductor::Layout;
  const Layout heads = Layout::contiguous({1, 32, 16, 8});               // (B, H, T, dh)
  const Layout swapped = inductor::transposed(heads, {0, 2, 1, 3});     // (B, T, H, dh)
  CHECK_FALSE(inductor::reshaped(swapped, {16, 256}).has_value());     // merging H and dh after the swap
  CHECK(inductor::reshaped(heads, {32, 16, 8}).has_value());            // merging B and H: B = 1
  const Layout one_token = inductor::transposed(Layout::contiguous({1, 32, 1, 8}), {0, 2, 1, 3});
  CHECK(inductor::reshaped(one_token, {1, 256}).has_value());           // T = 1: the swap moves nothing
  const auto strides = inductor::reshaped(Layout::contiguous({4, 6}), {2, 2, 6});
  REQUIRE(strides);
  CHECK(strides->strides == std::vector<int64_t>{12, 6, 1});
}

TEST_CASE("inductor: the fifth partition of demos 2 and 3, each kernel named as Inductor names it") {
  const nlohmann::json j = analyzed(config_from_settings(
      {{"demo", "2"}, {"compiler", "inductor"}, {"attention", "math"}, {"hardware", "h200"}, {"lang", "en"}}));
  REQUIRE(j["partitions"].size() == 5);
  const nlohmann::json& p = j["partitions"].back();
  CHECK(p["id"] == "inductor");
  CHECK(p["kernels"] == 19);  // as torch.compile launched them for this layer on an H200
  std::vector<std::string> names;
  for (const auto& k : p["kernel_list"]) names.push_back(k["name"].get<std::string>());
  CHECK(names.front() == "triton_red_fused_add_mean_mul_pow_rsqrt_0");  // RMSNorm: one looped reduction
  CHECK(names[1] == "extern_kernels.mm");
  CHECK(std::count(names.begin(), names.end(), "extern_kernels.bmm") == 2);
  CHECK(names.back() == "triton_poi_fused__unsafe_view_add_8");  // the last residual add, alone, reading the down GEMM's output (the v repeat reuses k's kernel)
  // The lecture's partitions carry no such names, and the lecture's JSON is unchanged.
  for (const auto& k : j["partitions"][2]["kernel_list"]) CHECK_FALSE(k.contains("name"));
  const nlohmann::json lecture = analyzed(config_from_settings({{"demo", "2"}}));
  CHECK(lecture["partitions"].size() == 4);
  CHECK_FALSE(lecture["config"].contains("compiler"));
}

TEST_CASE("inductor: each Triton kernel computes the key operations of the measured kernel's code") {
  int compared = 0;
  for (const ShippedRun& r : measured_runs()) {
    INFO(r.id);
    ++compared;
    const std::map<std::string, std::string> bodies = kernel_bodies(r.id);
    const Graph g = compiled_graph(r.record);
    std::multiset<std::pair<std::string, KeyOps>> measured, ours;
    for (const auto& l : r.record["launches"]) {
      const std::string name = l.get<std::string>();
      if (name.rfind("triton_", 0) != 0) continue;
      REQUIRE(bodies.count(name));
      measured.insert({kind_of_launch(name), key_ops_of_body(bodies.at(name))});
    }
    for (const inductor::Kernel& k : inductor::schedule(g, binding_of(r.record), options_of(r.record)))
      if (k.kind != inductor::KernelKind::Mm && k.kind != inductor::KernelKind::Bmm && k.kind != inductor::KernelKind::Sdpa)
        ours.insert({std::string(inductor::kernel_kind_name(k.kind)), key_ops_of(g, k)});
    CHECK(ours == measured);
  }
  CHECK(compared == 17);  // the 16 default-mode configurations and gpt-fast's
}

TEST_CASE("inductor: the key operations read from code tell kernels apart") {
  CHECK(key_ops_of_body("tmp3 = libdevice.rsqrt(tmp2)\n tmp1 = tl.sum(tmp0, 1)") == KeyOps{"rsqrt", "sum"});
  CHECK(key_ops_of_body("tmp9, tmp10 = triton_helpers.online_softmax_reduce(a, b, 1, False)\n tmp20 = libdevice.exp(x)") ==
        KeyOps{"exp", "max", "sum"});
  CHECK(key_ops_of_body("tl.store(out_ptr0 + (x0 + 128*tmp5), tmp26, xmask)") == KeyOps{"index_put"});
  CHECK(key_ops_of_body("tl.store(out_ptr0 + (x2), tmp0, xmask)").empty());  // a copy
}

TEST_CASE("inductor, gpt-fast's setting: decode GEMVs as Triton reductions, as torch.compile launched them") {
  for (const ShippedRun& r : measured_runs()) {
    if (r.record["mode"] != "gpt-fast") continue;
    const std::vector<std::string> ours = our_kinds(r.record);
    INFO(r.id);
    INFO("measured: " << joined(r.kinds));
    INFO("ours:     " << joined(ours));
    CHECK(ours == r.kinds);
  }
}

TEST_CASE("inductor: an observation sets the compiler's kernels beside the lecture's, true for the layer shown") {
  auto compiler_text = [](std::vector<Setting> s) -> std::string {
    s.push_back({"lang", "en"});
    const nlohmann::json j = analyzed(config_from_settings(s));  // kept: the loop reads inside it
    for (const auto& o : j["observations"])
      if (o["id"] == "compiler_vs_lecture") return o["text"].get<std::string>();
    return "";
  };
  const std::string gqa = compiler_text({{"demo", "3"}, {"compiler", "inductor"}, {"attention", "math"}});
  CHECK(gqa.find("19 kernels") != std::string::npos);
  CHECK(gqa.find("the GQA repeat of the KV heads") != std::string::npos);
  CHECK(gqa.find("cuBLAS") != std::string::npos);
  // Multi-head attention repeats nothing: no such copy is claimed.
  const std::string mha = compiler_text({{"demo", "2"}, {"compiler", "inductor"}, {"attention", "math"},
                                         {"heads", "8"}, {"kv_heads", "8"}, {"head_dim", "512"}});
  CHECK(mha.find("GQA") == std::string::npos);
  CHECK(mha.find("transposed views") != std::string::npos);
  // gpt-fast's GEMVs are no cuBLAS calls: nothing said about them.
  CHECK(compiler_text({{"demo", "3"}, {"compiler", "gpt-fast"}, {"attention", "sdpa"}}).find("cuBLAS") == std::string::npos);
  CHECK(compiler_text({{"demo", "3"}}).empty());
}

TEST_CASE("inductor, gpt-fast's setting with attention written out: the measured kernels, in order, named as launched") {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/probe/gpt-fast-decode.json");
  REQUIRE(in);
  const nlohmann::json probe = nlohmann::json::parse(in);
  // The probe's configuration (its README): Llama-3.1-8B, decode at S = 4096, batch 1, math attention.
  REQUIRE(probe["config"]["d"] == 4096);
  const nlohmann::json rec = {{"model", "llama-3.1-8b"}, {"phase", "decode"}, {"attention", "math"}, {"mode", "gpt-fast"},
                              {"batch", 1}, {"T", 0}, {"S", probe["S"]}};
  std::vector<std::string> measured, measured_names;
  for (const auto& l : probe["launches"]) {
    measured.push_back(kind_of_launch(l.get<std::string>()));
    measured_names.push_back(l.get<std::string>());
  }
  const std::vector<std::string> ours = our_kinds(rec);
  INFO("measured: " << joined(measured));
  INFO("ours:     " << joined(ours));
  // The RMSNorm's sum of squares, the GEMVs (q's first: the cache writes move
  // to their readers, no copy for cuBLAS holds them), the RoPEs, q·kᵀ, the
  // softmax's statistics, p·v in 32 partial sums and their sum: 13 kernels.
  CHECK(ours == measured);
  // The names too: a value a GEMV's lowering stored (q after RoPE, re-read
  // for every key) lists bmm, and q·kᵀ lists its ops; loads of a batched GEMV's output list bmm.
  const AnalysisConfig c = config_from_settings({{"demo", "3"}, {"hardware", "h200"}, {"attention", "math"}, {"kv_len", probe["S"].dump()}}, 3);
  std::vector<std::string> names;
  for (const Kernel& k : make_partition(PartitionId::GptFast, c.traced_graph(true), c.binding(), c.hw).kernels) names.push_back(k.name);
  CHECK(names == measured_names);
}

TEST_CASE("inductor, max-autotune's templates where autotuning chose them: the measured kernels, in order, named as launched") {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/probe/max-autotune-prefill.json");
  REQUIRE(in);
  const nlohmann::json probe = nlohmann::json::parse(in);
  // The probe's configuration (its README): Llama-3.1-8B, prefill at T = 2048, batch 1, math attention.
  REQUIRE(probe["config"]["d"] == 4096);
  REQUIRE(probe["mode"] == "max-autotune");
  const nlohmann::json rec = {{"model", "llama-3.1-8b"}, {"phase", "prefill"}, {"attention", "math"}, {"mode", "max-autotune"},
                              {"batch", 1}, {"T", probe["T"]}, {"S", 0}};
  const Graph g = compiled_graph(rec);
  // The benchmark's choice in that run (its output code): templates for k, v and p·v, cuBLAS for the rest.
  inductor::Options opt;
  std::vector<Origin> asked;
  opt.use_template = [&](const inductor::Gemm& m) {
    const Origin o = g.node(m.node).origin;
    asked.push_back(o);
    if (o == Origin::KProj || o == Origin::VProj) CHECK((m.batch == 1 && m.m == 2048 && m.n == 1024 && m.k == 4096));
    if (o == Origin::AttnValues) CHECK((m.batch == 32 && m.m == 2048 && m.n == 128 && m.k == 2048));
    return o == Origin::KProj || o == Origin::VProj || o == Origin::AttnValues;
  };
  const std::vector<inductor::Kernel> ks = inductor::schedule(g, Binding{}, opt);
  CHECK(asked.size() == 9);  // q, k, v, q·kᵀ, p·v, o, gate, up, down
  std::vector<std::string> ours, measured;
  for (const inductor::Kernel& k : ks) ours.push_back(std::string(inductor::kernel_kind_name(k.kind)));
  for (const auto& l : probe["launches"]) measured.push_back(kind_of_launch(l.get<std::string>()));
  INFO("measured: " << joined(measured));
  INFO("ours:     " << joined(ours));
  CHECK(ours == measured);
  // None absorbed anything (k's reader rotates it, v's repeats it, p·v's
  // transposes it): each template computes its matmul alone and says why.
  for (const inductor::Kernel& k : ks) {
    if (k.kind != inductor::KernelKind::Template) continue;
    CHECK(k.computes.size() == 1);
    for (const inductor::End& e : k.ends)
      CHECK((e.why == inductor::Refusal::MemoryDeps || e.why == inductor::Refusal::LoopsMismatch || e.why == inductor::Refusal::TemplateFusion));
  }
  // The names: k's and v's template is one kernel launched twice; p·v's lists
  // the softmax's output and v's repeat, whose values were realized for it.
  const AnalysisConfig c = config_from_settings({{"demo", "2"}, {"hardware", "h200"}, {"attention", "math"}, {"tokens", probe["T"].dump()}}, 2);
  std::vector<std::string> names, measured_names;
  for (const Kernel& k : inductor::inductor_partition(PartitionId::Inductor, c.traced_graph(false), c.binding(), c.hw, opt).kernels)
    names.push_back(k.name);
  for (const auto& l : probe["launches"]) measured_names.push_back(l.get<std::string>());
  CHECK(names == measured_names);
}

TEST_CASE("inductor, max-autotune: a template takes a pointwise epilogue that reads its output where it writes it") {
  // Every matmul a template: the down projection's reader is the residual
  // add, read at the template's own indices, so it becomes its epilogue.
  const nlohmann::json rec = {{"model", "llama-3.1-8b"}, {"phase", "prefill"}, {"attention", "math"}, {"mode", "max-autotune"},
                              {"batch", 1}, {"T", 512}, {"S", 0}};
  const Graph g = compiled_graph(rec);
  inductor::Options opt;
  opt.use_template = [](const inductor::Gemm&) { return true; };
  const std::vector<inductor::Kernel> ks = inductor::schedule(g, Binding{}, opt);
  const std::vector<inductor::Kernel> plain = inductor::schedule(g, Binding{});
  int with_epilogue = 0;
  for (const inductor::Kernel& k : ks) {
    CHECK(k.kind != inductor::KernelKind::Mm);
    CHECK(k.kind != inductor::KernelKind::Bmm);
    if (k.kind != inductor::KernelKind::Template || k.computes.size() == 1) continue;
    ++with_epilogue;
    int matmuls = 0;
    for (NodeId id : k.computes) matmuls += g.node(id).op == Op::MatMul;
    CHECK(matmuls == 1);  // one template a kernel
    for (NodeId id : k.computes) CHECK(op_kind(g.node(id).op) != OpKind::Reduction);  // epilogues are pointwise
  }
  CHECK(with_epilogue > 0);
  CHECK(ks.size() < plain.size());  // an epilogue is a launch fewer
  // The last residual add went into the down projection's template.
  CHECK(ks.back().kind == inductor::KernelKind::Template);
  CHECK(plain.back().kind == inductor::KernelKind::Pointwise);
}

// A Triton kernel's loops as its code sets them: xnumel, then r0_numel (1 if none).
std::pair<int64_t, int64_t> loops_of_body(const std::string& body) {
  auto number_after = [&](const std::string& key) -> int64_t {
    const size_t at = body.find(key);
    return at == std::string::npos ? 1 : std::stoll(body.substr(at + key.size()));
  };
  return {number_after("xnumel = "), number_after("r0_numel = ")};
}

TEST_CASE("inductor: each Triton kernel loops as the measured kernel's code does (xnumel, r0_numel), split reductions included") {
  int compared = 0;
  for (const ShippedRun& r : measured_runs()) {
    if (r.record["mode"] != "default") continue;
    INFO(r.id);
    const std::map<std::string, std::string> bodies = kernel_bodies(r.id);
    const std::vector<inductor::Kernel> ks = inductor::schedule(compiled_graph(r.record), binding_of(r.record), options_of(r.record));
    REQUIRE(ks.size() == r.record["launches"].size());
    for (size_t i = 0; i < ks.size(); ++i) {
      const std::string launch = r.record["launches"][i].get<std::string>();
      const auto body = bodies.find(launch);
      if (body == bodies.end()) continue;  // an extern call
      INFO(i << " " << launch);
      CHECK(loops_of_body(body->second) == std::pair{ks[i].numel, ks[i].rnumel});
      ++compared;
    }
  }
  CHECK(compared > 100);
  // The parts of a split softmax row: at S = 32768 one layer's 32 rows in 4
  // parts of 8192 (measured), at S = 16384 in 2; beyond 8192 only.
  CHECK(inductor::inner_split_parts(32768, 32, 132) == 4);
  CHECK(inductor::inner_split_parts(16384, 32, 132) == 2);
  // Batch 8 at S = 131072: too much for 32 elements a thread; 171 a thread
  // (no divisor of the row within 30 of it), so 3 parts.
  CHECK(inductor::inner_split_parts(131072, 256, 132) == 3);
}

TEST_CASE("inductor: every value that leaves a kernel for another says why, in Inductor's terms") {
  using inductor::KernelKind;
  using inductor::Refusal;
  auto is_extern = [](KernelKind k) { return k == KernelKind::Mm || k == KernelKind::Bmm || k == KernelKind::Sdpa; };
  std::set<Refusal> seen;
  for (const ShippedRun& r : measured_runs()) {
    if (r.record["mode"] != "default") continue;
    INFO(r.id);
    const std::vector<inductor::Kernel> ks = inductor::schedule(compiled_graph(r.record), binding_of(r.record), options_of(r.record));
    for (size_t i = 0; i < ks.size(); ++i)
      for (const inductor::End& e : ks[i].ends) {
        seen.insert(e.why);
        if (e.consumer < 0) {
          CHECK(e.why == Refusal::Output);
          continue;
        }
        const inductor::Kernel& reader = ks[static_cast<size_t>(e.consumer)];
        CHECK(e.consumer > static_cast<int>(i));  // read later in the launch order
        // An extern on either side: that is the reason, and only then.
        CHECK((e.why == Refusal::Extern) == (is_extern(ks[i].kind) || is_extern(reader.kind)));
        // The sizes behind the reason: loops that differ; a long row over few rows.
        if (e.why == Refusal::LoopsMismatch) CHECK((e.sizes[0] != e.sizes[2] || e.sizes[1] != e.sizes[3]));
        if (e.why == Refusal::SplitReduction) CHECK((e.sizes[0] > 8192 && e.sizes[1] < 2 * 132));
      }
    // Every node one kernel writes and a later one reads has its reason.
    for (size_t i = 0; i < ks.size(); ++i)
      for (NodeId w : ks[i].writes)
        for (size_t j = i + 1; j < ks.size(); ++j)
          if (std::find(ks[j].reads.begin(), ks[j].reads.end(), w) != ks[j].reads.end())
            CHECK(std::any_of(ks[i].ends.begin(), ks[i].ends.end(),
                              [&](const inductor::End& e) { return e.tensor == w && e.consumer == static_cast<int>(j); }));
  }
  // The measured configurations show these: the GQA repeat's loops differ from the cache write's,
  // and at S = 32768 a softmax row is reduced in two kernels.
  CHECK(seen.count(Refusal::Extern));
  CHECK(seen.count(Refusal::LoopsMismatch));
  CHECK(seen.count(Refusal::SplitReduction));
  CHECK(seen.count(Refusal::Output));
}

TEST_CASE("inductor: the ablation's rows launch what torch.compile did, name for name: freezing's one GEMM of gate and up, no freezing, no CUDA graphs, no fusion (max_fusion_size = 1)") {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/ablation.jsonl");
  REQUIRE(in);
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> measured;  // (id, phase) -> launches
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json rec = nlohmann::json::parse(line);
    measured[{rec["id"], rec["phase"]}] = rec["kernel_names"].get<std::vector<std::string>>();
  }
  for (const bool decode : {false, true}) {
    const std::string phase = decode ? "decode" : "prefill";
    const AnalysisConfig c =
        config_from_settings({{"demo", decode ? "3" : "2"}, {"hardware", "h200"}, {"attention", "math"}}, decode ? 3 : 2);
    auto launches = [&](bool freezing, size_t max_fusion_size, bool pattern_matching = true) {
      inductor::Options o;
      o.freezing = freezing;
      o.max_fusion_size = max_fusion_size;
      o.pattern_matching = pattern_matching;
      std::vector<std::string> names;
      for (const Kernel& k : inductor::inductor_partition(PartitionId::Inductor, c.traced_graph(decode), c.binding(), c.hw, o).kernels)
        names.push_back(k.name);
      return names;
    };
    INFO(phase);
    const std::vector<std::string> frozen = launches(true, 64);
    CHECK(frozen.size() == 18);
    CHECK(frozen == measured[{"all", phase}]);
    CHECK(frozen == measured[{"no_cudagraphs", phase}]);  // the same kernels, launched one by one
    CHECK(launches(false, 64) == measured[{"no_freezing", phase}]);
    CHECK(launches(true, 1) == measured[{"no_fusion", phase}]);
    // Without the pattern matcher the softmax is not made online: the same kernels, its own named after aten._softmax alone.
    const std::vector<std::string> no_patterns = launches(true, 64, false);
    CHECK(no_patterns == measured[{"no_pattern_matching", phase}]);
    CHECK(no_patterns != frozen);
    CHECK(std::count(frozen.begin(), frozen.end(), "extern_kernels.mm") == 6);  // q, k, v, o, gate|up, down
  }
}

TEST_CASE("inductor: freezing's concatenation computes what the separate matmuls did") {
  for (const bool decode : {false, true}) {
    INFO((decode ? "decode" : "prefill"));
    const Graph traced = decode ? decode_layer(kSmallCfg, ParamMode::random(3)) : prefill_layer(kSmallCfg, 5, 0, ParamMode::random(3));
    const Graph frozen = inductor::concat_frozen_matmuls(traced);
    verify(frozen);
    CHECK(test::count_ops(frozen, Op::Slice) == 2);  // gate and up, out of their one product
    CHECK(test::count_ops(frozen, Op::MatMul) == test::count_ops(traced, Op::MatMul) - 1);  // q, k, v (two shapes) stay apart
    const Feeds feeds = decode ? test::decode_feeds(kSmallCfg, 8) : test::prefill_feeds(kSmallCfg, 5);
    const Binding bind = decode ? Binding{{"S", 8}, {"P", 5}} : Binding{};
    CHECK(test::relative_difference(run(traced, feeds, bind), run(frozen, feeds, bind)) < 1e-5);
  }
}
