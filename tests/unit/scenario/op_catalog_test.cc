#include "scenario/op_catalog.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;

TensorType T(std::vector<int64_t> shape, DType dtype = DType::kFp16) {
  return TensorType{std::move(shape), dtype};
}

TensorType Infer(std::string_view op,
                 std::vector<TensorType> inputs,
                 std::vector<double> scalars = {}) {
  StatusOr<TensorType> result = InferOutput(op, inputs, scalars);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? *result : TensorType{};
}

std::string InferError(std::string_view op,
                       std::vector<TensorType> inputs,
                       std::vector<double> scalars = {}) {
  StatusOr<TensorType> result = InferOutput(op, inputs, scalars);
  EXPECT_FALSE(result.ok()) << op << " unexpectedly gave " << result->ToString();
  return result.status().message();
}

TEST(ScenarioOpCatalog, DeviceSupportFollowsVerifiedList) {
  const std::set<std::string_view> verified = {
      "abs",     "add",         "addmm",   "bmm", "ceil",  "clamp", "div",   "eq",
      "ge",      "gt",          "le",      "lt",  "ne",    "floor", "log",   "logical_not",
      "linear",  "masked_fill", "mean",    "mm",  "mul",   "neg",   "pow",   "rsqrt",
      "sigmoid", "silu",        "softmax", "sub", "trunc", "where", "matmul"};
  for (const OpInfo& op : AllOps()) {
    EXPECT_EQ(op.device_supported, verified.count(op.name) == 1) << op.name;
  }
  for (std::string_view name : verified) {
    EXPECT_NE(FindOp(name), nullptr) << name;
  }
  for (std::string_view name :
       {"max",     "min",       "argmax",    "topk", "cumsum",    "sort",    "rms_norm",
        "sdpa",    "attention", "embedding", "cat",  "transpose", "reshape", "to_fp32",
        "to_fp16", "relu",      "gelu",      "exp",  "tanh",      "rotary"}) {
    ASSERT_NE(FindOp(name), nullptr) << name;
    EXPECT_FALSE(FindOp(name)->device_supported) << name;
  }
}

TEST(ScenarioOpCatalog, NamesClassesAndFlags) {
  std::set<std::string_view> names;
  for (const OpInfo& op : AllOps()) {
    EXPECT_TRUE(names.insert(op.name).second) << "duplicate " << op.name;
    EXPECT_FALSE(op.aten_name.empty());
    EXPECT_LE(op.min_inputs, op.max_inputs);
    EXPECT_LE(op.min_scalars, op.max_scalars);
  }
  EXPECT_EQ(FindOp("mm")->aten_name, "aten::mm");
  EXPECT_EQ(FindOp("matmul")->aten_name, "aten::matmul");
  EXPECT_EQ(FindOp("sdpa")->aten_name, "aten::scaled_dot_product_attention");
  EXPECT_EQ(FindOp("to_fp32")->aten_name, "aten::to");
  EXPECT_EQ(FindOp("mm")->op_class, OpClass::kMatmul);
  EXPECT_EQ(FindOp("add")->op_class, OpClass::kElementwise);
  EXPECT_EQ(FindOp("mean")->op_class, OpClass::kReduction);
  EXPECT_EQ(FindOp("softmax")->op_class, OpClass::kSoftmax);
  EXPECT_EQ(FindOp("rms_norm")->op_class, OpClass::kNorm);
  EXPECT_EQ(FindOp("transpose")->op_class, OpClass::kDataMovement);
  EXPECT_TRUE(FindOp("add")->elementwise);
  EXPECT_TRUE(FindOp("silu")->elementwise);
  EXPECT_FALSE(FindOp("mm")->elementwise);
  EXPECT_FALSE(FindOp("softmax")->elementwise);
  EXPECT_STREQ(OpClassName(OpClass::kDataMovement), "data-movement");
}

TEST(ScenarioOpCatalog, UnknownOpSuggestsNearest) {
  EXPECT_THAT(LookupOp("matmull").status().message(),
              HasSubstr("unknown op 'matmull'; did you mean 'matmul'?"));
  EXPECT_THAT(LookupOp("aten::mm").status().message(), HasSubstr("did you mean 'mm'?"));
  EXPECT_THAT(InferError("sofmax", {T({4})}), HasSubstr("did you mean 'softmax'?"));
  EXPECT_EQ(LookupOp("quux").status().message(), "unknown op 'quux'");
}

TEST(ScenarioOpCatalog, MatrixProducts) {
  EXPECT_EQ(Infer("mm", {T({512, 256}), T({256, 128})}), T({512, 128}));
  EXPECT_THAT(InferError("mm", {T({512, 256}), T({512, 256})}),
              HasSubstr("mm: inner dimensions differ (256 vs 512)"));
  EXPECT_THAT(InferError("mm", {T({2, 4, 4}), T({4, 4})}), HasSubstr("operands must be 2-D"));
  EXPECT_THAT(InferError("mm", {T({4, 4}), T({4, 4}, DType::kFp32)}), HasSubstr("dtypes differ"));
  EXPECT_THAT(InferError("mm", {T({4, 4}, DType::kBool), T({4, 4}, DType::kBool)}),
              HasSubstr("bool"));
  EXPECT_EQ(Infer("bmm", {T({8, 4, 16}), T({8, 16, 2})}), T({8, 4, 2}));
  EXPECT_THAT(InferError("bmm", {T({8, 4, 16}), T({7, 16, 2})}), HasSubstr("batch sizes differ"));
  EXPECT_EQ(Infer("linear", {T({2, 10, 64}), T({32, 64})}), T({2, 10, 32}));
  EXPECT_EQ(Infer("linear", {T({10, 64}), T({32, 64}), T({32})}), T({10, 32}));
  EXPECT_THAT(InferError("linear", {T({10, 64}), T({32, 63})}), HasSubstr("weight's in"));
  EXPECT_THAT(InferError("linear", {T({10, 64}), T({32, 64}), T({31})}), HasSubstr("bias"));
  EXPECT_EQ(Infer("addmm", {T({128}), T({4, 64}), T({64, 128})}), T({4, 128}));
  EXPECT_EQ(Infer("addmm", {T({4, 128}), T({4, 64}), T({64, 128})}, {1, 0.5}), T({4, 128}));
  EXPECT_THAT(InferError("addmm", {T({3}), T({4, 64}), T({64, 128})}), HasSubstr("bias"));
}

TEST(ScenarioOpCatalog, MatmulFollowsTorchRules) {
  EXPECT_EQ(Infer("matmul", {T({512, 512}), T({512, 512})}), T({512, 512}));
  EXPECT_EQ(Infer("matmul", {T({64}), T({64})}), T({}));
  EXPECT_EQ(Infer("matmul", {T({8, 64}), T({64})}), T({8}));
  EXPECT_EQ(Infer("matmul", {T({64}), T({64, 8})}), T({8}));
  EXPECT_EQ(Infer("matmul", {T({3, 1, 4, 64}), T({5, 64, 8})}), T({3, 5, 4, 8}));
  EXPECT_EQ(Infer("matmul", {T({2, 4, 64}), T({64, 8})}), T({2, 4, 8}));
  EXPECT_THAT(InferError("matmul", {T({2, 4, 64}), T({3, 64, 8})}), HasSubstr("batch"));
  EXPECT_THAT(InferError("matmul", {T({}), T({4})}), HasSubstr("at least one dimension"));
  const OpInfo& matmul = *FindOp("matmul");
  const auto kernel = [](const OpInfo& op, const std::vector<TensorType>& inputs) {
    return AtenCallTreeOf(op, inputs).kernel;
  };
  EXPECT_EQ(kernel(matmul, {T({512, 512}), T({512, 512})}), "aten::mm");
  EXPECT_EQ(kernel(matmul, {T({2, 4, 64}), T({64, 8})}), "aten::mm");
  EXPECT_EQ(kernel(matmul, {T({2, 4, 64}), T({2, 64, 8})}), "aten::bmm");
  EXPECT_EQ(kernel(*FindOp("add"), {T({4}), T({4})}), "aten::add");
  // The composite frames around the kernel, and the layer its commands are named after.
  const AtenCallTree mm = AtenCallTreeOf(matmul, {T({512, 512}), T({512, 512})});
  EXPECT_EQ(mm.frames, std::vector<std::string_view>{"aten::matmul"});
  EXPECT_EQ(mm.layer, "mm");
  const AtenCallTree softmax = AtenCallTreeOf(*FindOp("softmax"), {T({8, 64})});
  EXPECT_EQ(softmax.frames, std::vector<std::string_view>{"aten::softmax"});
  EXPECT_EQ(softmax.kernel, "aten::_softmax");
  EXPECT_EQ(softmax.layer, "softmax");
  // torch-rbln registers linear on its dispatch shim: under inference mode it is its own kernel.
  const AtenCallTree linear = AtenCallTreeOf(*FindOp("linear"), {T({8, 64}), T({32, 64})});
  EXPECT_TRUE(linear.frames.empty());
  EXPECT_EQ(linear.kernel, "aten::linear");
  EXPECT_TRUE(AtenCallTreeOf(*FindOp("add"), {T({4}), T({4})}).frames.empty());
}

TEST(ScenarioOpCatalog, ElementwiseBroadcastingAndPromotion) {
  EXPECT_EQ(Infer("add", {T({4, 1, 8}), T({3, 1})}), T({4, 3, 8}));
  EXPECT_EQ(Infer("add", {T({64, 64})}, {1.0}), T({64, 64}));
  EXPECT_EQ(Infer("sub", {T({64}), T({64})}, {2.0}), T({64}));  // alpha
  EXPECT_THAT(InferError("mul", {T({64}), T({64})}, {2.0}), HasSubstr("no scalar"));
  EXPECT_THAT(InferError("add", {T({64})}), HasSubstr("needs a second operand"));
  EXPECT_THAT(InferError("add", {T({4, 64}), T({3, 64})}), HasSubstr("shapes do not broadcast"));
  EXPECT_EQ(Infer("add", {T({4}), T({4}, DType::kBf16)}), T({4}, DType::kFp32));
  EXPECT_EQ(Infer("mul", {T({4}), T({}, DType::kFp32)}), T({4}, DType::kFp16));  // 0-dim
  EXPECT_EQ(Infer("add", {T({4}, DType::kInt64)}, {0.5}), T({4}, DType::kFp32));
  EXPECT_EQ(Infer("div", {T({4}, DType::kInt64), T({4}, DType::kInt64)}), T({4}, DType::kFp32));
  EXPECT_THAT(InferError("add", {T({4}, DType::kFp8), T({4})}), HasSubstr("fp8"));
  EXPECT_EQ(Infer("ne", {T({4, 4}), T({4})}), T({4, 4}, DType::kBool));
  EXPECT_EQ(Infer("eq", {T({4, 4})}, {0}), T({4, 4}, DType::kBool));
  EXPECT_EQ(Infer("logical_not", {T({4})}), T({4}, DType::kBool));
  EXPECT_EQ(Infer("pow", {T({4})}, {2}), T({4}));
  EXPECT_EQ(Infer("clamp", {T({4})}, {-1, 1}), T({4}));
  EXPECT_THAT(InferError("clamp", {T({4})}), HasSubstr("takes 1 to 2 scalar(s), got 0"));
  EXPECT_EQ(Infer("where", {T({4, 1}, DType::kBool), T({4}), T({1, 4})}), T({4, 4}));
  EXPECT_THAT(InferError("where", {T({4}), T({4}), T({4})}), HasSubstr("must be bool"));
  EXPECT_EQ(Infer("masked_fill", {T({4, 4}), T({4}, DType::kBool)}, {0}), T({4, 4}));
  EXPECT_THAT(InferError("masked_fill", {T({4}), T({4, 4}, DType::kBool)}, {0}),
              HasSubstr("mask must broadcast"));
  EXPECT_EQ(Infer("log", {T({4}, DType::kInt64)}), T({4}, DType::kFp32));
  EXPECT_THAT(InferError("silu", {T({4}, DType::kInt64)}), HasSubstr("floating-point"));
  EXPECT_THAT(InferError("neg", {T({4}, DType::kBool)}), HasSubstr("bool"));
  for (std::string_view op : {"relu", "gelu", "exp", "tanh", "abs", "sigmoid", "rsqrt"}) {
    EXPECT_EQ(Infer(op, {T({2, 64})}), T({2, 64})) << op;
  }
  EXPECT_EQ(Infer("to_fp32", {T({2, 64})}), T({2, 64}, DType::kFp32));
  EXPECT_EQ(Infer("to_fp16", {T({2, 64}, DType::kFp32)}), T({2, 64}));
}

TEST(ScenarioOpCatalog, LastDimOpsNormsAndAttention) {
  EXPECT_EQ(Infer("softmax", {T({4, 128})}), T({4, 128}));
  EXPECT_EQ(Infer("softmax", {T({4, 128})}, {-1}), T({4, 128}));
  EXPECT_THAT(InferError("softmax", {T({4, 128})}, {0}), HasSubstr("only the last dim"));
  EXPECT_EQ(Infer("mean", {T({4, 128})}), T({4}));
  EXPECT_EQ(Infer("max", {T({4, 128})}), T({4}));
  EXPECT_EQ(Infer("argmax", {T({4, 128})}), T({4}, DType::kInt64));
  EXPECT_EQ(Infer("topk", {T({4, 128})}, {5}), T({4, 5}));
  EXPECT_THAT(InferError("topk", {T({4, 8})}, {9}), HasSubstr("k=9"));
  EXPECT_EQ(Infer("cumsum", {T({4, 8}, DType::kBool)}), T({4, 8}, DType::kInt64));
  EXPECT_EQ(Infer("sort", {T({4, 8})}), T({4, 8}));
  EXPECT_THAT(InferError("mean", {T({})}), HasSubstr("at least one dimension"));
  EXPECT_EQ(Infer("rms_norm", {T({2, 16, 64}), T({64})}), T({2, 16, 64}));
  EXPECT_THAT(InferError("rms_norm", {T({2, 64}), T({32})}), HasSubstr("weight"));
  EXPECT_EQ(Infer("rotary", {T({2, 8, 16, 64}), T({16, 64}), T({16, 64})}), T({2, 8, 16, 64}));
  EXPECT_THAT(InferError("rotary", {T({2, 63}), T({63}), T({63})}), HasSubstr("even"));
  EXPECT_EQ(Infer("sdpa", {T({2, 8, 16, 64}), T({2, 8, 32, 64}), T({2, 8, 32, 128})}),
            T({2, 8, 16, 128}));
  EXPECT_EQ(Infer("attention",
                  {T({8, 16, 64}), T({8, 32, 64}), T({8, 32, 64}), T({16, 32}, DType::kBool)}),
            T({8, 16, 64}));
  EXPECT_THAT(InferError("sdpa", {T({8, 16, 64}), T({8, 32, 32}), T({8, 32, 64})}),
              HasSubstr("head dims differ"));
  EXPECT_EQ(Infer("embedding", {T({32000, 512}), T({2, 7}, DType::kInt64)}), T({2, 7, 512}));
  EXPECT_THAT(InferError("embedding", {T({32000, 512}), T({2, 7})}), HasSubstr("int64"));
}

TEST(ScenarioOpCatalog, DataMovement) {
  EXPECT_EQ(Infer("cat", {T({2, 64}), T({3, 64})}), T({5, 64}));
  EXPECT_EQ(Infer("cat", {T({2, 64}), T({2, 32})}, {-1}), T({2, 96}));
  EXPECT_THAT(InferError("cat", {T({2, 64}), T({3, 32})}), HasSubstr("sizes must match"));
  EXPECT_EQ(Infer("transpose", {T({2, 3, 4})}, {0, -1}), T({4, 3, 2}));
  EXPECT_THAT(InferError("transpose", {T({2, 3})}, {0, 2}), HasSubstr("out of range"));
  EXPECT_EQ(Infer("reshape", {T({64, 64})}, {16, -1}), T({16, 256}));
  EXPECT_EQ(Infer("reshape", {T({1})}, {}), T({}));
  EXPECT_THAT(InferError("reshape", {T({64, 64})}, {100, -1}), HasSubstr("cannot reshape"));
  EXPECT_THAT(InferError("reshape", {T({64, 64})}, {-1, -1}), HasSubstr("at most one -1"));
  EXPECT_THAT(InferError("reshape", {T({64, 64})}, {2.5, -1}), HasSubstr("must be an integer"));
}

TEST(ScenarioOpCatalog, LimitsAndArity) {
  EXPECT_THAT(InferError("mm", {T({4, 4})}), HasSubstr("takes 2 input tensor(s), got 1"));
  EXPECT_THAT(InferError("abs", {T({4}), T({4})}), HasSubstr("takes 1 input tensor(s), got 2"));
  EXPECT_THAT(InferError("abs", {T({0})}), HasSubstr("must be positive"));
  EXPECT_THAT(InferError("mm", {T({1 << 20, 1 << 20}), T({1 << 20, 1 << 20})}), HasSubstr("1 TiB"));
  EXPECT_EQ(T({512, 512}).Bytes(), 512 * 512 * 2);
  EXPECT_EQ(T({512, 512}).ToString(), "fp16[512,512]");
  EXPECT_EQ(T({}).NumElements(), 1);
}

TEST(ScenarioOpCatalog, KnownAtenNamesCoverHostCalls) {
  const std::vector<std::string_view>& names = KnownAtenNames();
  for (std::string_view name :
       {"aten::mm", "aten::matmul", "aten::abs", "aten::isinf", "aten::to", "aten::_to_copy",
        "aten::copy_", "aten::_copy_from", "aten::isnan", "aten::ne"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

}  // namespace
}  // namespace rblnsim::scenario
