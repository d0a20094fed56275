#include "backends/compilers/rtc_program.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace gpurun::compilers {
namespace {

enum FakeResult : int { fake_success = 0, fake_failure = 3, fake_compile_error = 6 };
struct FakeProgramObject {
  std::vector<std::string> headers;
  std::vector<std::string> options;
};
using FakeProgram = FakeProgramObject*;

// What the calls return, and what they saw.
struct Script {
  FakeResult create = fake_success;
  FakeResult add_name = fake_success;
  FakeResult lowered = fake_success;
  std::string log;
  std::string code;
  std::vector<std::string> names_added;
  int destroyed = 0;
  FakeProgramObject last; ///< the program as destroyed
};
Script& script() {
  static Script s;
  return s;
}

struct FakeApi {
  FakeResult (*create_program)(FakeProgram*, const char*, const char*, int, const char* const*,
                               const char* const*) =
      [](FakeProgram* program, const char*, const char*, int count, const char* const* texts,
         const char* const* names) {
        if (script().create != fake_success)
          return script().create;
        *program = new FakeProgramObject;
        for (int i = 0; i < count; ++i)
          (*program)->headers.push_back(std::string(names[i]) + "=" + texts[i]);
        return fake_success;
      };
  FakeResult (*destroy_program)(FakeProgram*) = [](FakeProgram* program) {
    ++script().destroyed;
    script().last = **program;
    delete *program;
    *program = nullptr;
    return fake_success;
  };
  FakeResult (*add_name_expression)(FakeProgram, const char*) = [](FakeProgram, const char* name) {
    script().names_added.emplace_back(name);
    return script().add_name;
  };
  FakeResult (*compile_program)(FakeProgram, int, const char* const*) =
      [](FakeProgram program, int count, const char* const* options) {
        for (int i = 0; i < count; ++i)
          program->options.emplace_back(options[i]);
        return script().log.empty() ? fake_success : fake_compile_error;
      };
  FakeResult (*get_program_log_size)(FakeProgram, std::size_t*) = [](FakeProgram,
                                                                     std::size_t* size) {
    *size = script().log.size() + 1;
    return fake_success;
  };
  FakeResult (*get_program_log)(FakeProgram, char*) = [](FakeProgram, char* log) {
    std::memcpy(log, script().log.c_str(), script().log.size() + 1);
    return fake_success;
  };
  FakeResult (*get_lowered_name)(FakeProgram, const char*, const char**) =
      [](FakeProgram, const char* name, const char** lowered) {
        if (script().lowered != fake_success)
          return script().lowered;
        *lowered = std::strcmp(name, "k<int>") == 0 ? "_Z1kIiEvv" : nullptr;
        return fake_success;
      };
};

struct FakeRtc {
  using Api = FakeApi;
  static constexpr FakeResult success = fake_success;
  static constexpr const char* name = "fakertc";
  static std::string result_name(FakeResult result) {
    return "FAKE_" + std::to_string(static_cast<int>(result));
  }
};
using Program = RtcProgram<FakeRtc>;

RtcHeaders one_header() {
  RtcHeaders headers;
  headers.names = {"a.h"};
  headers.texts = {"int a;"};
  return headers;
}

Script& fresh_script() {
  script() = Script{};
  return script();
}

TEST(RtcProgram, CompilesWithTheHeadersAndOptionsAndIsDestroyedOnce) {
  auto& s = fresh_script();
  s.code = "CODE";
  const FakeApi api;
  {
    Program program(api, "src", "k.cu", one_header(), {"k<int>", "k<float>"});
    EXPECT_EQ(s.names_added, (std::vector<std::string>{"k<int>", "k<float>"}));
    EXPECT_EQ(program.compile({"-a", "-b"}), fake_success);
    EXPECT_EQ(program.log(), "");
    const auto get_size = [](FakeProgram, std::size_t* size) {
      *size = script().code.size();
      return fake_success;
    };
    const auto get = [](FakeProgram, char* out) {
      std::memcpy(out, script().code.data(), script().code.size());
      return fake_success;
    };
    const auto code = program.output(get_size, "GetCodeSize", get, "GetCode");
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(code.data()), code.size()), "CODE");
    const auto names = program.lowered_names({"k<int>", "k<float>"}, MissingLoweredName::raise);
    EXPECT_EQ(names, (std::map<std::string, std::string>{{"k<int>", "_Z1kIiEvv"}}))
        << "a name the library does not give is left out";
  }
  EXPECT_EQ(s.destroyed, 1);
  EXPECT_EQ(s.last.headers, std::vector<std::string>{"a.h=int a;"});
  EXPECT_EQ(s.last.options, (std::vector<std::string>{"-a", "-b"}));
}

TEST(RtcProgram, ReturnsTheCompileStatusAndTheLog) {
  auto& s = fresh_script();
  s.log = "k.cu(1): error: expected a ';'\n";
  const FakeApi api;
  Program program(api, "src", "k.cu", {}, {});
  EXPECT_EQ(program.compile({}), fake_compile_error);
  EXPECT_EQ(program.log(), s.log);
}

TEST(RtcProgram, AFailedCallIsABackendErrorNamingIt) {
  auto& s = fresh_script();
  s.create = fake_failure;
  const FakeApi api;
  try {
    Program program(api, "src", "k.cu", {}, {});
    FAIL() << "no error";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.backend(), "fakertc");
    EXPECT_EQ(e.call(), "fakertcCreateProgram");
    EXPECT_EQ(e.native_name(), "FAKE_3");
    EXPECT_STREQ(e.what(), "fakertcCreateProgram failed: FAKE_3");
  }
  EXPECT_EQ(s.destroyed, 0) << "nothing was made";

  fresh_script().add_name = fake_failure;
  EXPECT_THROW(Program(api, "src", "k.cu", {}, {"k<int>"}), BackendError);
  EXPECT_EQ(script().destroyed, 1) << "the program made is destroyed";
}

TEST(RtcProgram, ALoweredNameThatCannotBeReadRaisesOrIsLeftOut) {
  fresh_script();
  const FakeApi api;
  Program program(api, "src", "k.cu", {}, {"k<int>"});
  ASSERT_EQ(program.compile({}), fake_success);
  script().lowered = fake_failure;
  EXPECT_TRUE(program.lowered_names({"k<int>"}, MissingLoweredName::leave_out).empty());
  try {
    (void)program.lowered_names({"k<int>"}, MissingLoweredName::raise);
    FAIL() << "no error";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.call(), "fakertcGetLoweredName");
  }
}

} // namespace
} // namespace gpurun::compilers
