#include "profiler/trace/import/ondemand_values.h"

#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace::import {

std::string_view TypeName(od::json_type type) {
  switch (type) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "an unknown value";
}

std::string InvalidJson(simdjson::error_code error) {
  return std::string("invalid JSON (") + simdjson::error_message(error) + ")";
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && IsJsonWhitespace(text.back()))
    text.remove_suffix(1);
  return text;
}

// Quotes a piece of input for an error message: at most 40 bytes, printable ASCII only.
std::string Excerpt(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < 40; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    out += (u >= 0x20 && u < 0x7f && u != '"') ? text[i] : '?';
  }
  return out + (text.size() > 40 ? "...\"" : "\"");
}

namespace {

// "-"? ("0" | [1-9][0-9]{0,17}): valid JSON that fits in int64.
bool IsShortPlainInteger(std::string_view token) {
  if (!token.empty() && token[0] == '-')
    token.remove_prefix(1);
  if (token.empty() || token.size() > 18 || (token[0] == '0' && token.size() > 1))
    return false;
  for (char c : token) {
    if (c < '0' || c > '9')
      return false;
  }
  return true;
}

}  // namespace

Status ReadArgValue(od::value& value, const InputOffsets& offsets, ArgValue* out) {
  const uint64_t at = offsets.Where(value);
  od::json_type type;
  if (auto error = value.type().get(type))
    return ErrorAtByte(at, InvalidJson(error));
  simdjson::error_code error = simdjson::SUCCESS;
  switch (type) {
    case od::json_type::number: {
      const std::string_view token = TrimRight(value.raw_json_token());
      od::number number;
      if ((error = value.get_number().get(number)))
        break;
      if (number.is_int64()) {
        *out = number.get_int64();
      } else if (number.is_uint64()) {
        *out = RawJson{std::string(token)};  // above INT64_MAX: keep the digits exactly
      } else {
        *out = number.get_double();
      }
      break;
    }
    case od::json_type::string: {
      std::string_view s;
      if (!(error = value.get_string().get(s)))
        *out = std::string(s);
      break;
    }
    case od::json_type::boolean: {
      bool b = false;
      if (!(error = value.get_bool().get(b)))
        *out = b;
      break;
    }
    case od::json_type::null:
    case od::json_type::object:
    case od::json_type::array: {
      std::string text;
      RBLNSIM_RETURN_IF_ERROR(AppendCompactJson(value, offsets, &text));
      *out = RawJson{std::move(text)};
      break;
    }
  }
  if (error)
    return ErrorAtByte(at, InvalidJson(error));
  return Status::Ok();
}

Status AppendCompactJson(od::value& value, const InputOffsets& offsets, std::string* out) {
  const uint64_t at = offsets.Where(value);
  od::json_type type;
  if (auto error = value.type().get(type))
    return ErrorAtByte(at, InvalidJson(error));
  simdjson::error_code error = simdjson::SUCCESS;
  if (type == od::json_type::object) {
    od::object object;
    if ((error = value.get_object().get(object)))
      return ErrorAtByte(at, InvalidJson(error));
    if (out != nullptr)
      out->push_back('{');
    bool first = true;
    for (auto field_result : object) {
      od::field field;
      std::string_view key;
      if ((error = std::move(field_result).get(field)) || (error = field.unescaped_key().get(key)))
        break;
      if (out != nullptr) {
        if (!first)
          out->push_back(',');
        out->append(JsonQuote(key)).push_back(':');
      }
      first = false;
      RBLNSIM_RETURN_IF_ERROR(AppendCompactJson(field.value(), offsets, out));
    }
    if (out != nullptr)
      out->push_back('}');
  } else if (type == od::json_type::array) {
    od::array array;
    if ((error = value.get_array().get(array)))
      return ErrorAtByte(at, InvalidJson(error));
    if (out != nullptr)
      out->push_back('[');
    bool first = true;
    for (auto element_result : array) {
      od::value element;
      if ((error = std::move(element_result).get(element)))
        break;
      if (out != nullptr && !first)
        out->push_back(',');
      first = false;
      RBLNSIM_RETURN_IF_ERROR(AppendCompactJson(element, offsets, out));
    }
    if (out != nullptr)
      out->push_back(']');
  } else if (type == od::json_type::string) {
    std::string_view s;
    if (!(error = value.get_string().get(s)) && out != nullptr)
      out->append(JsonQuote(s));
  } else {
    const std::string_view token = TrimRight(value.raw_json_token());
    if (type == od::json_type::number) {
      // Only validating: a short plain integer cannot fail, so simdjson need not parse it
      // (the args a caller drops are mostly such ids and counters).
      if (out != nullptr || !IsShortPlainInteger(token))
        error = value.get_number().error();
    } else if (type == od::json_type::boolean) {
      error = value.get_bool().error();
    } else if (token != "null") {
      error = simdjson::N_ATOM_ERROR;
    }
    if (out != nullptr)
      out->append(token);
  }
  if (error)
    return ErrorAtByte(at, InvalidJson(error));
  return Status::Ok();
}

}  // namespace rblnsim::trace::import
