#include "web/field_labels.h"

#include <vector>

namespace fl::web {

namespace {

struct Field {
  std::string_view key;
  Text label, help;
};

constexpr Field kFields[] = {
    {"model", Text::UiModelPreset, Text::HelpModel},
    {"layers", Text::UiLayers, Text::HelpLayers},
    {"d", Text::UiHidden, Text::HelpHidden},
    {"heads", Text::UiHeads, Text::HelpHeads},
    {"kv_heads", Text::UiKvHeads, Text::HelpKvHeads},
    {"head_dim", Text::UiHeadDim, Text::HelpHeadDim},
    {"ffn", Text::UiFfn, Text::HelpFfn},
    {"tokens", Text::UiTokens, Text::HelpTokens},
    {"kv_len", Text::UiKvLen, Text::HelpKvLen},
    {"batch", Text::UiBatch, Text::HelpBatch},
    {"dtype", Text::UiActDtype, Text::HelpActDtype},
    {"weights_dtype", Text::UiWeightsDtype, Text::HelpWeightsDtype},
    {"attention", Text::UiAttention, Text::HelpAttention},
    {"compiler", Text::UiCompiler, Text::HelpCompiler},
    {"hardware", Text::UiGpu, Text::HelpGpu},
    {"matmul_tflops", Text::UiMatmulTflops, Text::HelpMatmulTflops},
    {"other_tflops", Text::UiOtherTflops, Text::HelpOtherTflops},
    {"bandwidth_tbs", Text::UiBandwidth, Text::HelpBandwidth},
    {"memory_gb", Text::UiMemoryGb, Text::HelpMemoryGb},
    {"launch_us", Text::UiLaunch, Text::HelpLaunch},
    {"graph_launch_us", Text::UiGraphLaunch, Text::HelpGraphLaunch},
};

}  // namespace

const char* FieldLabel(std::string_view key, Lang lang) {
  for (const Field& f : kFields)
    if (f.key == key) return tr(f.label, lang).data();
  return nullptr;
}

const char* FieldHelp(std::string_view key, Lang lang) {
  for (const Field& f : kFields)
    if (f.key == key) return tr(f.help, lang).data();
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
