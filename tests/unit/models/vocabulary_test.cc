// The simulator and the trace analyses agree on the platform: every op of the scenario catalog
// is device-supported / elementwise for the host model exactly when base/rbln_vocabulary.h says
// so, which is what the analyses use to infer a fallback's cause from a trace.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "base/rbln_vocabulary.h"
#include "models/compiler/op_compiler.h"
#include "models/rebel100/command_timing.h"
#include "models/rebel100/engine_types.h"
#include "scenario/op_catalog.h"
#include "scenario/registry.h"

namespace rblnsim {
namespace {

TEST(PlatformVocabulary, CatalogAgreesWithTheSupportedOps) {
  int supported = 0;
  for (const scenario::OpInfo& op : scenario::AllOps()) {
    if (op.aten_name == "aten::to")
      continue;  // casts are host conversions, not device kernels
    SCOPED_TRACE(op.name);
    EXPECT_EQ(op.device_supported, platform::IsDeviceSupportedOp(op.aten_name));
    if (op.device_supported) {
      EXPECT_EQ(op.elementwise, platform::IsDeviceElementwiseOp(op.aten_name));
    }
    supported += op.device_supported ? 1 : 0;
  }
  EXPECT_GT(supported, 0);
}

TEST(PlatformVocabulary, FallbackReasonNames) {
  EXPECT_STREQ(platform::FallbackReasonName(platform::FallbackReason::kDtype), "dtype-not-fp16");
  EXPECT_STREQ(platform::FallbackReasonName(platform::FallbackReason::kUnknown), "unknown");
  EXPECT_TRUE(platform::IsDeviceSupportedOp("aten::mm"));
  EXPECT_FALSE(platform::IsDeviceElementwiseOp("aten::mm"));
  EXPECT_FALSE(platform::IsDeviceSupportedOp("aten::cumsum"));
}

// One descriptor per engine type: names as the profiler shows them, the kind each maps to, and
// the lanes per chiplet, whose DMA rows add up to the eight DMA engines a die has.
TEST(EngineDescriptors, OneRowPerTypeAndEightDmaLanes) {
  int dma_lanes = 0;
  for (int t = 0; t < rebel100::kEngineTypeCount; ++t) {
    const auto type = static_cast<rebel100::EngineType>(t);
    const rebel100::EngineDescriptor& engine = rebel100::Engine(type);
    EXPECT_EQ(engine.type, type);
    EXPECT_GE(engine.lanes, 1);
    if (engine.kind == rebel100::ActivityKind::kDma)
      dma_lanes += engine.lanes;
  }
  EXPECT_EQ(dma_lanes, 8);
  EXPECT_STREQ(rebel100::EngineTypeName(rebel100::EngineType::kNeuralEngine),
               "Neural Engine Clusters");
  EXPECT_EQ(rebel100::EngineActivityKind(rebel100::EngineType::kGeneralCompute),
            rebel100::ActivityKind::kCompute);
  EXPECT_EQ(rebel100::EnginesOfType(rebel100::EngineType::kNeuralDma), 4);
}

// Each engine names the scenario keys that set its timing: every word is a key or a section of
// keys (so a renamed key cannot leave a descriptor pointing at nothing).
TEST(EngineDescriptors, ConfigKeysAreScenarioKeys) {
  for (int t = 0; t < rebel100::kEngineTypeCount; ++t) {
    const rebel100::EngineDescriptor& engine =
        rebel100::Engine(static_cast<rebel100::EngineType>(t));
    std::istringstream words(engine.config_keys);
    std::string word;
    int count = 0;
    while (words >> word) {
      ++count;
      bool found = scenario::FindParam(word) != nullptr;
      for (const scenario::Param& param : scenario::Parameters())
        found = found || param.path.substr(0, word.size() + 1) == word + ".";
      EXPECT_TRUE(found) << engine.name << ": " << word;
    }
    EXPECT_GE(count, 2) << engine.name;
  }
}

// The compiler emits only commands whose work their engine's timing function reads, and says so
// when it would not.
TEST(EngineDescriptors, CompiledCommandsCarryTheirEnginesWork) {
  compiler::OpLaunch launch;
  launch.layer = "mm";
  launch.op_class = compiler::OpClass::kMatmul;
  launch.inputs = {{{1, 4096}, scenario::DType::kFp16, 0, true},
                   {{4096, 4096}, scenario::DType::kFp16, 1, true}};
  launch.output_shape = {1, 4096};
  const scenario::DeviceConfig device;
  auto program = compiler::CompileOp(launch, device);
  ASSERT_TRUE(program.ok()) << program.status().message();
  for (const compiler::Command& command : program->commands)
    EXPECT_EQ(compiler::KindOf(command.work), rebel100::Engine(command.engine).work);
  EXPECT_GT(rebel100::DemandOf(program->commands.back(), device).engine_ns,
            rebel100::CommandOverheadNs(device));
}

}  // namespace
}  // namespace rblnsim
