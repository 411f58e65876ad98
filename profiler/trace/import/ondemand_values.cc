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
  // A failed allocation is the machine's limit, not the file's fault: say so.
  if (error == simdjson::MEMALLOC)
    return std::string("out of memory while parsing (") + simdjson::error_message(error) + ")";
  return std::string("invalid JSON (") + simdjson::error_message(error) + ")";
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && IsJsonWhitespace(text.back()))
    text.remove_suffix(1);
  return text;
}

namespace {

bool IsShortPlainInteger(std::string_view token) {
  return ShortPlainInteger(token).has_value();
}

// A string, number, boolean or null: validated, and appended to |out| when set.
Status AppendScalar(od::value& value, od::json_type type, uint64_t at, std::string* out) {
  simdjson::error_code error = simdjson::SUCCESS;
  if (type == od::json_type::string) {
    std::string_view s;
    if (!(error = value.get_string().get(s)) && out != nullptr)
      AppendJsonQuoted(out, s);
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

}  // namespace

Status ValueCopier::ReadArgValue(od::value& value,
                                 size_t level,
                                 const InputOffsets& offsets,
                                 std::string_view key,
                                 ArgListBuilder* out) {
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
        out->Add(key, number.get_int64());
      } else if (number.is_uint64()) {
        out->Add(key, RawJsonView{token});  // above INT64_MAX: keep the digits exactly
      } else {
        out->Add(key, number.get_double());
      }
      break;
    }
    case od::json_type::string: {
      std::string_view s;
      if (!(error = value.get_string().get(s)))
        out->Add(key, s);
      break;
    }
    case od::json_type::boolean: {
      bool b = false;
      if (!(error = value.get_bool().get(b)))
        out->Add(key, b);
      break;
    }
    case od::json_type::null:
    case od::json_type::object:
    case od::json_type::array: {
      compact_.clear();
      RBLNSIM_RETURN_IF_ERROR(AppendCompact(value, level, offsets, &compact_));
      out->Add(key, RawJsonView{compact_});
      break;
    }
  }
  if (error)
    return ErrorAtByte(at, InvalidJson(error));
  return Status::Ok();
}

Status ValueCopier::Open(od::value& value, od::json_type type, uint64_t at, std::string* out) {
  Frame& frame = stack_.emplace_back();
  frame.is_object = type == od::json_type::object;
  frame.fresh = true;
  frame.at = at;
  simdjson::error_code error = simdjson::SUCCESS;
  if (frame.is_object) {
    od::object object;
    if ((error = value.get_object().get(object)))
      return ErrorAtByte(at, InvalidJson(error));
    frame.field = object.begin();
    frame.fields_end = object.end();
  } else {
    od::array array;
    if ((error = value.get_array().get(array)))
      return ErrorAtByte(at, InvalidJson(error));
    frame.element = array.begin();
    frame.elements_end = array.end();
  }
  if (out != nullptr)
    out->push_back(frame.is_object ? '{' : '[');
  return Status::Ok();
}

Status ValueCopier::AppendCompact(od::value& root,
                                  size_t level,
                                  const InputOffsets& offsets,
                                  std::string* out) {
  stack_.clear();
  od::value* current = &root;
  // The member or element being visited; a container's own iterators live in its frame, so
  // these are overwritten as soon as it is open.
  od::field field;
  od::value element;
  while (true) {
    const uint64_t at = offsets.Where(*current);
    od::json_type type;
    if (auto error = current->type().get(type))
      return ErrorAtByte(at, InvalidJson(error));
    if (type == od::json_type::object || type == od::json_type::array) {
      if (level + stack_.size() > max_depth_)
        return ErrorAtByte(at, NestingTooDeep());
      RBLNSIM_RETURN_IF_ERROR(Open(*current, type, at, out));
    } else {
      RBLNSIM_RETURN_IF_ERROR(AppendScalar(*current, type, at, out));
    }
    // The next value to visit: the next member of the innermost open container, closing the
    // containers that have none left.
    current = nullptr;
    while (current == nullptr && !stack_.empty()) {
      Frame& frame = stack_.back();
      simdjson::error_code error = simdjson::SUCCESS;
      if (frame.is_object) {
        if (!frame.fresh)
          ++frame.field;
        if (frame.field != frame.fields_end) {
          std::string_view key;
          if ((error = (*frame.field).get(field)) || (error = FieldKey(field, &key)))
            return ErrorAtByte(frame.at, InvalidJson(error));
          if (out != nullptr) {
            if (!frame.fresh)
              out->push_back(',');
            AppendJsonQuoted(out, key);
            out->push_back(':');
          }
          current = &field.value();
        }
      } else {
        if (!frame.fresh)
          ++frame.element;
        if (frame.element != frame.elements_end) {
          if ((error = (*frame.element).get(element)))
            return ErrorAtByte(frame.at, InvalidJson(error));
          if (out != nullptr && !frame.fresh)
            out->push_back(',');
          current = &element;
        }
      }
      if (current != nullptr) {
        frame.fresh = false;
      } else {
        if (out != nullptr)
          out->push_back(frame.is_object ? '}' : ']');
        stack_.pop_back();
      }
    }
    if (current == nullptr)
      return Status::Ok();
  }
}

}  // namespace rblnsim::trace::import
