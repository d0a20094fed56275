#pragma once
// The table forms, CSV and Markdown: for commands whose result is a table (thread tables; the
// benchmark tables of `gpurun bench` will be the next).
#include "output/printer.hpp"

namespace gpurun {

class CsvPrinter : public Printer {
public:
  using Printer::Printer;
  [[nodiscard]] OutputFormat format() const override { return OutputFormat::csv; }

protected:
  /// The rows alone; a failed capture check goes to the error stream, keeping the CSV clean.
  void do_print_threads(const ThreadsReport& report) override;
  void do_print_bench(const bench::BenchReport& report) override;
};

class MarkdownPrinter : public Printer {
public:
  using Printer::Printer;
  [[nodiscard]] OutputFormat format() const override { return OutputFormat::md; }

protected:
  /// The summary as a bullet list, the rows as a pipe table.
  void do_print_threads(const ThreadsReport& report) override;
  void do_print_bench(const bench::BenchReport& report) override;
  void do_print_comparison(const bench::ComparisonReport& report) override;
};

} // namespace gpurun
