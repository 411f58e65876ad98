// InferOutput: torch's shape and dtype rules for the catalogue ops, close enough that a workload
// the loader accepts would also run in eager PyTorch.
#include <algorithm>
#include <cmath>

#include "scenario/op_catalog.h"
#include "scenario/op_infer_internal.h"
#include "scenario/units.h"

namespace rblnsim::scenario {
namespace infer_internal {
namespace {

// bool < integer < floating point: the categories of torch's type promotion.
int Category(DType dtype) {
  return dtype == DType::kBool ? 0 : (dtype == DType::kInt64 || dtype == DType::kInt32) ? 1 : 2;
}

std::string Join(const std::vector<TensorType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    out += (i ? ", " : "") + types[i].ToString();
  }
  return out;
}

}  // namespace

Status Call::Error(const std::string& message) const {
  return Status::Error(std::string(op.name) + ": " + message);
}

Status Call::Mismatch(const std::string& message) const {
  return Error(message + " (inputs " + Join(in) + ")");
}

bool IsFloat(DType dtype) {
  return dtype != DType::kInt64 && dtype != DType::kInt32 && dtype != DType::kBool;
}

bool Broadcast(const Shape& a, const Shape& b, Shape* out) {
  const size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) {
      return false;
    }
    result[rank - 1 - i] = da == 1 ? db : da;
  }
  *out = std::move(result);
  return true;
}

StatusOr<Shape> BroadcastAll(const Call& call, const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& shape : shapes) {
    if (!Broadcast(out, shape, &out)) {
      return call.Mismatch("shapes do not broadcast");
    }
  }
  return out;
}

StatusOr<DType> Promote(const Call& call, const TensorType& a, const TensorType& b) {
  if (a.dtype == b.dtype) {
    return a.dtype;
  }
  if (Category(a.dtype) != Category(b.dtype)) {
    return Category(a.dtype) > Category(b.dtype) ? a.dtype : b.dtype;
  }
  // Within a category a 0-dim tensor does not widen a dimensioned one.
  if (a.shape.empty() != b.shape.empty()) {
    return a.shape.empty() ? b.dtype : a.dtype;
  }
  if (Category(a.dtype) == 1)
    return DType::kInt64;  // int32 with int64
  if (a.dtype == DType::kFp8 || b.dtype == DType::kFp8) {
    return call.Mismatch("fp8 does not promote with other dtypes; cast first");
  }
  return DType::kFp32;  // fp16 with bf16, or either with fp32
}

StatusOr<DType> ApplyPolicy(const Call& call, DType dtype) {
  switch (call.op.dtype_policy) {
    case DTypePolicy::kAny:
      return dtype;
    case DTypePolicy::kNotBool:
      if (dtype == DType::kBool) {
        return call.Mismatch("bool tensors are not supported");
      }
      return dtype;
    case DTypePolicy::kFloatPromote:
      return IsFloat(dtype) ? dtype : DType::kFp32;
    case DTypePolicy::kFloatOnly:
      if (!IsFloat(dtype)) {
        return call.Mismatch("needs floating-point tensors");
      }
      return dtype;
  }
  return dtype;
}

StatusOr<size_t> Dim(const Call& call, int64_t dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (r == 0 || dim < -r || dim >= r) {
    return call.Error("dim " + std::to_string(dim) + " is out of range for rank " +
                      std::to_string(r));
  }
  return static_cast<size_t>(dim < 0 ? dim + r : dim);
}

StatusOr<int64_t> ScalarInt(const Call& call, size_t index, const char* what) {
  const double value = call.sc[index];
  if (value != std::nearbyint(value) || std::fabs(value) > 1e15) {
    return call.Error(std::string(what) + " must be an integer, got " + FormatNumber(value));
  }
  return static_cast<int64_t>(value);
}

namespace {

StatusOr<TensorType> InferElementwise(const Call& call) {
  const std::vector<TensorType>& in = call.in;
  const std::vector<double>& sc = call.sc;
  TensorType out = in[0];
  switch (call.op.rule) {
    case OpRule::kUnary:
    case OpRule::kClamp: {
      RBLNSIM_ASSIGN_OR_RETURN(out.dtype, ApplyPolicy(call, out.dtype));
      return out;
    }
    case OpRule::kCast:
      out.dtype = call.op.cast_to;
      return out;
    case OpRule::kBinary:
    case OpRule::kCompare: {
      if (call.op.max_inputs == 1) {
        return TensorType{out.shape, DType::kBool};  // logical_not
      }
      const bool alpha = call.op.name == "add" || call.op.name == "sub";
      if (in.size() == 1 && sc.size() != 1) {
        return call.Error("needs a second operand: another input or one scalar");
      }
      if (in.size() == 2 && sc.size() > (alpha ? 1u : 0u)) {
        return call.Error(alpha ? "takes at most one scalar (alpha) with two inputs"
                                : "takes no scalar with two inputs");
      }
      DType dtype = out.dtype;
      if (in.size() == 2) {
        RBLNSIM_ASSIGN_OR_RETURN(out.shape, BroadcastAll(call, {in[0].shape, in[1].shape}));
        RBLNSIM_ASSIGN_OR_RETURN(dtype, Promote(call, in[0], in[1]));
      } else if (!IsFloat(dtype) && sc[0] != std::nearbyint(sc[0])) {
        dtype = DType::kFp32;  // an integer tensor with a fractional scalar
      } else if (dtype == DType::kBool) {
        dtype = DType::kInt64;  // bool arithmetic with an integer scalar
      }
      if (call.op.rule == OpRule::kCompare) {
        return TensorType{out.shape, DType::kBool};
      }
      if (call.op.name == "div" && !IsFloat(dtype)) {
        dtype = DType::kFp32;  // true division
      }
      RBLNSIM_ASSIGN_OR_RETURN(out.dtype, ApplyPolicy(call, dtype));
      return out;
    }
    case OpRule::kMaskedFill: {
      if (in[1].dtype != DType::kBool) {
        return call.Mismatch("the mask (input 2) must be bool");
      }
      RBLNSIM_ASSIGN_OR_RETURN(Shape shape, BroadcastAll(call, {in[0].shape, in[1].shape}));
      if (shape != in[0].shape) {
        return call.Mismatch("the mask must broadcast to the input");
      }
      return out;
    }
    case OpRule::kWhere: {
      if (in[0].dtype != DType::kBool) {
        return call.Mismatch("the condition (input 1) must be bool");
      }
      RBLNSIM_ASSIGN_OR_RETURN(out.shape,
                               BroadcastAll(call, {in[0].shape, in[1].shape, in[2].shape}));
      RBLNSIM_ASSIGN_OR_RETURN(out.dtype, Promote(call, in[1], in[2]));
      return out;
    }
    case OpRule::kRotary: {
      if (out.shape.empty() || out.shape.back() % 2 != 0) {
        return call.Mismatch("x needs an even last dim to rotate pairs");
      }
      for (const TensorType& type : in) {
        RBLNSIM_RETURN_IF_ERROR(ApplyPolicy(call, type.dtype).status());
      }
      for (size_t i = 1; i < 3; ++i) {
        RBLNSIM_ASSIGN_OR_RETURN(Shape shape, BroadcastAll(call, {out.shape, in[i].shape}));
        if (shape != out.shape) {
          return call.Mismatch("cos and sin must broadcast to x");
        }
      }
      return out;
    }
    default:
      break;
  }
  return call.Error("internal: not an elementwise rule");
}

}  // namespace
}  // namespace infer_internal

StatusOr<TensorType> InferOutput(const OpInfo& op,
                                 const std::vector<TensorType>& inputs,
                                 const std::vector<double>& scalars) {
  using namespace infer_internal;  // NOLINT(build/namespaces)
  const Call call{op, inputs, scalars};
  const int num_inputs = static_cast<int>(inputs.size());
  const int num_scalars = static_cast<int>(scalars.size());
  auto range = [](int lo, int hi) {
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  };
  if (num_inputs < op.min_inputs || num_inputs > op.max_inputs) {
    return call.Error("takes " + range(op.min_inputs, op.max_inputs) + " input tensor(s), got " +
                      std::to_string(num_inputs));
  }
  if (num_scalars < op.min_scalars || num_scalars > op.max_scalars) {
    return call.Error("takes " + range(op.min_scalars, op.max_scalars) + " scalar(s), got " +
                      std::to_string(num_scalars));
  }
  for (const TensorType& type : inputs) {
    Status status = CheckTensorType(type);
    if (!status.ok()) {
      return call.Error(status.message());
    }
  }
  StatusOr<TensorType> result = op.op_class == OpClass::kMatmul        ? InferMatrix(call)
                                : op.op_class == OpClass::kElementwise ? InferElementwise(call)
                                                                       : InferOther(call);
  if (!result.ok()) {
    return result;
  }
  Status status = CheckTensorType(*result);
  if (!status.ok()) {
    return call.Error("result " + status.message());
  }
  return result;
}

StatusOr<TensorType> InferOutput(std::string_view op_name,
                                 const std::vector<TensorType>& inputs,
                                 const std::vector<double>& scalars) {
  RBLNSIM_ASSIGN_OR_RETURN(const OpInfo* op, LookupOp(op_name));
  return InferOutput(*op, inputs, scalars);
}

}  // namespace rblnsim::scenario
