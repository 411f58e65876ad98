#include "profiler/analysis/input_args.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace rblnsim::analysis {

namespace {

// torch-rbln's verified eager ops (docs: rbln_pytorch/supported_ops.html); nn.linear is
// aten::linear, and matmul reaches the device through mm/bmm.
// A cursor over compact JSON text; tolerant of spaces, strict about structure.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : s_(text) {}
  void Ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool Eat(char c) {
    Ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Peek(char c) {
    Ws();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool Int(int64_t* out) {
    Ws();
    auto [ptr, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), *out);
    if (ec != std::errc())
      return false;
    i_ = static_cast<size_t>(ptr - s_.data());
    return true;
  }
  bool String(std::string* out) {
    if (!Eat('"'))
      return false;
    for (; i_ < s_.size() && s_[i_] != '"'; ++i_) {
      if (s_[i_] == '\\' && i_ + 1 < s_.size())
        ++i_;  // type names never need escapes
      out->push_back(s_[i_]);
    }
    return Eat('"');
  }
  // Skips one value (number, string, literal or nested container).
  bool Skip() {
    Ws();
    int depth = 0;
    bool in_string = false;
    for (; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      if (in_string) {
        if (c == '\\')
          ++i_;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"')
        in_string = true;
      else if (c == '[' || c == '{')
        ++depth;
      else if (c == ']' || c == '}') {
        if (depth == 0)
          return true;
        if (--depth == 0) {
          ++i_;
          return true;
        }
      } else if (c == ',' && depth == 0) {
        return true;
      }
    }
    return depth == 0;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

// [[4, 100], [], [[2, 3], [2, 3]], null] -> one OpInput per element.
bool ParseDims(std::string_view text, std::vector<OpInput>* out) {
  Cursor c(text);
  if (!c.Eat('['))
    return false;
  if (c.Eat(']'))
    return true;
  do {
    OpInput& in = out->emplace_back();
    if (!c.Peek('[')) {
      in.nested = true;
      if (!c.Skip())
        return false;
      continue;
    }
    c.Eat('[');
    if (c.Eat(']'))
      continue;
    if (c.Peek('[')) {
      in.nested = true;
      do {
        if (!c.Skip())
          return false;
      } while (c.Eat(','));
      if (!c.Eat(']'))
        return false;
      continue;
    }
    do {
      int64_t dim = 0;
      if (!c.Int(&dim))
        return false;
      in.dims.push_back(dim);
    } while (c.Eat(','));
    if (!c.Eat(']'))
      return false;
  } while (c.Eat(','));
  return c.Eat(']');
}

bool ParseTypes(std::string_view text, std::vector<std::string>* out) {
  Cursor c(text);
  if (!c.Eat('['))
    return false;
  if (c.Eat(']'))
    return true;
  do {
    std::string& type = out->emplace_back();
    if (!c.Peek('"')) {
      if (!c.Skip())
        return false;  // null or a nested list: no type
      continue;
    }
    if (!c.String(&type))
      return false;
  } while (c.Eat(','));
  return c.Eat(']');
}

std::optional<std::string_view> ArgText(const trace::Event& event, std::string_view key) {
  const std::optional<trace::ArgView> arg = event.FindArg(key);
  if (!arg)
    return std::nullopt;
  if (const auto* raw = std::get_if<trace::RawJsonView>(&arg->value))
    return raw->text;
  if (const auto* str = std::get_if<std::string_view>(&arg->value))
    return *str;  // JSON as a string
  return std::nullopt;
}

bool IsHalfType(std::string_view type) {
  return type == "c10::Half" || type == "c10::BFloat16" || type == "Half" || type == "BFloat16";
}

}  // namespace

bool OpInput::IsTensor(bool types_known) const {
  if (nested)
    return false;
  if (!types_known)
    return !dims.empty();  // an empty entry may be a scalar argument
  return !type.empty() && type != "Scalar" && type != "ScalarList" && type != "TensorList" &&
         type != "GenericList";
}

std::optional<std::vector<OpInput>> ReadOpInputs(const trace::Event& event) {
  const std::optional<std::string_view> dims = ArgText(event, kInputDimsArg);
  if (!dims)
    return std::nullopt;
  std::vector<OpInput> inputs;
  if (!ParseDims(*dims, &inputs))
    return std::nullopt;
  if (const std::optional<std::string_view> types = ArgText(event, kInputTypeArg)) {
    std::vector<std::string> names;
    if (ParseTypes(*types, &names)) {
      for (size_t i = 0; i < inputs.size() && i < names.size(); ++i)
        inputs[i].type = names[i];
    }
  }
  return inputs;
}

std::string_view BaseOpName(std::string_view name) {
  name = name.substr(0, name.find('.'));
  if (name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_')
    name.remove_suffix(1);
  return name;
}

bool IsDeviceSupportedOp(std::string_view aten_name) {
  return platform::IsDeviceSupportedOp(BaseOpName(aten_name));
}

bool IsElementwiseOp(std::string_view aten_name) {
  return platform::IsDeviceElementwiseOp(BaseOpName(aten_name));
}

FallbackCause InferCause(std::string_view aten_name,
                         const std::optional<std::vector<OpInput>>& inputs) {
  // An op with no device kernel reaches torch-rbln's boxed fallback whatever its inputs: the
  // catch-all, or the registration that pins it there by name.
  if (!IsDeviceSupportedOp(aten_name)) {
    return platform::IsExplicitFallbackBase(BaseOpName(aten_name)) ? FallbackCause::kExplicitOp
                                                                   : FallbackCause::kUnsupportedOp;
  }
  bool types_known = false;
  int64_t last_dim = 0;  // of the broadcast output: the largest input last dim
  if (inputs) {
    for (const OpInput& in : *inputs)
      types_known |= !in.type.empty();
    size_t tensors = 0;
    size_t scalars = 0;
    for (const OpInput& in : *inputs) {
      if (!in.IsTensor(types_known))
        continue;
      ++tensors;
      if (in.dims.empty())
        ++scalars;
      if (!in.dims.empty())
        last_dim = std::max(last_dim, in.dims.back());
      if (types_known && !IsHalfType(in.type) &&
          !(in.type == "bool" && platform::TakesBoolMask(BaseOpName(aten_name)))) {
        return FallbackCause::kDtype;
      }
    }
    if (types_known && tensors > 0 && scalars == tensors)
      return FallbackCause::kAllScalar;
  }
  if (IsElementwiseOp(aten_name) && last_dim > 0 && last_dim % 64 != 0) {
    return FallbackCause::kUnaligned;
  }
  return FallbackCause::kUnknown;
}

}  // namespace rblnsim::analysis
