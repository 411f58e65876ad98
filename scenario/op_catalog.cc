#include "scenario/op_catalog.h"

#include <algorithm>
#include <unordered_map>

#include "base/rbln_vocabulary.h"
#include "scenario/suggest.h"

namespace rblnsim::scenario {
namespace {

using C = OpClass;
using R = OpRule;
using P = DTypePolicy;

// name, aten, inputs min/max, scalars min/max, elementwise, class, rule, policy. Whether the op
// runs on the device comes from the platform's eager op list (base/rbln_vocabulary.h).
std::vector<OpInfo> BuildCatalog() {
  auto op = [](std::string_view name, std::string_view aten, int in_min, int in_max, int sc_min,
               int sc_max, bool elementwise, C op_class, R rule, P policy) {
    OpInfo info;
    info.name = name;
    info.aten_name = aten;
    info.min_inputs = in_min;
    info.max_inputs = in_max;
    info.min_scalars = sc_min;
    info.max_scalars = sc_max;
    // Which ops run on the device is platform knowledge, shared with the host model and the
    // trace analyses (base/rbln_vocabulary.h), not something each catalogue row restates.
    info.device_supported = platform::IsDeviceSupportedOp(aten);
    info.elementwise = elementwise;
    info.op_class = op_class;
    info.rule = rule;
    info.dtype_policy = policy;
    return info;
  };
  auto cast = [&](std::string_view name, DType dtype) {
    OpInfo info = op(name, "aten::to", 1, 1, 0, 0, true, C::kElementwise, R::kCast, P::kAny);
    info.cast_to = dtype;
    return info;
  };
  const C kEw = C::kElementwise;
  return {
      // Elementwise, on the device.
      op("abs", "aten::abs", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("add", "aten::add", 1, 2, 0, 1, true, kEw, R::kBinary, P::kAny),
      op("ceil", "aten::ceil", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("clamp", "aten::clamp", 1, 1, 1, 2, true, kEw, R::kClamp, P::kNotBool),
      op("div", "aten::div", 1, 2, 0, 1, true, kEw, R::kBinary, P::kAny),
      op("eq", "aten::eq", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("floor", "aten::floor", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("ge", "aten::ge", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("gt", "aten::gt", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("le", "aten::le", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("log", "aten::log", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatPromote),
      op("logical_not", "aten::logical_not", 1, 1, 0, 0, true, kEw, R::kCompare, P::kAny),
      op("lt", "aten::lt", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("masked_fill", "aten::masked_fill", 2, 2, 1, 1, true, kEw, R::kMaskedFill, P::kAny),
      op("mul", "aten::mul", 1, 2, 0, 1, true, kEw, R::kBinary, P::kAny),
      op("ne", "aten::ne", 1, 2, 0, 1, true, kEw, R::kCompare, P::kAny),
      op("neg", "aten::neg", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("pow", "aten::pow", 1, 2, 0, 1, true, kEw, R::kBinary, P::kAny),
      op("rsqrt", "aten::rsqrt", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatPromote),
      op("sigmoid", "aten::sigmoid", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatPromote),
      op("silu", "aten::silu", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatOnly),
      op("sub", "aten::sub", 1, 2, 0, 1, true, kEw, R::kBinary, P::kAny),
      op("trunc", "aten::trunc", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("where", "aten::where", 3, 3, 0, 0, true, kEw, R::kWhere, P::kAny),
      // Elementwise, CPU fallback.
      op("relu", "aten::relu", 1, 1, 0, 0, true, kEw, R::kUnary, P::kNotBool),
      op("gelu", "aten::gelu", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatOnly),
      op("exp", "aten::exp", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatPromote),
      op("tanh", "aten::tanh", 1, 1, 0, 0, true, kEw, R::kUnary, P::kFloatPromote),
      // A modelling composite (x·cos + rotate_half(x)·sin), not one ATen op.
      op("rotary", "rblnsim::rotary", 3, 3, 0, 0, true, kEw, R::kRotary, P::kFloatOnly),
      cast("to_fp32", DType::kFp32),
      cast("to_fp16", DType::kFp16),
      cast("to_bf16", DType::kBf16),
      // Reductions and softmax along the last dim.
      op("max", "aten::max", 1, 1, 0, 0, false, C::kReduction, R::kReduceLast, P::kAny),
      op("min", "aten::min", 1, 1, 0, 0, false, C::kReduction, R::kReduceLast, P::kAny),
      op("mean", "aten::mean", 1, 1, 0, 0, false, C::kReduction, R::kReduceLast, P::kFloatOnly),
      op("softmax", "aten::softmax", 1, 1, 0, 1, false, C::kSoftmax, R::kKeepLast, P::kFloatOnly),
      op("argmax", "aten::argmax", 1, 1, 0, 0, false, C::kReduction, R::kArgmaxLast, P::kAny),
      op("topk", "aten::topk", 1, 1, 1, 1, false, C::kReduction, R::kTopk, P::kNotBool),
      op("cumsum", "aten::cumsum", 1, 1, 0, 0, false, C::kReduction, R::kKeepLast, P::kAny),
      op("sort", "aten::sort", 1, 1, 0, 0, false, C::kDataMovement, R::kKeepLast, P::kNotBool),
      // Pinned to the CPU fallback by torch-rbln (flip, sum.IntList_out) though common.
      op("flip", "aten::flip", 1, 1, 0, 0, false, C::kDataMovement, R::kKeepLast, P::kAny),
      op("sum", "aten::sum", 1, 1, 0, 0, false, C::kReduction, R::kReduceLast, P::kAny),
      // Matrix products.
      op("mm", "aten::mm", 2, 2, 0, 0, false, C::kMatmul, R::kMm, P::kNotBool),
      op("matmul", "aten::matmul", 2, 2, 0, 0, false, C::kMatmul, R::kMatmul, P::kNotBool),
      op("bmm", "aten::bmm", 2, 2, 0, 0, false, C::kMatmul, R::kBmm, P::kNotBool),
      op("linear", "aten::linear", 2, 3, 0, 0, false, C::kMatmul, R::kLinear, P::kNotBool),
      op("addmm", "aten::addmm", 3, 3, 0, 2, false, C::kMatmul, R::kAddmm, P::kNotBool),
      op("sdpa", "aten::scaled_dot_product_attention", 3, 4, 0, 1, false, C::kMatmul, R::kAttention,
         P::kFloatOnly),
      op("attention", "aten::scaled_dot_product_attention", 3, 4, 0, 1, false, C::kMatmul,
         R::kAttention, P::kFloatOnly),
      // Norms.
      op("rms_norm", "aten::rms_norm", 2, 2, 0, 1, false, C::kNorm, R::kRmsNorm, P::kFloatOnly),
      // Data movement.
      op("embedding", "aten::embedding", 2, 2, 0, 0, false, C::kDataMovement, R::kEmbedding,
         P::kAny),
      op("cat", "aten::cat", 1, 64, 0, 1, false, C::kDataMovement, R::kCat, P::kAny),
      op("transpose", "aten::transpose", 1, 1, 2, 2, false, C::kDataMovement, R::kTranspose,
         P::kAny),
      op("reshape", "aten::reshape", 1, 1, 0, kMaxRank, false, C::kDataMovement, R::kReshape,
         P::kAny),
  };
}

// Host calls torch makes around the catalogue ops, which the host model records as rows or
// charges time to: the .cpu() copy chain, the NaN/Inf scan, allocation, pad/depad around unaligned
// ops, plus the host model's own cost keys (rbln::kernel, rbln::graph, rbln::compile, rbln_run,
// cpu::kernel).
constexpr std::string_view kHostAtenNames[] = {
    // Kernels composite ops reach (AtenCallTreeOf) that are no catalogue op of their own.
    "aten::_softmax",
    "aten::dot",
    "aten::mv",
    "aten::to",
    "aten::_to_copy",
    "aten::copy_",
    "aten::_copy_from",
    "aten::_to_cpu",
    "aten::_copy_from_and_resize",
    "aten::isinf",
    "aten::isnan",
    "aten::abs.out",
    "aten::logical_or",
    "aten::any",
    "aten::item",
    "aten::_local_scalar_dense",
    "aten::empty",
    "aten::empty_strided",
    "aten::resize_",
    "aten::contiguous",
    "aten::clone",
    "aten::view",
    "aten::t",
    "aten::expand",
    "aten::as_strided",
    "aten::unsqueeze",
    "aten::squeeze",
    "aten::pad",
    "aten::slice",
    "aten::fill_",
    "aten::zero_",
    "aten::zeros",
    "aten::ones",
    "aten::randn",
    "aten::normal_",
    "aten::dot",
    "aten::mv",
    "aten::_unsafe_view",
    "aten::result_type",
    "aten::detach",
    "aten::lift_fresh",
    platform::kKernelFrame,
    platform::kGraphFrame,
    platform::kCompileFrame,
    platform::kCAbiLaunchMarker,
    platform::kCpuKernelFrame,
};

}  // namespace

const char* OpClassName(OpClass op_class) {
  switch (op_class) {
    case OpClass::kMatmul:
      return "matmul";
    case OpClass::kElementwise:
      return "elementwise";
    case OpClass::kReduction:
      return "reduction";
    case OpClass::kSoftmax:
      return "softmax";
    case OpClass::kNorm:
      return "norm";
    case OpClass::kDataMovement:
      return "data-movement";
  }
  return "?";
}

int64_t TensorType::NumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (__builtin_mul_overflow(count, dim, &count)) {
      return INT64_MAX;
    }
  }
  return count;
}

int64_t TensorType::Bytes() const {
  int64_t bytes = 0;
  if (__builtin_mul_overflow(NumElements(), DTypeBytes(dtype), &bytes)) {
    return INT64_MAX;
  }
  return bytes;
}

std::string TensorType::ToString() const {
  std::string out = DTypeName(dtype);
  out += '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    out += std::to_string(shape[i]);
  }
  out += ']';
  return out;
}

Status CheckTensorType(const TensorType& type) {
  if (static_cast<int>(type.shape.size()) > kMaxRank) {
    return Status::Error("rank " + std::to_string(type.shape.size()) + " exceeds the limit of " +
                         std::to_string(kMaxRank));
  }
  for (int64_t dim : type.shape) {
    if (dim <= 0) {
      return Status::Error("dimension " + std::to_string(dim) + " must be positive");
    }
  }
  if (type.Bytes() > kMaxTensorBytes) {
    return Status::Error(type.ToString() + " is larger than the 1 TiB tensor limit");
  }
  return Status::Ok();
}

const std::vector<OpInfo>& AllOps() {
  static const std::vector<OpInfo>* const kCatalog = new std::vector<OpInfo>(BuildCatalog());
  return *kCatalog;
}

const OpInfo* FindOp(std::string_view name) {
  // Looked up on every simulated launch: hashed once, not compared name by name.
  static const std::unordered_map<std::string_view, const OpInfo*> kByName = [] {
    std::unordered_map<std::string_view, const OpInfo*> index;
    for (const OpInfo& info : AllOps())
      index.emplace(info.name, &info);  // first one wins
    return index;
  }();
  auto it = kByName.find(name);
  return it == kByName.end() ? nullptr : it->second;
}

StatusOr<const OpInfo*> LookupOp(std::string_view name) {
  if (const OpInfo* info = FindOp(name)) {
    return info;
  }
  std::vector<std::string_view> names;
  for (const OpInfo& info : AllOps()) {
    names.push_back(info.name);
  }
  std::string hint = DidYouMean(name, names);
  // "aten::mm" written where the workload name "mm" belongs.
  if (hint.empty() && name.substr(0, 6) == "aten::") {
    hint = DidYouMean(name.substr(6), names);
  }
  return Status::Error("unknown op '" + Printable(name) + "'" + hint);
}

const std::vector<std::string_view>& KnownAtenNames() {
  static const std::vector<std::string_view>* const kNames = [] {
    auto* names = new std::vector<std::string_view>();
    for (const OpInfo& info : AllOps()) {
      if (std::find(names->begin(), names->end(), info.aten_name) == names->end()) {
        names->push_back(info.aten_name);
      }
    }
    for (std::string_view name : kHostAtenNames) {
      names->push_back(name);
    }
    return names;
  }();
  return *kNames;
}

AtenCallTree AtenCallTreeOf(const OpInfo& op, const std::vector<TensorType>& inputs) {
  AtenCallTree tree{{}, op.aten_name, op.name};
  if (op.rule == OpRule::kKeepLast && op.op_class == OpClass::kSoftmax) {
    tree.frames = {op.aten_name};
    tree.kernel = "aten::_softmax";
    return tree;
  }
  if (op.rule != OpRule::kMatmul || inputs.size() != 2) {
    return tree;
  }
  tree.frames = {op.aten_name};
  const size_t rank_a = inputs[0].shape.size();
  const size_t rank_b = inputs[1].shape.size();
  if (rank_a == 1 && rank_b == 1) {
    tree.kernel = "aten::dot";
  } else if (rank_a == 2 && rank_b == 1) {
    tree.kernel = "aten::mv";
  } else {
    // A batched right operand needs bmm; a batched left operand times a 1-D/2-D right one is
    // folded into a single mm (torch's should_fold, without autograd).
    tree.kernel = rank_b >= 3 ? "aten::bmm" : "aten::mm";
  }
  tree.layer = tree.kernel.substr(tree.kernel.find("::") + 2);
  return tree;
}

}  // namespace rblnsim::scenario
