#include "scenario/scenario.h"

namespace rblnsim::scenario {

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFp16:
      return "fp16";
    case DType::kBf16:
      return "bf16";
    case DType::kFp32:
      return "fp32";
    case DType::kFp8:
      return "fp8";
    case DType::kInt64:
      return "int64";
    case DType::kInt32:
      return "int32";
    case DType::kBool:
      return "bool";
  }
  return "?";
}

int64_t DTypeBytes(DType dtype) {
  switch (dtype) {
    case DType::kFp8:
    case DType::kBool:
      return 1;
    case DType::kFp16:
    case DType::kBf16:
      return 2;
    case DType::kFp32:
    case DType::kInt32:
      return 4;
    case DType::kInt64:
      return 8;
  }
  return 1;
}

bool Step::Typed() const {
  switch (kind) {
    case Kind::kOp:
      return types.inputs.size() == inputs.size();
    case Kind::kGraph:
      return !graph_types.empty();
    case Kind::kCpu:
    case Kind::kSynchronize:
    case Kind::kRepeat:
      return true;
  }
  return false;
}

}  // namespace rblnsim::scenario
