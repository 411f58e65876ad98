#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "models/compiler/command_naming.h"
#include "models/compiler/op_compiler.h"

namespace rblnsim::compiler {
namespace {

OpLaunch Mm(int64_t m, int64_t k, int64_t n, bool same_tensor) {
  OpLaunch launch;
  launch.layer = "mm";
  launch.op_class = OpClass::kMatmul;
  launch.inputs = {{{m, k}, scenario::DType::kFp16, 0, true},
                   {{k, n}, scenario::DType::kFp16, same_tensor ? 0 : 1, true}};
  launch.output_shape = {m, n};
  return launch;
}

TEST(OpCompiler, SeedMatmulHasThreeArgsAndThreeMmCommands) {
  auto program = CompileOp(Mm(512, 512, 512, true), scenario::DeviceConfig{});
  ASSERT_TRUE(program.ok());
  ASSERT_EQ(program->commands.size(), 6u);
  std::vector<std::string> names;
  for (const Command& c : program->commands) {
    names.push_back(FormatCommandName("i{instance}_{sequence}_W{workload}_{layer}_{command}",
                                      {1, 0, 0, c.layer, c.index}));
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"i1_0_W0_args_0_0", "i1_0_W0_args_0_1", "i1_0_W0_args_0_2",
                                      "i1_0_W0_mm_0", "i1_0_W0_mm_1", "i1_0_W0_mm_2"}));
  EXPECT_EQ(program->flops, 2LL * 512 * 512 * 512);
}

TEST(OpCompiler, DistinctInputsGetTheirOwnArgsGroups) {
  auto program = CompileOp(Mm(512, 512, 512, false), scenario::DeviceConfig{});
  ASSERT_TRUE(program.ok());
  EXPECT_EQ(program->commands.size(), 9u);
}

TEST(OpCompiler, LargeMatmulSplitsAcrossChipletsWithTheSameNames) {
  auto program = CompileOp(Mm(8192, 8192, 8192, false), scenario::DeviceConfig{});
  ASSERT_TRUE(program.ok());
  int compute = 0;
  std::set<int> chiplets;
  for (const Command& c : program->commands) {
    if (c.engine == rebel100::EngineType::kNeuralEngine) {
      ++compute;
      chiplets.insert(c.chiplet);
      EXPECT_EQ(c.layer, "mm");
      EXPECT_EQ(c.index, 1);
    }
  }
  EXPECT_EQ(compute, 4);
  EXPECT_EQ(chiplets.size(), 4u);
}

TEST(OpCompiler, DependenciesPointBackwards) {
  auto program = CompileOp(Mm(8192, 8192, 8192, false), scenario::DeviceConfig{});
  ASSERT_TRUE(program.ok());
  for (size_t i = 0; i < program->commands.size(); ++i) {
    for (int dep : program->commands[i].deps)
      EXPECT_LT(dep, static_cast<int>(i));
  }
}

TEST(OpCompiler, RejectsAContractionMismatch) {
  OpLaunch launch = Mm(4, 8, 16, false);
  launch.inputs[1].shape = {9, 16};
  EXPECT_FALSE(CompileOp(launch, scenario::DeviceConfig{}).ok());
}

TEST(CommandNaming, TemplateIsConfigurable) {
  EXPECT_EQ(FormatCommandName("{sequence}_{layer}_{command}", {1, 12, 0, "linear", 196}),
            "12_linear_196");
  EXPECT_EQ(FormatCommandName("{unknown}-{layer}", {1, 0, 0, "mm", 0}), "{unknown}-mm");
}

// A template read once expands as it reads: braces that open no known field, unclosed ones and
// doubled ones stay text from the brace on; fields may repeat and sit side by side.
TEST(CommandNaming, TemplateReadOnceExpandsEveryCall) {
  const CommandNameTemplate name("{{instance}}_{layer}{command}{command}_{x_{sequence}_{w");
  std::string out;
  name.Append({3, 41, 0, "mm", 7}, &out);
  name.Append({4, 5, 0, "add", 0}, &out);
  EXPECT_EQ(out, "{3}_mm77_{x_41_{w{4}_add00_{x_5_{w");
  EXPECT_EQ(FormatCommandName("", {1, 2, 3, "l", 4}), "");
  EXPECT_EQ(FormatCommandName("{workload}}", {1, 2, 3, "l", 4}), "3}");
}

// Names are composed in a buffer of their longest possible size when that fits, else piece by
// piece: either way the same text, for layers of any length around that size and numbers of
// every width.
TEST(CommandNaming, LongLayersAndWideNumbersExpandInFull) {
  const CommandNameTemplate name("i{instance}_{sequence}_W{workload}_{layer}/{layer}_{command}");
  for (size_t length : {0, 1, 70, 83, 84, 85, 86, 100, 127, 128, 129, 300}) {
    const std::string layer(length, 'L');
    for (int64_t sequence : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX}) {
      std::string out = "kept:";
      name.Append({INT32_MIN, sequence, INT32_MAX, layer, -7}, &out);
      EXPECT_EQ(out, "kept:i" + std::to_string(INT32_MIN) + "_" + std::to_string(sequence) + "_W" +
                         std::to_string(INT32_MAX) + "_" + layer + "/" + layer + "_-7")
          << "layer of " << length;
    }
  }
}

}  // namespace
}  // namespace rblnsim::compiler
