#pragma once
// The human form: aligned text for a terminal, every command.
#include "output/printer.hpp"

namespace gpurun {

class HumanPrinter : public Printer {
public:
  using Printer::Printer;
  [[nodiscard]] OutputFormat format() const override { return OutputFormat::human; }

protected:
  void do_print_launch(const RunOutcome& outcome) override;
  void do_print_run(const RunOutcome& outcome, const RunView& view) override;
  void do_print_devices(const DevicesReport& report) override;
  void do_print_compile(const CompileReport& report) override;
  void do_print_threads(const ThreadsReport& report) override;
  void do_print_bench(const bench::BenchReport& report) override;
  void do_print_comparison(const bench::ComparisonReport& report) override;
};

} // namespace gpurun
