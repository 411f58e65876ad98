#include "tests/fuzz/kineto_export_decoder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

namespace rblnsim::fuzz {

namespace {

// Strings a producer plausibly sends and the ones that stress the consumer: the marker and
// launch_id names the bridge looks for, the arg keys it adds itself (so annotations collide),
// raw values that are and are not JSON, and broken UTF-8.
constexpr std::array<std::string_view, kDictionarySize> kDictionary = {
    "",
    "rbln_run",
    "launch_id",
    "i1_0_W0_mm_0",
    "i1_0_W0_args_0_0",
    "kernel",
    "Neural Engine",
    "categories",
    "1",
    "2",
    "-1",
    "0",
    "9223372036854775807",
    "18446744073709551616",
    "1e400",
    "-0.0",
    "{\"a\": [1, 2.5, null]}",
    "[1, 2",
    "{",
    "nan",
    "true",
    "null",
    "\"quoted\"",
    "01",
    "1.",
    "\xff\xfe",
    "\xc3\x28",
    "\xed\xa0\x80",
    "a\"b\\c\n\t\x01",
    "device",
    "stream",
    "correlation",
};

constexpr uint64_t kClockMask = (uint64_t{1} << 62) - 1;
constexpr int64_t kNsPerUs = 1000;

const char* DecodeString(FuzzBytes* in, DecodedSession* session) {
  const uint8_t s = in->U8();
  if (s == 0)
    return nullptr;
  if (s <= kDictionarySize)
    return session->strings.emplace_back(kDictionary[s - 1]).c_str();
  return session->strings.emplace_back(in->Bytes(s - kDictionarySize - 1)).c_str();
}

struct ArrayHeader {
  bool null = false;
  uint32_t claimed = 0;    // the count the export will carry
  uint32_t allocated = 0;  // elements to build: the claim, capped (none for a null array)
};

ArrayHeader DecodeArrayHeader(FuzzBytes* in, uint32_t cap) {
  const uint8_t h = in->U8();
  ArrayHeader header;
  header.null = (h & 0x40) != 0;
  header.claimed = (h & 0x80) != 0 ? in->U32() : h & 0x3F;
  if (header.null)
    return header;  // a null array with any count: the ABI's one allowed lie, read as empty
  // Anything above the cap is cut to the cap, so the count never exceeds what was allocated.
  header.claimed = std::min(header.claimed, cap);
  header.allocated = header.claimed;
  return header;
}

// The pointer an array of |header| exposes: null, or valid storage (a non-null pointer even for
// an empty array, as a producer using std::vector::data() might pass).
template <typename T>
const T* ArrayPointer(const ArrayHeader& header, const std::vector<T>& storage) {
  static const T kEmpty{};
  if (header.null)
    return nullptr;
  return storage.empty() ? &kEmpty : storage.data();
}

void DecodeSlice(FuzzBytes* in, DecodedSession* session, RblnKinetoSlice* slice) {
  slice->device_pid = in->I32();
  slice->resource_tid = in->I32();
  slice->name = DecodeString(in, session);

  const ArrayHeader categories = DecodeArrayHeader(in, kMaxSliceItems);
  std::vector<const char*>& names = session->categories.emplace_back();
  for (uint32_t i = 0; i < categories.allocated; ++i)
    names.push_back(DecodeString(in, session));
  slice->categories = ArrayPointer(categories, names);
  slice->categories_count = categories.claimed;

  if (in->U8() % 2 == 0) {
    slice->start_steady_ns = session->steady_anchor_ns + in->I32();
    slice->end_steady_ns = slice->start_steady_ns + in->I32();
  } else {
    slice->start_steady_ns = in->I64();
    slice->end_steady_ns = in->I64();
  }

  const ArrayHeader annotations = DecodeArrayHeader(in, kMaxSliceItems);
  std::vector<RblnKinetoAnnotation>& items = session->annotations.emplace_back();
  for (uint32_t i = 0; i < annotations.allocated; ++i) {
    RblnKinetoAnnotation annotation = {};
    annotation.name = DecodeString(in, session);
    annotation.value = DecodeString(in, session);
    const uint8_t q = in->U8();
    annotation.value_is_quoted = q <= 1 ? q : in->I32();
    items.push_back(annotation);
  }
  slice->annotations = ArrayPointer(annotations, items);
  slice->annotations_count = annotations.claimed;

  slice->corr_id = in->I64();
  // The enum field gets the raw bits: a C producer can store any int there.
  const int32_t kind = in->I32();
  std::memcpy(&slice->kind, &kind, sizeof(kind));
}

}  // namespace

void DecodeSession(FuzzBytes* in, DecodedSession* session) {
  const uint8_t flags = in->U8();
  session->sink_mode = static_cast<SinkMode>(flags & 0x07);
  session->active_value = (flags & 0x08) != 0 ? 2 : 1;
  session->has_stats = (flags & 0x10) != 0;
  session->stats_fail = (flags & 0x20) != 0;
  if ((flags & 0x40) != 0) {
    // Real clocks, so kept below 2^62: the bridge may subtract and add them freely.
    session->steady_anchor_ns = static_cast<int64_t>(in->U64() & kClockMask);
    session->system_anchor_ns = static_cast<int64_t>(in->U64() & kClockMask);
    session->capture_start_ns = session->system_anchor_ns + int64_t{in->I32()} * kNsPerUs;
    session->capture_end_ns = session->capture_start_ns + int64_t{in->I32()} * kNsPerUs;
  }
  if (session->has_stats) {
    session->stats.records_captured = in->U64();
    session->stats.records_dropped = in->U64();
    session->stats.launches = in->U64();
    session->stats.commands_timed_out = in->U64();
  }

  const ArrayHeader devices = DecodeArrayHeader(in, kMaxRows);
  for (uint32_t i = 0; i < devices.allocated; ++i) {
    RblnKinetoDevice device = {};
    device.pid = in->I32();
    device.name = DecodeString(in, session);
    session->devices.push_back(device);
  }
  const ArrayHeader lanes = DecodeArrayHeader(in, kMaxRows);
  for (uint32_t i = 0; i < lanes.allocated; ++i) {
    RblnKinetoLane lane = {};
    lane.device_pid = in->I32();
    lane.resource_tid = in->I32();
    lane.name = DecodeString(in, session);
    session->lanes.push_back(lane);
  }
  const ArrayHeader slices = DecodeArrayHeader(in, kMaxSlices);
  session->slices.resize(slices.allocated);
  for (RblnKinetoSlice& slice : session->slices)
    DecodeSlice(in, session, &slice);

  session->view.devices = ArrayPointer(devices, session->devices);
  session->view.devices_count = devices.claimed;
  session->view.lanes = ArrayPointer(lanes, session->lanes);
  session->view.lanes_count = lanes.claimed;
  session->view.slices = ArrayPointer(slices, session->slices);
  session->view.slices_count = slices.claimed;
}

}  // namespace rblnsim::fuzz
