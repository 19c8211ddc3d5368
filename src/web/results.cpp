#include "web/results.h"
#include "core/analysis.h"

namespace fl::web {

namespace {

using nlohmann::json;

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<std::string> strings(const json& arr) {
  std::vector<std::string> out;
  for (const json& v : arr) out.push_back(text_of(v));
  return out;
}

KernelRow parse_kernel(const json& k) {
  KernelRow r;
  r.index = k.at("index").get<int>();
  r.kind = k.at("kind").get<std::string>();
  r.label = k.at("label").get<std::string>();
  r.nodes = k.at("nodes").get<int>();
  if (k.contains("node_list")) r.node_list = strings(k["node_list"]);
  r.reads = k.at("reads").get<double>();
  r.writes = k.at("writes").get<double>();
  r.flops = k.at("flops").get<double>();
  r.t = k.at("t").get<double>();
  if (k.contains("ends"))
    for (const json& e : k["ends"]) {
      r.ends.push_back(e.at("text").get<std::string>());
      r.end_consumers.push_back(e.contains("consumer") && e["consumer"].is_number() ? e["consumer"].get<int>() : -1);
    }
  if (k.contains("code")) r.code = k["code"].get<std::string>();
  return r;
}

// Elements of the shape at the end of a node's text, "... : (16, 128)"; a
// scalar "()" is 1.
double shape_elements(const std::string& text) {
  const size_t colon = text.rfind(" : (");
  if (colon == std::string::npos) return 0;
  double n = 1;
  for (size_t i = colon + 4; i < text.size() && text[i] != ')';) {
    if (text[i] >= '0' && text[i] <= '9') {
      size_t end = i;
      double v = 0;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') v = v * 10 + (text[end++] - '0');
      n *= v;
      i = end;
    } else {
      ++i;
    }
  }
  return n;
}

double dtype_bytes(const std::string& dtype) {
  if (dtype == "fp32" || dtype == "f32") return 4;
  if (dtype == "fp8" || dtype == "int8") return 1;
  return 2;
}

StageRow parse_stage(const json& st, double elem_bytes) {
  StageRow r;
  r.name = st.at("stage").get<std::string>();
  r.node_count = st.at("node_count").get<int>();
  r.rewrites = st.value("rewrites", 0);
  r.added = st.value("added", 0);
  r.rewritten = st.value("rewritten", 0);
  if (st.contains("removed")) r.removed = strings(st["removed"]);
  for (const json& n : st.at("nodes")) {
    GraphNode g;
    g.id = n.at("id").get<int>();
    g.op = n.at("op").get<std::string>();
    g.text = n.at("text").get<std::string>();
    for (const json& i : n.at("inputs")) g.inputs.push_back(i.get<int>());
    g.view = n.value("view", false);
    g.source = n.value("source", false);
    g.change = n.value("change", std::string{});
    g.kernel = n.value("kernel", -1);
    g.bytes = shape_elements(g.text) * elem_bytes;
    r.nodes.push_back(std::move(g));
  }
  return r;
}

std::vector<KernelRow> parse_kernels(const json& arr) {
  std::vector<KernelRow> out;
  for (const json& k : arr) out.push_back(parse_kernel(k));
  return out;
}

}  // namespace

KernelsResult ParseKernels(json j) {
  KernelsResult r;
  r.title = j.at("title").get<std::string>();
  r.summary = j.at("summary").get<std::string>();
  r.kernels = parse_kernels(j.at("kernels"));
  r.observations = observation_texts(j.at("observations"));
  if (j.contains("stages")) {
    const double elem = dtype_bytes(j.at("config").value("dtype", std::string("bf16")));
    for (const json& st : j["stages"]) r.stages.push_back(parse_stage(st, elem));
  }
  r.raw = std::move(j);  // kept whole for export, moved: a whole model's is large
  return r;
}

PhaseResult ParsePhase(json j) {
  PhaseResult r;
  r.title = j.at("title").get<std::string>();
  for (const json& p : j.at("partitions")) {
    PartitionRow row;
    row.name = p.at("name").get<std::string>();
    row.kernels = p.at("kernels").get<int64_t>();
    row.bytes = p.at("bytes").get<double>();
    row.flops = p.at("flops").get<double>();
    row.t = p.at("t").get<double>();
    row.overhead = p.at("overhead").get<double>();
    row.t_total = p.at("t_total").get<double>();
    row.overhead_share = p.at("overhead_share").get<double>();
    row.speedup = p.at("speedup").get<double>();
    row.tokens_per_s = p.at("tokens_per_s").get<double>();
    row.kernel_list = parse_kernels(p.at("kernel_list"));
    r.partitions.push_back(std::move(row));
  }
  if (j.contains("slowest")) r.slowest = parse_kernels(j["slowest"]);
  r.observations = observation_texts(j.at("observations"));
  const json& hw = j.at("config").at("hw");
  r.hw.matmul_flops = hw.at("matmul_flops").get<double>();
  r.hw.other_flops = hw.at("other_flops").get<double>();
  r.hw.bandwidth = hw.at("bandwidth").get<double>();
  r.hw.launch = hw.at("launch").get<double>();
  r.hw.graph_launch = hw.value("graph_launch", r.hw.launch);
  r.raw = std::move(j);  // kept whole for export, moved: a whole model's is large
  return r;
}

AblationResult ParseAblation(json j) {
  AblationResult r;
  r.title = j.at("title").get<std::string>();
  r.source = j.at("source").get<std::string>();
  r.columns = strings(j.at("columns"));
  for (const json& row : j.at("rows"))
    r.rows.push_back({row.at("id").get<std::string>(), row.at("setting").get<std::string>(), row.at("inference").get<double>(),
                      row.at("training").get<double>()});
  r.observations = observation_texts(j.at("observations"));
  if (j.contains("ours")) {
    const json& o = j["ours"];
    r.ours_title = o.value("title", std::string{});
    if (o.contains("columns")) r.ours_columns = strings(o["columns"]);
    for (const json& row : o.at("rows"))
      r.ours.push_back({row.at("id").get<std::string>(), row.at("setting").get<std::string>(), row.at("prefill").get<double>(),
                        row.at("decode").get<double>()});
  }
  r.raw = std::move(j);  // kept whole for export, moved: a whole model's is large
  return r;
}

}  // namespace fl::web
