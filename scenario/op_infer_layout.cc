// InferOutput for ops along the last dim (reductions, softmax, scans, topk), norms, embedding and
// layout changes (cat, transpose, reshape).
#include <utility>

#include "scenario/op_infer_internal.h"

namespace rblnsim::scenario::infer_internal {

// Ops along the last dim, norms, embedding and layout changes.
StatusOr<TensorType> InferOther(const Call& call) {
  const std::vector<TensorType>& in = call.in;
  TensorType out = in[0];
  const size_t rank = out.shape.size();
  switch (call.op.rule) {
    case OpRule::kReduceLast:
    case OpRule::kArgmaxLast:
    case OpRule::kKeepLast:
    case OpRule::kTopk: {
      if (rank == 0) {
        return call.Mismatch("needs at least one dimension");
      }
      RBLNSIM_ASSIGN_OR_RETURN(out.dtype, ApplyPolicy(call, out.dtype));
      if (call.op.rule == OpRule::kKeepLast) {
        // softmax(x, dim): only the last dim is modelled.
        if (!call.sc.empty()) {
          RBLNSIM_ASSIGN_OR_RETURN(int64_t dim, ScalarInt(call, 0, "dim"));
          RBLNSIM_ASSIGN_OR_RETURN(size_t index, Dim(call, dim, rank));
          if (index != rank - 1) {
            return call.Error("only the last dim (-1) is supported");
          }
        }
        if (call.op.name == "cumsum" && !IsFloat(out.dtype)) {
          out.dtype = DType::kInt64;
        }
        return out;
      }
      if (call.op.rule == OpRule::kTopk) {
        RBLNSIM_ASSIGN_OR_RETURN(int64_t k, ScalarInt(call, 0, "k"));
        if (k < 1 || k > out.shape.back()) {
          return call.Mismatch("k=" + std::to_string(k) + " must be in [1, last dim]");
        }
        out.shape.back() = k;
        return out;
      }
      out.shape.pop_back();
      if (call.op.rule == OpRule::kArgmaxLast) {
        out.dtype = DType::kInt64;
      }
      return out;
    }
    case OpRule::kRmsNorm: {
      RBLNSIM_ASSIGN_OR_RETURN(out.dtype, ApplyPolicy(call, out.dtype));
      RBLNSIM_RETURN_IF_ERROR(ApplyPolicy(call, in[1].dtype).status());
      if (rank == 0 || in[1].shape != Shape{out.shape.back()}) {
        return call.Mismatch("weight must be 1-D with x's last dim");
      }
      return out;
    }
    case OpRule::kEmbedding: {
      if (in[0].shape.size() != 2) {
        return call.Mismatch("weight (input 1) must be 2-D [V, D]");
      }
      if (in[1].dtype != DType::kInt64) {
        return call.Mismatch("indices (input 2) must be int64");
      }
      out.shape = in[1].shape;
      out.shape.push_back(in[0].shape[1]);
      return out;
    }
    case OpRule::kCat: {
      int64_t dim = 0;
      if (!call.sc.empty()) {
        RBLNSIM_ASSIGN_OR_RETURN(dim, ScalarInt(call, 0, "dim"));
      }
      RBLNSIM_ASSIGN_OR_RETURN(size_t index, Dim(call, dim, rank));
      for (size_t i = 1; i < in.size(); ++i) {
        const Shape& shape = in[i].shape;
        bool same = shape.size() == rank;
        for (size_t d = 0; same && d < rank; ++d) {
          same = d == index || shape[d] == out.shape[d];
        }
        if (!same) {
          return call.Mismatch("sizes must match except along dim " + std::to_string(dim));
        }
        out.shape[index] += shape[index];
        RBLNSIM_ASSIGN_OR_RETURN(out.dtype, Promote(call, out, in[i]));
      }
      return out;
    }
    case OpRule::kTranspose: {
      RBLNSIM_ASSIGN_OR_RETURN(int64_t d0, ScalarInt(call, 0, "dim0"));
      RBLNSIM_ASSIGN_OR_RETURN(int64_t d1, ScalarInt(call, 1, "dim1"));
      RBLNSIM_ASSIGN_OR_RETURN(size_t i0, Dim(call, d0, rank));
      RBLNSIM_ASSIGN_OR_RETURN(size_t i1, Dim(call, d1, rank));
      std::swap(out.shape[i0], out.shape[i1]);
      return out;
    }
    case OpRule::kReshape: {
      Shape shape;
      int inferred = -1;
      int64_t known = 1;
      for (size_t i = 0; i < call.sc.size(); ++i) {
        RBLNSIM_ASSIGN_OR_RETURN(int64_t dim, ScalarInt(call, i, "a reshape size"));
        if (dim == -1 && inferred < 0) {
          inferred = static_cast<int>(i);
        } else if (dim < 1) {
          return call.Error("reshape sizes must be positive, with at most one -1");
        } else if (__builtin_mul_overflow(known, dim, &known)) {
          return call.Error("reshape sizes overflow");
        }
        shape.push_back(dim);
      }
      const int64_t count = in[0].NumElements();
      const bool divisible = count % known == 0;
      if (inferred >= 0 && divisible) {
        shape[inferred] = count / known;
      }
      if (!divisible || TensorType{shape, out.dtype}.NumElements() != count) {
        return call.Mismatch("cannot reshape " + std::to_string(count) + " elements to the " +
                             "requested sizes");
      }
      out.shape = std::move(shape);
      return out;
    }
    default:
      break;
  }
  return call.Error("internal: unhandled rule");
}

}  // namespace rblnsim::scenario::infer_internal
