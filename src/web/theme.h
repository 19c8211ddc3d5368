// The page's look: ImGui style and the colours of the charts.
#pragma once

#include <imgui.h>

#include <iterator>
#include <string_view>

#include "core/fusion.h"
#include "core/partitions.h"
#include "page/settings.h"

namespace fl::web {

// The ImGui style and the palette below for a theme (settings.h's Theme).
void ApplyTheme(Theme theme);

// The colours that change with the theme: the charts' ground and lines, the
// marks drawn over them, text that is muted or an error. The saturated
// colours (kinds, partitions, the reference red) read on both grounds.
struct Palette {
  ImU32 chart_background, chart_grid, chart_axis;
  ImU32 overhead_grey;  // the timeline's gaps between kernels
  ImU32 ink;            // the strongest mark: a selected point's ring, a hot edge
  ImU32 faint_ink;      // arrows, ridge lines
  ImU32 slot;           // a bar's background slot
  ImVec4 muted_text, error_text;
  ImVec4 matmul_text, other_text;  // the roofline's two roofs named in text
  ImVec4 code_background, refused_field;
};
const Palette& Colors();  // of the theme applied last

// One colour per kernel kind (matmul, rowwise, pointwise, attention, kv_write).
ImU32 KindColor(KernelKind kind);
// The same hue, lighter: the fixed-overhead part of a stacked bar.
ImU32 Lighter(ImU32 color);

inline constexpr ImU32 kChartReference = IM_COL32(200, 40, 40, 255);
inline constexpr ImU32 kAccent = IM_COL32(52, 101, 164, 255);
// One colour per partition, in PartitionId's order: eager, decomposed, fused, fused + FlashAttention,
// then the compilers' (Inductor, gpt-fast).
inline constexpr ImU32 kPartitionColors[] = {IM_COL32(110, 116, 128, 255), IM_COL32(214, 120, 40, 255),
                                             IM_COL32(52, 101, 164, 255),  IM_COL32(46, 150, 90, 255),
                                             IM_COL32(150, 80, 180, 255),  IM_COL32(0, 150, 170, 255)};
static_assert(std::size(kPartitionColors) == std::size(kPartitionIds));
inline ImU32 PartitionColor(PartitionId id) { return kPartitionColors[static_cast<size_t>(id)]; }

}  // namespace fl::web
