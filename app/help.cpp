// `gpurun help [TOPIC|COMMAND]`: the documentation that ships in the binary (docs/*.md, embedded
// at build time) and each command's --help, so that a machine without the source still has them.
#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "app/command.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/suggest.hpp"

namespace gpurun {

namespace {

struct Doc {
  std::string_view file; ///< "arg-grammar.md"
  std::string_view text;
};

constexpr Doc k_docs[] = {
#include "docs.inc"
};

/// Other names a topic answers to; the first of a document's is the name it is listed by. A
/// document without one is listed by its file name without ".md", in lower case.
constexpr std::pair<std::string_view, std::string_view> k_aliases[] = {
    {"args", "arg-grammar.md"},
    {"arg", "arg-grammar.md"},
};

std::string topic_of(std::string_view file) {
  for (const auto& [alias, target] : k_aliases)
    if (target == file)
      return std::string(alias);
  std::string name(file.substr(0, file.rfind(".md")));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

/// The document's first heading, without the '#'.
std::string_view title_of(std::string_view text) {
  const std::size_t start = text.starts_with("# ") ? 2 : 0;
  return text.substr(start, text.find('\n') - start);
}

const Doc* find_doc(std::string_view topic) {
  for (const auto& [alias, target] : k_aliases)
    if (alias == topic)
      topic = target;
  for (const Doc& d : k_docs)
    if (d.file == topic || topic_of(d.file) == topic ||
        d.file.substr(0, d.file.rfind(".md")) == topic)
      return &d;
  return nullptr;
}

std::string overview(const CLI::App& app) {
  std::string text = "gpurun help TOPIC prints one of these documents; gpurun help COMMAND (or "
                     "gpurun COMMAND --help) a command's options and examples.\n\nTopics:\n";
  for (const Doc& d : k_docs)
    text += fmt::format("  {:<14} {}\n", topic_of(d.file), title_of(d.text));
  text += "\nCommands:\n";
  for (const CLI::App* command : app.get_subcommands({}))
    text += fmt::format("  {:<14} {}\n", command->get_name(), command->get_description());
  return text;
}

} // namespace

void add_help_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("help", "Print a topic's documentation (args, spec, exit-codes, "
                                         "…) or a command's help");
  auto topic = std::make_shared<std::string>();
  cmd->add_option("topic", *topic, "A topic (gpurun help lists them) or a command")
      ->type_name("TOPIC");
  cmd->footer("Examples:\n"
              "  gpurun help              # the topics and the commands\n"
              "  gpurun help args         # the --arg grammar: dtypes, shapes, fills\n"
              "  gpurun help exit-codes   # what each exit code means\n"
              "  gpurun help bench        # bench's options and examples");
  cmd->callback([&app, topic] {
    if (topic->empty()) {
      std::cout << overview(app);
      return;
    }
    if (const Doc* doc = find_doc(*topic)) {
      std::cout << doc->text;
      if (!doc->text.ends_with('\n'))
        std::cout << '\n';
      return;
    }
    for (const CLI::App* command : app.get_subcommands({}))
      if (command->get_name() == *topic) {
        std::cout << command->help("gpurun");
        return;
      }
    std::vector<std::string> names;
    for (const Doc& d : k_docs) {
      names.push_back(topic_of(d.file));
      names.emplace_back(d.file.substr(0, d.file.rfind(".md")));
    }
    for (const CLI::App* command : app.get_subcommands({}))
      names.push_back(command->get_name());
    throw usage_error(fmt::format("help: no topic or command '{}'{} (gpurun help lists them)",
                                  one_line(*topic), did_you_mean(*topic, names)));
  });
}

} // namespace gpurun
