// Numbers as people read them: 3 significant digits and a unit.
#pragma once

#include <cstdint>
#include <string>

namespace fl {

std::string fmt_bytes(double bytes);       // "5.92 GB", "268 MB", "16.8 MB"
std::string fmt_time(double seconds);      // "1.05 ms", "136 µs"
std::string fmt_ratio(double x);           // "1.79×"
std::string fmt_percent(double fraction);  // "26%"
std::string fmt_fixed(double x, int decimals);
std::string fmt_number(double x);         // as typed: "0.01", "1000", "3.35", "1e+12"
std::string fmt_exact(double x);          // the shortest text that reads back as x: CSV, JSON pairs
std::string fmt_count(double x);          // a whole number, grouped from five digits on: "2048", "131,072"
std::string fmt_gflops(double flops);  // FLOPs in billions, three digits below 100: "0.437", "7.25", "113", "88,875,347"
std::string fmt_decade(int e);            // a log axis's tick at 10^e: "0.01", "1", "100", "10k", "1M"; "1e-4" below 0.001

}  // namespace fl
