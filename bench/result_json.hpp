#pragma once
// The gpurun bench result document, written and read here only: Google Benchmark's JSON
// (json_schema_version 1, so its tools/compare.py reads it) with gpurun's own members —
// `context.gpurun` (the device, the measurement's settings, the shard or the merge it came from,
// the devices of a multi-device run, the p2p matrix) and per case `benchmarks[i].gpurun` (every
// raw sample, the summary, throughput, warnings, where it ran). `bench --json` writes it;
// `compare`, `merge`, `plot` and `bench --balance-from` read it back into the BenchReport it was
// written from. docs/bench.md describes the fields.
#include <filesystem>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "bench/report.hpp"

namespace gpurun::bench {

/// The document of `report`.
[[nodiscard]] nlohmann::ordered_json result_json(const BenchReport& report);

/// Whether `document` is gpurun's (a `context.gpurun` object, or a case with a `gpurun` member)
/// rather than Google Benchmark's or nvbench's.
[[nodiscard]] bool is_result_json(const nlohmann::json& document);

/// The report `document` was written from: every field result_json writes (a case's statistics
/// as stored, not recomputed; the aggregate entries Google Benchmark's tools read are skipped).
/// A member that is absent takes its default. Throws usage Error naming `label` and the field
/// for a document that is not gpurun's result or a member of the wrong type.
[[nodiscard]] BenchReport parse_result_json(const nlohmann::json& document, std::string_view label);

/// Reads the file (base/json_read) and parses it; `what` names it when it cannot be read
/// ("bench result", "shard result"), `label` in every message (the path when empty).
[[nodiscard]] BenchReport read_result_json(const std::filesystem::path& path, std::string_view what,
                                           std::string_view label = {});

} // namespace gpurun::bench
