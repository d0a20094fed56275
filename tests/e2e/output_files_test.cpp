// End-to-end: where gpurun's outputs go. Devices, FIFOs and standard output are written through,
// never replaced by a regular file; a write that fails (a full device, standard output on
// /dev/full) is exit 2 for every command that prints; an output that is one of the inputs is
// refused before any work; a signal during the work leaves no temporary file behind.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

const std::string quick = " --backend cpu --min-time 0 --min-samples 2 --max-samples 3";
/// A small bench of a kernel file; runs from any folder.
std::string kernel_bench() {
  return "bench " + (source_dir() / "tests/data/bench/mixed.cu").string() +
         " --kernel fill_index --grid 1 --block 64 --arg 'out=f32[N]:0' --arg n=N -a 'N=[8,16]'" +
         quick;
}

mode_t file_type(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & S_IFMT : 0;
}

/// A bench result in `dir` (a shard's, the only shard of one, so that merge takes it too).
fs::path bench_result(const fs::path& dir, const std::string& name = "results.json") {
  const auto path = dir / name;
  const auto r = run_gpurun(kernel_bench() + " --shard 0/1 --json " + path.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

/// A `gnuplot` for PATH that runs `body` (a shell script; $1 is the script gpurun wrote).
fs::path fake_gnuplot(const fs::path& dir, const std::string& body) {
  fs::create_directories(dir / "bin");
  const auto path = dir / "bin" / "gnuplot";
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(path, fs::perms::owner_all);
  return dir / "bin";
}

TEST(OutputFilesE2E, AFifoGetsTheOutputAndStaysAFifo) {
  const auto dir = temp_dir();
  const auto shard = bench_result(dir, "shard.json");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  for (const std::string& command :
       {kernel_bench() + " --json pipe", "merge pipe " + shard.string()}) {
    // A gpurun that fails before it opens the FIFO must not leave the reader waiting.
    const auto r = run_shell("(cat pipe > got.json & " + gpurun_bin() + " " + command +
                                 "; status=$?; [ $status -eq 0 ] || : > pipe; wait; exit $status)",
                             dir);
    ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    EXPECT_EQ(file_type(dir / "pipe"), static_cast<mode_t>(S_IFIFO)) << command;
    const auto got = nlohmann::json::parse(slurp(dir / "got.json"), nullptr, false);
    ASSERT_FALSE(got.is_discarded()) << command;
    EXPECT_TRUE(got["benchmarks"].is_array()) << command;
  }
}

TEST(OutputFilesE2E, DevicesAreWrittenThroughAndAFullOneIsExit2) {
  // Device nodes of the test's own (as /dev/null and /dev/full), so that a failure never replaces
  // the system's; making them needs root.
  const auto dir = temp_dir();
  const auto null = dir / "null";
  const auto full = dir / "full";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "cannot make device nodes (not root)";
  const auto results = bench_result(dir);
  const auto bin =
      fake_gnuplot(dir, "echo '<svg/>' > \"$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" "
                        "\"$1\")\"");
  for (const std::string& output : {"--json", "--csv", "--md", "--junit"}) {
    const auto r = run_gpurun(kernel_bench() + " " + output + " " + null.string());
    EXPECT_EQ(r.exit_code, 0) << output << "\n" << r.err;
  }
  std::vector<std::string> writes_to_full = {
      kernel_bench() + " --json " + full.string(),
      kernel_bench() + " --junit " + full.string(),
      "compare " + results.string() + " " + results.string() + " --md " + full.string(),
      "merge " + full.string() + " " + results.string(),
      "plot " + results.string() + " -o " + full.string(),
  };
  for (const std::string& command : writes_to_full) {
    const auto r = run_shell("PATH=" + bin.string() + ":$PATH " + gpurun_bin() + " " + command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(full.string() +
                         ": cannot write the file: write failed (No space left on device)"),
              std::string::npos)
        << command << "\n"
        << r.err;
  }
  EXPECT_EQ(file_type(null), static_cast<mode_t>(S_IFCHR));
  EXPECT_EQ(file_type(full), static_cast<mode_t>(S_IFCHR));
}

TEST(OutputFilesE2E, StandardOutputByAnyNameIsWrittenThrough) {
  const auto dir = temp_dir();
  // As /dev/stdout is: a link to the process's own descriptor 1.
  fs::create_symlink("/proc/self/fd/1", dir / "stdout");
  auto r = run_gpurun(kernel_bench() + " --md " + (dir / "stdout").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(file_type(dir / "stdout"), static_cast<mode_t>(S_IFLNK));
  // The table, then the Markdown written after it.
  const auto table = r.out.find("| case");
  ASSERT_NE(table, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| case", table + 1), std::string::npos) << r.out;
  const auto results = bench_result(dir);
  r = run_gpurun("merge - " + results.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out)["benchmarks"].is_array()) << "nothing else on stdout";
  EXPECT_NE(r.err.find("merged 1 of 1 shards"), std::string::npos) << r.err;
}

TEST(OutputFilesE2E, AFailedWriteToStandardOutputIsExit2ForEveryCommand) {
  const auto dir = temp_dir();
  const auto results = bench_result(dir);
  const std::vector<std::string> commands = {
      kernel_bench(),
      kernel_bench() + " --json -",
      "bench tests/data/bench/mixed.json --list",
      "bench tests/data/bench/mixed.json" + quick, // exit 1 (skipped cases) without the write error
      "compare " + results.string() + " " + results.string(),
      "merge " + (dir / "merged.json").string() + " " + results.string(),
      "run kernels/examples/vector_add.json --backend cpu",
      "devices",
      "list tests/data/bench/mixed.cu",
      "cache info",
      "help",
      "help bench",
      "completion bash",
      "man",
      "--help",
      "--version",
  };
  const auto list =
      run_shell("(" + gpurun_bin() + " bench tests/data/bench/mixed.json --list > /dev/full)");
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_EQ(list.err, "gpurun: error: standard output: cannot write: No space left on device\n");
  for (const std::string& command : commands) {
    const auto r = run_shell("(" + gpurun_bin() + " " + command + " > /dev/full)");
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
    // Why, where the last flush failed; a long output may have failed in an earlier one.
    EXPECT_TRUE(r.err.starts_with("gpurun: error: standard output: cannot write") ||
                r.err.find("\ngpurun: error: standard output: cannot write") != std::string::npos)
        << command << "\n"
        << r.err;
  }
}

TEST(OutputFilesE2E, AnOutputThatIsAnInputIsRefusedBeforeAnyWork) {
  const auto dir = temp_dir();
  for (const char* file : {"mixed.json", "mixed.cu", "broken.cu"})
    fs::copy_file(source_dir() / "tests/data/bench" / file, dir / file);
  const std::string suite = slurp(dir / "mixed.json");
  const std::string kernel = slurp(dir / "mixed.cu");
  const auto results = bench_result(dir);
  const std::string result_text = slurp(results);
  fs::create_symlink("results.json", dir / "link.json");
  fs::create_hard_link(results, dir / "hard.json");
  const std::string up = "../" + dir.filename().string() + "/";
  struct Refusal {
    std::string command;
    std::string message;
  };
  const std::vector<Refusal> refusals = {
      {"bench ./mixed.json --json " + up + "mixed.json" + quick,
       "--json " + up + "mixed.json: the same file as the suite (./mixed.json)"},
      {"bench mixed.cu --kernel fill_index --grid 1 --block 64 --arg 'out=f32[N]:0' --arg n=N "
       "-a 'N=[8]' --csv ./mixed.cu" +
           quick,
       "--csv ./mixed.cu: the same file as the kernel file (mixed.cu)"},
      {"bench mixed.json --junit broken.cu" + quick,
       "--junit broken.cu: the same file as the source of case broken"},
      {"bench mixed.json --md link.json --shard 0/1 --balance-from results.json" + quick,
       "--md link.json: the same file as the --balance-from results (results.json)"},
      {"compare results.json results.json --md ./link.json",
       "--md ./link.json: the same file as the baseline file (results.json)"},
      {"plot results.json -o ./results.json",
       "-o ./results.json: the same file as the results file (results.json)"},
      {"merge hard.json results.json", "hard.json: is also a shard to merge"},
  };
  for (const auto& [command, message] : refusals) {
    const auto r = run_gpurun(command, dir);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << command << "\n" << r.err;
    // Nothing ran: no table (under --json, the error document is all there is on stdout).
    EXPECT_EQ(r.out.find("| case"), std::string::npos) << command << "\n" << r.out;
    EXPECT_EQ(r.out.find("wrote"), std::string::npos) << command << "\n" << r.out;
  }
  EXPECT_EQ(slurp(dir / "mixed.json"), suite);
  EXPECT_EQ(slurp(dir / "mixed.cu"), kernel);
  EXPECT_EQ(slurp(results), result_text);
  EXPECT_EQ(file_type(dir / "link.json"), static_cast<mode_t>(S_IFLNK));
}

TEST(OutputFilesE2E, ASignalWhileGnuplotDrawsLeavesNoTemporaryFiles) {
  const auto dir = temp_dir();
  const auto results = bench_result(dir);
  fs::create_directory(dir / "tmp");
  for (const char* signal : {"TERM", "INT"}) {
    // gnuplot (gpurun's child) sends the signal to gpurun while gpurun's files exist.
    const auto bin = fake_gnuplot(dir, std::string("kill -") + signal + " $PPID; sleep 2");
    const auto r = run_shell("TMPDIR=" + (dir / "tmp").string() + " PATH=" + bin.string() +
                                 ":$PATH " + gpurun_bin() + " plot results.json -o out.svg",
                             dir);
    EXPECT_EQ(r.exit_code, std::string(signal) == "TERM" ? 128 + 15 : 128 + 2) << r.err;
    EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "gnuplot's folder is left after SIG" << signal;
    EXPECT_FALSE(fs::exists(dir / "out.svg"));
  }
}

} // namespace
} // namespace gpurun::test
