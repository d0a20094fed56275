#pragma once
// A CPU context (one stream): device memory, NVRTC compile to PTX, load into the emulator, and
// launches that run asynchronously on a worker pool until synchronize().
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "backends/backend.hpp"
#include "backends/cpu/context_settings.hpp"
#include "backends/cpu/emu/launch.hpp"
#include "backends/cpu/emu/memory.hpp"

namespace gpurun::cpu {

class CpuFunction;

/// Launches a context may still run before its device is lost (a test setting: cpu/device.hpp's
/// FailurePlan), shared by the device's contexts; null: never lost.
using LaunchBudget = std::shared_ptr<std::atomic<std::int64_t>>;

class CpuContext final : public Context {
public:
  /// `default_workers`: worker threads when the "threads" setting does not say (0: every core).
  explicit CpuContext(const ContextOptions& options, int default_workers = 0,
                      LaunchBudget launch_budget = nullptr);
  ~CpuContext() override;

  [[nodiscard]] std::unique_ptr<Buffer> allocate(std::size_t bytes) override;
  void copy_to_device(Buffer& dst, std::span<const std::byte> src) override;
  void copy_to_host(std::span<std::byte> dst, const Buffer& src) override;
  void copy_device(Buffer& dst, const Buffer& src) override;
  void memset(Buffer& dst, std::uint8_t value) override;
  void copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) override;
  void copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) override;
  [[nodiscard]] CompileResult compile(const KernelSource& source,
                                      const CompileOptions& options) override;
  [[nodiscard]] std::unique_ptr<Module> load(const CompileResult& compiled) override;
  void launch(Function& fn, const LaunchConfig& config, const ArgPack& args) override;
  void synchronize(std::optional<double> timeout_s = std::nullopt) override;
  [[nodiscard]] std::unique_ptr<Timer> create_timer() override;
  [[nodiscard]] std::string compiler_id(const CompileOptions& options) const override;
  void name_buffer(const Buffer& buffer, const std::string& name) override;
  [[nodiscard]] std::map<std::string, double> last_launch_stats() const override;
  [[nodiscard]] std::vector<std::string> last_launch_warnings() const override;
  [[nodiscard]] std::string last_launch_engine() const override;
  [[nodiscard]] std::optional<LaunchProgress> launch_progress() const override;
  /// Every pair of CPU contexts can: their memories are in one process.
  [[nodiscard]] bool enable_peer_access(Context& peer) override;
  /// A memcpy from this context's memory into the peer's, after both finished their work.
  PeerPath copy_to_peer(Context& peer, Buffer& dst, const Buffer& src) override;

  /// The launch in flight or last finished (null before the first launch).
  [[nodiscard]] std::shared_ptr<emu::LaunchJob> current_job() const { return m_job; }
  /// Waits for the launch in flight without a limit (copies and timers order after it).
  void wait_idle();

private:
  /// The compiled engine's native code for this launch, when it runs compiled (state.native).
  void choose_engine(CpuFunction& function, const LaunchConfig& config, emu::LaunchState& state);
  void finish_job();      // collects stats and a pending error after the job ended
  void report_findings(); // the sanitizers' findings: an error (exit 4) or, if benign, warnings

  ContextSettings m_settings;
  DeviceOutputSink m_device_output;
  int m_workers = 1;
  LaunchBudget m_launch_budget;
  std::shared_ptr<emu::DeviceMemory> m_memory;
  std::shared_ptr<emu::LaunchJob> m_job;
  std::shared_ptr<emu::DeviceHeap> m_heap; ///< made at the first kernel that calls malloc
  bool m_job_collected = true;
  std::exception_ptr m_pending_error;
  std::map<std::string, double> m_stats;
  std::vector<std::string> m_warnings;
  // The launch in flight, for launch_progress() on another thread.
  std::atomic<std::uint64_t> m_blocks_done{0};
  std::string m_engine_note;   ///< why the last launch ran on the interpreter, when it did
  std::string m_engine_reason; ///< the same, without the kernel's name
  /// Where the last launch's duration goes, and its shape (auto compares the engines).
  std::pair<std::shared_ptr<native::KernelState::Timings>, std::string> m_timed;
  std::uint64_t m_launches = 0; ///< launches so far: the next one's %gridid
  std::atomic<std::uint64_t> m_blocks{0};
  std::atomic<std::chrono::steady_clock::rep> m_launch_start{0};
};

} // namespace gpurun::cpu
