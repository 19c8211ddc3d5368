#include "web/field_labels.h"

#include <vector>

namespace fl::web {

namespace {

struct Field {
  std::string_view key;
  Text label;
};

constexpr Field kFields[] = {
    {"model", Text::UiModelPreset},      {"layers", Text::UiLayers},
    {"d", Text::UiHidden},               {"heads", Text::UiHeads},
    {"kv_heads", Text::UiKvHeads},       {"head_dim", Text::UiHeadDim},
    {"ffn", Text::UiFfn},                {"tokens", Text::UiTokens},
    {"kv_len", Text::UiKvLen},           {"batch", Text::UiBatch},
    {"dtype", Text::UiActDtype},         {"weights_dtype", Text::UiWeightsDtype},
    {"hardware", Text::UiGpu},           {"matmul_tflops", Text::UiMatmulTflops},
    {"other_tflops", Text::UiOtherTflops}, {"bandwidth_tbs", Text::UiBandwidth},
    {"memory_gb", Text::UiMemoryGb},     {"launch_us", Text::UiLaunch},
    {"graph_launch_us", Text::UiGraphLaunch},
};

}  // namespace

const char* FieldLabel(std::string_view key, Lang lang) {
  for (const Field& f : kFields)
    if (f.key == key) return tr(f.label, lang).data();
  return nullptr;
}

std::string LabelledMessage(Text text, const std::vector<std::string>& args, std::string_view typed, Lang lang) {
  std::vector<std::string> named = args;
  for (std::string& a : named) {
    if (a == typed) continue;
    if (const char* label = FieldLabel(a, lang)) a = "“" + std::string(label) + "”";
  }
  return format(tr(text, lang), named);
}

}  // namespace fl::web
