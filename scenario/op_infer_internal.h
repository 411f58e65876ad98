// Shared pieces of InferOutput, split across op_infer.cc (elementwise), op_infer_matrix.cc (matrix
// products and attention) and op_infer_layout.cc (the rest). Not part of the public API.
#ifndef RBLNSIM_SCENARIO_OP_INFER_INTERNAL_H_
#define RBLNSIM_SCENARIO_OP_INFER_INTERNAL_H_

#include <string>
#include <vector>

#include "scenario/op_catalog.h"

namespace rblnsim::scenario::infer_internal {

using Shape = std::vector<int64_t>;

// One InferOutput call: the op, its operands, and error helpers that name the op.
struct Call {
  const OpInfo& op;
  const std::vector<TensorType>& in;
  const std::vector<double>& sc;

  Status Error(const std::string& message) const;
  // Error plus the input types, for shape and dtype mistakes.
  Status Mismatch(const std::string& message) const;
};

bool IsFloat(DType dtype);
// Right-aligned broadcasting; false when some pair of dims is neither equal nor 1.
bool Broadcast(const Shape& a, const Shape& b, Shape* out);
StatusOr<Shape> BroadcastAll(const Call& call, const std::vector<Shape>& shapes);
// torch's result_type for two tensors.
StatusOr<DType> Promote(const Call& call, const TensorType& a, const TensorType& b);
// The op's DTypePolicy applied to one dtype.
StatusOr<DType> ApplyPolicy(const Call& call, DType dtype);
// `dim` (negative counts from the end) as an index into a shape of `rank`.
StatusOr<size_t> Dim(const Call& call, int64_t dim, size_t rank);
// Scalar `index` as an integer; `what` names it in the error.
StatusOr<int64_t> ScalarInt(const Call& call, size_t index, const char* what);

// mm, matmul, bmm, linear, addmm, sdpa/attention (op_infer_matrix.cc).
StatusOr<TensorType> InferMatrix(const Call& call);
// Last-dim ops, norms, embedding, cat, transpose, reshape (op_infer_layout.cc).
StatusOr<TensorType> InferOther(const Call& call);

}  // namespace rblnsim::scenario::infer_internal

#endif  // RBLNSIM_SCENARIO_OP_INFER_INTERNAL_H_
