#pragma once
// The JSON form: one document per command on stdout (docs/spec.md), so that a script reads stdout
// the same way whatever the command.
#include "output/printer.hpp"

namespace gpurun {

class JsonPrinter : public Printer {
public:
  using Printer::Printer;
  [[nodiscard]] OutputFormat format() const override { return OutputFormat::json; }

protected:
  void do_print_run(const RunOutcome& outcome, const RunView& view) override;
  void do_print_devices(const DevicesReport& report) override;
  void do_print_device_check(const DeviceCheckReport& report) override;
  void do_print_compile(const CompileReport& report) override;
  void do_print_threads(const ThreadsReport& report) override;
  void do_print_bench(const bench::BenchReport& report) override;
  void do_print_comparison(const bench::ComparisonReport& report) override;
};

} // namespace gpurun
