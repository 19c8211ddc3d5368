// The page's look: ImGui style and the colours of the charts.
#pragma once

#include <imgui.h>

#include <string_view>

namespace fl::web {

// A light theme sized for `scale` (1 at CSS pixel size).
void ApplyTheme(float scale);

// One colour per kernel kind (matmul, rowwise, pointwise, attention, kv_write).
ImU32 KindColor(std::string_view kind);
// The same hue, lighter: the fixed-overhead part of a stacked bar.
ImU32 Lighter(ImU32 color);

inline constexpr ImU32 kChartBackground = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 kChartGrid = IM_COL32(226, 229, 235, 255);
inline constexpr ImU32 kOverheadGrey = IM_COL32(205, 208, 214, 255);  // the timeline's gaps between kernels
inline constexpr ImU32 kChartAxis = IM_COL32(120, 126, 138, 255);
inline constexpr ImU32 kChartReference = IM_COL32(200, 40, 40, 255);
inline constexpr ImU32 kAccent = IM_COL32(52, 101, 164, 255);
// One colour per partition, in kAllPartitions' order: eager, decomposed, fused, fused + FlashAttention.
inline constexpr ImU32 kPartitionColors[] = {IM_COL32(110, 116, 128, 255), IM_COL32(214, 120, 40, 255),
                                             IM_COL32(52, 101, 164, 255), IM_COL32(46, 150, 90, 255)};
inline const ImVec4 kErrorText = ImVec4(0.80f, 0.10f, 0.10f, 1.0f);
inline const ImVec4 kMutedText = ImVec4(0.40f, 0.42f, 0.47f, 1.0f);

}  // namespace fl::web
