// Matrix products and attention: contraction checks and torch.matmul's batching rules.
#include "scenario/op_infer_internal.h"

namespace rblnsim::scenario::infer_internal {
namespace {

std::string Dims(int64_t a, int64_t b) {
  return std::to_string(a) + " vs " + std::to_string(b);
}

// torch.matmul: 1-D operands are promoted to matrices and the added dim is dropped afterwards;
// batch dims broadcast.
StatusOr<TensorType> Matmul(const Call& call, DType dtype) {
  Shape a = call.in[0].shape;
  Shape b = call.in[1].shape;
  if (a.empty() || b.empty()) {
    return call.Mismatch("both operands need at least one dimension");
  }
  const bool a_vector = a.size() == 1;
  const bool b_vector = b.size() == 1;
  if (a_vector) {
    a.insert(a.begin(), 1);
  }
  if (b_vector) {
    b.push_back(1);
  }
  const int64_t k_a = a.back();
  const int64_t k_b = b[b.size() - 2];
  if (k_a != k_b) {
    return call.Mismatch("inner dimensions differ (" + Dims(k_a, k_b) + ")");
  }
  Shape batch;
  if (!Broadcast(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2), &batch)) {
    return call.Mismatch("batch dimensions do not broadcast");
  }
  Shape out = batch;
  if (!a_vector) {
    out.push_back(a[a.size() - 2]);
  }
  if (!b_vector) {
    out.push_back(b.back());
  }
  return TensorType{out, dtype};
}

StatusOr<TensorType> Attention(const Call& call, DType dtype) {
  const Shape& q = call.in[0].shape;
  const Shape& k = call.in[1].shape;
  const Shape& v = call.in[2].shape;
  if (q.size() < 2 || k.size() != q.size() || v.size() != q.size()) {
    return call.Mismatch("q, k and v must have the same rank, at least 2 ([..., L, E])");
  }
  const size_t r = q.size();
  if (q[r - 1] != k[r - 1]) {
    return call.Mismatch("q and k head dims differ (" + Dims(q[r - 1], k[r - 1]) + ")");
  }
  if (k[r - 2] != v[r - 2]) {
    return call.Mismatch("k and v lengths differ (" + Dims(k[r - 2], v[r - 2]) + ")");
  }
  Shape batch;
  if (!Broadcast(Shape(q.begin(), q.end() - 2), Shape(k.begin(), k.end() - 2), &batch) ||
      !Broadcast(batch, Shape(v.begin(), v.end() - 2), &batch)) {
    return call.Mismatch("batch dimensions do not broadcast");
  }
  Shape out = batch;
  out.push_back(q[r - 2]);
  out.push_back(v[r - 1]);
  if (call.in.size() == 4) {
    const TensorType& mask = call.in[3];
    if (mask.dtype != DType::kBool && mask.dtype != dtype) {
      return call.Mismatch("the mask must be bool or q's dtype");
    }
    Shape scores = batch;
    scores.push_back(q[r - 2]);
    scores.push_back(k[r - 2]);
    Shape merged;
    if (!Broadcast(scores, mask.shape, &merged) || merged != scores) {
      return call.Mismatch("the mask must broadcast to [..., L, S]");
    }
  }
  return TensorType{out, dtype};
}

}  // namespace

StatusOr<TensorType> InferMatrix(const Call& call) {
  const std::vector<TensorType>& in = call.in;
  // Matrix products do not promote: torch rejects mixed dtypes. An attention mask may be bool.
  const size_t typed = call.op.rule == OpRule::kAttention ? 3 : in.size();
  for (size_t i = 1; i < typed; ++i) {
    if (in[i].dtype != in[0].dtype) {
      return call.Mismatch("dtypes differ; cast with to_fp16, to_bf16 or to_fp32 first");
    }
  }
  RBLNSIM_ASSIGN_OR_RETURN(DType dtype, ApplyPolicy(call, in[0].dtype));
  switch (call.op.rule) {
    case OpRule::kMm:
    case OpRule::kAddmm: {
      const size_t a = call.op.rule == OpRule::kAddmm ? 1 : 0;
      const Shape& x = in[a].shape;
      const Shape& y = in[a + 1].shape;
      if (x.size() != 2 || y.size() != 2) {
        return call.Mismatch("operands must be 2-D");
      }
      if (x[1] != y[0]) {
        return call.Mismatch("inner dimensions differ (" + Dims(x[1], y[0]) + ")");
      }
      const Shape out{x[0], y[1]};
      if (a == 1) {
        Shape merged;
        if (!Broadcast(out, in[0].shape, &merged) || merged != out) {
          return call.Mismatch("the bias (input 1) must broadcast to the product's shape");
        }
      }
      return TensorType{out, dtype};
    }
    case OpRule::kBmm: {
      const Shape& x = in[0].shape;
      const Shape& y = in[1].shape;
      if (x.size() != 3 || y.size() != 3) {
        return call.Mismatch("operands must be 3-D");
      }
      if (x[0] != y[0]) {
        return call.Mismatch("batch sizes differ (" + Dims(x[0], y[0]) + ")");
      }
      if (x[2] != y[1]) {
        return call.Mismatch("inner dimensions differ (" + Dims(x[2], y[1]) + ")");
      }
      return TensorType{{x[0], x[1], y[2]}, dtype};
    }
    case OpRule::kMatmul:
      return Matmul(call, dtype);
    case OpRule::kLinear: {
      const Shape& x = in[0].shape;
      const Shape& w = in[1].shape;
      if (x.empty()) {
        return call.Mismatch("x needs at least one dimension");
      }
      if (w.size() != 2) {
        return call.Mismatch("weight must be 2-D [out, in]");
      }
      if (x.back() != w[1]) {
        return call.Mismatch("x's last dim does not match weight's in (" + Dims(x.back(), w[1]) +
                             ")");
      }
      if (in.size() == 3 && in[2].shape != Shape{w[0]}) {
        return call.Mismatch("bias must be 1-D with weight's out");
      }
      Shape out(x.begin(), x.end() - 1);
      out.push_back(w[0]);
      return TensorType{out, dtype};
    }
    case OpRule::kAttention:
      return Attention(call, dtype);
    default:
      break;
  }
  return call.Error("internal: not a matrix rule");
}

}  // namespace rblnsim::scenario::infer_internal
