#pragma once
// The one output layer: every command hands its result to a Printer, which writes it in one
// format. The public print_* calls are the commands' vocabulary; each format implements the
// do_* hooks it supports (the human and JSON printers all of them, the CSV and Markdown printers
// the tables). A hook a format lacks is a usage error naming the format, so a command never
// prints in a format by accident.
#include <iosfwd>
#include <memory>
#include <string_view>

#include "bench/report.hpp"
#include "output/output_format.hpp"
#include "output/reports.hpp"
#include "pipeline/run_request.hpp"

namespace gpurun {

namespace bench {
struct ComparisonReport;
} // namespace bench

class Printer {
public:
  /// Reports go to `out`; `err` takes what a format keeps off its document (a CSV table's
  /// failed capture check).
  Printer(std::ostream& out, std::ostream& err) : m_out(out), m_err(err) {}
  virtual ~Printer() = default;
  Printer(const Printer&) = delete;
  Printer& operator=(const Printer&) = delete;

  [[nodiscard]] virtual OutputFormat format() const = 0;

  /// Before a launch, so that device printf follows it (the human form's launch line).
  void print_launch(const RunOutcome& outcome);
  void print_run(const RunOutcome& outcome, const RunView& view);
  void print_devices(const DevicesReport& report);
  void print_device_check(const DeviceCheckReport& report);
  void print_compile(const CompileReport& report);
  void print_threads(const ThreadsReport& report);
  void print_bench(const bench::BenchReport& report);
  void print_comparison(const bench::ComparisonReport& report);

protected:
  [[nodiscard]] std::ostream& out() { return m_out; }
  [[nodiscard]] std::ostream& err() { return m_err; }

  virtual void do_print_launch(const RunOutcome& outcome);
  virtual void do_print_run(const RunOutcome& outcome, const RunView& view);
  virtual void do_print_devices(const DevicesReport& report);
  virtual void do_print_device_check(const DeviceCheckReport& report);
  virtual void do_print_compile(const CompileReport& report);
  virtual void do_print_threads(const ThreadsReport& report);
  virtual void do_print_bench(const bench::BenchReport& report);
  virtual void do_print_comparison(const bench::ComparisonReport& report);

  /// Throws usage Error: "--format csv: not available for <what>".
  [[noreturn]] void unsupported(std::string_view what) const;

private:
  std::ostream& m_out;
  std::ostream& m_err;
};

/// The printer for `format`, writing to `out` (stdout by default) and `err` (stderr).
[[nodiscard]] std::unique_ptr<Printer> make_printer(OutputFormat format);
[[nodiscard]] std::unique_ptr<Printer> make_printer(OutputFormat format, std::ostream& out,
                                                    std::ostream& err);

} // namespace gpurun
