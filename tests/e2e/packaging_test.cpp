// End-to-end: the shell completions and the manual page come from gpurun's own options, and
// `cmake --install` puts everything where a system looks for it.
#include <fstream>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

TEST(ShellIntegration, CompletionsKnowEveryCommandAndOption) {
  auto r = run_gpurun("completion bash");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string backends = std::string("'auto cuda ") +
#ifdef GPURUN_HAVE_HIP
                               "hip " +
#endif
#ifdef GPURUN_HAVE_OPENCL
                               "opencl " +
#endif
                               "cpu'";
  for (const char* word : {"complete -o filenames -F _gpurun gpurun", "devices", "bench", "--grid",
                           "--printf-buffer", "--memcheck", backends.c_str()})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  // The script is valid bash, and completes a subcommand and an option value.
  const auto script = temp_dir() / "gpurun.bash";
  std::ofstream(script) << r.out;
  const auto done = run_shell(
      "bash -c 'source " + script.string() +
      "; COMP_WORDS=(gpurun dev); COMP_CWORD=1; _gpurun; echo \"${COMPREPLY[@]}\"; "
      "COMP_WORDS=(gpurun run k.cu --backend c); COMP_CWORD=4; _gpurun; echo \"${COMPREPLY[@]}\"'");
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_NE(done.out.find("devices"), std::string::npos) << done.out << done.err;
  EXPECT_NE(done.out.find("cuda cpu"), std::string::npos) << done.out;

  r = run_gpurun("completion zsh");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("#compdef gpurun", 0), 0u);
  EXPECT_NE(r.out.find("--printf-buffer"), std::string::npos);
  r = run_gpurun("completion fish");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("complete -c gpurun -n \"__fish_seen_subcommand_from run\" -l grid"),
            std::string::npos)
      << r.out.substr(0, 600);
  r = run_gpurun("completion tcsh");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(ShellIntegration, ManPageListsCommandsAndOptions) {
  const auto r = run_gpurun("man");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind(".TH GPURUN 1", 0), 0u);
  for (const char* word : {".SS gpurun run", ".SS gpurun bench", ".SS gpurun cache info",
                           "\\-\\-printf\\-buffer", ".SH EXIT STATUS"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  // man itself renders it without a warning.
  const auto page = temp_dir() / "gpurun.1";
  std::ofstream(page) << r.out;
  const auto shown = run_shell("command -v man >/dev/null || exit 0; MANWIDTH=100 man -l " +
                               page.string() + " 2>&1 >/dev/null | cat");
  EXPECT_EQ(shown.out, "") << shown.out;
}

} // namespace
} // namespace gpurun::test
