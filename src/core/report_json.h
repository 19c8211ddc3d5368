// The one serializer of the typed reports: `fusionlab --json`, the page's JS
// API and its exports print what these write (json_text(report), json_writer.h);
// nothing else writes or parses them.
#pragma once

#include "core/json_writer.h"
#include "core/lineup.h"
#include "core/measured/comparison.h"
#include "core/measured/op_profile.h"
#include "core/measured/reality.h"
#include "core/report.h"
#include "core/sweep.h"

namespace fl {

void write_json(JsonWriter& w, const AnalysisConfig& c);  // the "config" object of every demo
void write_json(JsonWriter& w, const KernelReport& k);
void write_json(JsonWriter& w, const PartitionReport& p);
void write_json(JsonWriter& w, const MemoryReport& m);
void write_json(JsonWriter& w, const Observation& o);
void write_json(JsonWriter& w, const PhaseReport& r);
void write_json(JsonWriter& w, const KernelsReport& r);
void write_json(JsonWriter& w, const OurAblationReport& r);
void write_json(JsonWriter& w, const AblationReport& r);
void write_json(JsonWriter& w, const RunComparison& r);       // --compare-compilers --run
void write_json(JsonWriter& w, const CompilerComparison& c);  // --compare-compilers
void write_json(JsonWriter& w, const RealityReport& r);       // --reality
void write_json(JsonWriter& w, const LineupReport& r);        // --lineup
// {"sweep": {"crossings": [{id, partition, rising, value}], "key", "phase", "points": [{<key>: v,
// "partitions": [{bytes, flops, id, kernels, overhead, t, t_total}]}]}}: `fusionlab --sweep --json`
// (crossings: core/crossings.h).
void write_json(JsonWriter& w, const Sweep& s);
// {"rules": [{allowed, consumer, needs | refused, producer, space}]}: `fusionlab --rules --json`.
std::string merge_rules_json();

// --validate: a measured profile and how the cost models fare against it.
struct ValidatedProfile {
  const OpProfile& profile;
  const ProfileValidation& validation;
};
void write_json(JsonWriter& w, const ValidatedProfile& p);

}  // namespace fl
