#include "backends/compilers/nvrtc_locate.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <system_error>

namespace gpurun::nvrtc {
namespace {

// The toolkit's per-architecture library folder (targets/x86_64-linux/lib, targets/sbsa-linux/lib).
#if defined(__aarch64__)
constexpr std::string_view kTargetTriple = "sbsa-linux";
#else
constexpr std::string_view kTargetTriple = "x86_64-linux";
#endif


/// "13.0.88" → {13, 0, 88}; nullopt unless it is dot-separated decimal numbers.
std::optional<std::vector<int>> parse_version(std::string_view text) {
  std::vector<int> parts;
  while (true) {
    std::size_t digits = 0;
    int value = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9' && digits < 6)
      value = value * 10 + (text[digits++] - '0');
    if (digits == 0)
      return std::nullopt;
    parts.push_back(value);
    text.remove_prefix(digits);
    if (text.empty())
      return parts;
    if (text.front() != '.')
      return std::nullopt;
    text.remove_prefix(1);
  }
}

/// The entries named `<prefix><version>` (cuda-12.4, python3.11), newest version first.
std::vector<std::string> versioned_entries(const std::vector<std::string>& entries,
                                           std::string_view prefix) {
  std::vector<std::pair<std::vector<int>, std::string>> found;
  for (const auto& name : entries)
    if (name.starts_with(prefix))
      if (auto version = parse_version(std::string_view(name).substr(prefix.size())))
        found.emplace_back(std::move(*version), name);
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
  std::vector<std::string> out;
  for (auto& entry : found)
    out.push_back(std::move(entry.second));
  return out;
}

std::string join_path(const std::string& folder, std::string_view name) {
  if (folder.empty() || folder.back() == '/')
    return folder + std::string(name);
  return folder + "/" + std::string(name);
}

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(':', start), text.size());
    if (end > start)
      parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

class SearchBuilder {
public:
  SearchBuilder(const LocateEnv& env, const ToolkitLibrary& library)
      : m_env(env), m_library(library) {}

  /// The library's files in `folder`, best first.
  void add_folder(const std::string& folder) {
    for (const auto& name : library_file_names(m_env.list(folder), m_library.base_name))
      add_candidate(join_path(folder, name));
  }

  /// A toolkit installed under `root`.
  void add_toolkit_root(const std::string& root) {
    add_folder(join_path(root, "lib64"));
    add_folder(join_path(root, "lib"));
    add_folder(join_path(root, "targets/" + std::string(kTargetTriple) + "/lib"));
    for (auto folder : m_library.toolkit_folders)
      add_folder(join_path(root, folder));
  }

  /// The library's wheels installed in a site-packages (or dist-packages) folder.
  void add_site_packages(const std::string& folder) {
    for (auto wheel : m_library.wheel_folders)
      add_folder(join_path(folder, wheel));
  }

  /// `prefix`/lib/python3.N/`leaf` for every Python 3 under `prefix`, newest first.
  void add_python_prefix(const std::string& prefix,
                         std::initializer_list<std::string_view> leaves) {
    const auto lib = join_path(prefix, "lib");
    for (const auto& python : versioned_entries(m_env.list(lib), "python3."))
      for (auto leaf : leaves)
        add_site_packages(join_path(join_path(lib, python), leaf));
  }

  void add_candidate(std::string path) {
    if (std::find(m_search.candidates.begin(), m_search.candidates.end(), path) ==
        m_search.candidates.end())
      m_search.candidates.push_back(std::move(path));
  }

  void add_place(std::string place) { m_search.places.push_back(std::move(place)); }

  [[nodiscard]] Search& search() { return m_search; }

private:
  const LocateEnv& m_env;
  const ToolkitLibrary& m_library;
  Search m_search;
};

} // namespace

LocateEnv LocateEnv::system() {
  LocateEnv env;
  env.variable = [](const std::string& name) {
    const char* value = std::getenv(name.c_str());
    return value != nullptr ? std::string(value) : std::string();
  };
  env.list = [](const std::string& folder) {
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec))
      names.push_back(it->path().filename().string());
    return names;
  };
  return env;
}

const ToolkitLibrary& nvrtc_library() {
  // Where the NVRTC wheels put the library under site-packages: CUDA 13 groups every library of
  // the toolkit in nvidia/cu13; the CUDA 11 and 12 wheels have one package per library.
  static const ToolkitLibrary library{
      "GPURUN_NVRTC",
      "libnvrtc.so",
      {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"},
      {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"},
      {}};
  return library;
}

std::vector<std::string> nvrtc_file_names(const std::vector<std::string>& entries) {
  return library_file_names(entries, nvrtc_library().base_name);
}

std::vector<std::string> library_file_names(const std::vector<std::string>& entries,
                                            std::string_view base) {
  std::vector<std::pair<std::vector<int>, std::string>> versioned;
  bool unversioned = false;
  for (const auto& name : entries) {
    if (name == base) {
      unversioned = true;
    } else if (name.starts_with(base) && name.size() > base.size() + 1 &&
               name[base.size()] == '.') {
      if (auto version = parse_version(std::string_view(name).substr(base.size() + 1)))
        versioned.emplace_back(std::move(*version), name);
    }
  }
  // Highest major first; within a major the soname link (fewest components) before the file it
  // points to, then higher versions first.
  std::sort(versioned.begin(), versioned.end(), [](const auto& a, const auto& b) {
    if (a.first.front() != b.first.front())
      return a.first.front() > b.first.front();
    if (a.first.size() != b.first.size())
      return a.first.size() < b.first.size();
    return a.first > b.first;
  });
  std::vector<std::string> out;
  for (auto& entry : versioned)
    out.push_back(std::move(entry.second));
  if (unversioned)
    out.emplace_back(base);
  return out;
}

Search locate(const LocateEnv& env) {
  return locate(env, nvrtc_library());
}

Search locate(const LocateEnv& env, const ToolkitLibrary& library) {
  SearchBuilder builder(env, library);
  const std::string exact_variable = std::string(library.variable) + "_LIBRARY";
  if (const auto exact = env.variable(exact_variable); !exact.empty()) {
    builder.add_candidate(exact);
    builder.add_place("$" + exact_variable);
    builder.search().exclusive = true;
    return std::move(builder.search());
  }

  const std::string path_variable = std::string(library.variable) + "_PATH";
  if (const auto paths = env.variable(path_variable); !paths.empty()) {
    for (const auto& folder : split_colons(paths)) {
      builder.add_folder(folder);
      builder.add_toolkit_root(folder);
      builder.add_site_packages(folder);
    }
    builder.add_place("$" + path_variable);
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const auto root = env.variable(variable); !root.empty()) {
      builder.add_toolkit_root(root);
      builder.add_place(std::string("$").append(variable));
    }
  const auto conda = env.variable("CONDA_PREFIX");
  if (!conda.empty()) {
    builder.add_folder(join_path(conda, "lib"));
    builder.add_place("$CONDA_PREFIX/lib");
  }

  for (auto name : library.loader_names)
    builder.add_candidate(std::string(name));
  builder.add_place("the loader path");

  for (const auto& root : usr_local_toolkits(env))
    builder.add_toolkit_root(root);
  builder.add_place("/usr/local/cuda*");

  if (const auto venv = env.variable("VIRTUAL_ENV"); !venv.empty())
    builder.add_python_prefix(venv, {"site-packages"});
  if (const auto home = env.variable("HOME"); !home.empty())
    builder.add_python_prefix(join_path(home, ".local"), {"site-packages"});
  builder.add_python_prefix(env.root + "/usr/local", {"dist-packages", "site-packages"});
  builder.add_site_packages(env.root + "/usr/lib/python3/dist-packages");
  if (!conda.empty())
    builder.add_python_prefix(conda, {"site-packages"});
  builder.add_place("Python site-packages");
  return std::move(builder.search());
}

std::string builtins_file_name(const std::string& library_path, int major, int minor) {
  const auto file = std::filesystem::path(library_path).filename().string();
  const bool alt = file.starts_with("libnvrtc.alt.");
  return fmt::format("libnvrtc-builtins{}.so.{}.{}", alt ? ".alt" : "", major, minor);
}

std::vector<std::string> usr_local_toolkits(const LocateEnv& env) {
  const auto usr_local = env.root + "/usr/local";
  std::vector<std::string> roots = {join_path(usr_local, "cuda")};
  for (const auto& versioned : versioned_entries(env.list(usr_local), "cuda-"))
    roots.push_back(join_path(usr_local, versioned));
  return roots;
}

std::vector<std::string> toolkit_include_dirs(const std::string& library_path,
                                              const LocateEnv& env) {
  std::vector<std::string> dirs;
  // An include folder, and its cccl/ subfolder where CUDA 13 keeps libcu++ (cuda/std/…). Outside
  // a wheel the folder must hold cuda_runtime.h: a library in /usr/lib must not put all of
  // /usr/include in front of NVRTC.
  auto add_include = [&](const std::string& folder, bool is_wheel) {
    const auto entries = env.list(folder);
    if (entries.empty() || std::find(dirs.begin(), dirs.end(), folder) != dirs.end())
      return;
    if (!is_wheel && std::find(entries.begin(), entries.end(), "cuda_runtime.h") == entries.end())
      return;
    dirs.push_back(folder);
    if (std::find(entries.begin(), entries.end(), "cccl") != entries.end())
      dirs.push_back(join_path(folder, "cccl"));
  };

  const std::filesystem::path library(library_path);
  const auto lib_folder = library.parent_path();
  const auto package = lib_folder.parent_path();
  const auto nvidia = package.parent_path();
  if (library.has_parent_path() && nvidia.filename() == "nvidia") {
    // A wheel: the headers are spread over the sibling packages (cuda_runtime has cuda_fp16.h,
    // cuda_cccl has cuda/std) except for CUDA 13, whose nvidia/cu13 holds them all.
    add_include((package / "include").string(), true);
    auto siblings = env.list(nvidia.string());
    std::sort(siblings.begin(), siblings.end());
    for (const auto& sibling : siblings)
      add_include((nvidia / sibling / "include").string(), true);
  } else if (library.has_parent_path() &&
             (lib_folder.filename() == "lib64" || lib_folder.filename() == "lib")) {
    // <root>/lib64, <root>/lib and <root>/targets/<arch>/lib all have include/ beside them.
    add_include((package / "include").string(), false);
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const auto root = env.variable(variable); !root.empty())
      add_include(join_path(root, "include"), false);
  return dirs;
}

} // namespace gpurun::nvrtc
