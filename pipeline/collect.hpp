#pragma once
// The last stage: copy every buffer and --global out, check the expectations, save the buffers.
#include "pipeline/prepare.hpp"

namespace gpurun {

/// Fills outcome.buffers and outcome.checks (a failed check sets outcome.status to
/// "check_failed"; it is a value, not an error) and writes --save files. Throws Error(usage) for
/// an --expect that names no buffer.
void collect(PreparedRun& run, const RunRequest& request);

/// Makes sure --save can write into `dir` (creating it): throws Error(usage) naming it when it is
/// empty, not a folder, or cannot be created. Called before anything runs, so that a bad --save
/// never costs a kernel run.
void prepare_save_dir(const std::filesystem::path& dir);

} // namespace gpurun
