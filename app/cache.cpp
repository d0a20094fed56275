// `gpurun cache info|clear`: the on-disk compile cache.
#include <fmt/format.h>

#include "app/command.hpp"
#include "pipeline/compile_cache.hpp"

namespace gpurun {

void add_cache_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("cache", "Inspect or clear the compile cache");
  cmd->require_subcommand(1);
  cmd->add_subcommand("info", "Where the cache is and what it holds")->callback([] {
    CompileCache cache(CompileCache::default_dir());
    const auto info = cache.info();
    fmt::print("cache: {}\nentries: {}\nbytes: {}\n", info.dir.string(), info.entries, info.bytes);
  });
  cmd->add_subcommand("clear", "Remove every cache entry")->callback([] {
    CompileCache cache(CompileCache::default_dir());
    fmt::print("removed {} entries\n", cache.clear());
  });
}

} // namespace gpurun
