#pragma once
// Colour on a terminal only: the words that carry a verdict (ok, FAILED, warning, error, slower,
// faster) are coloured when the stream they go to is a terminal, unless NO_COLOR is set
// (https://no-color.org) or TERM is "dumb". `--color always|never` overrides both ways; `--color
// always` wins over NO_COLOR because it is asked for on the command line.
#include <cstdio>
#include <iosfwd>
#include <string>
#include <string_view>

namespace gpurun {

enum class ColorChoice { automatic, always, never };

/// "auto", "always" or "never"; throws usage Error naming `--color` otherwise.
[[nodiscard]] ColorChoice parse_color_choice(std::string_view text);

/// The choice for this process (from --color; automatic until set).
void set_color_choice(ColorChoice choice);

/// Whether text written to `stream` gets colour: std::cout and std::cerr follow the choice and
/// their file descriptor; any other stream (a file, a string) never does.
[[nodiscard]] bool colors_for(const std::ostream& stream);
[[nodiscard]] bool colors_for(std::FILE* stream);

/// What a coloured word says.
enum class Tone { good, bad, warn };

/// `text` in the tone's colour when `on`, unchanged otherwise.
[[nodiscard]] std::string paint(Tone tone, std::string_view text, bool on);

/// "gpurun: warning: " for stderr, "warning:" in yellow on a terminal.
[[nodiscard]] std::string warning_prefix();
/// "gpurun: error: " (or "gpurun: internal error: ") for stderr, bold red on a terminal.
[[nodiscard]] std::string error_prefix(std::string_view kind = "error");

} // namespace gpurun
