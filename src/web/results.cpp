#include "web/results.h"
#include "core/analysis.h"

#include <stdexcept>

namespace fl::web {

namespace {

using nlohmann::json;

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<std::string> strings(const json& arr) {
  std::vector<std::string> out;
  for (const json& v : arr) out.push_back(text_of(v));
  return out;
}

KernelKind kind_named(const std::string& name) {
  for (KernelKind k : kKernelKinds)
    if (kernel_kind_name(k) == name) return k;
  throw std::runtime_error("unknown kernel kind '" + name + "'");
}

Boundary boundary_named(const std::string& name) {
  for (Boundary b : kBoundaries)
    if (boundary_name(b) == name) return b;
  throw std::runtime_error("unknown boundary '" + name + "'");
}

KernelReport parse_kernel(const json& k) {
  KernelReport r;
  r.index = k.at("index").get<size_t>();
  r.kind = kind_named(k.at("kind").get<std::string>());
  r.label = k.at("label").get<std::string>();
  r.nodes = k.at("nodes").get<size_t>();
  r.detail = k.contains("node_list");
  if (r.detail) r.node_list = strings(k["node_list"]);
  r.reads = k.at("reads").get<int64_t>();
  r.writes = k.at("writes").get<int64_t>();
  r.flops = k.at("flops").get<double>();
  r.t = k.at("t").get<double>();
  r.t_compute = k.at("t_compute").get<double>();
  r.t_memory = k.at("t_memory").get<double>();
  if (k.contains("ends"))
    for (const json& e : k["ends"])
      r.ends.push_back({e.at("tensor").get<NodeId>(), e.at("consumer").get<int>(), boundary_named(e.at("why").get<std::string>()),
                        e.at("text").get<std::string>()});
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

}  // namespace

KernelsResult ParseKernels(json j) {
  KernelsResult r;
  r.title = j.at("title").get<std::string>();
  r.summary = j.at("summary").get<std::string>();
  for (const json& k : j.at("kernels")) r.kernels.push_back(parse_kernel(k));
  r.observations = observation_texts(j.at("observations"));
  if (j.contains("stages")) {
    const double elem = dtype_bytes(j.at("config").value("dtype", std::string("bf16")));
    for (const json& st : j["stages"]) r.stages.push_back(parse_stage(st, elem));
  }
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
