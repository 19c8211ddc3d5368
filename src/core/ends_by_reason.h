// A kernel's ends grouped by reason: each reason once, with the kernels that
// read the values it sent to HBM (the caller, -1, left out), as a list says
// them ("→ 1, 3, 5: node is extern").
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "core/fusion.h"

namespace fl {

struct EndsOfReason {
  Boundary why;
  std::vector<int> readers;  // kernel indices, in the order met; empty: only the caller reads them
};

// `Ends`: KernelEdge or KernelEndReport (each with `why` and `consumer`).
template <class Ends>
std::vector<EndsOfReason> ends_by_reason(const Ends& ends) {
  std::vector<EndsOfReason> out;
  for (const auto& e : ends) {
    auto it = std::find_if(out.begin(), out.end(), [&](const EndsOfReason& r) { return r.why == e.why; });
    if (it == out.end()) it = out.insert(out.end(), {e.why, {}});
    if (e.consumer >= 0) it->readers.push_back(e.consumer);
  }
  return out;
}

}  // namespace fl
