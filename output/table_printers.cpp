#include "output/table_printers.hpp"

#include <ostream>

#include "output/bench_report.hpp"
#include "output/comparison_report.hpp"
#include "output/thread_report.hpp"
#include "output/thread_rows.hpp"

namespace gpurun {

void CsvPrinter::do_print_threads(const ThreadsReport& report) {
  write_rows(out(), *report.table, report.view);
  if (report.capture && !report.capture->check.ok())
    err() << format_check(report.capture->check);
}

void MarkdownPrinter::do_print_threads(const ThreadsReport& report) {
  out() << markdown_list(format_threads_head(report)) << '\n';
  write_rows(out(), *report.table, report.view);
  if (report.capture)
    out() << '\n' << markdown_list(format_capture(*report.capture));
}

void CsvPrinter::do_print_bench(const bench::BenchReport& report) {
  out() << bench_csv(report);
}

void MarkdownPrinter::do_print_bench(const bench::BenchReport& report) {
  out() << bench_markdown(report);
}

void MarkdownPrinter::do_print_comparison(const bench::ComparisonReport& report) {
  out() << render_comparison_table(report);
}

} // namespace gpurun
