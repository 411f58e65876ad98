#include "profiler/trace/import/event_reader.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/member_names.h"
#include "profiler/trace/import/ondemand_values.h"
#include "profiler/trace/import/plain_event.h"
#include "profiler/trace/import/time_text.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace::import {

namespace {

// Levels in the document simdjson parses for one event (json_scan.h counts the same way).
constexpr size_t kEventFieldLevel = 2;  // a member of the event
constexpr size_t kArgLevel = 3;         // a member of "args"

// simdjson's development checks (on in unoptimised builds) assert that a container's level
// stays below the parser's max_depth; every value the readers walk is at most kMaxJsonDepth
// deep, deeper ones are refused by the walk (ValueCopier) first.
constexpr size_t kParserMaxDepth = kMaxJsonDepth + 1;
// A stream's parser is (re)allocated at simdjson's default depth, which is kMaxJsonDepth:
// ReadStreamEvent refuses one level less.
static_assert(simdjson::DEFAULT_MAX_DEPTH == kMaxJsonDepth);

Status DuplicateName(uint64_t at, std::string_view name, const char* where, uint64_t first) {
  return ErrorAtByte(at, "duplicate key " + Excerpt(name) + " in " + where + " (first at byte " +
                             std::to_string(first) + ")");
}

}  // namespace

void RawEvent::Clear() {
  offset = 0;
  has_ph = has_cat = has_ts = has_dur = quoted_numbers = false;
  ph.clear();
  cat.clear();
  name.clear();
  pid = RowId();
  tid = RowId();
  ts_ns = dur_ns = 0;
  id.reset();
  args.clear();
}

class EventReader::Impl {
 public:
  explicit Impl(int ns_exponent) : ns_exponent_(ns_exponent) {}

  void set_ns_exponent(int ns_exponent) { ns_exponent_ = ns_exponent; }
  const std::shared_ptr<ArgPool>& arg_pool() const { return arg_pool_; }
  void KeepOnlyArgs(std::vector<std::string> keys) {
    keep_args_ = std::move(keys);
    plain_.KeepArgsChanged();
  }
  void set_plain_scan(bool on) { plain_scan_ = on; }

  Status ReadEvent(const TextPiece& piece, RawEvent* event, bool* whole) {
    // Most events are plain (plain_event.h): read straight from their bytes.
    if (plain_scan_ && plain_.Read(piece.data, piece.data + piece.size, piece.offset, ns_exponent_,
                                   arg_pool_.get(), event)) {
      if (whole != nullptr)
        *whole = true;
      return Status::Ok();
    }
    od::document doc;
    RBLNSIM_RETURN_IF_ERROR(Open(piece, &doc));
    RBLNSIM_RETURN_IF_ERROR(ReadEventIn(doc, piece.offset, piece.offset + piece.size, event));
    if (whole != nullptr) {
      // Once every token has been read, simdjson has no location left to give.
      const char* at = nullptr;
      *whole = doc.current_location().get(at) == simdjson::OUT_OF_BOUNDS;
    }
    return Status::Ok();
  }

  void OpenStream(const TextPiece& text, const std::vector<uint64_t>* separators) {
    stretch_ = text;
    separators_ = separators;
    stretch_open_ = true;
    stream_open_ = false;
  }

  bool ReadStreamEvent(uint64_t begin, uint64_t end, uint64_t next, RawEvent* event) {
    if (!stretch_open_ || begin < stretch_.offset || end < begin || next < end ||
        next - stretch_.offset > stretch_.size) {
      return CloseStretch();
    }
    // Most events are plain (plain_event.h): read from their bytes, with no stream at all.
    const char* const data = stretch_.data + (begin - stretch_.offset);
    if (plain_scan_ &&
        plain_.Read(data, data + (end - begin), begin, ns_exponent_, arg_pool_.get(), event)) {
      // A stream opened for an earlier event steps over this one's document unread.
      if (stream_open_) {
        if (StreamAt(begin))
          ++stream_it_;
        else
          stream_open_ = false;
      }
      return true;
    }
    if (!StreamAt(begin) && !StartStream(begin))
      return CloseStretch();
    od::document_reference doc;
    offsets_ = stream_base_;
    const char* at = nullptr;
    // A stream's parser keeps simdjson's default depth (its documents reallocate it so), one
    // level less than the plain read allows: a value that deep is refused here and read on its
    // own, where the limit and its error are the same as everywhere else.
    copier_.set_max_depth(kMaxJsonDepth - 1);
    // The event is the one its own document would give only if it ends where the next one
    // begins: simdjson then had no token left in between.
    const bool read = !(*stream_it_).get(doc) && ReadEventIn(doc, begin, next, event).ok() &&
                      !doc.current_location().get(at) && stream_base_.Of(at) == next;
    copier_.set_max_depth(kMaxJsonDepth);
    if (!read)
      return CloseStretch();
    ++stream_it_;
    return true;
  }

  StatusOr<std::string> ReadCompact(const TextPiece& piece) {
    const uint64_t begin = piece.offset;
    od::document doc;
    RBLNSIM_RETURN_IF_ERROR(Open(piece, &doc));
    od::json_type type;
    if (auto error = doc.type().get(type))
      return ErrorAtByte(begin, InvalidJson(error));
    std::string text;
    if (type == od::json_type::object || type == od::json_type::array) {
      od::value value;
      if (auto error = doc.get_value().get(value))
        return ErrorAtByte(begin, InvalidJson(error));
      RBLNSIM_RETURN_IF_ERROR(copier_.AppendCompact(value, /*level=*/1, offsets_, &text));
      return text;
    }
    // simdjson cannot turn a scalar document into a value, so scalars are checked here.
    std::string_view token;
    if (auto error = doc.raw_json_token().get(token))
      return ErrorAtByte(begin, InvalidJson(error));
    simdjson::error_code error = simdjson::SUCCESS;
    if (type == od::json_type::string) {
      std::string_view s;
      error = doc.get_string().get(s);
      if (!error)
        return JsonQuote(s);
    } else if (type == od::json_type::number) {
      error = doc.get_number().error();
    } else if (type == od::json_type::boolean) {
      error = doc.get_bool().error();
    } else if (TrimRight(token) != "null") {
      error = simdjson::N_ATOM_ERROR;
    }
    if (error)
      return ErrorAtByte(begin, InvalidJson(error));
    return std::string(TrimRight(token));
  }

  StatusOr<std::string> ReadString(const TextPiece& piece) {
    const uint64_t begin = piece.offset;
    od::document doc;
    RBLNSIM_RETURN_IF_ERROR(Open(piece, &doc));
    std::string_view s;
    if (auto error = doc.get_string().get(s)) {
      return ErrorAtByte(
          begin, error == simdjson::INCORRECT_TYPE ? "expected a string" : InvalidJson(error));
    }
    return std::string(s);
  }

  StatusOr<int64_t> ReadInt(const TextPiece& piece) {
    const uint64_t begin = piece.offset;
    od::document doc;
    RBLNSIM_RETURN_IF_ERROR(Open(piece, &doc));
    int64_t value = 0;
    std::string_view s;
    if (!doc.get_int64().get(value))
      return value;
    doc.rewind();
    if (!doc.get_string().get(s) && ParseWhole(s, &value))
      return value;
    return ErrorAtByte(begin, "expected an integer");
  }

 private:
  // One event from |doc| (a document of its own, or one of a stream) spanning [begin, end).
  template <typename Document>
  Status ReadEventIn(Document& doc, uint64_t begin, uint64_t end, RawEvent* event) {
    event->Clear();
    event->offset = begin;
    od::json_type type;
    if (auto error = doc.type().get(type))
      return ErrorAtByte(begin, InvalidJson(error));
    if (type != od::json_type::object) {
      return ErrorAtByte(begin,
                         "trace event is " + std::string(TypeName(type)) + ", not an object");
    }
    od::object object;
    if (auto error = doc.get_object().get(object))
      return ErrorAtByte(begin, InvalidJson(error));
    seen_fields_ = 0;
    other_names_.Clear();
    for (auto field_result : object) {
      od::field field;
      std::string_view key;
      if (auto error = std::move(field_result).get(field))
        return Fail(doc, error, end);
      const uint64_t key_at = KeyOffset(field);
      if (auto error = FieldKey(field, &key))
        return Fail(doc, error, end);
      RBLNSIM_RETURN_IF_ERROR(ReadEventField(key, key_at, field.value(), event));
    }
    return Status::Ok();
  }

  // Whether the open stream's next document begins at byte |begin|.
  bool StreamAt(uint64_t begin) {
    return stream_open_ && stream_it_ != stream_.end() &&
           stream_base_.Of(stream_data_ + stream_it_.current_index()) == begin;
  }

  // A simdjson stream over the stretch from byte |begin| on, for the events the plain read
  // declines. It starts at the first of them, so a stretch of plain events never runs stage 1;
  // once open it reads on, stepping over the plain events between, until it loses step.
  bool StartStream(uint64_t begin) {
    const size_t skip = begin - stretch_.offset;
    const size_t length = stretch_.size - skip;
    stream_open_ = false;
    if (separators_ != nullptr) {
      if (!CopyForStream(begin, length))
        return false;
      stream_data_ = stream_copy_.get();
    } else {
      stream_data_ = stretch_.data + skip;
    }
    stream_base_ = InputOffsets(stream_data_, begin);
    // One batch for the whole text: simdjson then runs stage 1 once, on this thread, and
    // starts no thread of its own to look ahead. The stream (re)allocates its parser for the
    // batch size unless it is the one it had, at simdjson's default depth (deeper than any
    // value the readers accept, kMaxJsonDepth): one size for every stretch keeps it allocated
    // once instead of once per stretch.
    const size_t batch_bytes = std::max(length, kStreamBytes);
    if (stream_parser_.iterate_many(stream_data_, length, batch_bytes).get(stream_))
      return false;
    stream_it_ = stream_.begin();
    stream_open_ = true;
    return StreamAt(begin);
  }

  // The stretch's text from |begin| on, |length| bytes, into stream_copy_ with its separators
  // blanked and simdjson's padding after it: the stream of a text that is only read.
  bool CopyForStream(uint64_t begin, size_t length) {
    const size_t needed = length + simdjson::SIMDJSON_PADDING;
    if (needed > stream_copy_bytes_) {
      stream_copy_.reset(new (std::nothrow) char[needed]);
      stream_copy_bytes_ = stream_copy_ ? needed : 0;
      if (!stream_copy_)
        return false;  // the events are read one by one
    }
    char* const copy = stream_copy_.get();
    std::memcpy(copy, stretch_.data + (begin - stretch_.offset), length);
    std::memset(copy + length, 0, simdjson::SIMDJSON_PADDING);
    for (auto at = std::lower_bound(separators_->begin(), separators_->end(), begin);
         at != separators_->end() && *at < begin + length; ++at) {
      copy[*at - begin] = ' ';
    }
    return true;
  }

  bool CloseStretch() {
    stretch_open_ = false;
    stream_open_ = false;
    return false;
  }

  Status Open(const TextPiece& piece, od::document* doc) {
    offsets_ = InputOffsets(piece.data, piece.offset);
    if (parser_.max_depth() != kParserMaxDepth) {
      // Small: iterate() grows the capacity as pieces need it, keeping this depth.
      if (parser_.allocate(kInitialParserBytes, kParserMaxDepth) != simdjson::SUCCESS)
        return ErrorAtByte(piece.offset, "out of memory while parsing the trace");
    }
    const simdjson::padded_string_view view(piece.data, piece.size, piece.readable);
    if (auto error = parser_.iterate(view).get(*doc))
      return ErrorAtByte(piece.offset, InvalidJson(error));
    return Status::Ok();
  }

  static constexpr size_t kInitialParserBytes = size_t{1} << 16;

  // The offset of a member name's opening quote; before unescaped_key(), which consumes it.
  uint64_t KeyOffset(od::field& field) const { return offsets_.Of(field.key().raw()) - 1; }

  // Where simdjson stopped, for errors in the middle of an event.
  template <typename Document>
  Status Fail(Document& doc, simdjson::error_code error, uint64_t fallback) {
    const char* at = nullptr;
    const uint64_t offset = doc.current_location().get(at) ? fallback : offsets_.Of(at);
    return ErrorAtByte(offset, InvalidJson(error));
  }

  Status TypeError(uint64_t at, std::string_view key, std::string_view wanted, od::json_type t) {
    return ErrorAtByte(at, "\"" + std::string(key) + "\" must be " + std::string(wanted) +
                               ", found " + std::string(TypeName(t)));
  }

  // The members the model reads, one bit each in seen_fields_.
  enum FieldBit : uint32_t { kPh, kCat, kName, kPid, kTid, kTs, kDur, kId, kArgs, kFieldBits };

  // Refuses a second member |bit| (or, for other names, a second equal name) in the event.
  Status Once(std::string_view key, uint64_t key_at, std::optional<FieldBit> bit) {
    std::optional<uint64_t> first;
    if (bit) {
      if ((seen_fields_ >> *bit) & 1)
        first = field_at_[*bit];
      seen_fields_ |= uint32_t{1} << *bit;
      field_at_[*bit] = key_at;
    } else {
      first = other_names_.Add(key, key_at);
    }
    if (first)
      return DuplicateName(key_at, key, "a trace event", *first);
    return Status::Ok();
  }

  // An if-chain on purpose: a switch over the members compiles to an indirect jump that the
  // branch predictor misses about once per member.
  Status ReadEventField(std::string_view key, uint64_t key_at, od::value& value, RawEvent* event) {
    const uint64_t at = offsets_.Where(value);
    od::json_type type;
    if (auto error = value.type().get(type))
      return ErrorAtByte(at, InvalidJson(error));
    auto read_string = [&](std::string* out) -> Status {
      std::string_view s;
      if (type != od::json_type::string)
        return TypeError(at, key, "a string", type);
      if (auto error = value.get_string().get(s))
        return ErrorAtByte(at, InvalidJson(error));
      out->assign(s);
      return Status::Ok();
    };
    if (key == "ph") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kPh));
      event->has_ph = true;
      return read_string(&event->ph);
    }
    if (key == "cat") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kCat));
      event->has_cat = true;
      return read_string(&event->cat);
    }
    if (key == "name") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kName));
      return read_string(&event->name);
    }
    if (key == "pid") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kPid));
      return ReadRowId(key, value, type, at, &event->pid, &event->quoted_numbers);
    }
    if (key == "tid") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kTid));
      return ReadRowId(key, value, type, at, &event->tid, &event->quoted_numbers);
    }
    if (key == "ts") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kTs));
      event->has_ts = true;
      return ReadTime(key, value, type, at, &event->ts_ns, &event->quoted_numbers);
    }
    if (key == "dur") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kDur));
      event->has_dur = true;
      return ReadTime(key, value, type, at, &event->dur_ns, &event->quoted_numbers);
    }
    if (key == "id") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kId));
      return ReadFlowId(value, type, at, &event->id);
    }
    if (key == "args") {
      RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, kArgs));
      return ReadArgs(value, type, at, &event->args);
    }
    RBLNSIM_RETURN_IF_ERROR(Once(key, key_at, std::nullopt));
    // Other keys ("s", "bp", ...) carry nothing the model keeps, but simdjson would skip them
    // unread, so they are validated here: malformed input must not pass silently.
    return copier_.AppendCompact(value, kEventFieldLevel, offsets_, nullptr);
  }

  Status ReadRowId(std::string_view key,
                   od::value& value,
                   od::json_type type,
                   uint64_t at,
                   RowId* out,
                   bool* quoted) {
    out->present = true;
    std::string_view text;
    if (type == od::json_type::number) {
      text = TrimRight(value.raw_json_token());
      // Kineto's pids and tids: plain integers, valid as they stand.
      if (const std::optional<int64_t> plain = ShortPlainInteger(text)) {
        out->is_int = true;
        out->value = *plain;
        return Status::Ok();
      }
      if (auto error = value.get_number().error())
        return ErrorAtByte(at, InvalidJson(error));
    } else if (type == od::json_type::string) {
      if (auto error = value.get_string().get(text))
        return ErrorAtByte(at, InvalidJson(error));
    } else {
      return TypeError(at, key, "a number or a string", type);
    }
    out->is_int = ParseWhole(text, &out->value);
    if (!out->is_int)
      out->text.assign(text);
    else if (type == od::json_type::string)
      *quoted = true;
    return Status::Ok();
  }

  Status ReadTime(std::string_view key,
                  od::value& value,
                  od::json_type type,
                  uint64_t at,
                  int64_t* out_ns,
                  bool* quoted) {
    std::string_view text;
    if (type == od::json_type::number) {
      text = TrimRight(value.raw_json_token());
    } else if (type == od::json_type::string) {
      // Some exporters quote times; the text inside follows the same number syntax.
      if (auto error = value.get_string().get(text))
        return ErrorAtByte(at, InvalidJson(error));
      *quoted = true;
    } else {
      return TypeError(at, key, "a number", type);
    }
    const std::optional<int64_t> ns = DecimalTextToNs(text, ns_exponent_);
    if (!ns) {
      return ErrorAtByte(at,
                         "\"" + std::string(key) + "\" is not a time in range: " + Excerpt(text));
    }
    *out_ns = *ns;
    return Status::Ok();
  }

  // Lenient: only flows use "id", and they report a missing one themselves.
  Status ReadFlowId(od::value& value,
                    od::json_type type,
                    uint64_t at,
                    std::optional<uint64_t>* out) {
    std::string_view text;
    if (type == od::json_type::number) {
      text = TrimRight(value.raw_json_token());
      if (const std::optional<int64_t> plain = ShortPlainInteger(text)) {
        if (text[0] != '-')  // "-0" is no id either
          *out = static_cast<uint64_t>(*plain);
        return Status::Ok();
      }
      if (auto error = value.get_number().error())
        return ErrorAtByte(at, InvalidJson(error));
    } else if (type == od::json_type::string) {
      if (auto error = value.get_string().get(text))
        return ErrorAtByte(at, InvalidJson(error));
    } else {
      // Not an id, but it must still be JSON.
      return copier_.AppendCompact(value, kEventFieldLevel, offsets_, nullptr);
    }
    uint64_t id = 0;
    if (ParseWhole(text, &id))
      *out = id;
    return Status::Ok();
  }

  Status ReadArgs(od::value& value, od::json_type type, uint64_t at, ArgList* args) {
    if (type == od::json_type::null)
      return Status::Ok();
    if (type != od::json_type::object)
      return TypeError(at, "args", "an object", type);
    od::object object;
    if (auto error = value.get_object().get(object))
      return ErrorAtByte(at, InvalidJson(error));
    args->clear();
    arg_builder_.Clear();  // an error in the last event may have left part of its args
    arg_names_.Clear();
    for (auto field_result : object) {
      od::field field;
      std::string_view key;
      if (auto error = std::move(field_result).get(field))
        return ErrorAtByte(at, InvalidJson(error));
      const uint64_t key_at = KeyOffset(field);
      if (auto error = FieldKey(field, &key))
        return ErrorAtByte(at, InvalidJson(error));
      // Checked whatever args the caller keeps, so that a trace reads the same in every command.
      if (const std::optional<uint64_t> first = arg_names_.Add(key, key_at))
        return DuplicateName(key_at, key, "\"args\"", *first);
      if (!keep_args_.empty() &&
          std::find(keep_args_.begin(), keep_args_.end(), key) == keep_args_.end()) {
        RBLNSIM_RETURN_IF_ERROR(copier_.AppendCompact(field.value(), kArgLevel, offsets_, nullptr));
        continue;
      }
      RBLNSIM_RETURN_IF_ERROR(
          copier_.ReadArgValue(field.value(), kArgLevel, offsets_, key, &arg_builder_));
    }
    *args = arg_builder_.Build(arg_pool_.get());
    return Status::Ok();
  }

  int ns_exponent_;
  InputOffsets offsets_;
  std::vector<std::string> keep_args_;  // empty: all
  od::parser parser_;
  // The stream of OpenStream, in a parser of its own: the documents above may be read between.
  od::parser stream_parser_;
  od::document_stream stream_;
  od::document_stream::iterator stream_it_;
  InputOffsets stream_base_;
  const char* stream_data_ = nullptr;
  bool stream_open_ = false;
  TextPiece stretch_;  // OpenStream's text: its events are read plainly, or by the stream
  const std::vector<uint64_t>* separators_ = nullptr;  // OpenStream's, for a text only read
  std::unique_ptr<char[]> stream_copy_;                // the stream's copy of such a text
  size_t stream_copy_bytes_ = 0;
  bool stretch_open_ = false;
  ValueCopier copier_;
  uint32_t seen_fields_ = 0;            // FieldBits of the event being read
  uint64_t field_at_[kFieldBits] = {};  // where each was written
  MemberNames other_names_;             // the event's other member names
  MemberNames arg_names_;               // of its "args"
  ArgListBuilder arg_builder_;          // reused: an event's args go to the pool as one block
  std::shared_ptr<ArgPool> arg_pool_ = std::make_shared<ArgPool>();
  PlainEventReader plain_{&keep_args_};
  bool plain_scan_ = true;
};

EventReader::EventReader(int ns_exponent) : impl_(std::make_unique<Impl>(ns_exponent)) {}
EventReader::~EventReader() = default;

std::shared_ptr<const ArgPool> EventReader::arg_pool() const {
  return impl_->arg_pool();
}

void EventReader::set_ns_exponent(int ns_exponent) {
  impl_->set_ns_exponent(ns_exponent);
}

void EventReader::KeepOnlyArgs(std::vector<std::string> keys) {
  impl_->KeepOnlyArgs(std::move(keys));
}

void EventReader::set_plain_scan(bool on) {
  impl_->set_plain_scan(on);
}

Status EventReader::ReadEvent(const TextPiece& piece, RawEvent* event, bool* whole) {
  return impl_->ReadEvent(piece, event, whole);
}
void EventReader::OpenStream(const TextPiece& text, const std::vector<uint64_t>* separators) {
  impl_->OpenStream(text, separators);
}
bool EventReader::ReadStreamEvent(uint64_t begin, uint64_t end, uint64_t next, RawEvent* event) {
  return impl_->ReadStreamEvent(begin, end, next, event);
}
StatusOr<std::string> EventReader::ReadCompact(const TextPiece& piece) {
  return impl_->ReadCompact(piece);
}
StatusOr<std::string> EventReader::ReadString(const TextPiece& piece) {
  return impl_->ReadString(piece);
}
StatusOr<int64_t> EventReader::ReadInt(const TextPiece& piece) {
  return impl_->ReadInt(piece);
}

}  // namespace rblnsim::trace::import
