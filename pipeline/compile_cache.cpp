#include "pipeline/compile_cache.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string_view>
#include <system_error>
#include <unistd.h>

#include "base/cache_dir.hpp"
#include "base/detail/sha256.hpp"
#include "base/read_file.hpp"

#ifndef GPURUN_VERSION
#define GPURUN_VERSION "unknown"
#endif

namespace gpurun {
namespace fs = std::filesystem;

namespace {

constexpr char k_magic[8] = {'G', 'P', 'R', 'N', 'C', 'C', 'H', '1'};
constexpr std::uint32_t k_format_version = 2;
constexpr std::size_t k_header_size = sizeof k_magic + 4 + 8 + 32;
constexpr std::string_view k_entry_ext = ".entry";
constexpr std::string_view k_temp_marker = ".tmp.";

// Length-prefixed fields, so that ("ab","c") and ("a","bc") hash differently.
void hash_field(detail::Sha256& h, std::string_view tag, std::string_view value) {
  h.update(tag);
  std::uint64_t n = value.size();
  char len[8];
  for (int i = 0; i < 8; ++i)
    len[i] = static_cast<char>(n >> (8 * i));
  h.update(std::string_view(len, 8));
  h.update(value);
}

// `#include "name"` → {name, quoted=true}; `#include <name>` → {name, quoted=false}.
std::vector<std::pair<std::string, bool>> includes_of(std::string_view text) {
  std::vector<std::pair<std::string, bool>> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    auto skip_blank = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    };
    skip_blank();
    if (!line.starts_with('#'))
      continue;
    line.remove_prefix(1);
    skip_blank();
    if (!line.starts_with("include"))
      continue;
    line.remove_prefix(7);
    skip_blank();
    if (line.empty() || (line.front() != '"' && line.front() != '<'))
      continue;
    const char close = line.front() == '"' ? '"' : '>';
    std::size_t stop = line.find(close, 1);
    if (stop == std::string_view::npos)
      continue;
    out.emplace_back(std::string(line.substr(1, stop - 1)), close == '"');
  }
  return out;
}

// Hashes every local header reachable from `text`: a header the key ignores could change
// without invalidating the cached binary.
void hash_includes(detail::Sha256& h, std::string_view text, const fs::path& from_dir,
                   const std::vector<std::string>& include_dirs, std::set<fs::path>& seen) {
  for (const auto& [name, quoted] : includes_of(text)) {
    std::vector<fs::path> candidates;
    if (quoted && !from_dir.empty())
      candidates.push_back(from_dir / name);
    if (quoted && from_dir.empty())
      candidates.push_back(name);
    for (const auto& dir : include_dirs)
      candidates.push_back(fs::path(dir) / name);
    bool found = false;
    for (const auto& candidate : candidates) {
      std::error_code ec;
      if (!fs::is_regular_file(candidate, ec))
        continue;
      fs::path canonical = fs::weakly_canonical(candidate, ec);
      if (ec)
        canonical = candidate;
      found = true;
      hash_field(h, "include", name);
      if (!seen.insert(canonical).second)
        break; // already hashed (or an include cycle)
      auto content = read_file(candidate);
      hash_field(h, "content", content.value_or(""));
      if (content)
        hash_includes(h, *content, candidate.parent_path(), include_dirs, seen);
      break;
    }
    // A system header (<cuda_fp16.h>) belongs to the compiler, whose version is in the key.
    if (!found && quoted)
      hash_field(h, "missing", name);
  }
}

class Writer {
public:
  void u8(std::uint8_t v) { m_out.push_back(static_cast<char>(v)); }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
      m_out.push_back(static_cast<char>(v >> (8 * i)));
  }
  void bytes(const void* p, std::size_t n) {
    u64(n);
    m_out.append(static_cast<const char*>(p), n);
  }
  void str(const std::string& s) { bytes(s.data(), s.size()); }
  [[nodiscard]] const std::string& text() const { return m_out; }

private:
  std::string m_out;
};

// Reads what Writer wrote; every read is bounds-checked so a damaged payload fails cleanly.
class Reader {
public:
  explicit Reader(std::string_view in) : m_in(in) {}
  bool u8(std::uint8_t& v) {
    if (m_in.size() < 1)
      return false;
    v = static_cast<std::uint8_t>(m_in[0]);
    m_in.remove_prefix(1);
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (m_in.size() < 8)
      return false;
    v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t{static_cast<std::uint8_t>(m_in[i])} << (8 * i);
    m_in.remove_prefix(8);
    return true;
  }
  bool str(std::string& s) {
    std::uint64_t n = 0;
    if (!u64(n) || n > m_in.size())
      return false;
    s.assign(m_in.substr(0, n));
    m_in.remove_prefix(n);
    return true;
  }
  [[nodiscard]] bool done() const { return m_in.empty(); }

private:
  std::string_view m_in;
};

std::string serialize(const CompileResult& r) {
  Writer w;
  w.u8(r.ok ? 1 : 0);
  w.str(r.log);
  w.str(r.binary_format);
  w.bytes(r.binary.data(), r.binary.size());
  w.u64(r.lowered_names.size());
  for (const auto& [expr, lowered] : r.lowered_names) {
    w.str(expr);
    w.str(lowered);
  }
  w.str(r.compiler_version);
  w.str(r.target);
  w.str(r.source_summary);
  return w.text();
}

std::optional<CompileResult> deserialize(std::string_view payload) {
  Reader r(payload);
  CompileResult out;
  std::uint8_t ok = 0;
  std::string binary;
  std::uint64_t names = 0;
  if (!r.u8(ok) || !r.str(out.log) || !r.str(out.binary_format) || !r.str(binary) ||
      !r.u64(names)) {
    return std::nullopt;
  }
  for (std::uint64_t i = 0; i < names; ++i) {
    std::string expr, lowered;
    if (!r.str(expr) || !r.str(lowered))
      return std::nullopt;
    out.lowered_names.emplace(std::move(expr), std::move(lowered));
  }
  if (!r.str(out.compiler_version) || !r.str(out.target) || !r.str(out.source_summary) ||
      !r.done())
    return std::nullopt;
  out.ok = ok != 0;
  out.binary.resize(binary.size());
  if (!binary.empty())
    std::memcpy(out.binary.data(), binary.data(), binary.size());
  return out;
}

bool is_entry(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.ends_with(k_entry_ext) && name.find(k_temp_marker) == std::string::npos;
}

bool is_temp(const fs::path& p) {
  return p.filename().string().find(std::string(k_entry_ext) + std::string(k_temp_marker)) !=
         std::string::npos;
}

// Unique across processes (pid) and threads (counter and random bits).
std::string temp_suffix() {
  static std::atomic<unsigned> counter{0};
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::string(k_temp_marker) + std::to_string(::getpid()) + "." +
         std::to_string(counter.fetch_add(1)) + "." + std::to_string(rng() & 0xffffffffu);
}

} // namespace

CompileCache::CompileCache(fs::path dir) : m_dir(std::move(dir)) {}

fs::path CompileCache::default_dir() {
  return default_cache_dir();
}

std::string CompileCache::key(const KernelSource& source, const CompileOptions& options,
                              const std::string& compiler_id, const std::string& backend) const {
  detail::Sha256 h;
  hash_field(h, "gpurun", GPURUN_VERSION);
  hash_field(h, "backend", backend);
  hash_field(h, "compiler", compiler_id);
  hash_field(h, "language", std::to_string(static_cast<int>(source.language)));
  hash_field(h, "source", source.text);
  for (const auto& d : options.defines)
    hash_field(h, "-D", d);
  for (const auto& i : options.include_dirs)
    hash_field(h, "-I", i);
  hash_field(h, "std", options.std_version);
  hash_field(h, "arch", options.arch);
  hash_field(h, "compiler-choice", options.compiler);
  for (const auto& e : options.extra)
    hash_field(h, "opt", e);
  hash_field(h, "lineinfo", options.line_info ? "1" : "0");
  for (const auto& n : options.name_expressions)
    hash_field(h, "name", n);
  for (const auto& k : options.kernels)
    hash_field(h, "kernel", k);
  std::set<fs::path> seen;
  hash_includes(h, source.text, source.path.parent_path(), options.include_dirs, seen);
  return h.finish_hex();
}

fs::path CompileCache::entry_path(const std::string& key) const {
  return m_dir / (key + std::string(k_entry_ext));
}

std::optional<CompileResult> CompileCache::load(const std::string& key) const {
  const fs::path path = entry_path(key);
  auto data = read_file(path);
  if (!data)
    return std::nullopt;
  auto corrupt = [&]() -> std::optional<CompileResult> {
    std::error_code ec;
    fs::remove(path, ec); // the next store() rebuilds it
    return std::nullopt;
  };
  std::string_view in = *data;
  if (in.size() < k_header_size || std::memcmp(in.data(), k_magic, sizeof k_magic) != 0) {
    return corrupt();
  }
  std::uint64_t version = 0;
  std::uint64_t payload_len = 0;
  Reader header(in.substr(sizeof k_magic, 12));
  std::uint8_t v[4];
  for (auto& b : v)
    (void)header.u8(b);
  version = v[0] | (v[1] << 8) | (v[2] << 16) | (std::uint64_t{v[3]} << 24);
  if (!header.u64(payload_len))
    return corrupt();
  if (version != k_format_version || payload_len != in.size() - k_header_size)
    return corrupt();
  std::string_view checksum = in.substr(sizeof k_magic + 12, 32);
  std::string_view payload = in.substr(k_header_size);
  detail::Sha256 h;
  h.update(payload);
  auto digest = h.finish();
  if (std::memcmp(digest.data(), checksum.data(), 32) != 0)
    return corrupt();
  auto result = deserialize(payload);
  if (!result)
    return corrupt();
  return result;
}

void CompileCache::store(const std::string& key, const CompileResult& result) const {
  const std::string payload = serialize(result);
  detail::Sha256 h;
  h.update(payload);
  const auto digest = h.finish();
  std::string file(k_magic, sizeof k_magic);
  for (int i = 0; i < 4; ++i)
    file.push_back(static_cast<char>(k_format_version >> (8 * i)));
  for (int i = 0; i < 8; ++i) {
    file.push_back(static_cast<char>(std::uint64_t{payload.size()} >> (8 * i)));
  }
  file.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  file += payload;

  std::error_code ec;
  fs::create_directories(m_dir, ec);
  const fs::path target = entry_path(key);
  const fs::path temp = target.string() + temp_suffix();
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out)
      return;
    out.write(file.data(), static_cast<std::streamsize>(file.size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(temp, ec);
      return;
    }
  }
  // rename() replaces the target atomically: readers see the old entry or the new one.
  fs::rename(temp, target, ec);
  if (ec)
    fs::remove(temp, ec);
}

CompileCache::Info CompileCache::info() const {
  Info info{m_dir, 0, 0};
  std::error_code ec;
  for (fs::directory_iterator it(m_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || !is_entry(it->path()))
      continue;
    ++info.entries;
    info.bytes += it->file_size(ec);
  }
  return info;
}

std::size_t CompileCache::clear() const {
  std::size_t removed = 0;
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (fs::directory_iterator it(m_dir, ec), end; !ec && it != end; it.increment(ec)) {
    // Only gpurun's own files: the directory may be shared with something else.
    if (is_entry(it->path()) || is_temp(it->path()))
      doomed.push_back(it->path());
  }
  for (const auto& p : doomed) {
    std::error_code rm;
    if (fs::remove(p, rm) && is_entry(p))
      ++removed;
  }
  return removed;
}

} // namespace gpurun
