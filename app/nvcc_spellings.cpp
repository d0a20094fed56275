#include "app/nvcc_spellings.hpp"

#include <array>
#include <cctype>
#include <string_view>

namespace gpurun {

namespace {

struct Spelling {
  std::string_view nvcc;   ///< as nvcc writes it (also with "=VALUE" or the value apart)
  std::string_view gpurun; ///< the gpurun option it becomes (empty: dropped, already so)
  bool takes_value;        ///< whether a value follows (glued with '=' or as the next word)
  std::string_view passed; ///< for --opt: the NVRTC option the value is appended to
};

// Value options map to a gpurun option; the rest pass through to NVRTC with --opt, spelled as
// NVRTC spells them.
constexpr std::array k_spellings{
    Spelling{"-arch", "--arch", true, ""},
    Spelling{"--gpu-architecture", "--arch", true, ""},
    Spelling{"-std", "--std", true, ""},
    Spelling{"--use_fast_math", "--opt", false, "--use_fast_math"},
    Spelling{"-use_fast_math", "--opt", false, "--use_fast_math"},
    Spelling{"--use-fast-math", "--opt", false, "--use_fast_math"},
    // Line info is always on (the CPU backend maps PTX lines to the source with it).
    Spelling{"-lineinfo", "", false, ""},
    Spelling{"--generate-line-info", "", false, ""},
    Spelling{"-maxrregcount", "--opt", true, "--maxrregcount="},
    Spelling{"--maxrregcount", "--opt", true, "--maxrregcount="},
    Spelling{"-Xptxas", "--opt", true, "--ptxas-options="},
    Spelling{"--ptxas-options", "--opt", true, "--ptxas-options="},
    Spelling{"-ftz", "--opt", true, "--ftz="},
    Spelling{"--ftz", "--opt", true, "--ftz="},
    Spelling{"-prec-div", "--opt", true, "--prec-div="},
    Spelling{"--prec-div", "--opt", true, "--prec-div="},
    Spelling{"-prec-sqrt", "--opt", true, "--prec-sqrt="},
    Spelling{"--prec-sqrt", "--opt", true, "--prec-sqrt="},
    Spelling{"-fmad", "--opt", true, "--fmad="},
    Spelling{"--fmad", "--opt", true, "--fmad="},
    Spelling{"-G", "--opt", false, "--device-debug"},
    Spelling{"--device-debug", "--opt", false, "--device-debug"},
    Spelling{"-rdc", "--opt", true, "--relocatable-device-code="},
    // C++ dialect options of device code: for nvcc (NVRTC and clang do without them).
    Spelling{"--expt-relaxed-constexpr", "--opt", false, "--expt-relaxed-constexpr"},
    Spelling{"-expt-relaxed-constexpr", "--opt", false, "--expt-relaxed-constexpr"},
    Spelling{"--extended-lambda", "--opt", false, "--extended-lambda"},
    Spelling{"-extended-lambda", "--opt", false, "--extended-lambda"},
    Spelling{"--expt-extended-lambda", "--opt", false, "--extended-lambda"},
    Spelling{"-expt-extended-lambda", "--opt", false, "--extended-lambda"},
    // What only the host side of nvcc's build uses: its compiler, its linker, its libraries.
    Spelling{"-Xcompiler", "", true, ""},
    Spelling{"--compiler-options", "", true, ""},
    Spelling{"-Xlinker", "", true, ""},
    Spelling{"--linker-options", "", true, ""},
    Spelling{"-ccbin", "", true, ""},
    Spelling{"--compiler-bindir", "", true, ""},
    Spelling{"-m64", "", false, ""},
    // A header read before the file, as nvcc's -include: the file's own headers are read in
    // with it (compilers/whole_file.hpp).
    Spelling{"-include", "--opt", true, "--pre-include="},
    Spelling{"--pre-include", "--opt", true, "--pre-include="},
    Spelling{"--relocatable-device-code", "--opt", true, "--relocatable-device-code="},
};

// nvcc's words for the host side of a build, glued to their value: optimisation levels (-O3),
// libraries (-lcublas) and library folders (-L/usr/local/cuda/lib64). Dropped: gpurun builds no
// host program.
bool is_host_build_word(const std::string& word) {
  if (word == "-O" || (word.size() == 3 && word.starts_with("-O") &&
                       (std::isdigit(static_cast<unsigned char>(word[2])) != 0 || word[2] == 's')))
    return true;
  if (word.size() > 2 && word.starts_with("-l") && word != "-lineinfo")
    return true; // -lcublas
  return word.size() > 2 && word.starts_with("-L");
}

} // namespace

std::vector<std::string> rewrite_nvcc_spellings(std::vector<std::string> args) {
  std::vector<std::string> out;
  out.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    // A value of --opt is NVRTC's already; after "--" every word is literal.
    if (word == "--") {
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (word == "--opt" && i + 1 < args.size()) {
      out.push_back(word);
      out.push_back(args[++i]);
      continue;
    }
    const Spelling* match = nullptr;
    std::string value;
    bool glued = false;
    for (const Spelling& s : k_spellings) {
      if (word == s.nvcc) {
        match = &s;
        break;
      }
      if (s.takes_value && word.size() > s.nvcc.size() + 1 && word.starts_with(s.nvcc) &&
          word[s.nvcc.size()] == '=') {
        match = &s;
        value = word.substr(s.nvcc.size() + 1);
        glued = true;
        break;
      }
    }
    if (match == nullptr) {
      if (!is_host_build_word(word))
        out.push_back(word);
      continue;
    }
    if (match->takes_value && !glued) {
      if (i + 1 >= args.size()) { // no value: leave it for the parser to report
        out.push_back(word);
        continue;
      }
      value = args[++i];
    }
    if (match->gpurun.empty())
      continue;
    out.emplace_back(match->gpurun);
    if (match->passed.empty())
      out.push_back(value);
    else
      out.push_back(std::string(match->passed) + value);
  }
  return out;
}

} // namespace gpurun
