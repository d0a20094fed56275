// `gpurun cache info|clear`: the on-disk compile cache.
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "base/format.hpp"
#include "base/json_text.hpp"
#include "pipeline/compile_cache.hpp"

namespace gpurun {

void add_cache_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("cache", "Inspect or clear the compile cache");
  cmd->footer(
      "Examples:\n"
      "  gpurun cache info\n"
      "  gpurun cache info --json\n"
      "  gpurun cache clear");
  cmd->require_subcommand(1);
  auto* info_cmd = cmd->add_subcommand("info", "Where the cache is and what it holds");
  auto json = std::make_shared<bool>(false);
  info_cmd->add_flag("--json", *json, "Print one JSON document");
  info_cmd->callback([json] {
    CompileCache cache(CompileCache::default_dir());
    const auto info = cache.info();
    if (*json) {
      const nlohmann::ordered_json document{
          {"dir", info.dir.string()}, {"entries", info.entries}, {"bytes", info.bytes}};
      fmt::print("{}\n", json_text(document, 2));
      return;
    }
    fmt::print("cache: {}\nentries: {}\nsize: {}\n", info.dir.string(), info.entries,
               byte_size(info.bytes));
  });
  cmd->add_subcommand("clear", "Remove every cache entry")->callback([] {
    CompileCache cache(CompileCache::default_dir());
    fmt::print("removed {} entries\n", cache.clear());
  });
}

} // namespace gpurun
