// The page's panels, one file each. Each reads and edits only the State.
#pragma once

#include <imgui.h>

#include <string>

#include "core/sweep.h"
#include "page/page_text.h"
#include "page/state.h"

namespace fl::web {

void DrawConfigPanel(State& state);    // sidebar: language, model, T, S, hardware
void DrawEmbedStrip(State& state);     // embed mode: one slim line instead of the sidebar
void DrawNumberInput(State& state, const char* key);  // one of the sidebar's numbers, labelled
void DrawKernelsPanel(State& state);   // demo 1: the small layer's partition
void DrawPhasePanel(State& state);     // demos 2 and 3: four partitions, prefill or decode
void DrawAblationPanel(State& state);  // demo 4: the PyTorch 2 paper's ablation
void DrawPassesPanel(State& state);    // demo 1's stages: the pass timeline, each stage's graph
void DrawGraphPanel(State& state, ImVec2 size);  // the shown stage's graph (pan, zoom, select)
ImU32 GraphKernelColor(int kernel);              // the graph's colour for a fused kernel
void DrawRooflinePanel(State& state);  // demos 2/3: each kernel of a partition on the roofline
void DrawTimelinePanel(State& state);  // demos 2/3: a partition's kernels on a time axis
void DrawSweepPanel(State& state);     // demos 2/3: the four partitions against T, S or the batch
const Sweep* ShownSweep(const State& state);  // the sweep view's last complete sweep, if any
void DrawCompilersPanel(State& state);  // demos 2/3: one layer under every compiler, step by step
const LineupReport* ShownLineup(State& state);  // that view's lineup for the phase shown (null: refused)
void DrawSourcePanel(State& state);    // the layer's source, edited live, beside its prefill partitions
void DrawRealityPanel(State& state);   // the shipped per-op profiles beside the roofline and the calibrated model
const RealityReport& ShownReality(State& state);  // that view's report, computed once per language

// The roofline's and timeline's prefill/decode and partition choosers; the phase shown.
const PhaseReport& DrawPhaseChooser(State& state);
std::string PartitionCsv(const PartitionReport& p);  // a partition's kernels as CSV  // the graph's chart texture (PNG export)

// The view's tab label.
Ui ViewTitle(View v);

}  // namespace fl::web
