#include "backends/compilers/hiprtc.hpp"

#include <gtest/gtest.h>

namespace gpurun::hiprtc {
namespace {

// hipRTC's logs name the temporary copy comgr compiled; gpurun's name the user's file.
TEST(HiprtcLog, NamesTheUsersFile) {
  // ROCm 5.2: a fixed name in comgr's folder.
  EXPECT_EQ(with_source_name("/tmp/comgr-1c1858/input/CompileSource:3:10: error: x\n", "k.hip"),
            "k.hip:3:10: error: x\n");
  // ROCm 5.7: the program's own name below comgr's folder, absolute or relative.
  EXPECT_EQ(with_source_name("/tmp/comgr-b67d4a/input/tmp/bad.hip:3:10: error: y", "/tmp/bad.hip"),
            "/tmp/bad.hip:3:10: error: y");
  EXPECT_EQ(with_source_name("In file included from /tmp/comgr-8e4c9b/input/kernels/a+b.hip:2:\n",
                             "kernels/a+b.hip"),
            "In file included from kernels/a+b.hip:2:\n");
  // Other paths, and other files in comgr's folder, are left alone.
  EXPECT_EQ(with_source_name("/usr/include/hip/x.h:1:2: note", "k.hip"),
            "/usr/include/hip/x.h:1:2: note");
  EXPECT_EQ(with_source_name("/tmp/comgr-1/input/other.h:1:2: note", "k.hip"),
            "/tmp/comgr-1/input/other.h:1:2: note");
}

} // namespace
} // namespace gpurun::hiprtc
