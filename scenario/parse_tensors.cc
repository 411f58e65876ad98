// workload.tensors: the tensors a workload starts with, and the name rules every tensor follows.
#include <cctype>

#include "scenario/suggest.h"
#include "scenario/workload_checker.h"

namespace rblnsim::scenario {

bool IsIdentifier(std::string_view name) {
  if (name.empty() || name.size() > 64 || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

StatusOr<std::string> ReadTensorName(const YamlNode& node, const std::string& path) {
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view name, ScalarText(node, path, "a tensor name"));
  if (!IsIdentifier(name)) {
    return NodeError(node,
                     "tensor name " + Quoted(name) + " must be an identifier (letters, digits, _)");
  }
  return std::string(name);
}

Status WorkloadChecker::Tensors(const YamlNode* node) {
  if (node == nullptr || node->kind == YamlNode::Kind::kNull) {
    return Status::Ok();
  }
  if (node->kind != YamlNode::Kind::kMap) {
    return NodeError(*node, "workload.tensors: expected a mapping of name to tensor, got a " +
                                std::string(node->KindName()));
  }
  for (const auto& [key, value] : node->entries) {
    const std::string path = "workload.tensors." + Printable(key->scalar);
    if (!IsIdentifier(key->scalar)) {
      return NodeError(*key, "tensor name " + Quoted(key->scalar) +
                                 " must be an identifier (letters, digits, _)");
    }
    if (value->kind != YamlNode::Kind::kMap) {
      return NodeError(*value, path + ": expected {shape: [...], dtype: ...}, got a " +
                                   std::string(value->KindName()));
    }
    RBLNSIM_ASSIGN_OR_RETURN(
        Section s, Section::Open(value.get(), path, {"shape", "dtype", "device", "init"}));
    TensorSpec spec;
    spec.name = key->scalar;
    spec.loc = ToSourceLoc(*key);
    const YamlNode* shape = s.Get("shape");
    if (shape == nullptr) {
      return NodeError(*value, path + " needs a shape, e.g. shape: [512, 512]");
    }
    RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*shape, s.Path("shape")));
    for (size_t i = 0; i < shape->items.size(); ++i) {
      RBLNSIM_ASSIGN_OR_RETURN(
          int64_t dim, ReadIntNode(*shape->items[i],
                                   s.Path("shape") + "[" + std::to_string(i) + "]", AtLeast(1)));
      spec.shape.push_back(dim);
    }
    RBLNSIM_RETURN_IF_ERROR(s.Enum<DType>("dtype",
                                          {{"fp16", DType::kFp16},
                                           {"bf16", DType::kBf16},
                                           {"fp32", DType::kFp32},
                                           {"fp8", DType::kFp8},
                                           {"int64", DType::kInt64},
                                           {"int32", DType::kInt32},
                                           {"bool", DType::kBool}},
                                          &spec.dtype));
    RBLNSIM_RETURN_IF_ERROR(
        s.Enum<std::string>("device", {{"rbln", "rbln"}, {"cpu", "cpu"}}, &spec.device));
    RBLNSIM_RETURN_IF_ERROR(s.Enum<TensorInit>("init",
                                               {{"randn", TensorInit::kRandn},
                                                {"zeros", TensorInit::kZeros},
                                                {"ones", TensorInit::kOnes},
                                                {"nan", TensorInit::kNan},
                                                {"inf", TensorInit::kInf}},
                                               &spec.init));
    const TensorType type{spec.shape, spec.dtype};
    Status status = CheckTensorType(type);
    if (!status.ok()) {
      return NodeError(*shape, s.Path("shape") + ": " + status.message());
    }
    tensors_[spec.name] = TensorState{type, spec.device == "rbln", key.get()};
    workload_->tensors.push_back(std::move(spec));
  }
  return Status::Ok();
}

}  // namespace rblnsim::scenario
