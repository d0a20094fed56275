#include "output/printer.hpp"

#include <iostream>

#include <fmt/format.h>

#include "base/error.hpp"
#include "output/human_printer.hpp"
#include "output/json_printer.hpp"
#include "output/table_printers.hpp"

namespace gpurun {

void Printer::print_launch(const RunOutcome& outcome) {
  do_print_launch(outcome);
  m_out.flush();
}

void Printer::print_run(const RunOutcome& outcome, const RunView& view) {
  do_print_run(outcome, view);
}

void Printer::print_devices(const DevicesReport& report) {
  do_print_devices(report);
}

void Printer::print_device_check(const DeviceCheckReport& report) {
  do_print_device_check(report);
}

void Printer::print_compile(const CompileReport& report) {
  do_print_compile(report);
}

void Printer::print_threads(const ThreadsReport& report) {
  do_print_threads(report);
}

void Printer::print_bench(const bench::BenchReport& report) {
  do_print_bench(report);
}

void Printer::print_comparison(const bench::ComparisonReport& report) {
  do_print_comparison(report);
}

void Printer::do_print_launch(const RunOutcome& /*outcome*/) {}

void Printer::do_print_run(const RunOutcome& /*outcome*/, const RunView& /*view*/) {
  unsupported("a run");
}

void Printer::do_print_devices(const DevicesReport& /*report*/) {
  unsupported("gpurun devices");
}

void Printer::do_print_device_check(const DeviceCheckReport& /*report*/) {}

void Printer::do_print_compile(const CompileReport& /*report*/) {
  unsupported("gpurun compile");
}

void Printer::do_print_threads(const ThreadsReport& /*report*/) {
  unsupported("gpurun threads");
}

void Printer::do_print_bench(const bench::BenchReport& /*report*/) {
  unsupported("gpurun bench");
}

void Printer::do_print_comparison(const bench::ComparisonReport& /*report*/) {
  unsupported("gpurun compare");
}

void Printer::unsupported(std::string_view what) const {
  throw usage_error(fmt::format("--format {}: not available for {}", format_name(format()), what));
}

std::unique_ptr<Printer> make_printer(OutputFormat format) {
  return make_printer(format, std::cout, std::cerr);
}

std::unique_ptr<Printer> make_printer(OutputFormat format, std::ostream& out, std::ostream& err) {
  switch (format) {
  case OutputFormat::json:
    return std::make_unique<JsonPrinter>(out, err);
  case OutputFormat::csv:
    return std::make_unique<CsvPrinter>(out, err);
  case OutputFormat::md:
    return std::make_unique<MarkdownPrinter>(out, err);
  case OutputFormat::human:
    break;
  }
  return std::make_unique<HumanPrinter>(out, err);
}

} // namespace gpurun
