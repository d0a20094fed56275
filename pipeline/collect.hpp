#pragma once
// The last stage: copy every buffer and --global out, check the expectations, save the buffers.
#include "pipeline/prepare.hpp"

namespace gpurun {

/// Fills outcome.buffers and outcome.checks (a failed check sets outcome.status to
/// "check_failed"; it is a value, not an error) and writes --save files. Throws Error(usage) for
/// an --expect that names no buffer.
void collect(PreparedRun& run, const RunRequest& request);

} // namespace gpurun
