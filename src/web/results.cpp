#include "web/results.h"

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
    for (const json& e : k["ends"]) r.ends.push_back(e.at("text").get<std::string>());
  return r;
}

std::vector<KernelRow> parse_kernels(const json& arr) {
  std::vector<KernelRow> out;
  for (const json& k : arr) out.push_back(parse_kernel(k));
  return out;
}

}  // namespace

KernelsResult ParseKernels(const json& j) {
  KernelsResult r;
  r.title = j.at("title").get<std::string>();
  r.summary = j.at("summary").get<std::string>();
  r.kernels = parse_kernels(j.at("kernels"));
  r.observations = strings(j.at("observations"));
  return r;
}

PhaseResult ParsePhase(const json& j) {
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
  r.observations = strings(j.at("observations"));
  return r;
}

AblationResult ParseAblation(const json& j) {
  AblationResult r;
  r.title = j.at("title").get<std::string>();
  r.source = j.at("source").get<std::string>();
  r.columns = strings(j.at("columns"));
  for (const json& row : j.at("rows"))
    r.rows.push_back({row.at("setting").get<std::string>(), row.at("inference").get<double>(),
                      row.at("training").get<double>()});
  r.observations = strings(j.at("observations"));
  return r;
}

}  // namespace fl::web
