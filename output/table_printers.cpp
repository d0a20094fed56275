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
  if (report.cases.empty() && report.p2p) {
    // --p2p alone: the matrix is the report.
  } else if (!report.multi_device()) {
    out() << bench_markdown(report);
  } else {
    bool first = true;
    for (const auto& section : bench_model_sections(report)) {
      out() << (first ? "" : "\n") << "### " << section.title << "\n\n"
            << bench_markdown(section.report);
      first = false;
    }
  }
  if (report.p2p)
    out() << "\n### copy bandwidth between devices, GB/s (rows: from, columns: to)\n\n"
          << p2p_markdown(*report.p2p);
}

void MarkdownPrinter::do_print_comparison(const bench::ComparisonReport& report) {
  out() << render_comparison_table(report);
}

} // namespace gpurun
