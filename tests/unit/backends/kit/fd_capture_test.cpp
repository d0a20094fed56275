#include "backends/kit/fd_capture.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

// A descriptor on a real file, standing in for a process's standard output so that the tests can
// check where every byte ended up: in the capture, or in the original destination.
class FileDescriptor {
public:
  FileDescriptor() : m_path(test::temp_dir() / "destination.txt") {
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  }
  ~FileDescriptor() {
    if (m_fd >= 0)
      ::close(m_fd);
  }
  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] std::string contents() const {
    std::ifstream in(m_path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

private:
  std::filesystem::path m_path;
  int m_fd = -1;
};

void write_raw(int fd, const std::string& text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(FdCapture, TakesWhatIsWrittenAndThenRestoresTheDestination) {
  FileDescriptor destination;
  ASSERT_GE(destination.fd(), 0);
  write_raw(destination.fd(), "before;");
  kit::FdCapture capture(destination.fd());
  write_raw(destination.fd(), "during;");
  write_raw(destination.fd(), "still during;");
  EXPECT_EQ(capture.finish(), "during;still during;");
  write_raw(destination.fd(), "after");
  EXPECT_EQ(destination.contents(), "before;after");
  EXPECT_EQ(capture.finish(), "") << "a second finish has nothing left";
}

TEST(FdCapture, FlushesCStdioAtBothEnds) {
  FileDescriptor destination;
  FILE* stream = ::fdopen(::dup(destination.fd()), "w");
  ASSERT_NE(stream, nullptr);
  // fdopen'ed a duplicate: capture the descriptor the stream really writes to.
  const int fd = ::fileno(stream);
  std::setvbuf(stream, nullptr, _IOFBF, 1 << 16); // held in the buffer until flushed
  std::fputs("buffered before;", stream);
  kit::FdCapture capture(fd);
  std::fputs("buffered during;", stream);
  const std::string captured = capture.finish();
  std::fputs("buffered after", stream);
  std::fclose(stream);
  EXPECT_EQ(captured, "buffered during;");
  EXPECT_EQ(destination.contents(), "buffered before;buffered after");
}

TEST(FdCapture, KeepsOutputFarLargerThanAPipeBuffer) {
  FileDescriptor destination;
  kit::FdCapture capture(destination.fd());
  std::string expected;
  for (int i = 0; i < 40000; ++i) {
    const std::string line = "line " + std::to_string(i) + " of the captured output\n";
    write_raw(destination.fd(), line);
    expected += line;
  }
  const std::string captured = capture.finish();
  EXPECT_GT(captured.size(), 1u << 20);
  EXPECT_EQ(captured, expected);
  EXPECT_EQ(destination.contents(), "");
}

TEST(FdCapture, DestructorRestoresWithoutFinish) {
  FileDescriptor destination;
  {
    kit::FdCapture capture(destination.fd());
    write_raw(destination.fd(), "dropped");
  }
  write_raw(destination.fd(), "kept");
  EXPECT_EQ(destination.contents(), "kept");
}

TEST(FdCapture, CapturesStandardOutputThroughEveryLayer) {
  kit::FdCapture capture(STDOUT_FILENO);
  std::printf("printf;");
  std::fputs("fputs;", stdout);
  std::fflush(stdout); // stdio's own buffer would otherwise hold the two above back
  write_raw(STDOUT_FILENO, "write;");
  EXPECT_EQ(capture.finish(), "printf;fputs;write;");
}

} // namespace
} // namespace gpurun
